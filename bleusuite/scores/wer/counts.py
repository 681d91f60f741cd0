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

from bleusuite import native
from bleusuite.counting import ragged_rows
from bleusuite.inputs.lists import from_token_lists, gather, gathered_batch
from bleusuite.scores.wer.edits import edit_counts, line_edit_counts
from bleusuite.scores.wer.statistics import WerStats
from bleusuite.text import TextEncoder

if TYPE_CHECKING:
    from bleusuite.inputs.batch import Batch

__all__ = [
    "SMALL_CALL_ROWS",
    "Alignments",
    "default_chars",
    "default_words",
    "split_lines",
    "splits_as_jiwer",
    "statistics_of_batch",
    "statistics_of_chars",
    "statistics_of_lines",
    "statistics_of_words",
    "words_and_statistics",
]

#: calls of at most this many rows are numbered by a dict and aligned in one call (no
#: threads): a pair takes microseconds
SMALL_CALL_ROWS = 8

#: opcodes of each row: ``(chunks (C, 5), chunk_starts (B,), counts (B,))`` (see
#: :func:`bleusuite.scores.wer.edits.edit_counts`)
Alignments = tuple[np.ndarray, np.ndarray, np.ndarray]

_SPACES = re.compile(r"\s\s+")
#: a whitespace character other than a space, alone between two others: jiwer's default
#: keeps it inside a word, where ``str.split()`` splits there
_LONE_SPACE = re.compile(r"(?<!\s)[^\S ](?!\s)")
#: Python's whitespace characters (``str.isspace``; none is above U+3000) but the space
_OTHER_SPACES = tuple(c for c in map(chr, range(0x3001)) if c.isspace() and c != " ")


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
    if len(hypotheses) <= SMALL_CALL_ROWS:
        return _small_call(hypotheses, references, alignments)
    rows = [[reference] for reference in references]
    batch = from_token_lists(hypotheses, rows, None, None, ("hypotheses", "references"))
    return statistics_of_batch(batch, alignments)


def splits_as_jiwer(lines: list[str]) -> bool:
    """Whether ``str.split()`` splits every line as jiwer's default does (no lone
    whitespace character but the space in them).

    >>> splits_as_jiwer(["a  b", " c\\t\\td "]), splits_as_jiwer(["a\\tb"])
    (True, False)
    """
    text = "  ".join(lines)
    others = _OTHER_SPACES[:9] if text.isascii() else _OTHER_SPACES
    return not any(c in text for c in others) or not _LONE_SPACE.search(text)


def split_lines(lines: list[str]) -> list[list[str]]:
    """:func:`default_words` of each line (``str.split()`` where that is the same).

    >>> split_lines([" a  b ", "c"])
    [['a', 'b'], ['c']]
    """
    if splits_as_jiwer(lines):
        return [line.split() for line in lines]
    return [default_words(line) for line in lines]


def statistics_of_lines(hypotheses: list[str], references: list[str],
                        alignments: bool = False, plain: bool = False) -> tuple[
                            WerStats[np.ndarray], Alignments | None]:
    """The counts of each hypothesis line's words against its reference line's: jiwer's
    default split (:func:`default_words`), or with ``plain`` ``str.split()``'s
    (torchmetrics'). Split and numbered in C where the compiled part is built and the two
    splits agree (no line holds a lone whitespace character other than a space)."""
    if not alignments:  # split and compared pair by pair in C, where it is built
        counts = line_edit_counts(hypotheses, references, jiwer_split=not plain)
        if counts is not None:
            return WerStats(counts[:, 0], counts[:, 1], counts[:, 2], counts[:, 3]), None
    if len(hypotheses) <= SMALL_CALL_ROWS:
        split = str.split if plain else default_words
        return _small_call([split(h) for h in hypotheses], [split(r) for r in references],
                           alignments)
    compiled = native.module()
    if compiled is not None and (plain or splits_as_jiwer(hypotheses + references)):
        words = TextEncoder.of("none")  # the words split on whitespace, row by row
        gathered = gather(compiled, hypotheses, references, words.compiled_numbering(compiled),
                          True, None, None, words.line_transform, words.per_row_ids)
        if gathered is not None:
            return statistics_of_batch(gathered_batch(gathered, len(hypotheses), "references"),
                                       alignments)
    if plain:
        return statistics_of_words([h.split() for h in hypotheses],
                                   [r.split() for r in references], alignments)
    return statistics_of_words(split_lines(hypotheses), split_lines(references), alignments)


def words_and_statistics(hypotheses: list[str], references: list[str],
                         alignments: bool = False) -> tuple[
                             list[list[str]], list[list[str]], WerStats[np.ndarray],
                             Alignments | None]:
    """jiwer's default split of each hypothesis and reference line (its ``process_words``
    returns them), and the counts of the words (with ``alignments`` their opcodes). Where
    the compiled part is built and ``str.split()`` splits as jiwer, the lines are numbered
    once and equal words share one str (no str is made per word)."""
    compiled = native.module()
    lines = hypotheses + references
    if compiled is None or len(hypotheses) <= SMALL_CALL_ROWS or not splits_as_jiwer(lines):
        hyp_words, ref_words = split_lines(hypotheses), split_lines(references)
        return (hyp_words, ref_words,
                *statistics_of_words(hyp_words, ref_words, alignments))
    numbering = TextEncoder.of("none").compiled_numbering(compiled)()
    ids_bytes, counts_bytes = numbering.number(lines)
    ids = np.frombuffer(ids_bytes, dtype=np.int64)
    counts = np.frombuffer(counts_bytes, dtype=np.int64)
    words = compiled.word_lists(ids, counts, numbering.tokens)
    starts = np.cumsum(counts) - counts
    rows = len(hypotheses)
    stats, chunks = _statistics(ids, starts[:rows], counts[:rows], ids, starts[rows:],
                                counts[rows:], alignments)
    return words[:rows], words[rows:], stats, chunks


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


def _small_call(hypotheses: list[list[str]], references: list[list[str]],
                alignments: bool) -> tuple[WerStats[np.ndarray], Alignments | None]:
    """:func:`statistics_of_words` of a few rows: words numbered by one dict."""
    vocabulary: dict[str, int] = {}
    number = vocabulary.setdefault
    hyp_ids = [number(w, len(vocabulary)) for words in hypotheses for w in words]
    ref_ids = [number(w, len(vocabulary)) for words in references for w in words]
    hyp_lengths = np.array([len(words) for words in hypotheses], dtype=np.int64)
    ref_lengths = np.array([len(words) for words in references], dtype=np.int64)
    return _statistics(np.array(hyp_ids, dtype=np.int64), np.cumsum(hyp_lengths) - hyp_lengths,
                       hyp_lengths, np.array(ref_ids, dtype=np.int64),
                       np.cumsum(ref_lengths) - ref_lengths, ref_lengths, alignments)


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
