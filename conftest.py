"""Repository-level pytest settings: doctests of modules whose optional library is absent
are not collected (the tests of those modules skip on their own)."""

import importlib.util

collect_ignore = ["setup.py", "docs/conf.py", "examples", "benchmarks"]
_OPTIONAL = {
    "bleusuite/backends/cupy.py": "cupy",
    "bleusuite/backends/jax.py": "jax",
    "bleusuite/backends/torch.py": "torch",
    "bleusuite/counting_numba.py": "numba",
    "bleusuite/ignite_inputs.py": "torch",
    "bleusuite/losses": "torch",
    "bleusuite/metrics.py": "ignite",
}
for path, module in _OPTIONAL.items():
    if importlib.util.find_spec(module) is None:
        collect_ignore.append(path)

# the backend fixture (`pipeline`) for every test file
pytest_plugins = ["backend_fixtures"]
