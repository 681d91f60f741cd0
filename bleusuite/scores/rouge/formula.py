"""ROUGE's arithmetic, the one place it is written: each reference's precision, recall and
F-measure from the counts (:class:`~bleusuite.scores.rouge.counts.RougeCounts`), and how
rouge-score, pytorch-ignite and torchmetrics each keep one score per document from several
references (the table of docs/rouge.md, "Several references"). Every function is
element-wise on the counts' backend, so device batches stay there.

>>> from bleusuite.scores.rouge.counts import RougeCounts
>>> counts = RougeCounts(np.array([[[3], [2]]]), np.array([[4]]), np.array([[[6], [2]]]),
...                      np.array([[True, True]]))
>>> [a.tolist() for a in best_reference(counts)]          # rouge-score: the second
[[[0.5]], [[1.0]], [[0.6666666666666666]]]
>>> [a.tolist() for a in ignite_scores(counts, "average", 0.0)]
[[[0.625]], [[0.625]], [[0.625]]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bleusuite import backends
from bleusuite.scores.rouge.counts import RougeCounts

__all__ = ["IGNITE_MULTIREF", "TORCHMETRICS_ACCUMULATE", "best_reference", "fmeasure",
           "ignite_scores", "reference_scores", "torchmetrics_scores"]

#: pytorch-ignite's ``multiref`` values
IGNITE_MULTIREF = ("best", "average")
#: torchmetrics' ``accumulate`` values
TORCHMETRICS_ACCUMULATE = ("best", "avg")


def _ratio(be: Any, matches: Any, totals: Any) -> Any:
    """``matches / max(totals, 1)`` in float64 (Python's ``/`` of two ints: the same bits)."""
    return be.to_float64(matches) / be.to_float64(be.maximum(totals, 1))


def fmeasure(be: Any, precision: Any, recall: Any) -> Any:
    """rouge-score's ``scoring.fmeasure``: ``2 * p * r / (p + r)``, 0 where ``p + r`` is 0."""
    total = precision + recall
    return be.where(total > 0, 2 * precision * recall / be.where(total > 0, total, 1.0), 0.0)


def _precision_recall(be: Any, counts: RougeCounts) -> tuple[Any, Any]:
    return (_ratio(be, counts.matches, counts.hyp_totals[:, None, :]),
            _ratio(be, counts.matches, counts.ref_totals))


def reference_scores(counts: RougeCounts) -> tuple[Any, Any, Any]:
    """rouge-score's ``Score`` (precision, recall, F-measure) of each hypothesis against
    each reference, ``(B, R, T)`` each."""
    be = backends.get_backend(counts.matches)
    precision, recall = _precision_recall(be, counts)
    return precision, recall, fmeasure(be, precision, recall)


def _pick(be: Any, key: Any, present: Any, arrays: tuple[Any, ...]) -> tuple[Any, ...]:
    """Each array's entry ``(B, T)`` at the present reference of highest ``key`` (the first)."""
    ranked = be.where(present[..., None], key, -np.inf)
    best = be.argmax(ranked, axis=1)[:, None, :]
    return tuple(be.take_along(a, best, axis=1)[:, 0, :] for a in arrays)


def best_reference(counts: RougeCounts) -> tuple[Any, Any, Any]:
    """rouge-score's ``score_multi``: precision, recall and F-measure ``(B, T)`` of the
    reference with the highest F-measure (the first on ties)."""
    scores = reference_scores(counts)
    precision, recall, fscore = _pick(backends.get_backend(counts.matches), scores[2],
                                      counts.present, scores)
    return precision, recall, fscore


def ignite_scores(counts: RougeCounts, multiref: str, alpha: float) -> tuple[Any, Any, Any]:
    """pytorch-ignite's precision, recall and F-measure ``(B, T)`` of each document
    (``multiref`` ``best``: the reference of highest recall; ``average``: the counts of all
    references added; F-measure ``P * R / ((1 - alpha) * P + alpha * R)``)."""
    be = backends.get_backend(counts.matches)
    if multiref == "average":
        present = counts.present[..., None]
        matches = be.sum_(be.where(present, counts.matches, 0), axis=1)
        references = be.sum_(be.where(present, counts.ref_totals, 0), axis=1)
        candidates = counts.hyp_totals * be.sum_(be.to_int64(counts.present), axis=1)[:, None]
        precision = _ratio(be, matches, candidates)
        recall = _ratio(be, matches, references)
    else:
        precision, recall = _precision_recall(be, counts)
        precision, recall = _pick(be, recall, counts.present, (precision, recall))
    product = precision * recall
    denominator = (1 - alpha) * precision + alpha * recall
    positive = product > 0
    fscore = be.where(positive, product / be.where(positive, denominator, 1.0), 0.0)
    return precision, recall, fscore


def torchmetrics_scores(counts: RougeCounts, accumulate: str) -> tuple[Any, Any, Any]:
    """torchmetrics' precision, recall and F-measure ``(B, T)`` of each document, float32
    numbers as float64 (``accumulate`` ``best``: the reference of highest F-measure;
    ``avg``: the mean over the references)."""
    scores = tuple(np.asarray(a, dtype=np.float32) for a in reference_scores(counts))
    present = np.asarray(counts.present)
    if accumulate == "best":
        be = backends.get_backend(scores[0])
        picked = _pick(be, scores[2], present, scores)
    else:
        weights = present[..., None].astype(np.float32)
        number = np.maximum(weights.sum(axis=1), 1)
        picked = tuple((a * weights).sum(axis=1, dtype=np.float32) / number for a in scores)
    return tuple(np.asarray(a, dtype=np.float64) for a in picked)  # type: ignore[return-value]
