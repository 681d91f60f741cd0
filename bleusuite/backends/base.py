"""The primitives every backend provides: all that the pipeline and the formulas use."""

from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType
from typing import Any


class Backend:
    """The primitives, written once against a module ``xp`` with NumPy's API (NumPy, CuPy,
    ``jax.numpy``; torch where its names are NumPy's); each library's backend overrides what
    differs. Arrays are the backend's own; ``like`` gives the device."""

    name: str
    #: token positions per block of rows in the counting pipeline (None: the whole batch)
    block_entries: int | None = None
    int64: Any
    float64: Any
    bool_: Any
    #: bits a packed n-gram key may use (keys stay non-negative): 62 with int64 counts;
    #: fixed.py counts order by order when ``max_order`` ids do not fit (JAX x32: 30)
    key_bits: int = 62
    #: whether the compact counting strategy (in-place ops, data-dependent shapes) can run
    compact_counting: bool = True

    def __init__(self, xp: ModuleType, name: str) -> None:
        self.xp = xp
        self.name = name
        self.int64 = xp.int64
        self.float64 = xp.float64
        self.bool_ = xp.bool_

    def __repr__(self) -> str:
        return f"<bleusuite backend {self.name!r}>"

    def is_array(self, obj: object) -> bool:
        return isinstance(obj, self.xp.ndarray)

    def compiled(
        self, fn: Callable[..., Any], static_argnums: tuple[int, ...]
    ) -> Callable[..., Any]:
        """``fn`` compiled as one computation where the library compiles (``jax.jit``), else
        ``fn``; the arguments at ``static_argnums`` are settings (hashable)."""
        return fn

    def check_special(self, value: int, argname: str) -> int:
        """A ``pad_id`` / ``eos_id`` as this backend's integer token type can hold it."""
        return value

    def device_of(self, a: Any) -> Any:
        """The device an array lives on (None where the library has one device)."""
        return None

    def host_view(self, a: Any) -> Any:
        """A zero-copy NumPy view of ``a`` when scoring through NumPy is faster, else None."""
        return None

    def from_host(self, a: Any, like: Any) -> Any:
        """Inverse of :meth:`host_view`: a NumPy result as this library's array."""
        return a

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
        """Cast to the widest float of the device (float64; float32 where there is none)."""
        return a.astype(self.float64, copy=False)

    def zeros(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Any:
        return self.xp.zeros(shape, dtype=dtype)

    def full(self, shape: tuple[int, ...], value: Any, dtype: Any, like: Any = None) -> Any:
        return self.xp.full(shape, value, dtype=dtype)

    def arange(self, n: int, like: Any = None) -> Any:
        """int64 0..n-1."""
        return self.xp.arange(n, dtype=self.xp.int64)

    def sort_last(self, a: Any) -> Any:
        """Sort every row (the last axis) by value."""
        return self.xp.sort(a, axis=-1)

    def cumsum(self, a: Any, axis: int) -> Any:
        """int64 cumulative sum (bool input allowed)."""
        return self.xp.cumsum(a, axis=axis, dtype=self.int64)

    def bincount(self, idx: Any, weights: Any, minlength: int) -> Any:
        return self.xp.bincount(idx, weights=weights, minlength=minlength)

    def flatnonzero(self, mask: Any) -> Any:
        return self.xp.flatnonzero(mask)

    def searchsorted(self, sorted_values: Any, values: Any) -> Any:
        """Left insertion points of ``values`` in the sorted 1-D ``sorted_values``."""
        return self.xp.searchsorted(sorted_values, values)

    def repeat(self, values: Any, counts: Any, total: int) -> Any:
        """Each of ``values`` repeated ``counts`` times (1-D); ``total`` = sum of counts."""
        return self.xp.repeat(values, counts)

    def running_sum(self, a: Any) -> Any:
        """int64 inclusive running sum of a 1-D array with a leading 0 (length n + 1)."""
        out = self.empty((a.shape[0] + 1,), self.int64, like=a)
        out[0] = 0
        self.xp.cumsum(a, 0, out=out[1:])
        return out

    def empty(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Any:
        return self.xp.empty(shape, dtype=dtype)

    def sort_last_(self, a: Any) -> Any:
        """Sort every row (the last axis) by value, in place where the library can."""
        a.sort(axis=-1)
        return a

    def masked_running_sum(self, a: Any, mask: int) -> Any:
        """``running_sum(a & mask)`` without a separate temporary."""
        out = self.empty((a.shape[0] + 1,), self.int64, like=a)
        out[0] = 0
        self.xp.bitwise_and(a, mask, out=out[1:])
        self.xp.cumsum(out[1:], 0, out=out[1:])
        return out

    def shift_right(self, a: Any, bits: int, out: Any) -> Any:
        """``a >> bits`` written into ``out``."""
        return self.xp.right_shift(a, bits, out=out)

    def concat(self, arrays: list[Any], axis: int) -> Any:
        return self.xp.concatenate(arrays, axis=axis)

    def scatter_flat(self, out: Any, index: Any, values: Any) -> Any:
        """``out.ravel()[index] = values`` on a contiguous ``out``; callers use the returned
        array (``out`` itself, or a new array on JAX)."""
        out.reshape(-1)[index] = values
        return out

    def unique_inverse(self, a: Any) -> Any:
        """Dense int64 ids (0..U-1, in value order) of the values of a 1-D array."""
        inverse = self.xp.unique(a, return_inverse=True)[1]
        return inverse.reshape(-1).astype(self.int64, copy=False)

    # ------------------------------------------------- fixed-shape primitives (fixed.py)
    # Each result's shape follows from its arguments' shapes alone, and none reads a value
    # back to the host: they run on CUDA without a synchronisation, under CUDA-graph capture
    # and torch.compile, and on torch ``meta`` tensors.

    def reads_are_free(self, a: Any) -> bool:
        """Whether reading a value of ``a`` on the host costs no device synchronisation."""
        return True

    def sort_last_with_index(self, a: Any) -> tuple[Any, Any]:
        """Stable sort of every row (the last axis): the sorted values and, for each, its
        int64 position in the row (equal values keep their order)."""
        order = self.xp.argsort(a, axis=-1, kind="stable")
        return self.xp.take_along_axis(a, order, axis=-1), order.astype(self.xp.int64, copy=False)

    def scatter_last(self, shape: tuple[int, ...], index: Any, values: Any) -> Any:
        """A new int64 array of ``shape``, zero except ``out[..., index[..., j]] =
        values[..., j]`` (with repeated indices, one of the values lands)."""
        xp = self.xp
        out = xp.zeros(shape, dtype=xp.int64)
        leading = index.shape[:-1]
        offsets = (xp.arange(math.prod(leading), dtype=xp.int64) * shape[-1]).reshape(
            (*leading, 1)
        )
        out.reshape(-1)[(index + offsets).reshape(-1)] = values.reshape(-1)
        return out

    def count_into(self, index: Any, size: int) -> Any:
        """(size,) int32 or int64 counts of each of 0..size-1 in the 1-D ``index`` (a
        bincount of fixed length; size below 2**31)."""
        return self.xp.bincount(index, minlength=size).astype(self.xp.int64, copy=False)

    def power_of_two(self, exponent: Any, largest: int) -> Any:
        """Exact ``2.0 ** exponent`` (the widest float) for integer exponents in
        0..``largest`` (at most 1023), here from a table of Python's exact floats."""
        table = self.asarray([2.0**k for k in range(largest + 1)], like=exponent,
                             dtype=self.float64)
        return table[exponent]

    def to_ints(self, scalars: list[Any]) -> list[int]:
        """Python ints from several 0-d arrays, in one device-to-host read."""
        return [self.to_int(a) for a in scalars]

    def to_int(self, a: Any) -> int:
        """A Python int from a 0-d array (a device sync on GPU backends)."""
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

    def python_sum(self, a: Any, axis: int = -1) -> Any:
        """Float sums along the last axis as Python's ``sum`` adds (sacrebleu's arithmetic):
        on the host to the bit; elsewhere the library's own sum (the last bit may differ)."""
        return self.sum_(a, axis=axis)

    def argmax(self, a: Any, axis: int) -> Any:
        """Index of the first maximum along ``axis``."""
        return self.xp.argmax(a, axis=axis)

    def take_along(self, a: Any, index: Any, axis: int) -> Any:
        return self.xp.take_along_axis(a, index, axis=axis)

    def first_true(self, mask: Any, axis: int) -> Any:
        """Index of the first True along ``axis`` (the axis length where there is none)."""
        n = mask.shape[axis]
        idx = self.xp.argmax(mask, axis=axis)
        return self.xp.where(self.xp.any(mask, axis=axis), idx, n)

    def where(self, cond: Any, a: Any, b: Any) -> Any:
        return self.xp.where(cond, a, b)

    def minimum(self, a: Any, b: Any) -> Any:
        return self.xp.minimum(a, b)

    def maximum(self, a: Any, b: Any) -> Any:
        """Element-wise maximum; ``b`` may be a Python scalar."""
        return self.xp.maximum(a, b)

    def log(self, a: Any) -> Any:
        return self.xp.log(a)

    def exp(self, a: Any) -> Any:
        return self.xp.exp(a)

    def abs_(self, a: Any) -> Any:
        return self.xp.abs(a)

    # ------------------------------------- fixed-shape loops (the LCS of counting/lcs.py)

    def running_max(self, a: Any) -> Any:
        """Running maximum along the last axis, here in ceil(log2 L) steps of ``maximum``
        with the array shifted by 1, 2, 4, ..."""
        shift, width = 1, a.shape[-1]
        while shift < width:
            a = self.concat([a[..., :shift], self.maximum(a[..., shift:], a[..., :-shift])],
                            axis=-1)
            shift *= 2
        return a

    def fold(self, body: Callable[[Any, Any], Any], init: Any, count: int) -> Any:
        """``carry = body(i, carry)`` for i = 0..count-1 from ``init``: the final carry."""
        carry = init
        for i in range(count):
            carry = body(i, carry)
        return carry
