"""What a Ray job returns (:class:`CorpusScores`), and the paired tests on gathered per-row
statistics: the calls ``bleusuite score`` makes, so the numbers are its to the last digit."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

import numpy as np

from bleusuite.scores import registry
from bleusuite.scores.bleu.result import BleuResult
from bleusuite.scores.chrf.result import ChrfResult
from bleusuite.scores.gleu.result import GleuResult
from bleusuite.scores.rouge.result import RougeResult
from bleusuite.scores.ter.result import TerResult
from bleusuite.scores.wer.score import EditResult
from bleusuite.significance.paired import (
    PairedResult,
    paired_approximate_randomization,
    paired_bootstrap,
)

__all__ = ["PAIRED_DEFAULTS", "PAIRED_TESTS", "CorpusScores", "Paired", "Result",
           "paired_results"]

#: a corpus result of any metric
Result = BleuResult | GleuResult | ChrfResult | TerResult | RougeResult | EditResult
#: the paired tests: sacrebleu's ``--paired-bs`` and ``--paired-ar``
Paired = Literal["bs", "ar"]
PAIRED_TESTS: tuple[Paired, ...] = ("bs", "ar")
#: resamples (``bs``) or trials (``ar``) where none are given: sacrebleu's
PAIRED_DEFAULTS: dict[Paired, int] = {"bs": 1000, "ar": 10000}


@dataclass(frozen=True)
class CorpusScores(Mapping[str, dict[str, Result]]):
    """The corpus results of a dataset: ``scores[system][metric]``, one system per
    hypothesis column (in the order given) and one result per metric.

    Attributes:
        results: hypothesis column -> metric -> result.
        paired: metric -> the paired test's results, one per system, the baseline (the
            first hypothesis column) first; empty without ``paired=``.
        rows: the rows scored.
    """

    results: Mapping[str, dict[str, Result]]
    paired: Mapping[str, list[PairedResult]] = field(default_factory=dict)
    rows: int = 0

    def __getitem__(self, system: str) -> dict[str, Result]:
        return self.results[system]

    def __iter__(self) -> Iterator[str]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)


def paired_results(metric: str, settings: Any, tables: Sequence[np.ndarray], test: Paired,
                   n: int | None, seed: int | None) -> list[PairedResult]:
    """The paired test of one metric on per-row statistics (one ``(B, F)`` per system, the
    baseline first), as ``bleusuite score --paired-bs`` / ``--paired-ar`` runs it."""
    score = partial(registry.get(metric).scores, settings=settings)
    n = PAIRED_DEFAULTS[test] if n is None else n
    if test == "bs":
        return paired_bootstrap(tables[0], list(tables[1:]), n, seed, score=score,
                                resampled_score=partial(score, resampled=True))
    return paired_approximate_randomization(tables[0], list(tables[1:]), n, seed, score=score)
