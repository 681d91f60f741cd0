"""JAX backend (CPU, GPU, TPU): eager, under ``jax.jit`` and under ``jax.vmap``.

Every primitive is functional and every result's shape follows from its arguments', so a
call traces into one XLA computation (counting is always fixed-shape). Widths follow
``jax_enable_x64``, read per call: int64 counts and float64 scores, exact as on NumPy, or
int32 counts (still exact) and float32 scores. Eager calls run the same ``jax.jit``
programs, one per step (:meth:`JaxBackend.compiled`); checks that need a value run between
them on CPU arrays.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.core import Tracer

from bleusuite import backends
from bleusuite.backends.base import Backend

_INT32_MIN = -(2**31)
_UINT32_END = 2**32
# jitted versions of the pipeline's steps, by (function, static argument positions)
_compiled: dict[tuple[Any, ...], Callable[..., Any]] = {}


class JaxBackend(Backend):
    """The NumPy-like primitives on ``jax.numpy``, functional, with new arrays placed on the
    input's device."""

    name = "jax"
    bool_ = jnp.bool_
    compact_counting = False

    def __init__(self) -> None:
        self.xp = jnp  # int64 and float64 are read per call (below)

    @property
    def int64(self) -> Any:
        """int64 with ``jax_enable_x64``, else int32 (JAX's widest integer then)."""
        return jax.dtypes.canonicalize_dtype(np.int64)

    @property
    def float64(self) -> Any:
        """float64 with ``jax_enable_x64``, else float32."""
        return jax.dtypes.canonicalize_dtype(np.float64)

    @property
    def key_bits(self) -> int:  # type: ignore[override]
        """Bits of a packed n-gram key: 62 with int64, 30 with int32 (keys stay >= 0)."""
        return 62 if self.int64 == np.int64 else 30

    def compiled(
        self, fn: Callable[..., Any], static_argnums: tuple[int, ...]
    ) -> Callable[..., Any]:
        key = (fn, static_argnums)
        if key not in _compiled:
            _compiled[key] = jax.jit(fn, static_argnums=static_argnums)
        return _compiled[key]

    def check_special(self, value: int, argname: str) -> int:
        if self.key_bits >= 62:
            return value
        # int32 holds the token ids: uint32 ids >= 2**31 are cast with wraparound (one
        # distinct int32 per id), and so is a pad/eos id in that range
        if not _INT32_MIN <= value < _UINT32_END:
            raise ValueError(
                f"{argname}={value} cannot be a JAX token id without jax_enable_x64 (JAX's "
                "integers are then at most 32 bits); enable x64 or use a smaller id"
            )
        return value - _UINT32_END if value >= 2**31 else value

    @staticmethod
    def _device(like: Any) -> Any:
        """The single device of a concrete array (None for tracers and sharded arrays)."""
        if like is None or isinstance(like, Tracer) or not isinstance(like, jax.Array):
            return None
        devices = like.devices()
        return next(iter(devices)) if len(devices) == 1 else None

    def device_of(self, a: Any) -> Any:
        if isinstance(a, Tracer):
            return None
        return frozenset(a.devices())

    def reads_are_free(self, a: Any) -> bool:
        # a tracer has no value to read; a concrete array off the CPU needs a device sync
        if isinstance(a, Tracer):
            return False
        return all(device.platform == "cpu" for device in a.devices())

    def asarray(self, obj: Any, like: Any = None, dtype: Any = None) -> Any:
        return jnp.asarray(obj, dtype=dtype, device=self._device(like))

    def is_integer_dtype(self, a: Any) -> bool:
        return bool(jnp.issubdtype(a.dtype, jnp.integer))

    def is_floating_dtype(self, a: Any) -> bool:
        return bool(jnp.issubdtype(a.dtype, jnp.inexact))

    def zeros(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Any:
        return jnp.zeros(shape, dtype=dtype, device=self._device(like))

    def full(self, shape: tuple[int, ...], value: Any, dtype: Any, like: Any = None) -> Any:
        return jnp.full(shape, value, dtype=dtype, device=self._device(like))

    def arange(self, n: int, like: Any = None) -> Any:
        return jnp.arange(n, dtype=self.int64, device=self._device(like))

    # ------------------------------------------------------------------ fixed-shape primitives

    def sort_last_with_index(self, a: Any) -> tuple[Any, Any]:
        # one sort of (value, position): stable, so equal values keep their order
        position = jax.lax.broadcasted_iota(self.int64, a.shape, a.ndim - 1)
        values, index = jax.lax.sort((a, position), dimension=a.ndim - 1, is_stable=True,
                                     num_keys=1)
        return values, index

    def scatter_last(self, shape: tuple[int, ...], index: Any, values: Any) -> Any:
        rows = math.prod(shape[:-1])
        row = jnp.arange(rows, dtype=self.int64)[:, None]
        out = jnp.zeros((rows, shape[-1]), dtype=self.int64)
        out = out.at[row, index.reshape(rows, -1)].set(
            values.reshape(rows, -1).astype(self.int64), mode="promise_in_bounds"
        )
        return out.reshape(shape)

    def count_into(self, index: Any, size: int) -> Any:
        ones = jnp.ones(index.shape, dtype=self.int64)
        return jnp.zeros(size, dtype=self.int64).at[index].add(ones, mode="promise_in_bounds")

    # the compact counting strategy's in-place primitives (empty, sort_last_, running sums,
    # shift_right) are not overridden: it never runs on JAX (compact_counting is False)

    def repeat(self, values: Any, counts: Any, total: int) -> Any:
        return jnp.repeat(values, counts, total_repeat_length=total)

    def scatter_flat(self, out: Any, index: Any, values: Any) -> Any:
        return out.reshape(-1).at[index].set(values).reshape(out.shape)  # a new array

    def to_numpy(self, a: Any) -> Any:
        return np.asarray(a)

    def take_along(self, a: Any, index: Any, axis: int) -> Any:
        return jnp.take_along_axis(a, index, axis=axis, mode="promise_in_bounds")

    def running_max(self, a: Any) -> Any:
        return jax.lax.cummax(a, axis=a.ndim - 1)

    def fold(self, body: Callable[[Any, Any], Any], init: Any, count: int) -> Any:
        return jax.lax.fori_loop(0, count, body, init)


def register_container(cls: type, meta_fields: tuple[str, ...]) -> None:
    """A dataclass of arrays (statistics, a normalised batch) as a JAX pytree: it can be
    returned from ``jax.jit`` and its arrays can enter one compiled program
    (:func:`bleusuite.backends.register_container` calls this)."""
    data = [f.name for f in dataclasses.fields(cls) if f.name not in meta_fields]
    with contextlib.suppress(ValueError):  # registered already (a module reload)
        jax.tree_util.register_dataclass(cls, data_fields=data, meta_fields=list(meta_fields))


backend = JaxBackend()
for _cls, _meta_fields in backends.containers():
    register_container(_cls, _meta_fields)
