"""CIDEr-D's result object for corpus scores (:class:`CiderResult`), built by the metric
registry (:func:`bleusuite.scores.registry.result`) from summed :class:`CiderStats`.

>>> import numpy as np
>>> from bleusuite.scores.cider.entry import METRIC
>>> result = result_of_table(np.array([2.5, 2.0]), METRIC.settings(), "5")
>>> print(result.format(signature=False)), result.cider
CIDEr-D = 125.00
(None, 1.25)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from bleusuite.scores.reports import GIVEN_TOKENS, ScoreResult, make_signature

__all__ = ["CiderResult", "result_of_table"]


@dataclass(frozen=True)
class CiderResult(ScoreResult):
    """A corpus CIDEr-D score.

    Attributes:
        score: 100 x the mean CIDEr-D of the images (the scale papers report: 112.3 for
            pycocoevalcap's 1.123).
        cider: the mean on pycocoevalcap's scale (its ``Cider().compute_score``'s first
            value, with the document frequencies of the settings).
        images: the images scored.
        signature: every setting that changes the number.
    """

    score: float
    cider: float
    images: int
    signature: str
    name: str = "CIDEr-D"


def result_of_table(total: np.ndarray, settings: Any, nrefs: str,
                    given_tokens: bool = False) -> CiderResult:
    """:func:`bleusuite.scores.registry.result` of this metric (``settings``: its
    :class:`~bleusuite.scores.cider.entry.CiderSettings`)."""
    score_sum, images = (float(x) for x in np.asarray(total, dtype=np.float64))
    if images == 0:
        raise ValueError("CIDEr-D of no image: the statistics sum to 0 images")
    mean = score_sum / images
    signature = make_signature("cider", settings, nrefs=nrefs,
                               extra={"tok": GIVEN_TOKENS} if given_tokens else None)
    return CiderResult(100.0 * mean, mean, int(images), signature.format())
