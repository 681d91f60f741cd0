"""The n-gram precisions reported beside a BLEU score: sacrebleu's smoothed ones for its
smoothing names, the plain ones with each other family's denominators."""

from __future__ import annotations

from typing import Any

import numpy as np

from bleusuite import backends
from bleusuite.scores.bleu import smoothing
from bleusuite.scores.bleu.sacrebleu_formula import smoothed_precisions
from bleusuite.scores.bleu.statistics import BleuStats
from bleusuite.scores.reports import host
from bleusuite.scores.statistics import map_arrays

__all__ = ["shown_precisions"]


def shown_precisions(stats: BleuStats[Any], max_order: int, smooth: str,
                     smooth_value: float | None, scale: float = 1.0) -> np.ndarray:
    """The n-gram precisions (0-``scale``) reported beside a BLEU score, ``(..., max_order)``:
    sacrebleu's smoothed ones (``BLEUScore.precisions / 100``) for its smoothing names, else
    the plain ones with the family's denominators.

    >>> import numpy as np
    >>> from bleusuite import bleu_statistics
    >>> stats = bleu_statistics(np.array([[1, 2, 3]]), np.array([[1, 2, 4]])).sum()
    >>> shown_precisions(stats, 4, "exp", None).round(4).tolist()
    [0.6667, 0.5, 0.5, 0.0]
    """
    family = smoothing.family_of(smooth)
    stats = map_arrays(stats, host)
    correct = stats.matches[..., :max_order].astype(np.float64)
    if family != "sacrebleu":
        source = stats.clamped_totals if family == "nltk" else stats.totals
        denominator = np.maximum(source[..., :max_order].astype(np.float64), 1.0)
        result: np.ndarray = scale * correct / denominator
        return result
    any_correct = correct.sum(axis=-1, keepdims=True) > 0
    precisions, _ = smoothed_precisions(backends.get_backend(), stats.matches[..., :max_order],
                                        stats.totals[..., :max_order], smooth, smooth_value,
                                        scale=scale)
    shown: np.ndarray = np.where(any_correct, precisions, 0.0)
    return shown
