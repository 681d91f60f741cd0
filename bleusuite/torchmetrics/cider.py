"""CIDEr-D as a torchmetrics metric (:class:`CIDErScore`), over summed statistics.

pycocoevalcap takes CIDEr-D's document frequencies from the set it evaluates, so an image's
score depends on every other image: no state smaller than every caption seen would give
its numbers across batches and processes. With fixed document frequencies (of a reference
corpus, :func:`bleusuite.cider_document_frequency`) an image's score is its own, and the
corpus score is the mean: the state is then the sum of the images' scores (float64) and
their number (int64), reduced by summing (``dist_reduce_fx="sum"``), the same whatever the
batches. So the metric needs ``document_frequency``.

>>> from bleusuite import cider_document_frequency
>>> from bleusuite.torchmetrics import CIDErScore
>>> refs = [["a man riding a horse", "a person on a horse"], ["a cat on a couch"]]
>>> metric = CIDErScore(document_frequency=cider_document_frequency(refs))
>>> metric.update(["a man on a horse"], refs[:1])
>>> metric.update(["a cat on a sofa"], refs[1:])
>>> metric.compute()           # the mean of bleusuite.sentence_cider's scores
tensor(4.5170, dtype=torch.float64)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torchmetrics import Metric

from bleusuite.scores.cider.entry import CiderSettings
from bleusuite.scores.cider.score import CiderDocumentFrequency, sentence_cider

__all__ = ["CIDErScore"]


class CIDErScore(Metric):
    """CIDEr-D (pycocoevalcap's scale) of every (hypothesis, references) pair seen, with
    fixed document frequencies: the mean of :func:`bleusuite.sentence_cider`.

    Args:
        document_frequency: of :func:`bleusuite.cider_document_frequency` (required: see
            the module), counted on text for text inputs, on token ids for token ids.
        max_order: highest n-gram order; sigma: the length penalty's deviation.
        pad_id, eos_id: for token-id tensors, as in :func:`bleusuite.sentence_bleu`.

    Raises:
        ValueError, TypeError: a missing or malformed setting; the message names it.
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0

    score_sum: torch.Tensor
    images: torch.Tensor

    def __init__(self, document_frequency: CiderDocumentFrequency | None = None,
                 max_order: int = 4, sigma: float = 6.0, pad_id: int | None = None,
                 eos_id: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        settings = CiderSettings(document_frequency, max_order, sigma)
        self.document_frequency = settings.frequency()
        self.max_order, self.sigma = max_order, float(sigma)
        self.pad_id, self.eos_id = pad_id, eos_id
        self.add_state("score_sum", torch.tensor(0.0, dtype=torch.float64),
                       dist_reduce_fx="sum")
        self.add_state("images", torch.tensor(0, dtype=torch.int64), dist_reduce_fx="sum")

    def update(self, preds: Any, target: Any) -> None:
        """Add the pairs: ``preds`` a list of strings (or token ids), ``target`` per
        prediction its reference strings (or token sequences)."""
        scores = sentence_cider(preds, target, document_frequency=self.document_frequency,
                                max_order=self.max_order, sigma=self.sigma,
                                pad_id=self.pad_id, eos_id=self.eos_id)
        self.images = self.images + int(scores.shape[0])
        if isinstance(scores, torch.Tensor) and scores.device.type != "cpu":
            # a device batch's sum stays on the device: update() waits for nothing
            self.score_sum = self.score_sum + scores.sum().to(self.score_sum.device)
            return
        host = np.asarray(scores.cpu() if isinstance(scores, torch.Tensor) else scores,
                          dtype=np.float64)
        self.score_sum = self.score_sum + float(host.sum())

    def compute(self) -> torch.Tensor:
        """The mean CIDEr-D of the images seen (0 where none was)."""
        if int(self.images) == 0:
            return torch.tensor(0.0, dtype=torch.float64)
        return self.score_sum / self.images
