"""NumPy backend."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from bleusuite import native
from bleusuite.backends import trace
from bleusuite.backends.base import Backend

#: the widest last axis that the reductions below walk column by column: NumPy reduces a
#: short contiguous last axis row by row (on (8192, 4) int64, ``cumsum`` 153 us against 25
#: us column by column, ``sum`` 137 us), and the formulas work on ``(sentences, orders)``
SHORT_AXIS = 16
_SIGNED = frozenset("bi")  # bool and signed integers: sums exact in any order


def _short_last(a: Any, axis: int | None) -> bool:
    return (isinstance(a, np.ndarray) and a.ndim >= 2 and axis in (-1, a.ndim - 1)
            and 1 < a.shape[-1] <= SHORT_AXIS and a.dtype.kind in _SIGNED)


class NumpyBackend(Backend):
    """NumPy, with integer reductions along a short last axis taken column by column, and
    the C library's ``log`` and ``exp`` (what ``math`` and the traced formulas give:
    NumPy's own round some last bits otherwise)."""

    def log(self, a: Any) -> Any:
        return _libm("log", a)

    def exp(self, a: Any) -> Any:
        return _libm("exp", a)

    def python_sum(self, a: Any, axis: int = -1) -> Any:
        if axis not in (-1, a.ndim - 1):
            raise ValueError("python_sum adds along the last axis")
        shape = a.shape[:-1]
        return python_row_sums(np.asarray(a).reshape(-1, a.shape[-1])).reshape(shape)

    def cumsum(self, a: Any, axis: int) -> Any:
        if not _short_last(a, axis):
            return super().cumsum(a, axis)
        out = np.empty(a.shape, dtype=np.int64)
        out[..., 0] = a[..., 0]
        for k in range(1, a.shape[-1]):
            np.add(out[..., k - 1], a[..., k], out=out[..., k])
        return out

    def sum_(self, a: Any, axis: int | None = None) -> Any:
        if not _short_last(a, axis):
            return super().sum_(a, axis)
        out = a[..., 0].astype(np.int64)
        for k in range(1, a.shape[-1]):
            np.add(out, a[..., k], out=out)
        return out

    def max_(self, a: Any, axis: int | None = None) -> Any:
        if not _short_last(a, axis) or a.dtype.kind == "b":
            return super().max_(a, axis)
        out = a[..., 0].copy()
        for k in range(1, a.shape[-1]):
            np.maximum(out, a[..., k], out=out)
        return out

    def running_max(self, a: Any) -> Any:
        return np.maximum.accumulate(a, axis=-1)


def _libm(name: str, a: Any) -> Any:
    """The C library's ``name`` (``log`` or ``exp``) of every value: the compiled part's
    ``libm_map``, else ``math``'s value by value."""
    values = np.array(a, dtype=np.float64, order="C")
    compiled = native.module()
    if compiled is not None:
        out = np.empty_like(values)
        compiled.libm_map(name, values, out)
        return out
    function = trace.scalar_log if name == "log" else trace.scalar_exp
    flat = np.fromiter(map(function, values.reshape(-1).tolist()), np.float64, values.size)
    return flat.reshape(values.shape)


def python_row_sums(rows: np.ndarray) -> np.ndarray:
    """``[sum(row) for row in rows.tolist()]`` as float64, bit for bit: before Python 3.12
    ``sum`` adds left to right (vectorised here, column by column); from 3.12 on it
    compensates the rounding, and ``sum`` itself sums the rows.

    >>> python_row_sums(np.array([[0.1, 0.2, 0.3], [1e16, 1.0, -1e16]])).tolist() == [
    ...     sum([0.1, 0.2, 0.3]), sum([1e16, 1.0, -1e16])]
    True
    """
    rows = np.asarray(rows, dtype=np.float64)
    if sys.version_info >= (3, 12) or rows.ndim != 2:
        return np.fromiter(map(sum, rows.tolist()), np.float64, len(rows))
    total = np.zeros(rows.shape[0])
    with np.errstate(over="ignore"):  # Python's sum overflows to inf without a word
        for column in rows.T:
            total += column
    return total


backend = NumpyBackend(np, "numpy")
# about a megabyte per int64 temporary: reused by the allocator and cache-friendly
backend.block_entries = 1 << 17
