"""TER's summable statistics (:class:`TerStats`), of text and of token ids (each
hypothesis' fewest edits against its references, :mod:`bleusuite.scores.ter.edits`).

A sentence's statistics are sacrebleu's two: the fewest edits against any of its references
and the average length of its references, kept as an integer in units of
1/:data:`REF_LENGTH_UNIT` word (720720, the least common multiple of 1..16): the average of
up to 16 references is then exact, so statistics sum exactly in any order.

>>> stats = TerStats(np.array([2, 0]), np.array([5, 3]) * REF_LENGTH_UNIT)
>>> stats.sum().edits.tolist(), stats.sum().ref_length.tolist()
(2, 8.0)
>>> TerStats.from_array(stats.to_array()).ref_length.tolist()
[5.0, 3.0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from bleusuite.counting import ragged_rows
from bleusuite.scores.reports import host
from bleusuite.scores.statistics import SummableStats
from bleusuite.scores.ter.edits import ter_edits
from bleusuite.text.tercom import tercom_ids

if TYPE_CHECKING:
    from bleusuite.inputs.batch import Batch
    from bleusuite.scores.ter.settings import TerSettings

__all__ = ["REF_LENGTH_UNIT", "TerStats", "ref_length_units", "ter_statistics_of_batch",
           "ter_statistics_of_texts"]

#: the unit of :attr:`TerStats.ref_length_units`: 1/720720 of a word
REF_LENGTH_UNIT = 720720

A = TypeVar("A")


@dataclass(frozen=True)
class TerStats(SummableStats[A]):
    """Per-sentence (or summed) TER statistics, int64 each.

    Attributes:
        edits: the fewest edits against any reference (sacrebleu's ``num_edits``).
        ref_length_units: the average reference length in units of 1/:data:`REF_LENGTH_UNIT`
            word; :attr:`ref_length` is it in words.
    """

    edits: A
    ref_length_units: A

    length_field = "edits"

    @property
    def ref_length(self) -> Any:
        """The average reference length in words (float64), sacrebleu's ``ref_length``."""
        units: Any = self.ref_length_units
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


def ter_statistics_of_texts(hypotheses: list[str], references: list[list[str | None]],
                            settings: TerSettings) -> TerStats[np.ndarray]:
    """The statistics of hypothesis lines, each against its reference lines (``None``: no
    such reference), tokenised as sacrebleu's ``TER`` tokenises them.

    >>> from bleusuite.scores.ter.settings import TerSettings
    >>> stats = ter_statistics_of_texts(["a b c d"], [["c d a b", "a b"]], TerSettings())
    >>> stats.edits.tolist(), stats.ref_length.tolist()
    ([1], [3.0])
    """
    rows = len(hypotheses)
    width = max((len(refs) for refs in references), default=0)
    lines: list[str] = []
    slot = np.full((rows, width), -1, dtype=np.int64)  # each reference's line, -1: absent
    for b, refs in enumerate(references):
        for r, line in enumerate(refs):
            if line is not None:
                slot[b, r] = rows + len(lines)
                lines.append(line)
    ids, lengths = tercom_ids(hypotheses, lines, normalized=settings.normalized,
                              no_punct=settings.no_punct, asian_support=settings.asian_support,
                              case_sensitive=settings.case_sensitive)
    starts = np.cumsum(lengths) - lengths
    present = slot >= 0
    ref_starts = np.where(present, starts[np.maximum(slot, 0)], 0)
    ref_lengths = np.where(present, lengths[np.maximum(slot, 0)], -1)
    return _statistics(ids, starts[:rows], lengths[:rows], ids, ref_starts, ref_lengths, present)


def ter_statistics_of_batch(batch: Batch) -> TerStats[np.ndarray]:
    """The statistics of a normalised batch of token ids (on the host)."""
    present = np.asarray(host(batch.ref_present), dtype=bool)
    pairs = ragged_rows(batch)
    ref_lengths = np.where(present, pairs.ref_lengths, -1)
    return _statistics(pairs.hyp_ids, pairs.hyp_starts, pairs.hyp_lengths, pairs.ref_ids,
                       pairs.ref_starts, ref_lengths, present)


def _statistics(hyp_ids: np.ndarray, hyp_starts: np.ndarray, hyp_lengths: np.ndarray,
                ref_ids: np.ndarray, ref_starts: np.ndarray, ref_lengths: np.ndarray,
                present: np.ndarray) -> TerStats[np.ndarray]:
    """The best edits of each row and its references' average length, from ragged rows
    (``ref_lengths`` -1 where ``present`` is False)."""
    units = ref_length_units(ref_lengths, present)
    edits = ter_edits(hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths)
    far = np.iinfo(np.int64).max
    best = np.where(present, edits, far).min(axis=1, initial=far)
    return TerStats(best.astype(np.int64), units)
