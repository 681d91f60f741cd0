"""The Triton strategy: clipped n-gram matches of a batch of torch token ids in one kernel
launch (:mod:`bleusuite.counting.triton_kernels`), exact, memory O(tokens), no sort and no
host synchronisation. It runs on CUDA tensors, and on CPU tensors and NumPy arrays in
Triton's interpreter (``TRITON_INTERPRET=1`` set before ``triton`` is first imported: how
CI proves it without a GPU); only ``BLEUSUITE_COUNTING=triton`` picks it (its GPU timings
are still to be measured).
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np

from bleusuite.counting.matches import MatchCounts
from bleusuite.inputs.batch import Batch

__all__ = ["BLOCK_SIZE", "available", "count_matches_triton", "launch_counts"]

#: the widest tile of positions a program compares at once (rows of any length are tiled)
BLOCK_SIZE = 64
#: the narrowest tile (Triton's blocks are powers of two; tiny ones waste nothing on a GPU)
_SMALLEST_BLOCK = 16


def available() -> bool:
    """Whether ``triton`` and ``torch`` can be imported (without importing them).

    >>> isinstance(available(), bool)
    True
    """
    return all(importlib.util.find_spec(name) is not None for name in ("triton", "torch"))


def count_matches_triton(batch: Batch, max_order: int, per_reference: bool = False) -> MatchCounts:
    """Clipped matches of orders 1..``max_order`` of a batch (a NumPy batch's on torch CPU
    tensors that share its memory, in the interpreter).

    Raises:
        ImportError: triton (or torch) does not import, or the tensors are on the CPU and
            the kernels were not loaded in Triton's interpreter.
    """
    batch = batch.padded()
    torch = _torch()
    on_numpy = batch.backend.name == "numpy"
    hyp, hyp_len, refs, ref_len = batch.hyp, batch.hyp_len, batch.refs, batch.ref_len
    if on_numpy:
        hyp, hyp_len, refs, ref_len = (torch.from_numpy(np.ascontiguousarray(a, dtype=np.int64))
                                       for a in (hyp, hyp_len, refs, ref_len))
    clipped, per_ref = launch_counts(hyp, hyp_len, refs, ref_len, max_order, per_reference)
    if on_numpy:
        return MatchCounts(clipped.numpy(), None if per_ref is None else per_ref.numpy())
    return MatchCounts(clipped, per_ref)


def launch_counts(hyp: Any, hyp_len: Any, refs: Any, ref_len: Any, max_order: int,
                  per_reference: bool) -> tuple[Any, Any]:
    """``(clipped (B, N), per_reference (B, R, N) or None)`` int64 of left-aligned int64
    tensors, in one kernel launch."""
    torch = _torch()
    kernels = _kernels()
    rows, hyp_width = hyp.shape
    num_refs, ref_width = refs.shape[1], refs.shape[2]
    if hyp.device.type == "cpu" and not kernels.interpreted():
        raise ImportError(
            "BLEUSUITE_COUNTING=triton on CPU tensors runs Triton's kernels in its "
            "interpreter: set TRITON_INTERPRET=1 in the environment before triton is first "
            "imported, and keep it set (or count CUDA tensors, or unset BLEUSUITE_COUNTING)"
        )
    # the programs of a row add their tiles' counts into these
    clipped = torch.zeros((rows, max_order), dtype=torch.int64, device=hyp.device)
    per_ref = (torch.zeros((rows, num_refs, max_order), dtype=torch.int64, device=hyp.device)
               if per_reference else None)
    if (rows == 0 or max_order == 0 or hyp_width == 0 or ref_width == 0 or num_refs == 0
            or hyp.device.type == "meta"):
        # nothing to compare (no launch on an empty grid); meta tensors have shapes only
        return clipped, per_ref
    out = per_ref if per_ref is not None else clipped
    out_strides = out.stride() if per_ref is not None else (0, 0, 0)
    block_i = _block(hyp_width)
    tiles = -(-hyp_width // block_i)
    kernels.clipped_counts_kernel[(rows, max_order, tiles)](
        hyp, hyp_len, refs, ref_len, clipped, out,
        *hyp.stride(), hyp_len.stride(0), *refs.stride(), *ref_len.stride(),
        *clipped.stride(), *out_strides,
        num_refs,
        BLOCK_I=block_i, BLOCK_J=_block(max(hyp_width, ref_width)),
        BLOCK_R=_power_of_two(num_refs), PER_REFERENCE=per_reference,
    )
    return clipped, per_ref


def _block(width: int) -> int:
    return min(BLOCK_SIZE, max(_SMALLEST_BLOCK, _power_of_two(width)))


def _power_of_two(n: int) -> int:
    return 1 << max(n - 1, 0).bit_length()


def _torch() -> Any:
    try:
        import torch
    except ImportError as error:  # pragma: no cover - triton needs torch
        raise ImportError("BLEUSUITE_COUNTING=triton needs torch") from error
    return torch


def _kernels() -> Any:
    try:
        from bleusuite.counting import triton_kernels
    except ImportError as error:
        raise ImportError(
            "BLEUSUITE_COUNTING=triton needs the triton package, which does not import here "
            f"({error}); install triton (PyTorch's CUDA builds ship it), or unset "
            "BLEUSUITE_COUNTING"
        ) from error
    return triton_kernels
