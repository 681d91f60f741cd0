"""CIDEr-D's summable statistics (:class:`CiderStats`): each image's score and the number of
images.

With fixed document frequencies (:func:`bleusuite.cider_document_frequency` of a reference
corpus) an image's CIDEr-D depends only on its hypothesis and references, and a corpus's is
the mean of its images' (pycocoevalcap's ``np.mean``): the sums of the scores and the
count are then the statistics that batches, processes and Ray's blocks add before scoring,
as ROUGE's are. Without fixed document frequencies the scores depend on the whole evaluated
set and are no such statistics (:mod:`bleusuite.scores.cider.entry` refuses them).
The sums are of floats: in another order they can differ in the last bits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from bleusuite import backends
from bleusuite.scores.statistics import SummableStats

__all__ = ["CiderStats"]

A = TypeVar("A")


@dataclass(frozen=True)
class CiderStats(SummableStats[A]):
    """Per-image (or summed) CIDEr-D statistics, float64 each.

    Attributes:
        score: the image's CIDEr-D on pycocoevalcap's scale (summed: the sum over images).
        images: 1 per image (summed: their number).

    >>> import numpy as np
    >>> CiderStats(np.array([1.5, 0.5]), np.ones(2)).sum().to_array().tolist()
    [2.0, 2.0]
    """

    score: A
    images: A

    length_field = "images"


backends.register_container(CiderStats)
