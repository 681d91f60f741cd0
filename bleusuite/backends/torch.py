"""PyTorch backend (CPU, CUDA, MPS): every array stays on the input tensor's device.

Off the CPU and while ``torch.compile`` traces, counting is fixed-shape and nothing is read
back (CUDA graphs and ``fullgraph`` work; checks that need a value give NaN scores instead
of raising). Apple MPS has no float64: there the scores are float32.
"""

from __future__ import annotations

from typing import Any

import torch

from bleusuite.backends.base import Backend


class TorchBackend(Backend):
    """torch's own calls, but where torch has NumPy's name and arguments (inherited)."""

    name = "torch"
    int64 = torch.int64
    float64 = torch.float64
    bool_ = torch.bool

    def __init__(self) -> None:
        self.xp = torch

    @staticmethod
    def _device(like: Any) -> Any:
        return like.device if isinstance(like, torch.Tensor) else None

    def is_array(self, obj: object) -> bool:
        return isinstance(obj, torch.Tensor)

    def device_of(self, a: Any) -> Any:
        return a.device

    def host_view(self, a: Any) -> Any:
        # On the CPU, NumPy's sort and gathers beat torch's CPU kernels (see the benchmarks),
        # and a CPU tensor shares its memory with a NumPy view: score through NumPy.
        from bleusuite import backends

        if (a.device.type == "cpu" and not torch.compiler.is_compiling()  # compiled: stay
                and backends.torch_cpu_via_numpy()):  # in the graph
            return a.detach().numpy()
        return None

    def from_host(self, a: Any, like: Any) -> Any:
        return torch.from_numpy(a) if not isinstance(a, torch.Tensor) else a

    def asarray(self, obj: Any, like: Any = None, dtype: Any = None) -> Any:
        if dtype is torch.float64:
            dtype = self._float_dtype(like)
        return torch.as_tensor(obj, dtype=dtype, device=self._device(like))

    def is_integer_dtype(self, a: Any) -> bool:
        return not (a.is_floating_point() or a.is_complex() or a.dtype == torch.bool)

    def is_floating_dtype(self, a: Any) -> bool:
        return bool(a.is_floating_point() or a.is_complex())

    def numel(self, a: Any) -> int:
        return int(a.numel())

    def to_int64(self, a: Any) -> Any:
        return a.to(torch.int64)

    @staticmethod
    def _float_dtype(like: Any) -> Any:
        device = getattr(like, "device", None)
        return torch.float32 if device is not None and device.type == "mps" else torch.float64

    def to_float64(self, a: Any) -> Any:
        return a.to(self._float_dtype(a))

    def zeros(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Any:
        return torch.zeros(shape, dtype=dtype, device=self._device(like))

    def full(self, shape: tuple[int, ...], value: Any, dtype: Any, like: Any = None) -> Any:
        if dtype is torch.float64:
            dtype = self._float_dtype(like)
        return torch.full(shape, value, dtype=dtype, device=self._device(like))

    def arange(self, n: int, like: Any = None) -> Any:
        return torch.arange(n, dtype=torch.int64, device=self._device(like))

    def sort_last(self, a: Any) -> Any:
        return torch.sort(a, dim=-1).values

    def flatnonzero(self, mask: Any) -> Any:
        return torch.nonzero(mask.reshape(-1)).reshape(-1)

    def repeat(self, values: Any, counts: Any, total: int) -> Any:
        return torch.repeat_interleave(values, counts, output_size=total)

    def empty(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Any:
        return torch.empty(shape, dtype=dtype, device=self._device(like))

    sort_last_ = sort_last

    def shift_right(self, a: Any, bits: int, out: Any) -> Any:
        return torch.bitwise_right_shift(a, bits, out=out)

    def scatter_flat(self, out: Any, index: Any, values: Any) -> Any:
        out.view(-1)[index] = values
        return out

    def unique_inverse(self, a: Any) -> Any:
        return torch.unique(a, return_inverse=True)[1].reshape(-1).to(torch.int64)

    def power_of_two(self, exponent: Any, largest: int) -> Any:
        if self._float_dtype(exponent) is not torch.float64:  # MPS: no float64
            return super().power_of_two(exponent, largest)
        # the float64 whose exponent field is k + 1023 and mantissa 0 is exactly 2**k: built
        # on the device (no table copied from the host, so CUDA-graph capture works)
        return ((exponent.to(torch.int64) + 1023) << 52).view(torch.float64)

    def reads_are_free(self, a: Any) -> bool:
        # while torch.compile traces, a read is a graph break whatever the device
        return bool(a.device.type == "cpu") and not torch.compiler.is_compiling()

    def sort_last_with_index(self, a: Any) -> tuple[Any, Any]:
        result = torch.sort(a, dim=-1, stable=True)
        return result.values, result.indices

    def scatter_last(self, shape: tuple[int, ...], index: Any, values: Any) -> Any:
        out = torch.zeros(shape, dtype=torch.int64, device=index.device)
        return out.scatter_(-1, index, values)

    def count_into(self, index: Any, size: int) -> Any:
        # int32: half the memory traffic of the largest table on the GPU path
        out = torch.zeros(size, dtype=torch.int32, device=index.device)
        return out.index_add_(0, index, torch.ones(index.shape, dtype=torch.int32,
                                                   device=index.device))

    def to_ints(self, scalars: list[Any]) -> list[int]:
        return [int(v) for v in torch.stack(scalars).tolist()]

    def to_int(self, a: Any) -> int:
        return int(a.item()) if isinstance(a, torch.Tensor) else int(a)

    def to_bool(self, a: Any) -> bool:
        return bool(a.item()) if isinstance(a, torch.Tensor) else bool(a)

    def to_numpy(self, a: Any) -> Any:
        return a.detach().cpu().numpy()

    def max_(self, a: Any, axis: int | None = None) -> Any:
        return torch.amax(a) if axis is None else torch.amax(a, dim=axis)

    def min_(self, a: Any, axis: int | None = None) -> Any:
        return torch.amin(a) if axis is None else torch.amin(a, dim=axis)

    def take_along(self, a: Any, index: Any, axis: int) -> Any:
        return torch.take_along_dim(a, index, dim=axis)

    def first_true(self, mask: Any, axis: int) -> Any:
        n = mask.shape[axis]
        idx = torch.argmax(mask.to(torch.uint8), dim=axis)
        return torch.where(torch.any(mask, dim=axis), idx, n)

    def maximum(self, a: Any, b: Any) -> Any:
        if not isinstance(b, torch.Tensor):
            return torch.clamp(a, min=b)
        return torch.maximum(a, b)

    def running_max(self, a: Any) -> Any:
        return torch.cummax(a, dim=-1).values if a.shape[-1] else a


backend = TorchBackend()
