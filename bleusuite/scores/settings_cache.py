"""The cache of the metrics' settings (``BleuSettings.of``, ...): the same keyword arguments
give the same checked object, so a repeated call pays for no check.

A plain dictionary, not ``functools.lru_cache``, which ``torch.compile`` cannot see into
and which told an unhashable argument apart by a ``TypeError``'s text. Only plain values
are kept (None, bool, int, float, str, NumPy scalars, tuples of them; their types are part
of the key, ``1`` and ``True`` being equal); any other builds the settings uncached, and so
does a call while ``torch.compile`` traces (Dynamo traces no dictionary of objects, nor
torch 2.11 the ``hash()`` of a tuple).

>>> cache = SettingsCache(lambda order, smooth: (order, smooth), maxsize=4)
>>> cache.get(4, "exp") is cache.get(4, "exp"), cache.get(1, "exp") == cache.get(True, "exp")
(True, True)
>>> len(cache), cache.get([4], "exp")  # a list is not kept
(3, ([4], 'exp'))
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import numpy as np

__all__ = ["SettingsCache"]

T = TypeVar("T")

#: the types whose values are kept as they are in a key (equal values hash alike)
_PLAIN = (type(None), bool, int, float, str)
_PLAIN_KINDS = frozenset(_PLAIN)


def _key_of(value: Any) -> Any:
    """One argument's part of a key, or ``_UNCACHED``."""
    kind = type(value)
    if kind in _PLAIN or isinstance(value, np.bool_ | np.integer | np.floating):
        return (kind, value)
    if kind is tuple:
        parts = tuple(_key_of(part) for part in value)
        return _UNCACHED if any(part is _UNCACHED for part in parts) else (tuple, parts)
    return _UNCACHED


#: the marker of an argument that is not kept
_UNCACHED: Any = object()


class SettingsCache(Generic[T]):
    """Up to ``maxsize`` objects ``build(*arguments)``, one per distinct arguments (the
    cache starts again when full: a program uses a few settings)."""

    def __init__(self, build: Callable[..., T], maxsize: int) -> None:
        self._build = build
        self._maxsize = maxsize
        self._kept: dict[Any, T] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        """Forget every kept object (a test that replaces a rule the settings check)."""
        with self._lock:
            self._kept.clear()

    def get(self, *arguments: Any) -> T:
        """``build(*arguments)``, kept where the arguments are plain values (not where it
        raises)."""
        torch = sys.modules.get("torch")  # looked up, never imported
        if torch is not None and torch.compiler.is_compiling():
            return self._build(*arguments)
        kinds = tuple(map(type, arguments))
        # the common call, plain scalars only: the arguments and their types are the key
        key = (arguments, kinds) if _PLAIN_KINDS.issuperset(kinds) else _key_of(arguments)
        if key is _UNCACHED:
            return self._build(*arguments)
        found = self._kept.get(key)
        if found is None:
            found = self._build(*arguments)
            with self._lock:
                if len(self._kept) >= self._maxsize:
                    self._kept.clear()
                self._kept[key] = found
        return found
