"""sacrebleu's chrF arithmetic (``CHRF._compute_f_score``), the one place it is written.

It uses only ``+ - * /``, so the same arithmetic on arrays gives sacrebleu's floats to the
last bit. :func:`formula` is element-wise on any backend (and traced for small batches);
:func:`chrf_scores` applies it to NumPy statistics.

>>> from bleusuite.scores.chrf.text_statistics import chrf_statistics
>>> stats = chrf_statistics(["the cat sat"], [["the cat sat down"]])
>>> round(float(chrf_scores(stats.sum())), 4)    # sacrebleu.corpus_chrf(...).score
66.0176
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from bleusuite import backends
from bleusuite.backends.base import Backend
from bleusuite.scores.chrf.statistics import BETA, EPSILON, ChrfStats

__all__ = ["chrf_scores", "formula"]


def formula(be: Backend, hyp: Any, ref: Any, match: Any, beta: float, eps_smoothing: bool,
            cast: Callable[[Any], Any] | None = None) -> Any:
    """sacrebleu's ``CHRF._compute_f_score`` of counts ``(..., O)`` (hypothesis, reference
    and matched n-grams of each order), 0-100: the F-beta of the precision and recall
    averaged over the orders where both sides have n-grams (``eps_smoothing``: the mean of
    each order's F-beta). ``cast`` makes the counts floats (default float64)."""
    cast = cast or be.to_float64
    with np.errstate(divide="ignore", invalid="ignore"):  # beta 0 divides by 0 as sacrebleu
        hyp, ref, match = cast(hyp), cast(ref), cast(match)
        factor = beta**2
        orders = hyp.shape[-1]
        score: Any = None
        total_precision: Any = None
        total_recall: Any = None
        effective: Any = 0
        for i in range(orders):
            n_hyp, n_ref, n_match = hyp[..., i], ref[..., i], match[..., i]
            has_hyp, has_ref = n_hyp > 0, n_ref > 0
            precision = be.where(has_hyp, n_match / be.where(has_hyp, n_hyp, 1.0), EPSILON)
            recall = be.where(has_ref, n_match / be.where(has_ref, n_ref, 1.0), EPSILON)
            denominator = factor * precision + recall
            positive = denominator > 0
            term = be.where(positive, (1 + factor) * precision * recall
                            / be.where(positive, denominator, 1.0), EPSILON)
            both = has_hyp & has_ref
            # sacrebleu starts each sum at 0.0: 0.0 + x is x for these (non-negative) terms
            score = term if score is None else score + term
            kept_precision = be.where(both, precision, 0.0)
            kept_recall = be.where(both, recall, 0.0)
            total_precision = kept_precision if total_precision is None else (
                total_precision + kept_precision)
            total_recall = kept_recall if total_recall is None else total_recall + kept_recall
            effective = effective + be.to_int64(both)
        if eps_smoothing:
            return 100 * score / orders
        some = effective > 0
        divisor = cast(be.maximum(effective, 1))
        average_precision = be.where(some, total_precision / divisor, 0.0)
        average_recall = be.where(some, total_recall / divisor, 0.0)
        value = (1 + factor) * average_precision * average_recall
        denominator = factor * average_precision + average_recall
        nonzero = average_precision + average_recall != 0
        value = value / be.where(nonzero, denominator, 1.0)
        return be.where(nonzero, 100 * value, 0.0)


def chrf_scores(stats: ChrfStats[Any] | np.ndarray, beta: float = BETA,
                eps_smoothing: bool = False, *, float32: bool = False) -> np.ndarray:
    """:func:`formula` of statistics (a :class:`ChrfStats`, or their ``to_array`` form) on
    NumPy, as float64 (``float32``: in float32, as sacrebleu's bootstrap resamples).

    >>> row = np.array([3, 3, 3, 4, 2, 2])  # [hyp, ref, match] of two orders
    >>> chrf_scores(row).round(6).tolist()
    93.75
    """
    if isinstance(stats, np.ndarray):
        stats = ChrfStats.from_array(stats)
    be = backends.get_backend()
    hyp, ref, match = (np.asarray(stats.backend.to_numpy(a)) for a in
                       (stats.hyp_counts, stats.ref_counts, stats.matches))

    def cast(a: Any) -> Any:
        return np.asarray(a).astype(np.float32 if float32 else np.float64)

    return np.asarray(formula(be, hyp, ref, match, beta, eps_smoothing, cast), dtype=np.float64)
