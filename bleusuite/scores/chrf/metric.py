"""chrF and chrF++ as an entry of the metric registry (:mod:`bleusuite.scores.registry`).

>>> settings = METRIC.settings(word_order=2)
>>> METRIC.title(settings), METRIC.signature(settings)["nw"]
('chrF2++', 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from bleusuite.scores.chrf.counts import chrf_statistics
from bleusuite.scores.chrf.formula import chrf_scores
from bleusuite.scores.chrf.settings import ChrfSettings
from bleusuite.scores.chrf.statistics import ChrfStats

__all__ = ["METRIC"]


class _Chrf:
    name = "chrf"
    #: sacrebleu's short keys of its signature fields
    abbreviations: ClassVar[dict[str, str]] = {"case": "c", "eff": "e", "nc": "nc",
                                                 "nw": "nw", "space": "s"}
    statistics = ChrfStats

    def settings(self, **values: Any) -> ChrfSettings:
        return ChrfSettings(**values)

    def title(self, settings: ChrfSettings) -> str:
        return f"chrF{settings.beta}" + "+" * settings.word_order

    def signature(self, settings: ChrfSettings) -> dict[str, Any]:
        return {"case": "lc" if settings.lowercase else "mixed",
                "eff": "no" if settings.eps_smoothing else "yes",
                "nc": settings.char_order, "nw": settings.word_order,
                "space": "yes" if settings.whitespace else "no"}

    def scores(self, table: np.ndarray, settings: ChrfSettings,
               resampled: bool = False) -> np.ndarray:
        scores = chrf_scores(np.atleast_2d(table), settings.beta, settings.eps_smoothing,
                             float32=resampled)
        # sacrebleu's resampled chrF scores are float32 scalars: so are their mean and
        # interval (bleusuite.significance.bootstrap keeps float32 scores float32)
        return np.atleast_1d(scores.astype(np.float32) if resampled else scores)

    def verbose(self, table: np.ndarray, settings: ChrfSettings) -> list[str]:
        return [""] * len(np.atleast_2d(table))

    def word_counting(self, settings: ChrfSettings) -> None:
        return None

    def word_statistics(self, clipped: np.ndarray, per_reference: np.ndarray | None,
                        lengths: np.ndarray, settings: ChrfSettings) -> np.ndarray:
        raise NotImplementedError("chrF's statistics come from the text")

    def text_statistics(self, hypotheses: list[str], references: Sequence[list[str]],
                        settings: ChrfSettings) -> np.ndarray:
        rows = [list(refs) for refs in zip(*references, strict=True)] if references else \
            [[] for _ in hypotheses]
        stats = chrf_statistics(hypotheses, rows, settings)
        table: np.ndarray = stats.to_array()
        return table


#: the registry's entry
METRIC = _Chrf()
