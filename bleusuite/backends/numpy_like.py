"""The backend for array libraries with NumPy's API: NumPy, CuPy and JAX."""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

from bleusuite.backends.base import Backend


class NumpyLikeBackend(Backend):
    """Primitives written once against a NumPy-compatible module ``xp``."""

    def __init__(self, xp: ModuleType, name: str) -> None:
        self.xp = xp
        self.name = name
        self.int64 = xp.int64
        self.float64 = xp.float64
        self.bool_ = xp.bool_

    def is_array(self, obj: object) -> bool:
        return isinstance(obj, self.xp.ndarray)

    def asarray(self, obj: Any, like: Any = None, dtype: Any = None) -> Any:
        return self.xp.asarray(obj, dtype=dtype)

    def is_integer_dtype(self, a: Any) -> bool:
        return bool(a.dtype.kind in "iu")

    def is_floating_dtype(self, a: Any) -> bool:
        return bool(a.dtype.kind in "fc")

    def describe_dtype(self, a: Any) -> str:
        return str(a.dtype)

    def numel(self, a: Any) -> int:
        return int(a.size)

    def to_int64(self, a: Any) -> Any:
        return a.astype(self.int64, copy=False)

    def to_float64(self, a: Any) -> Any:
        return a.astype(self.float64, copy=False)

    def zeros(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Any:
        return self.xp.zeros(shape, dtype=dtype)

    def full(self, shape: tuple[int, ...], value: Any, dtype: Any, like: Any = None) -> Any:
        return self.xp.full(shape, value, dtype=dtype)

    def arange(self, n: int, like: Any = None) -> Any:
        return self.xp.arange(n, dtype=self.xp.int64)

    def sort_last(self, a: Any) -> Any:
        return self.xp.sort(a, axis=-1)

    def cumsum(self, a: Any, axis: int) -> Any:
        return self.xp.cumsum(a, axis=axis, dtype=self.int64)

    def bincount(self, idx: Any, weights: Any, minlength: int) -> Any:
        return self.xp.bincount(idx, weights=weights, minlength=minlength)

    def flatnonzero(self, mask: Any) -> Any:
        return self.xp.flatnonzero(mask)

    def searchsorted(self, sorted_values: Any, values: Any) -> Any:
        return self.xp.searchsorted(sorted_values, values)

    def repeat(self, values: Any, counts: Any, total: int) -> Any:
        return self.xp.repeat(values, counts)

    def running_sum(self, a: Any) -> Any:
        out = self.xp.empty(a.shape[0] + 1, dtype=self.xp.int64)
        out[0] = 0
        self.xp.cumsum(a, out=out[1:])
        return out

    def empty(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Any:
        return self.xp.empty(shape, dtype=dtype)

    def sort_last_(self, a: Any) -> Any:
        a.sort(axis=-1)
        return a

    def masked_running_sum(self, a: Any, mask: int) -> Any:
        out = self.xp.empty(a.shape[0] + 1, dtype=self.xp.int64)
        out[0] = 0
        self.xp.bitwise_and(a, mask, out=out[1:])
        self.xp.cumsum(out[1:], out=out[1:])
        return out

    def shift_right(self, a: Any, bits: int, out: Any) -> Any:
        return self.xp.right_shift(a, bits, out=out)

    def concat(self, arrays: list[Any], axis: int) -> Any:
        return self.xp.concatenate(arrays, axis=axis)

    def scatter_flat(self, out: Any, index: Any, values: Any) -> Any:
        out.reshape(-1)[index] = values
        return out

    def unique_inverse(self, a: Any) -> Any:
        inverse = self.xp.unique(a, return_inverse=True)[1]
        return inverse.reshape(-1).astype(self.int64, copy=False)

    def sort_last_with_index(self, a: Any) -> tuple[Any, Any]:
        order = self.xp.argsort(a, axis=-1, kind="stable")
        return self.xp.take_along_axis(a, order, axis=-1), order.astype(self.xp.int64, copy=False)

    def scatter_last(self, shape: tuple[int, ...], index: Any, values: Any) -> Any:
        xp = self.xp
        out = xp.zeros(shape, dtype=xp.int64)
        leading = index.shape[:-1]
        offsets = (xp.arange(math.prod(leading), dtype=xp.int64) * shape[-1]).reshape(
            (*leading, 1)
        )
        out.reshape(-1)[(index + offsets).reshape(-1)] = values.reshape(-1)
        return out

    def count_into(self, index: Any, size: int) -> Any:
        return self.xp.bincount(index, minlength=size).astype(self.xp.int64, copy=False)

    def to_int(self, a: Any) -> int:
        return int(a)

    def to_bool(self, a: Any) -> bool:
        return bool(a)

    def to_numpy(self, a: Any) -> Any:
        return a

    def max_(self, a: Any, axis: int | None = None) -> Any:
        return self.xp.max(a, axis=axis)

    def min_(self, a: Any, axis: int | None = None) -> Any:
        return self.xp.min(a, axis=axis)

    def sum_(self, a: Any, axis: int | None = None) -> Any:
        return self.xp.sum(a, axis=axis)

    def any_(self, a: Any, axis: int | None = None) -> Any:
        return self.xp.any(a, axis=axis)

    def argmax(self, a: Any, axis: int) -> Any:
        return self.xp.argmax(a, axis=axis)

    def take_along(self, a: Any, index: Any, axis: int) -> Any:
        return self.xp.take_along_axis(a, index, axis=axis)

    def first_true(self, mask: Any, axis: int) -> Any:
        n = mask.shape[axis]
        idx = self.xp.argmax(mask, axis=axis)
        return self.xp.where(self.xp.any(mask, axis=axis), idx, n)

    def where(self, cond: Any, a: Any, b: Any) -> Any:
        return self.xp.where(cond, a, b)

    def minimum(self, a: Any, b: Any) -> Any:
        return self.xp.minimum(a, b)

    def maximum(self, a: Any, b: Any) -> Any:
        return self.xp.maximum(a, b)

    def log(self, a: Any) -> Any:
        return self.xp.log(a)

    def exp(self, a: Any) -> Any:
        return self.xp.exp(a)

    def abs_(self, a: Any) -> Any:
        return self.xp.abs(a)
