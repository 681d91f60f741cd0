"""Argument checks of the soft scores and losses (shared wording: :mod:`bleusuite.checks`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import torch
from torch import Tensor

from bleusuite import checks

Reduction = Literal["mean", "sum", "none"]
_REDUCTIONS = ("mean", "sum", "none")


def check_int(name: str, value: object, minimum: int) -> int:
    return checks.integer(value, name, minimum=minimum)


def check_token_id(name: str, value: object) -> int | None:
    return checks.token_id(value, name)


def check_hyp_probs(hyp_probs: object) -> Tensor:
    if not isinstance(hyp_probs, Tensor):
        raise TypeError(f"hyp_probs must be a torch.Tensor, got {type(hyp_probs).__name__}")
    if not hyp_probs.is_floating_point():
        raise TypeError(
            f"hyp_probs must be a floating point tensor of probabilities, got {hyp_probs.dtype}"
        )
    if hyp_probs.ndim != 3:
        raise ValueError(
            f"hyp_probs must have shape (batch, length, vocab), got shape {tuple(hyp_probs.shape)}"
        )
    if hyp_probs.shape[2] == 0:
        raise ValueError("hyp_probs must have a non-empty vocabulary dimension, got V = 0")
    return hyp_probs


def check_gleu_orders(min_len: object, max_len: object) -> tuple[int, int]:
    """GLEU's ``min_len`` and ``max_len``: ints >= 1, ``min_len <= max_len``."""
    low, high = check_int("min_len", min_len, 1), check_int("max_len", max_len, 1)
    if low > high:
        raise ValueError(f"min_len must be <= max_len, got min_len={low}, max_len={high}")
    return low, high


def check_eos(eos_id: int | None, vocab_size: int) -> int | None:
    eos_id = check_token_id("eos_id", eos_id)
    if eos_id is not None and not 0 <= eos_id < vocab_size:
        raise ValueError(
            f"eos_id must be a vocabulary index in [0, {vocab_size}) (its probability ends the "
            f"sentence), got {eos_id}"
        )
    return eos_id


def check_reduction(reduction: object) -> Reduction:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"reduction must be one of {_REDUCTIONS}, got {reduction!r}")
    return reduction  # type: ignore[return-value]


def check_eps(eps: object) -> float:
    return checks.number(eps, "eps", positive=True)


def bleu_weights(weights: Sequence[float] | Tensor | None, max_order: int, like: Tensor) -> Tensor:
    if weights is None:
        return torch.full((max_order,), 1.0 / max_order, dtype=like.dtype, device=like.device)
    if isinstance(weights, (str, bytes)) or not isinstance(weights, (Sequence, Tensor)):
        raise TypeError(f"weights must be a sequence of floats, got {type(weights).__name__}")
    result = torch.as_tensor(weights, dtype=like.dtype)  # checked before it goes to the device
    if result.shape != (max_order,):
        raise ValueError(
            f"weights must hold max_order={max_order} values, got shape {tuple(result.shape)}"
        )
    if not bool(torch.isfinite(result).all()) or bool((result < 0).any()):
        raise ValueError(f"weights must be finite and non-negative, got {result.tolist()}")
    return result.to(like.device)
