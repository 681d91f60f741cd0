"""TER as an entry of the metric registry (:mod:`bleusuite.scores.registry`).

>>> from bleusuite.scores.ter.entry import METRIC
>>> settings = METRIC.settings(case_sensitive=True)
>>> METRIC.title(settings), METRIC.signature(settings)
('TER', {'case': 'mixed', 'tok': 'tercom', 'norm': 'no', 'punct': 'yes', 'asian': 'no'})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from bleusuite.scores.registry import TextCountedMetric, reference_rows
from bleusuite.scores.ter.formula import ter_scores
from bleusuite.scores.ter.settings import TerSettings
from bleusuite.scores.ter.statistics import (
    TerStats,
    ter_statistics_of_batch,
    ter_statistics_of_texts,
)

__all__ = ["METRIC"]


class _Ter(TextCountedMetric):
    name = "ter"
    label = "TER"
    statistics = TerStats
    settings_type = TerSettings
    #: sacrebleu's short signature keys of TER (its ``TERSignature``: ``tok`` is ``t``)
    abbreviations: ClassVar[dict[str, str]] = {"case": "c", "tok": "t", "norm": "nr",
                                               "punct": "pn", "asian": "as"}

    def signature(self, settings: TerSettings) -> dict[str, Any]:
        yes = {True: "yes", False: "no"}
        return {"case": "mixed" if settings.case_sensitive else "lc", "tok": "tercom",
                "norm": yes[settings.normalized], "punct": yes[not settings.no_punct],
                "asian": yes[settings.asian_support]}

    def scores(self, table: np.ndarray, settings: TerSettings,
               resampled: bool = False) -> np.ndarray:
        table = np.atleast_2d(table)
        scores = np.atleast_1d(ter_scores(table, float32=resampled))
        if resampled and (TerStats.from_array(table).ref_length_units == 0).any():
            # sacrebleu's resampled TER scores are float32 scalars but a Python float (its
            # 1.0 or 0.0) where the references are empty: NumPy's array of them is float32
            # (and so are its mean and interval) only where no row is such a row
            return scores.astype(np.float64)
        return scores

    command_flags: ClassVar[dict[str, str]] = {
        "normalized": "ter_normalized", "no_punct": "ter_no_punct",
        "asian_support": "ter_asian_support", "case_sensitive": "ter_case_sensitive"}
    paired_tests = True

    def token_id_settings(self, settings: TerSettings, given: Mapping[str, Any]) -> TerSettings:
        # TER compares token ids as given: its tokenizer's options are text's
        if settings.normalized or settings.no_punct or settings.asian_support:
            raise ValueError("normalized, no_punct and asian_support apply to text columns "
                             "(tercom's tokenizer); token ids are compared as given")
        return settings

    def token_id_statistics(self, batch: Any, settings: TerSettings) -> TerStats[Any]:
        return ter_statistics_of_batch(batch)

    def text_statistics(self, hypotheses: list[str], references: Sequence[list[str]],
                        settings: TerSettings) -> np.ndarray:
        return ter_statistics_of_texts(hypotheses, reference_rows(hypotheses, references),
                                       settings).to_array()


#: the registry's entry
METRIC = _Ter()
