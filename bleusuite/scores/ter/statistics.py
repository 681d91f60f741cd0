"""TER's summable statistics (:class:`TerStats`).

A sentence's statistics are sacrebleu's two: the fewest edits against any of its references
(shifts, insertions, deletions, substitutions) and the average length of its references.
The average is kept as an integer in units of 1/:data:`REF_LENGTH_UNIT` of a word
(``REF_LENGTH_UNIT = 720720``, the least common multiple of 1..16): the average of up to 16
references (or of any number that divides the unit) is then exact, so statistics sum
exactly in any order, as every metric's do (corpus scores, bootstrap resamples, paired
tests, sums across processes).

>>> stats = TerStats(np.array([2, 0]), np.array([5, 3]) * REF_LENGTH_UNIT)
>>> stats.sum().edits.tolist(), stats.sum().ref_length.tolist()
(2, 8.0)
>>> TerStats.from_array(stats.to_array()).ref_length.tolist()
[5.0, 3.0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from bleusuite.scores.statistics import SummableStats

__all__ = ["REF_LENGTH_UNIT", "TerStats", "ref_length_units"]

#: the unit of :attr:`TerStats.ref_length_units`: 1/720720 of a word (lcm(1, ..., 16))
REF_LENGTH_UNIT = 720720

A = TypeVar("A")


@dataclass(frozen=True)
class TerStats(SummableStats[A]):
    """Per-sentence (or summed) TER statistics, int64 each.

    Attributes:
        edits: the fewest edits against any reference (sacrebleu's ``num_edits``).
        ref_length_units: the average reference length in units of 1/:data:`REF_LENGTH_UNIT`
            word (exact: see the module's description); :attr:`ref_length` is it in words.
    """

    edits: A
    ref_length_units: A

    length_field = "edits"

    @property
    def ref_length(self) -> Any:
        """The average reference length in words (float64), sacrebleu's ``ref_length``."""
        units = _untyped(self.ref_length_units)
        return self.backend.to_float64(units) / REF_LENGTH_UNIT


def ref_length_units(ref_lengths: np.ndarray, present: np.ndarray) -> np.ndarray:
    """The average length of each row's present references ``(B,)``, in units of
    1/:data:`REF_LENGTH_UNIT` word, from their lengths and presence ``(B, R)``.

    >>> ref_length_units(np.array([[4, 5, 0]]), np.array([[True, True, False]]))
    array([3243240])

    Raises:
        ValueError: a row without references, or with a number of references whose average
            the unit does not hold exactly (one that does not divide 720720: 17, 19, ...).
    """
    counts = present.sum(axis=1)
    if len(counts) and counts.min() == 0:
        row = int(np.flatnonzero(counts == 0)[0])
        raise ValueError(f"references: hypothesis {row} has no reference (TER averages the "
                         "reference lengths)")
    inexact = REF_LENGTH_UNIT % np.maximum(counts, 1) != 0
    if inexact.any():
        row = int(np.flatnonzero(inexact)[0])
        raise ValueError(
            f"references: hypothesis {row} has {int(counts[row])} references; TER's statistics "
            "hold the average reference length exactly for up to 16 references per sentence "
            f"(or a number that divides {REF_LENGTH_UNIT})")
    totals = np.where(present, ref_lengths, 0).sum(axis=1).astype(np.int64)
    result: np.ndarray = totals * (REF_LENGTH_UNIT // np.maximum(counts, 1))
    return result


def _untyped(value: object) -> Any:
    """``value`` for the arithmetic of this module, which works on any array type."""
    return value
