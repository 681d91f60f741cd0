"""The summable statistics of the edit-distance measures (:class:`WerStats`): the hits,
substitutions, deletions and insertions of each sentence's alignment (jiwer's counts), int64
each, from which WER, MER, WIL, WIP and CER of any set of sentences follow exactly
(:mod:`bleusuite.scores.wer.formula`): corpus scores, bootstrap resamples, paired tests and
sums across processes are sums of them.

>>> import numpy as np
>>> stats = WerStats(np.array([3, 0]), np.array([1, 2]), np.array([0, 0]), np.array([1, 0]))
>>> total = stats.sum()
>>> int(total.errors), int(total.ref_words), int(total.hyp_words)
(4, 6, 7)
>>> WerStats.from_array(stats.to_array()).hits.tolist()
[3, 0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from bleusuite.scores.statistics import SummableStats

__all__ = ["FIELDS", "WerStats"]

#: the fields of :class:`WerStats`, in the order of its ``to_array`` form
FIELDS = ("hits", "substitutions", "deletions", "insertions")

A = TypeVar("A")


@dataclass(frozen=True)
class WerStats(SummableStats[A]):
    """Per-sentence (or summed) alignment counts, int64 each (jiwer's ``hits``,
    ``substitutions``, ``deletions``, ``insertions``); the reference has ``hits +
    substitutions + deletions`` words, the hypothesis ``hits + substitutions +
    insertions``."""

    hits: A
    substitutions: A
    deletions: A
    insertions: A

    length_field: ClassVar[str] = "hits"

    @property
    def errors(self) -> Any:
        """Substitutions, deletions and insertions: the edit distance."""
        s = _untyped(self)
        return s.substitutions + s.deletions + s.insertions

    @property
    def ref_words(self) -> Any:
        s = _untyped(self)
        return s.hits + s.substitutions + s.deletions

    @property
    def hyp_words(self) -> Any:
        s = _untyped(self)
        return s.hits + s.substitutions + s.insertions


def _untyped(value: object) -> Any:
    """``value`` for the arithmetic of this module, which works on any array type."""
    return value
