"""TER's statistics of text and of token ids: each hypothesis' fewest edits against its
references (:mod:`bleusuite.scores.ter.edits`) and their average length. Text is tokenised
as sacrebleu's ``TER`` does (:func:`bleusuite.text.tercom.tercom_ids`); token ids and token
lists are compared as they are.

>>> from bleusuite.scores.ter.settings import TerSettings
>>> stats = ter_statistics_of_texts(["a b c d"], [["c d a b", "a b"]], TerSettings())
>>> stats.edits.tolist(), stats.ref_length.tolist()
([1], [3.0])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from bleusuite.counting import ragged_rows
from bleusuite.scores.reports import host
from bleusuite.scores.ter.edits import ter_edits
from bleusuite.scores.ter.statistics import TerStats, ref_length_units
from bleusuite.text.tercom import tercom_ids

if TYPE_CHECKING:
    from bleusuite.inputs.batch import Batch
    from bleusuite.scores.ter.settings import TerSettings

__all__ = ["ter_statistics_of_batch", "ter_statistics_of_texts"]


def ter_statistics_of_texts(hypotheses: list[str], references: list[list[str | None]],
                            settings: TerSettings) -> TerStats[np.ndarray]:
    """The statistics of hypothesis lines, each against its reference lines (``None``: no
    such reference)."""
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
