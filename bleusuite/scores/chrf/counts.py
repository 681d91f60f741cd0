"""chrF's statistics of text, as sacrebleu's ``CHRF`` extracts them.

For each character n-gram order 1..C and word n-gram order 1..W: the hypothesis n-grams,
the reference n-grams and their matches (``min`` of the two counts, summed over the
hypothesis' n-grams), from the reference whose sentence-level chrF is best (the first on
ties):

* characters: each line without its whitespace (``whitespace=True`` keeps it), lowercased
  with ``lowercase=True``; words (chrF++): the whitespace-separated words with one
  punctuation character split off the end, or else the start, of each word of two or more
  characters;
* a hypothesis n-gram count is 0 for an order where the reference has no n-gram.

The counting is bleusuite's one kernel (:func:`bleusuite.counting.count_pairs`): the code
points of a line are its "token ids" for the character orders, numbered words for the word
orders.

>>> stats = chrf_statistics(["ab c"], [["abc", "x"]], char_order=2)
>>> stats.hyp_counts.tolist(), stats.ref_counts.tolist(), stats.matches.tolist()
([[3, 2]], [[3, 2]], [[3, 2]])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bleusuite.counting import RaggedPairs, count_pairs
from bleusuite.scores.chrf.formula import chrf_scores
from bleusuite.scores.chrf.statistics import BETA, CHAR_ORDER, PUNCTUATION, WORD_ORDER, ChrfStats
from bleusuite.text import lowercased, numbering

__all__ = ["chrf_statistics", "split_punctuation"]


def split_punctuation(line: str) -> list[str]:
    """sacrebleu's ``CHRF._remove_punctuation``: the words of chrF++.

    >>> split_punctuation("Hello, (world) a!")
    ['Hello', ',', '(world', ')', 'a', '!']
    """
    words = []
    for word in line.split():
        if len(word) == 1:
            words.append(word)
        elif word[-1] in PUNCTUATION:
            words += [word[:-1], word[-1]]
        elif word[0] in PUNCTUATION:
            words += [word[0], word[1:]]
        else:
            words.append(word)
    return words


def _code_points(lines: Sequence[str], whitespace: bool) -> tuple[np.ndarray, np.ndarray]:
    """The code points of each line (without its whitespace unless ``whitespace``), flat,
    and each line's length."""
    if not whitespace:
        lines = ["".join(line.split()) for line in lines]
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    points = np.frombuffer("".join(lines).encode("utf-32-le", "surrogatepass"),
                           dtype=np.uint32)
    return points.astype(np.int64), lengths


def chrf_statistics(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: float = BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> ChrfStats[np.ndarray]:
    """Per-sentence chrF statistics of hypotheses against their references (for each
    hypothesis a list of reference strings; ``None``: no such reference), each sentence's
    from its best reference (see the module's description).

    >>> stats = chrf_statistics(["ab c"], [["abc", "x"]], char_order=2)
    >>> stats.hyp_counts.tolist(), stats.ref_counts.tolist(), stats.matches.tolist()
    ([[3, 2]], [[3, 2]], [[3, 2]])
    """
    rows = len(hypotheses)
    width = max((len(refs) for refs in references), default=0)
    if rows == 0 or width == 0:  # no sentence, or no reference at all: nothing matches
        zeros = np.zeros((rows, char_order + word_order), dtype=np.int64)
        return ChrfStats(zeros, zeros.copy(), zeros.copy())
    texts = [list(hypotheses)]
    present = np.zeros((rows, width), dtype=bool)
    for r in range(width):
        stream = []
        for b, refs in enumerate(references):
            line = refs[r] if r < len(refs) else None
            present[b, r] = line is not None
            stream.append("" if line is None else line)
        texts.append(stream)
    if lowercase:
        texts = [lowercased(stream) for stream in texts]
    orders = []
    if char_order > 0:
        points = [_code_points(stream, whitespace) for stream in texts]
        orders.append(_per_reference(points, char_order))
    if word_order > 0:
        words = numbering()
        numbered = [words.number([" ".join(split_punctuation(line)) for line in stream])
                    for stream in texts]
        orders.append(_per_reference(numbered, word_order))
    hyp = np.concatenate([o[0] for o in orders], axis=-1)
    ref = np.concatenate([o[1] for o in orders], axis=-1)
    match = np.concatenate([o[2] for o in orders], axis=-1)
    candidates = ChrfStats(hyp, ref, match)  # (B, R, O)
    quality = np.where(present, chrf_scores(candidates, beta, eps_smoothing), -np.inf)
    best = np.argmax(quality, axis=1)[:, None, None]
    return ChrfStats(*(np.take_along_axis(a, best, axis=1)[:, 0] for a in (hyp, ref, match)))


def _per_reference(streams: list[tuple[np.ndarray, np.ndarray]], max_order: int) -> tuple[
        np.ndarray, np.ndarray, np.ndarray]:
    """``(B, R, max_order)`` hypothesis counts, reference counts and matches of each
    hypothesis (stream 0) against each reference stream, from token ids and line lengths."""
    ids = np.concatenate([flat for flat, _ in streams])
    sizes = [len(flat) for flat, _ in streams]
    offsets = np.cumsum([0, *sizes[:-1]])
    starts = [offset + np.cumsum(lengths) - lengths
              for offset, (_, lengths) in zip(offsets, streams, strict=True)]
    hyp_len = streams[0][1]
    ref_len = np.stack([lengths for _, lengths in streams[1:]], axis=1).astype(np.int64)
    ref_starts = np.stack(starts[1:], axis=1).astype(np.int64)
    pairs = RaggedPairs(ids, starts[0].astype(np.int64), hyp_len.astype(np.int64), ids,
                        ref_starts, ref_len)
    counts = count_pairs(pairs, max_order, per_reference=True).per_reference
    assert counts is not None
    order = np.arange(1, max_order + 1)
    ref_counts = np.maximum(ref_len[..., None] - order + 1, 0)
    hyp_counts = np.where(ref_counts > 0, np.maximum(hyp_len[:, None, None] - order + 1, 0), 0)
    return hyp_counts, ref_counts, counts
