"""sacrebleu's chrF arithmetic (``CHRF._compute_f_score``), the one place it is written.

It uses only ``+ - * /``, so the same arithmetic on arrays gives sacrebleu's floats to the
last bit (``float32=True``: its arithmetic on bootstrap resamples, which sum float32
statistics).

>>> from bleusuite.scores.chrf.counts import chrf_statistics
>>> stats = chrf_statistics(["the cat sat"], [["the cat sat down"]])
>>> round(float(chrf_scores(stats.sum())), 4)    # sacrebleu.corpus_chrf(...).score
66.0176
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bleusuite.scores.chrf.statistics import BETA, EPSILON, ChrfStats

__all__ = ["chrf_scores"]


def chrf_scores(stats: ChrfStats[Any] | np.ndarray, beta: float = BETA,
                eps_smoothing: bool = False, *, float32: bool = False) -> np.ndarray:
    """sacrebleu's ``CHRF._compute_f_score`` of each entry, on its 0-100 scale, element-wise
    over the leading axes: the F-beta of the precision and recall averaged over the orders
    where both sides have n-grams (``eps_smoothing``: the mean of each order's F-beta, an
    order without n-grams counting 1e-16), operation for operation as sacrebleu computes it
    (``float32``: in float32, as its bootstrap resamples).

    >>> row = np.array([3, 3, 3, 4, 2, 2])  # [hyp, ref, match] of two orders
    >>> chrf_scores(row).round(6).tolist()
    93.75
    """
    if isinstance(stats, np.ndarray):
        stats = ChrfStats.from_array(stats)
    be = stats.backend
    dtype = np.float32 if float32 else np.float64
    hyp = np.asarray(be.to_numpy(stats.hyp_counts)).astype(dtype)
    ref = np.asarray(be.to_numpy(stats.ref_counts)).astype(dtype)
    match = np.asarray(be.to_numpy(stats.matches)).astype(dtype)
    factor = beta**2
    orders = hyp.shape[-1]
    score = np.zeros(hyp.shape[:-1], dtype=dtype)
    total_precision = np.zeros(hyp.shape[:-1], dtype=dtype)
    total_recall = np.zeros(hyp.shape[:-1], dtype=dtype)
    effective = np.zeros(hyp.shape[:-1], dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(orders):
            n_hyp, n_ref, n_match = hyp[..., i], ref[..., i], match[..., i]
            precision = np.where(n_hyp > 0, n_match / n_hyp, dtype(EPSILON))
            recall = np.where(n_ref > 0, n_match / n_ref, dtype(EPSILON))
            denominator = factor * precision + recall
            score += np.where(denominator > 0, (1 + factor) * precision * recall / denominator,
                              dtype(EPSILON))
            both = (n_hyp > 0) & (n_ref > 0)
            total_precision += np.where(both, precision, dtype(0))
            total_recall += np.where(both, recall, dtype(0))
            effective += both
        if eps_smoothing:
            return np.asarray(100 * score / orders, dtype=np.float64)
        divisor = np.maximum(effective, 1).astype(dtype)
        average_precision = np.where(effective > 0, total_precision / divisor, dtype(0))
        average_recall = np.where(effective > 0, total_recall / divisor, dtype(0))
        value = (1 + factor) * average_precision * average_recall
        value = value / (factor * average_precision + average_recall)
        result = np.where(average_precision + average_recall != 0, 100 * value, dtype(0))
    return np.asarray(result, dtype=np.float64)
