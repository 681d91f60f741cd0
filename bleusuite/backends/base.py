"""The primitives every backend provides: all that the pipeline and the formulas use."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Backend:
    """Interface of a backend. Arrays are the backend's own; ``like`` gives the device."""

    name: str = "abstract"
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

    def __repr__(self) -> str:
        return f"<bleusuite backend {self.name!r}>"

    def is_array(self, obj: object) -> bool:
        raise NotImplementedError

    def compiled(
        self, fn: Callable[..., Any], static_argnums: tuple[int, ...]
    ) -> Callable[..., Any]:
        """``fn`` compiled as one computation where the library compiles (``jax.jit``: an
        eager call then runs one cached program instead of one per operation), else ``fn``;
        the arguments at ``static_argnums`` are settings (hashable), the others arrays."""
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
        raise NotImplementedError

    def is_integer_dtype(self, a: Any) -> bool:
        raise NotImplementedError

    def is_floating_dtype(self, a: Any) -> bool:
        raise NotImplementedError

    def describe_dtype(self, a: Any) -> str:
        raise NotImplementedError

    def numel(self, a: Any) -> int:
        raise NotImplementedError

    def to_int64(self, a: Any) -> Any:
        raise NotImplementedError

    def to_float64(self, a: Any) -> Any:
        """Cast to the widest float of the device (float64; float32 where there is none)."""
        raise NotImplementedError

    def zeros(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Any:
        raise NotImplementedError

    def full(self, shape: tuple[int, ...], value: Any, dtype: Any, like: Any = None) -> Any:
        raise NotImplementedError

    def arange(self, n: int, like: Any = None) -> Any:
        """int64 0..n-1."""
        raise NotImplementedError

    def sort_last(self, a: Any) -> Any:
        """Sort every row (the last axis) by value."""
        raise NotImplementedError

    def cumsum(self, a: Any, axis: int) -> Any:
        """int64 cumulative sum (bool input allowed)."""
        raise NotImplementedError

    def bincount(self, idx: Any, weights: Any, minlength: int) -> Any:
        raise NotImplementedError

    def flatnonzero(self, mask: Any) -> Any:
        raise NotImplementedError

    def searchsorted(self, sorted_values: Any, values: Any) -> Any:
        """Left insertion points of ``values`` in the sorted 1-D ``sorted_values``."""
        raise NotImplementedError

    def repeat(self, values: Any, counts: Any, total: int) -> Any:
        """Each of ``values`` repeated ``counts`` times (1-D); ``total`` = sum of counts."""
        raise NotImplementedError

    def running_sum(self, a: Any) -> Any:
        """int64 inclusive running sum of a 1-D array with a leading 0 (length n + 1)."""
        raise NotImplementedError

    def empty(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Any:
        raise NotImplementedError

    def sort_last_(self, a: Any) -> Any:
        """Sort every row (the last axis) by value, in place where the library can."""
        raise NotImplementedError

    def masked_running_sum(self, a: Any, mask: int) -> Any:
        """``running_sum(a & mask)`` without a separate temporary."""
        raise NotImplementedError

    def shift_right(self, a: Any, bits: int, out: Any) -> Any:
        """``a >> bits`` written into ``out``."""
        raise NotImplementedError

    def concat(self, arrays: list[Any], axis: int) -> Any:
        raise NotImplementedError

    def scatter_flat(self, out: Any, index: Any, values: Any) -> Any:
        """``out.ravel()[index] = values`` on a contiguous ``out``; returns the result: ``out``
        itself, updated in place, where arrays are mutable; a new array on JAX. Callers use
        the returned array."""
        raise NotImplementedError

    def unique_inverse(self, a: Any) -> Any:
        """Dense int64 ids (0..U-1, in value order) of the values of a 1-D array."""
        raise NotImplementedError

    # ------------------------------------------------- fixed-shape primitives (fixed.py)
    # Each result's shape follows from its arguments' shapes alone, and none reads a value
    # back to the host: they run on CUDA without a synchronisation, under CUDA-graph capture
    # and torch.compile, and on torch ``meta`` tensors.

    def reads_are_free(self, a: Any) -> bool:
        """Whether reading a value of ``a`` on the host costs no device synchronisation
        (host memory), so that checks which need a value can raise at once."""
        return True

    def sort_last_with_index(self, a: Any) -> tuple[Any, Any]:
        """Stable sort of every row (the last axis): the sorted values and, for each, its
        int64 position in the row (equal values keep their order)."""
        raise NotImplementedError

    def scatter_last(self, shape: tuple[int, ...], index: Any, values: Any) -> Any:
        """A new int64 array of ``shape``, zero except ``out[..., index[..., j]] =
        values[..., j]`` (leading axes shared by ``index`` and ``values``; with repeated
        indices, one of the values lands)."""
        raise NotImplementedError

    def count_into(self, index: Any, size: int) -> Any:
        """(size,) integer counts (int32 or int64, as is fastest for the library):
        occurrences of each of 0..size-1 in the 1-D ``index``, whose values must lie in
        that range (a bincount of fixed length; size must stay below 2**31)."""
        raise NotImplementedError

    def power_of_two(self, exponent: Any, largest: int) -> Any:
        """Exact ``2.0 ** exponent`` (float64, or the widest float) for integer exponents in
        0..``largest`` (at most 1023): a lookup in a table of Python's exact floats here;
        device backends build the float without copying a table from the host."""
        table = self.asarray([2.0**k for k in range(largest + 1)], like=exponent,
                             dtype=self.float64)
        return table[exponent]

    def to_ints(self, scalars: list[Any]) -> list[int]:
        """Python ints from several 0-d arrays, in one device-to-host read."""
        return [self.to_int(a) for a in scalars]

    def to_int(self, a: Any) -> int:
        """A Python int from a 0-d array (a device sync on GPU backends)."""
        raise NotImplementedError

    def to_bool(self, a: Any) -> bool:
        raise NotImplementedError

    def to_numpy(self, a: Any) -> Any:
        raise NotImplementedError

    def max_(self, a: Any, axis: int | None = None) -> Any:
        raise NotImplementedError

    def min_(self, a: Any, axis: int | None = None) -> Any:
        raise NotImplementedError

    def sum_(self, a: Any, axis: int | None = None) -> Any:
        raise NotImplementedError

    def any_(self, a: Any, axis: int | None = None) -> Any:
        raise NotImplementedError

    def python_sum(self, a: Any, axis: int = -1) -> Any:
        """Float sums along the last axis as Python's ``sum`` adds (sacrebleu's arithmetic):
        on the host to the bit; elsewhere the library's own sum (the last bit may differ)."""
        return self.sum_(a, axis=axis)

    def argmax(self, a: Any, axis: int) -> Any:
        """Index of the first maximum along ``axis``."""
        raise NotImplementedError

    def take_along(self, a: Any, index: Any, axis: int) -> Any:
        raise NotImplementedError

    def first_true(self, mask: Any, axis: int) -> Any:
        """Index of the first True along ``axis`` (the axis length where there is none)."""
        raise NotImplementedError

    def where(self, cond: Any, a: Any, b: Any) -> Any:
        raise NotImplementedError

    def minimum(self, a: Any, b: Any) -> Any:
        raise NotImplementedError

    def maximum(self, a: Any, b: Any) -> Any:
        """Element-wise maximum; ``b`` may be a Python scalar."""
        raise NotImplementedError

    def log(self, a: Any) -> Any:
        raise NotImplementedError

    def exp(self, a: Any) -> Any:
        raise NotImplementedError

    def abs_(self, a: Any) -> Any:
        raise NotImplementedError

    # ------------------------------------- fixed-shape loops (the LCS of counting/lcs.py)

    def running_max(self, a: Any) -> Any:
        """Running maximum along the last axis (``out[..., j] = max(a[..., :j + 1])``): here
        in ceil(log2 L) steps of ``maximum`` with the array shifted by 1, 2, 4, ...; the
        libraries that have one call theirs."""
        shift, width = 1, a.shape[-1]
        while shift < width:
            a = self.concat([a[..., :shift], self.maximum(a[..., shift:], a[..., :-shift])],
                            axis=-1)
            shift *= 2
        return a

    def fold(self, body: Callable[[Any, Any], Any], init: Any, count: int) -> Any:
        """``carry = body(i, carry)`` for i = 0..count-1 from ``init``, the final carry (a
        Python loop; JAX's is one ``fori_loop``, whose ``i`` is traced)."""
        carry = init
        for i in range(count):
            carry = body(i, carry)
        return carry
