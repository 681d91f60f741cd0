"""Repository-level pytest settings: doctests of modules whose optional library is absent
are not collected (the tests of those modules skip on their own)."""

import importlib.util

collect_ignore = ["setup.py", "docs/conf.py", "examples", "benchmarks"]
_OPTIONAL = {
    "bleusuite/backends/cupy.py": "cupy",
    "bleusuite/backends/jax.py": "jax",
    "bleusuite/backends/torch.py": "torch",
    "bleusuite/losses": "torch",
    "bleusuite/metrics": "ignite",
    "bleusuite/ray": "ray",
    "bleusuite/torchmetrics.py": "torchmetrics",
}
for path, module in _OPTIONAL.items():
    if importlib.util.find_spec(module) is None:
        collect_ignore.append(path)

# the backend fixture (`pipeline`) for every test file, and the monkeypatch whose changes of
# the environment reach bleusuite (tests and benchmarks alike)
pytest_plugins = ["backend_fixtures", "environment_patch"]
