"""CIDEr-D as an Ignite metric (:class:`CiderD`), over summed statistics: with fixed
document frequencies (:func:`bleusuite.cider_document_frequency`) each image's score is its
own, so the state is the sum of the scores and their number, reduced across processes (see
:mod:`bleusuite.torchmetrics.cider` for why pycocoevalcap's own document frequencies allow
no such state).

>>> from bleusuite import cider_document_frequency
>>> from bleusuite.metrics import CiderD
>>> refs = [["a man riding a horse", "a person on a horse"], ["a cat on a couch"]]
>>> metric = CiderD(document_frequency=cider_document_frequency(refs))
>>> metric.update((["a man on a horse", "a cat on a sofa"], refs))
>>> round(metric.compute(), 4)
4.517
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch
from ignite.exceptions import NotComputableError
from ignite.metrics.metric import Metric, reinit__is_reduced, sync_all_reduce

from bleusuite.scores.cider.entry import CiderSettings
from bleusuite.scores.cider.score import CiderDocumentFrequency, sentence_cider

__all__ = ["CiderD"]

_CPU = torch.device("cpu")


class CiderD(Metric):
    """CIDEr-D (pycocoevalcap's scale) of ``(y_pred, y)`` batches: the mean of
    :func:`bleusuite.sentence_cider` with fixed document frequencies.

    Args:
        document_frequency: of :func:`bleusuite.cider_document_frequency` (required).
        max_order, sigma: as :func:`bleusuite.sentence_cider`.
        pad_id, eos_id: for token-id tensors.
        output_transform, device, skip_unrolling: Ignite's.
    """

    def __init__(self, document_frequency: CiderDocumentFrequency | None = None,
                 max_order: int = 4, sigma: float = 6.0, pad_id: int | None = None,
                 eos_id: int | None = None,
                 output_transform: Callable[[Any], Any] = lambda x: x,
                 device: str | torch.device = _CPU,
                 skip_unrolling: bool = False) -> None:
        settings = CiderSettings(document_frequency, max_order, sigma)
        self._frequency = settings.frequency()
        self._max_order, self._sigma = max_order, float(sigma)
        self._pad_id, self._eos_id = pad_id, eos_id
        super().__init__(output_transform=output_transform, device=device,
                         skip_unrolling=skip_unrolling)

    @reinit__is_reduced
    def reset(self) -> None:
        self._score_sum = torch.tensor(0.0, dtype=torch.float64, device=self._device)
        self._num_examples = 0

    @reinit__is_reduced
    def update(self, output: Sequence[Any]) -> None:
        y_pred, y = output[0], output[1]
        scores = sentence_cider(y_pred, y, document_frequency=self._frequency,
                                max_order=self._max_order, sigma=self._sigma,
                                pad_id=self._pad_id, eos_id=self._eos_id)
        self._num_examples += int(scores.shape[0])
        if (isinstance(scores, torch.Tensor) and scores.device.type != "cpu"
                and scores.device == self._score_sum.device):
            # on the metric's device: the sum stays there, update() waits for nothing
            self._score_sum += scores.sum()
            return
        host = np.asarray(scores.cpu() if isinstance(scores, torch.Tensor) else scores,
                          dtype=np.float64)
        self._score_sum += float(host.sum())

    @sync_all_reduce("_score_sum", "_num_examples")
    def compute(self) -> float:
        if self._num_examples == 0:
            raise NotComputableError("CiderD must have at least one example before it can "
                                     "be computed.")
        return float(self._score_sum) / self._num_examples
