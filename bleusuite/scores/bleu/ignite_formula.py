"""pytorch-ignite's BLEU arithmetic (``Bleu(smooth=...)``), the one place it is written:
sentence scores are ``average="macro"``'s terms, corpus scores ``average="micro"``. ignite
floors each order's n-gram count at 1 (``smooth2`` does not).
"""

from __future__ import annotations

from typing import Any

from bleusuite.backends.base import Backend
from bleusuite.scores.bleu.smoothing import gated_score

__all__ = ["ignite_bleu"]


def ignite_bleu(be: Backend, stats: Any, weights: Any, order: int, smooth: str) -> Any:
    """pytorch-ignite ``Bleu._brevity_penalty_smoothing`` on (summed) statistics."""
    matches = stats.matches[..., :order]
    totals = stats.totals[..., :order]
    numer = be.to_float64(matches)
    floored = be.to_float64(be.maximum(totals, 1))
    first = be.arange(order, like=matches) == 0
    if smooth == "no_smooth":
        precisions = numer / floored
    elif smooth == "smooth1":
        precisions = be.where(matches != 0, numer / floored, 0.1 / floored)
    elif smooth == "nltk_smooth2":
        precisions = be.where(first, numer / floored, (numer + 1.0) / (floored + 1.0))
    else:  # smooth2: like nltk_smooth2 but without flooring the denominators
        raw = be.to_float64(totals)
        unigram = numer / be.where(raw > 0, raw, 1.0)
        precisions = be.where(first, unigram, (numer + 1.0) / (raw + 1.0))
    valid = matches[..., 0] != 0
    if smooth == "no_smooth":  # ignite returns 0 as soon as any order has no match
        valid = valid & (be.sum_(be.to_int64(matches == 0), axis=-1) == 0)
    safe = be.where(valid[..., None], precisions, 1.0)
    return gated_score(be, stats, be.sum_(weights * be.log(safe), axis=-1), valid)
