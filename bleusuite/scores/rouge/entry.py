"""ROUGE as an entry of the metric registry (:mod:`bleusuite.scores.registry`): one ROUGE
type and measure, on text (``bleusuite.ray``'s scorers; the command has no ROUGE, as
sacrebleu has none).

>>> from bleusuite.scores.rouge.entry import METRIC
>>> settings = METRIC.settings(rouge_type="rougeLsum", use_stemmer=True)
>>> METRIC.title(settings), METRIC.signature(settings)["stem"]
('ROUGE-Lsum', 'porter')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from bleusuite.scores.registry import TextCountedMetric, reference_rows
from bleusuite.scores.rouge.settings import MEASURES, RougeSettings
from bleusuite.scores.rouge.statistics import RougeStats

__all__ = ["METRIC", "title"]


def title(rouge_type: str) -> str:
    """The printed name of a ROUGE type: ``ROUGE-1``, ``ROUGE-L``, ``ROUGE-Lsum``.

    >>> title("rouge2"), title("rougeL")
    ('ROUGE-2', 'ROUGE-L')
    """
    return f"ROUGE-{rouge_type[5:]}"


def verbose_line(precision: float, recall: float, fmeasure: float) -> str:
    """What follows a ROUGE score in a report: the three means, 0-100.

    >>> verbose_line(50.0, 100.0, 66.666)
    '(P 50.00 R 100.00 F 66.67)'
    """
    return f"(P {precision:.2f} R {recall:.2f} F {fmeasure:.2f})"


class _Rouge(TextCountedMetric):
    name = "rouge"
    label = "ROUGE"
    abbreviations: ClassVar[dict[str, str]] = {}
    statistics = RougeStats
    settings_type = RougeSettings

    def title(self, settings: RougeSettings) -> str:
        return title(settings.rouge_type)

    def signature(self, settings: RougeSettings) -> dict[str, Any]:
        return {"measure": settings.measure, "tok": settings.tokenize or "given",
                "stem": "porter" if settings.use_stemmer else "no", "multiref": "best-f"}

    def scores(self, table: np.ndarray, settings: RougeSettings,
               resampled: bool = False) -> np.ndarray:
        return np.atleast_1d(_percents(table, settings.measure))

    def verbose(self, table: np.ndarray, settings: RougeSettings) -> list[str]:
        parts = [_percents(table, measure) for measure in MEASURES]
        return [verbose_line(p, r, f) for p, r, f in zip(*parts, strict=True)]

    #: ROUGE's statistics are the documents' scores, not integer counts that resamples sum
    paired_tests = False
    # not a metric of the command (sacrebleu has no ROUGE): no command_flags

    # ROUGE's corpus scores are of text: the base refuses token ids
    def text_statistics(self, hypotheses: list[str], references: Sequence[list[str]],
                        settings: RougeSettings) -> np.ndarray:
        from bleusuite.scores.rouge.score import type_statistics

        rows = reference_rows(hypotheses, references)
        return type_statistics(hypotheses, rows, settings).to_array()


def _percents(table: np.ndarray, measure: str) -> Any:
    from bleusuite.scores.rouge.score import rouge_score

    stats = RougeStats.from_array(np.atleast_2d(np.asarray(table, dtype=np.float64)))
    return 100.0 * rouge_score(stats, measure)


#: the registry's entry
METRIC = _Rouge()
