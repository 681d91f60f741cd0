"""ROUGE's summable statistics (:class:`RougeStats`): each document's precision, recall and
F-measure and the number of documents.

rouge-score, pytorch-ignite and torchmetrics all score a corpus by the mean of its
documents' scores (pytorch-ignite keeps their sums and a count as its state; rouge-score's
``BootstrapAggregator`` reports the middle of resampled means): those sums are the
statistics here, so batches and processes add their statistics before scoring, as with
BLEU's counts. The sums are of floats: in another order they can differ in the last bits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from bleusuite import backends
from bleusuite.scores.statistics import SummableStats

__all__ = ["RougeStats"]

A = TypeVar("A")


@dataclass(frozen=True)
class RougeStats(SummableStats[A]):
    """Per-document (or summed) ROUGE statistics of one ROUGE type, float64 each.

    Attributes:
        precision: the document's precision (summed: the sum over the documents).
        recall: the document's recall.
        fmeasure: the document's F-measure.
        documents: 1 per document (summed: their number).

    >>> import numpy as np
    >>> stats = RougeStats(np.array([0.5, 1.0]), np.array([0.25, 1.0]),
    ...                    np.array([1 / 3, 1.0]), np.ones(2))
    >>> stats.sum().to_array().tolist()
    [1.5, 1.25, 1.3333333333333333, 2.0]
    """

    precision: A
    recall: A
    fmeasure: A
    documents: A

    length_field = "documents"


backends.register_container(RougeStats)
