"""CuPy backend: the NumPy-like primitives, with new arrays placed on the input's device;
calls take the fixed-shape counting strategy and read nothing back to the host."""

from __future__ import annotations

import contextlib
from typing import Any

import cupy as cp

from bleusuite.backends.base import Backend


class CupyBackend(Backend):
    def _on(self, like: Any) -> Any:
        device = getattr(like, "device", None)
        return device if device is not None else contextlib.nullcontext()

    def asarray(self, obj: Any, like: Any = None, dtype: Any = None) -> Any:
        with self._on(like):
            return cp.asarray(obj, dtype=dtype)

    def zeros(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Any:
        with self._on(like):
            return cp.zeros(shape, dtype=dtype)

    def full(self, shape: tuple[int, ...], value: Any, dtype: Any, like: Any = None) -> Any:
        with self._on(like):
            return cp.full(shape, value, dtype=dtype)

    def empty(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Any:
        with self._on(like):
            return cp.empty(shape, dtype=dtype)

    def arange(self, n: int, like: Any = None) -> Any:
        with self._on(like):
            return cp.arange(n, dtype=cp.int64)

    def first_true(self, mask: Any, axis: int) -> Any:
        n = mask.shape[axis]
        idx = cp.argmax(mask.astype(cp.int8), axis=axis)
        return cp.where(cp.any(mask, axis=axis), idx, n)

    def power_of_two(self, exponent: Any, largest: int) -> Any:
        return cp.ldexp(cp.ones(exponent.shape, dtype=cp.float64), exponent.astype(cp.int32))

    def reads_are_free(self, a: Any) -> bool:
        return False

    def scatter_last(self, shape: tuple[int, ...], index: Any, values: Any) -> Any:
        with self._on(index):
            return super().scatter_last(shape, index, values)

    def count_into(self, index: Any, size: int) -> Any:
        # cupy.bincount reads the largest index back to size its result: scatter instead
        import cupyx

        with self._on(index):
            out = cp.zeros(size, dtype=cp.int64)
            cupyx.scatter_add(out, index, 1)
        return out

    def to_ints(self, scalars: list[Any]) -> list[int]:
        return [int(v) for v in cp.stack(scalars).get().tolist()]

    def to_numpy(self, a: Any) -> Any:
        return cp.asnumpy(a)


backend = CupyBackend(cp, "cupy")
