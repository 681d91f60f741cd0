"""What every counting strategy returns (:class:`MatchCounts`), and what the sorted-key
strategies (fixed and compact) share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bleusuite.backends.base import Backend

__all__ = ["MatchCounts", "OrderCounter", "shift_left"]


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


class OrderCounter:
    """The counts of a sorted-key counter (keys ``(n-gram << tag_bits) | source``, source 0
    the hypothesis), one order at a time; :meth:`stacked` gives them by order."""

    def __init__(self, be: Backend, num_refs: int, tag_bits: int, per_reference: bool) -> None:
        self.be = be
        self.num_refs = num_refs
        self.tag_bits = tag_bits
        self.per_reference = per_reference
        self._clipped: list[Any] = []
        self._per_ref: list[Any] = []

    def stacked(self) -> tuple[Any, Any | None]:
        """The fields of :class:`MatchCounts`, as arrays (a compiled function returns them)."""
        be = self.be
        clipped = be.concat([c[:, None] for c in self._clipped], axis=1)
        per_ref = None
        if self.per_reference:
            per_ref = be.concat([r[:, :, None] for r in self._per_ref], axis=2)
        return clipped, per_ref


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
