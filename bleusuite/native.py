"""bleusuite's optional compiled part, ``bleusuite._native`` (``bleusuite/csrc/``), built by
``pip install`` where a C compiler is at hand. It holds the inner loops of every CPU path,
each with a Python or NumPy twin that gives the same results where it is not built:
``Numbering`` (lines to token ids; twin :class:`bleusuite.text.PythonNumbering`),
``count_matches`` (clipped n-gram matches; twin :mod:`bleusuite.counting.compact`) and
``libm_map`` (the C library's ``log`` / ``exp``, which ``math`` calls; twin ``math``).

:func:`compiled` says whether a process uses it: ``BLEUSUITE_NATIVE=0`` turns it off,
``BLEUSUITE_NATIVE=1`` requires it (an ``ImportError`` where it is not built).

>>> from bleusuite.native import compiled
>>> compiled() in (True, False)
True
"""

from __future__ import annotations

import importlib
from types import ModuleType

from bleusuite import environment

__all__ = ["built", "compiled", "module"]

_native: ModuleType | None
try:
    _native = importlib.import_module("bleusuite._native")
except ImportError:  # pragma: no cover - depends on the build
    _native = None


def compiled() -> bool:
    """Whether the compiled part is built and not turned off (``BLEUSUITE_NATIVE``).

    Raises:
        ValueError: ``BLEUSUITE_NATIVE`` is set to something else than 0 or 1.
        ImportError: ``BLEUSUITE_NATIVE=1`` and the compiled part is not built.
    """
    setting = environment.current().native
    if setting == "1" and _native is None:
        raise ImportError(
            "BLEUSUITE_NATIVE=1 needs bleusuite's compiled part (bleusuite._native), which "
            "this install lacks: reinstall bleusuite where a C compiler is available"
        )
    return _native is not None and setting != "0"


def module() -> ModuleType | None:
    """``bleusuite._native`` where :func:`compiled`, else None."""
    return _native if compiled() else None


def built() -> ModuleType | None:
    """``bleusuite._native`` where it is built, even if turned off (for its types)."""
    return _native
