"""Repository-level pytest settings: doctests of modules whose optional library is absent
are not collected (the tests of those modules skip on their own); Hypothesis draws the
same cases every run (the ``ci`` profile)."""

import importlib.util
import os

import pytest

collect_ignore = ["setup.py", "docs/conf.py", "examples", "benchmarks"]
_OPTIONAL = {
    "bleusuite/backends/cupy.py": "cupy",
    "bleusuite/backends/jax.py": "jax",
    "bleusuite/backends/torch.py": "torch",
    "bleusuite/counting/triton_kernels.py": "triton",
    "bleusuite/losses": "torch",
    "bleusuite/metrics": "ignite",
    "bleusuite/ray": "ray",
    "bleusuite/torchmetrics": "torchmetrics",
}
for path, module in _OPTIONAL.items():
    if importlib.util.find_spec(module) is None:
        collect_ignore.append(path)

# the backend fixture (`pipeline`) for every test file, and the monkeypatch whose changes of
# the environment reach bleusuite (tests and benchmarks alike)
pytest_plugins = ["backend_fixtures", "environment_patch"]

# Hypothesis: every run tries the same cases (CI's runs agree; a failure reproduces), by a
# profile loaded before any test module builds its @settings (which inherit from it).
# BLEUSUITE_HYPOTHESIS_PROFILE=explore (or pytest's --hypothesis-profile=explore) draws new
# random cases each run and keeps failures in .hypothesis/ (docs/architecture.md, "Tests").
try:
    from hypothesis import settings as _hypothesis_settings
except ImportError:  # the tests that use it skip
    _hypothesis_settings = None  # type: ignore[assignment]
PROFILE_VARIABLE = "BLEUSUITE_HYPOTHESIS_PROFILE"
if _hypothesis_settings is not None:
    _hypothesis_settings.register_profile("ci", derandomize=True, database=None,
                                          deadline=None, print_blob=True)
    _hypothesis_settings.register_profile("explore", derandomize=False, deadline=None)
    _hypothesis_settings.load_profile(os.environ.get(PROFILE_VARIABLE, "ci"))


def pytest_runtest_setup(item):
    """Under the derandomised profile, fail a Hypothesis test whose own settings draw at
    random (``derandomize=False``, or settings made before the profile was loaded)."""
    own = getattr(getattr(item, "obj", None), "_hypothesis_internal_use_settings", None)
    if (_hypothesis_settings is not None and own is not None and not own.derandomize
            and _hypothesis_settings.default.derandomize):
        pytest.fail(f"{item.nodeid}: its Hypothesis settings are not derandomised, so CI "
                    "would try other cases each run; drop derandomize=False (random "
                    f"exploration: {PROFILE_VARIABLE}=explore)", pytrace=False)
