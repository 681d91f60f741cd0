"""rouge-score's corpus aggregation (``scoring.BootstrapAggregator``, evaluate's ``rouge``):
per ROUGE type, the 2.5th, 50th and 97.5th percentiles of the means of ``n_samples``
resamples of the documents' scores, drawn from NumPy's global random state as rouge-score
draws them, so the same state gives the same numbers.

>>> import numpy as np
>>> from bleusuite.scores.rouge.score import rouge_scores
>>> stats = rouge_scores(["a b c", "a b", "b c d"], ["a b c", "b a", "c d"],
...                      rouge_types=("rouge1",))
>>> np.random.seed(0)
>>> low, mid, high = bootstrap_aggregate(stats)["rouge1"]
>>> [round(x, 4) for x in mid]                  # precision, recall, F-measure
[0.8889, 1.0, 0.9333]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from bleusuite.scores.reports import host
from bleusuite.scores.rouge.statistics import RougeStats

__all__ = ["AggregateScore", "Score", "bootstrap_aggregate"]

#: resamples drawn at once (their indices and their rows held together)
RESAMPLES_PER_CHUNK = 64


class Score(NamedTuple):
    """rouge-score's ``Score``."""

    precision: float
    recall: float
    fmeasure: float


class AggregateScore(NamedTuple):
    """rouge-score's ``AggregateScore``: the low, middle and high percentiles."""

    low: Score
    mid: Score
    high: Score


def bootstrap_aggregate(stats: Mapping[str, RougeStats[Any]], confidence_interval: float = 0.95,
                        n_samples: int = 1000) -> dict[str, AggregateScore]:
    """rouge-score's ``BootstrapAggregator(confidence_interval, n_samples)`` over the
    per-document statistics of each type (in the mapping's order, as rouge-score adds
    them), drawing from NumPy's global random state.

    Raises:
        ValueError: a bad ``confidence_interval`` or ``n_samples`` (rouge-score's checks),
            or statistics without documents.
    """
    if confidence_interval < 0 or confidence_interval > 1:
        raise ValueError("confidence_interval must be in range [0, 1]")
    if n_samples <= 0:
        raise ValueError("n_samples must be positive")
    delta = (1 - confidence_interval) / 2
    quantiles = 100 * np.array([delta, 0.5, 1 - delta])
    result = {}
    for rouge_type, per_document in stats.items():
        matrix = np.stack([np.asarray(host(a), dtype=np.float64) for a in (
            per_document.precision, per_document.recall, per_document.fmeasure)], axis=1)
        if matrix.ndim != 2 or not len(matrix):
            raise ValueError(f"stats[{rouge_type!r}]: per-document statistics of one "
                             "document or more are needed")
        # row i: np.mean(matrix[np.random.choice(np.arange(B), size=B)], axis=0) of the i-th
        # draw; np.random.randint(0, B, size=(k, B)) draws k of them at once from the stream
        means, documents = np.empty((n_samples, 3)), len(matrix)
        for start in range(0, n_samples, RESAMPLES_PER_CHUNK):
            count = min(RESAMPLES_PER_CHUNK, n_samples - start)
            indices = np.random.randint(0, documents, size=(count, documents))  # noqa: NPY002
            means[start : start + count] = np.mean(matrix[indices], axis=1)
        bounds = np.percentile(means, quantiles, axis=0)
        result[rouge_type] = AggregateScore(*(Score(*map(float, row)) for row in bounds))
    return result

