"""Backend lookup: the array library (whose primitives, :class:`Backend`, the pipeline and
every formula are written against) is chosen from the type of the input arrays, among the
libraries already in ``sys.modules`` (none is imported). CPU torch tensors are scored
through zero-copy NumPy views (faster than torch's CPU kernels), unless
:func:`use_numpy_for_torch_cpu` says otherwise.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from bleusuite.backends.base import Backend

__all__ = [
    "BACKEND_NAMES",
    "Backend",
    "available_backends",
    "backend_name",
    "containers",
    "get_backend",
    "register_container",
    "torch_cpu_via_numpy",
    "use_numpy_for_torch_cpu",
]

# None: not set in this context, the default (True) holds
_VIA_NUMPY: ContextVar[bool | None] = ContextVar("bleusuite_torch_cpu_via_numpy", default=None)


@contextmanager
def use_numpy_for_torch_cpu(enabled: bool) -> Iterator[None]:
    """Within the block, score CPU torch tensors through NumPy views (``True``, the default)
    or with torch's own CPU kernels (``False``: the code path CUDA tensors take), in the
    current thread or asyncio task only (a :class:`contextvars.ContextVar`). Results are the
    same either way.

    >>> with use_numpy_for_torch_cpu(False):
    ...     torch_cpu_via_numpy()
    False
    >>> torch_cpu_via_numpy()
    True
    """
    if not isinstance(enabled, bool):
        raise TypeError(f"enabled must be True or False; got {enabled!r}")
    token = _VIA_NUMPY.set(enabled)
    try:
        yield
    finally:
        _VIA_NUMPY.reset(token)


def torch_cpu_via_numpy() -> bool:
    """Whether CPU torch tensors are scored through NumPy views here (see
    :func:`use_numpy_for_torch_cpu`)."""
    enabled = _VIA_NUMPY.get()
    return True if enabled is None else enabled


#: Names of every backend bleusuite knows, in lookup order.
BACKEND_NAMES: tuple[str, ...] = ("numpy", "torch", "cupy", "jax")

_cache: dict[type, str | None] = {}
#: Python's own containers and scalars, remembered as no array at their first lookup
_NOT_ARRAYS = frozenset({list, tuple, str, bytes, int, float, bool, type(None), dict})


def _load(name: str) -> Backend:
    # import statements, not importlib: torch.compile traces them (no graph break)
    if name == "numpy":
        from bleusuite.backends import numpy as module
    elif name == "torch":
        from bleusuite.backends import torch as module  # type: ignore[no-redef]
    elif name == "cupy":
        from bleusuite.backends import cupy as module  # type: ignore[no-redef]
    elif name == "jax":
        from bleusuite.backends import jax as module  # type: ignore[no-redef]
    else:
        raise ValueError(f"unknown backend {name!r}; known: {', '.join(BACKEND_NAMES)}")
    backend: Backend = module.backend
    return backend


def backend_name(obj: object) -> str | None:
    """The name of the backend that handles ``obj``, or ``None`` if ``obj`` is not an array.

    >>> import numpy as np
    >>> backend_name(np.zeros(3))
    'numpy'
    >>> backend_name([1, 2, 3]) is None
    True
    """
    cls = type(obj)
    try:
        return _cache[cls]
    except KeyError:
        pass
    for name in BACKEND_NAMES:  # each backend is named after its array library's module
        if name not in sys.modules:
            continue
        if _load(name).is_array(obj):
            _cache[cls] = name
            return name
    if cls in _NOT_ARRAYS:
        # a type that is no array now never becomes one (an array library's types exist
        # only once it is imported)
        _cache[cls] = None
    return None


def get_backend(*arrays: Any) -> Backend:
    """The backend of the given arrays (all of one library; objects that are not arrays
    are ignored; with no array at all, NumPy's).

    >>> import numpy as np
    >>> get_backend(np.zeros((2, 3), dtype=np.int64)).name
    'numpy'

    Raises:
        TypeError: if the arrays belong to different array libraries.
    """
    found: dict[str, str] = {}
    for position, obj in enumerate(arrays):
        name = backend_name(obj)
        if name is not None:
            found.setdefault(name, f"argument {position} ({type(obj).__module__}."
                                   f"{type(obj).__name__})")
    if len(found) > 1:
        described = ", ".join(f"{name} from {where}" for name, where in found.items())
        raise TypeError(
            f"all arrays in one call must come from the same array library; got {described}"
        )
    name = next(iter(found), "numpy")
    return _load(name)


def available_backends() -> list[str]:
    """Names of the backends whose array library can be imported here (imported to check).

    >>> "numpy" in available_backends()
    True
    """
    names = []
    for name in BACKEND_NAMES:
        try:
            importlib.import_module(name)
        except Exception:  # an import that fails in any way means "not available"
            continue
        names.append(name)
    return names


#: the dataclasses of arrays registered by :func:`register_container`, and their meta fields
_CONTAINERS: list[tuple[type, tuple[str, ...]]] = []


def containers() -> list[tuple[type, tuple[str, ...]]]:
    return list(_CONTAINERS)


def register_container(cls: type, meta_fields: tuple[str, ...] = ()) -> None:
    """Tell the backends that trace programs (JAX) that ``cls``, a dataclass, holds arrays
    in its fields (but ``meta_fields``), so that this layer knows no type of those above."""
    _CONTAINERS.append((cls, tuple(meta_fields)))  # for a JAX backend loaded later
    jax_backend = sys.modules.get("bleusuite.backends.jax")
    if jax_backend is not None:
        jax_backend.register_container(cls, tuple(meta_fields))
