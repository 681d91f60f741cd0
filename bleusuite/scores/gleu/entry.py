"""GLEU (NLTK's ``gleu_score``) as an entry of the metric registry
(:mod:`bleusuite.scores.registry`).

>>> import numpy as np
>>> METRIC.scores(np.array([[6, 10]]), METRIC.settings()).tolist()
[60.0]
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from bleusuite import backends
from bleusuite.scores.bleu.entry import tokens_field
from bleusuite.scores.gleu.score import gleu_score
from bleusuite.scores.gleu.settings import GleuSettings
from bleusuite.scores.gleu.statistics import (
    GleuStats,
    gleu_statistics_from_counts,
    gleu_statistics_of_batch,
)
from bleusuite.scores.registry import WordCountedMetric, WordCounting

__all__ = ["METRIC"]


class _Gleu(WordCountedMetric):
    name = "gleu"
    label = "GLEU"
    abbreviations: ClassVar[dict[str, str]] = {"case": "c", "tok": "tok", "ngram": "n"}
    statistics = GleuStats
    settings_type = GleuSettings
    default_settings: ClassVar[dict[str, Any]] = {"tokenize": "13a"}  # the command's

    def signature(self, settings: GleuSettings) -> dict[str, Any]:
        return {"case": "lc" if settings.lowercase else "mixed",
                "tok": tokens_field(settings.tokenize),
                "ngram": f"{settings.min_len}-{settings.max_len}"}

    def scores(self, table: np.ndarray, settings: GleuSettings,
               resampled: bool = False) -> np.ndarray:
        scores = gleu_score(GleuStats.from_array(table))
        return np.atleast_1d(100.0 * np.asarray(scores, dtype=np.float64))

    command_flags: ClassVar[dict[str, str]] = {"tokenize": "tokenize", "lowercase": "lowercase"}
    command_fixed: ClassVar[dict[str, Any]] = {"min_len": 1, "max_len": 4}
    paired_tests = True

    def token_id_statistics(self, batch: Any, settings: GleuSettings) -> GleuStats[Any]:
        return gleu_statistics_of_batch(batch, settings.min_len, settings.max_len)

    def verbose(self, table: np.ndarray, settings: GleuSettings) -> list[str]:
        return [f"(matches = {m:d} total = {t:d})" for m, t in np.atleast_2d(table).tolist()]

    def word_counting(self, settings: GleuSettings) -> WordCounting:
        return WordCounting(settings.tokenize or "none", settings.lowercase, settings.max_len,
                            per_reference=True)

    def word_statistics(self, clipped: np.ndarray, per_reference: np.ndarray | None,
                        lengths: np.ndarray, settings: GleuSettings) -> np.ndarray:
        assert per_reference is not None, "GLEU counts per reference"
        be = backends.get_backend(lengths)
        ref_len = np.ascontiguousarray(lengths[1:].T)
        present = np.ones(ref_len.shape, dtype=bool)  # an empty line is an empty reference
        stats = gleu_statistics_from_counts(be, per_reference, lengths[0], ref_len, present,
                                            settings.min_len, settings.max_len)
        table: np.ndarray = stats.to_array()
        return table


#: the registry's entry
METRIC = _Gleu()
