"""A metric added by docs/architecture.md's recipe ("Where to add things: a new metric"),
for ``tests/scores/test_add_a_metric.py``: the share of hypotheses equal to one of their
references. It is written as a unit of ``bleusuite/scores/`` would be (its statistics type,
its formula, its result object and its registry entry) and touches nothing outside itself;
the test adds its one line to the registry's ``METRICS``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic

import numpy as np

from bleusuite.scores.registry import TextCountedMetric, reference_rows
from bleusuite.scores.reports import ScoreResult, make_signature
from bleusuite.scores.statistics import A, SummableStats


@dataclass(frozen=True)
class ExactStats(SummableStats[A], Generic[A]):
    """Per sentence: whether it equals a reference (``hits``), and 1 (``lines``)."""

    hits: A
    lines: A
    length_field: ClassVar[str] = "lines"


@dataclass(frozen=True)
class ExactSettings:
    lowercase: bool = False


def exact_scores(table: np.ndarray) -> np.ndarray:
    """The formula: 100 x hits / lines of each row of statistics ``(rows, 2)``."""
    table = np.atleast_2d(table)
    return np.where(table[:, 1] > 0, 100.0 * table[:, 0] / np.maximum(table[:, 1], 1), 0.0)


@dataclass(frozen=True)
class ExactResult(ScoreResult):
    score: float
    hits: int
    lines: int
    signature: str
    title: ClassVar[str] = "Exact"


def result_of_table(total: np.ndarray, settings: ExactSettings, nrefs: str,
                    given_tokens: bool = False) -> ExactResult:
    """:func:`bleusuite.scores.registry.result` of this metric."""
    return ExactResult(float(exact_scores(total)[0]), int(total[0]), int(total[1]),
                       make_signature("exact", settings, nrefs=nrefs).format())


class _Exact(TextCountedMetric):
    name = "exact"
    label = "Exact"
    abbreviations: ClassVar[dict[str, str]] = {"case": "c"}
    statistics = ExactStats
    command_flags: ClassVar[dict[str, str]] = {"lowercase": "lowercase"}
    paired_tests = True
    result_module = __name__

    def settings(self, **values: Any) -> ExactSettings:
        return ExactSettings(**values)

    def title(self, settings: ExactSettings) -> str:
        return "Exact"

    def signature(self, settings: ExactSettings) -> dict[str, Any]:
        return {"case": "lc" if settings.lowercase else "mixed"}

    def scores(self, table: np.ndarray, settings: ExactSettings,
               resampled: bool = False) -> np.ndarray:
        return exact_scores(table)

    def text_statistics(self, hypotheses: list[str], references: Sequence[list[str]],
                        settings: ExactSettings) -> np.ndarray:
        def same(line: str) -> str:
            return line.strip().lower() if settings.lowercase else line.strip()

        hits = [any(same(h) == same(r) for r in refs if r is not None)
                for h, refs in zip(hypotheses, reference_rows(hypotheses, references),
                                   strict=True)]
        stats = ExactStats(np.array(hits, dtype=np.int64), np.ones(len(hits), dtype=np.int64))
        table: np.ndarray = stats.to_array()
        return table


#: the registry's entry
METRIC = _Exact()
