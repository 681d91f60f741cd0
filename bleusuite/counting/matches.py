"""What every counting strategy returns (:class:`MatchCounts`), and the one array helper
two of them share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bleusuite.backends.base import Backend

__all__ = ["MatchCounts", "shift_left"]


@dataclass(frozen=True)
class MatchCounts:
    """Clipped n-gram matches of every hypothesis, per order 1..max_order.

    Attributes:
        clipped: (B, K) int64, sum over the hypothesis n-grams of
            ``min(count in hypothesis, max count in any reference)`` (BLEU's numerator).
        per_reference: (B, R, K) int64, sum of ``min(count in hypothesis, count in
            reference r)`` (GLEU's true positives), or None when not asked for.
    """

    clipped: Any
    per_reference: Any | None


def shift_left(be: Backend, part: Any, by: int, pad: int) -> Any:
    """``part[..., i + by]`` at position i, ``pad`` past the end (each sentence alone).

    >>> import numpy as np
    >>> from bleusuite.backends import get_backend
    >>> shift_left(get_backend(np.zeros(1)), np.array([[1, 2, 3]]), 1, 0).tolist()
    [[2, 3, 0]]
    """
    if by == 0:
        return part
    width = part.shape[-1]
    filler = be.full((*part.shape[:-1], by), pad, be.int64, like=part)
    return be.concat([part, filler], axis=-1)[..., by : by + width]
