"""CIDEr-D as an entry of the metric registry (:mod:`bleusuite.scores.registry`), and its
settings (:class:`CiderSettings`): Ray's corpus scores and any front end that takes metrics
by name reach it here. Its score is 100 x the mean CIDEr-D of the images.

An entry's statistics must add up over batches and blocks, which CIDEr-D's do only with
fixed document frequencies (pycocoevalcap takes them from the whole evaluated set, so an
image's score depends on the other images): the entry needs ``document_frequency`` (of
:func:`bleusuite.cider_document_frequency`); pycocoevalcap's own numbers on a whole set are
:class:`bleusuite.pycocoevalcap.Cider`'s.

>>> from bleusuite import cider_document_frequency
>>> from bleusuite.scores.cider.entry import METRIC
>>> refs = [["a man riding a horse", "a person on a horse"], ["a cat on a couch"]]
>>> settings = METRIC.settings(document_frequency=cider_document_frequency(refs))
>>> METRIC.title(settings), METRIC.signature(settings)
('CIDEr-D', {'df': 'fixed', 'n': 4, 'sigma': 6.0, 'tok': 'whitespace'})
>>> table = METRIC.text_statistics(["a man on a horse", "a cat on a sofa"],
...                                [[r[0] for r in refs]], settings)
>>> METRIC.scores(table.sum(axis=0), settings).round(2).tolist()
[465.9]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from bleusuite.scores.cider.score import (
    CiderDocumentFrequency,
    cider_scores_of_batch,
    sentence_cider,
)
from bleusuite.scores.cider.statistics import CiderStats
from bleusuite.scores.registry import TextCountedMetric

__all__ = ["METRIC", "CiderSettings"]


@dataclass(frozen=True, eq=False)
class CiderSettings:
    """CIDEr-D's settings: ``document_frequency`` (required to score: see the module),
    ``max_order`` (pycocoevalcap's ``n``), ``sigma`` (the length penalty's deviation).

    >>> CiderSettings(max_order=0)
    Traceback (most recent call last):
    ...
    ValueError: max_order must be a positive int; got 0
    """

    document_frequency: CiderDocumentFrequency | None = None
    max_order: int = 4
    sigma: float = 6.0

    def __post_init__(self) -> None:
        from bleusuite.scores.cider.score import _check_settings

        _check_settings(self.max_order, self.sigma)
        if self.document_frequency is not None and not isinstance(
                self.document_frequency, CiderDocumentFrequency):
            raise TypeError("document_frequency must come from cider_document_frequency; got "
                            f"{type(self.document_frequency).__name__}")

    def frequency(self) -> CiderDocumentFrequency:
        """The document frequencies, or a ValueError that says how to give them."""
        if self.document_frequency is None:
            raise ValueError(
                "cider: its statistics add up only with fixed document frequencies: give "
                "document_frequency=bleusuite.cider_document_frequency(reference_corpus) "
                "(pycocoevalcap's own, from the whole evaluated set, are "
                "bleusuite.pycocoevalcap.Cider's)")
        return self.document_frequency


class _Cider(TextCountedMetric):
    name = "cider"
    label = "CIDEr-D"
    statistics = CiderStats
    abbreviations: ClassVar[dict[str, str]] = {"df": "df", "n": "n", "sigma": "s", "tok": "t"}

    def settings(self, **values: Any) -> CiderSettings:
        return CiderSettings(**values)

    def title(self, settings: CiderSettings) -> str:
        return "CIDEr-D"

    def signature(self, settings: CiderSettings) -> dict[str, Any]:
        return {"df": "fixed" if settings.document_frequency is not None else "set",
                "n": settings.max_order, "sigma": float(settings.sigma), "tok": "whitespace"}

    def scores(self, table: np.ndarray, settings: CiderSettings,
               resampled: bool = False) -> np.ndarray:
        table = np.atleast_2d(np.asarray(table, dtype=np.float64))
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(100.0 * table[:, 0] / table[:, 1])

    #: float sums of scores, not integer counts that resamples sum
    paired_tests = False
    # not a metric of the command (sacrebleu has no CIDEr): no command_flags

    def token_id_settings(self, settings: CiderSettings,
                          given: Mapping[str, Any]) -> CiderSettings:
        if settings.frequency().text:
            raise ValueError("document_frequency was counted on text; token-id columns need "
                             "cider_document_frequency of token ids")
        return settings

    def token_id_statistics(self, batch: Any, settings: CiderSettings) -> CiderStats[Any]:
        scores = cider_scores_of_batch(batch, settings.frequency(), settings.max_order,
                                       settings.sigma)
        return CiderStats(scores, np.ones_like(scores))

    def text_statistics(self, hypotheses: list[str], references: Sequence[list[str]],
                        settings: CiderSettings) -> np.ndarray:
        frequency = settings.frequency()
        rows = [[r for r in refs if r is not None] for refs in zip(*references, strict=True)] \
            if references else [[] for _ in hypotheses]
        scores = np.asarray(sentence_cider(list(hypotheses), rows,
                                           document_frequency=frequency,
                                           max_order=settings.max_order,
                                           sigma=settings.sigma), dtype=np.float64)
        table: np.ndarray = CiderStats(scores, np.ones_like(scores)).to_array()
        return table


#: the registry's entry
METRIC = _Cider()
