"""The alignment counts (:class:`~bleusuite.scores.wer.statistics.WerStats`) of words, of
characters and of token ids, each hypothesis against its one reference.

Words are strings compared as they are, numbered within each row (the compiled part's
numbering where it is built); characters are their code points; token ids are compared as
they are. jiwer's default word split (:func:`default_words`: runs of two or more
whitespace characters made one space, the ends stripped, split at spaces) and character
split (:func:`default_chars`: the ends stripped, spaces kept) are the library's text rules.

>>> stats, _ = statistics_of_words([["b", "c"]], [["a", "b"]])
>>> stats.to_array().tolist()   # jiwer: two substitutions, no hit
[[0, 2, 0, 0]]
>>> statistics_of_chars(["ab"], ["abc"])[0].to_array().tolist()
[[2, 0, 1, 0]]
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from bleusuite.counting import ragged_rows
from bleusuite.inputs.lists import from_token_lists
from bleusuite.scores.wer.edits import edit_counts
from bleusuite.scores.wer.statistics import WerStats

if TYPE_CHECKING:
    from bleusuite.inputs.batch import Batch

__all__ = ["Alignments", "default_chars", "default_words", "statistics_of_batch",
           "statistics_of_chars", "statistics_of_words"]

#: opcodes of each row: ``(chunks (C, 5), chunk_starts (B,), counts (B,))`` (see
#: :func:`bleusuite.scores.wer.edits.edit_counts`)
Alignments = tuple[np.ndarray, np.ndarray, np.ndarray]

_SPACES = re.compile(r"\s\s+")


def default_words(line: str) -> list[str]:
    """jiwer's ``wer_default`` of one line: ``RemoveMultipleSpaces``, ``Strip``,
    ``ReduceToListOfListOfWords`` (a lone tab or newline stays inside a word, as there).

    >>> default_words("  a\\tb   c ")
    ['a\\tb', 'c']
    """
    return [word for word in _SPACES.sub(" ", line).strip().split(" ") if word]


def default_chars(line: str) -> str:
    """jiwer's ``cer_default`` of one line: the ends stripped (inner spaces are characters).

    >>> default_chars(" a  b ")
    'a  b'
    """
    return line.strip()


def statistics_of_words(hypotheses: list[list[str]], references: list[list[str]],
                        alignments: bool = False) -> tuple[WerStats[np.ndarray],
                                                           Alignments | None]:
    """The counts of each hypothesis' words against its reference's (and with
    ``alignments`` their opcodes)."""
    rows = [[reference] for reference in references]
    batch = from_token_lists(hypotheses, rows, None, None, ("hypotheses", "references"))
    return statistics_of_batch(batch, alignments)


def statistics_of_chars(hypotheses: list[str], references: list[str],
                        alignments: bool = False) -> tuple[WerStats[np.ndarray],
                                                           Alignments | None]:
    """The counts of each hypothesis' characters against its reference's (and with
    ``alignments`` their opcodes)."""
    hyp_ids, hyp_lengths = _code_points(hypotheses)
    ref_ids, ref_lengths = _code_points(references)
    return _statistics(hyp_ids, np.cumsum(hyp_lengths) - hyp_lengths, hyp_lengths, ref_ids,
                       np.cumsum(ref_lengths) - ref_lengths, ref_lengths, alignments)


def statistics_of_batch(batch: Batch, alignments: bool = False) -> tuple[
        WerStats[np.ndarray], Alignments | None]:
    """The counts of a normalised batch of token ids against each row's first reference
    (the host's: a device batch is copied there)."""
    pairs = ragged_rows(batch)
    return _statistics(pairs.hyp_ids, pairs.hyp_starts, pairs.hyp_lengths, pairs.ref_ids,
                       pairs.ref_starts[:, 0], pairs.ref_lengths[:, 0], alignments)


def _code_points(lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The code points of lines, joined, and each line's length."""
    lengths = np.fromiter((len(line) for line in lines), dtype=np.int64, count=len(lines))
    ids = np.frombuffer("".join(lines).encode("utf-32-le", "surrogatepass"), dtype="<u4")
    return ids.astype(np.int64), lengths


def _statistics(hyp_ids: np.ndarray, hyp_starts: np.ndarray, hyp_lengths: np.ndarray,
                ref_ids: np.ndarray, ref_starts: np.ndarray, ref_lengths: np.ndarray,
                alignments: bool) -> tuple[WerStats[np.ndarray], Alignments | None]:
    counts, chunks = edit_counts(hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts,
                                 ref_lengths, alignments)
    stats = WerStats(counts[:, 0], counts[:, 1], counts[:, 2], counts[:, 3])
    return stats, None if chunks is None else (chunks[0], chunks[1], counts[:, 4])
