"""chrF and chrF++ (Popović 2015, 2017), with sacrebleu's ``CHRF`` arithmetic.

A sentence's statistics are, for each character n-gram order 1..C and word n-gram order
1..W, the hypothesis n-grams, the reference n-grams and their matches (``min`` of the two
counts, summed over the hypothesis' n-grams), taken from the reference whose sentence-level
chrF is best (the first on ties), as sacrebleu's ``CHRF``:

* characters: each line without its whitespace (``whitespace=True`` keeps it), lowercased
  with ``lowercase=True``; words (chrF++): the whitespace-separated words with one
  punctuation character split off the end, or else the start, of each word of two or more
  characters;
* a hypothesis n-gram count is 0 for an order where the reference has no n-gram.

The counting is bleusuite's one kernel (:func:`bleusuite.counting.count_pairs`): the code
points of a line are its "token ids" for the character orders, numbered words for the word
orders. The score (:func:`chrf_scores`) uses only ``+ - * /``, so the same arithmetic on arrays
gives sacrebleu's floats to the last bit (``float32=True``: its arithmetic on bootstrap
resamples, which sum float32 statistics).

>>> stats = chrf_statistics(["the cat sat"], [["the cat sat down"]])
>>> round(float(chrf_scores(stats.sum())), 4)    # sacrebleu.corpus_chrf(...).score
66.0176
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, Generic, TypeVar

import numpy as np

from bleusuite import backends
from bleusuite.backends.base import Backend
from bleusuite.counting import RaggedPairs, count_pairs
from bleusuite.text import lowercased, numbering

__all__ = ["BETA", "CHAR_ORDER", "WORD_ORDER", "ChrfStats", "chrf_scores", "chrf_statistics",
           "split_punctuation"]

#: sacrebleu's defaults
CHAR_ORDER, WORD_ORDER, BETA = 6, 0, 2
#: the characters sacrebleu splits off the words of chrF++
PUNCTUATION = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')
#: sacrebleu's stand-in for a precision or recall without n-grams
EPSILON = 1e-16

A = TypeVar("A")


@dataclass(frozen=True)
class ChrfStats(Generic[A]):
    """Per-sentence (or summed) chrF statistics, ``(..., O)`` int64 each, for the character
    orders 1..C then the word orders 1..W (``O = C + W``).

    Attributes:
        hyp_counts: hypothesis n-grams per order (0 where the reference has none).
        ref_counts: reference n-grams per order.
        matches: matched n-grams per order.
    """

    hyp_counts: A
    ref_counts: A
    matches: A

    @property
    def backend(self) -> Backend:
        return backends.get_backend(self.matches)

    def __len__(self) -> int:
        shape = _untyped(self.matches).shape
        if len(shape) < 2:
            raise TypeError("summed ChrfStats have no length")
        return int(shape[0])

    def sum(self) -> ChrfStats[A]:
        """Corpus statistics: the sum over the sentence axis."""
        be = self.backend
        return ChrfStats(*(be.sum_(getattr(self, f.name), axis=0) for f in fields(self)))

    def __add__(self, other: ChrfStats[A]) -> ChrfStats[A]:
        if not isinstance(other, ChrfStats):
            return NotImplemented
        return ChrfStats(*(_untyped(getattr(self, f.name)) + getattr(other, f.name)
                           for f in fields(self)))

    def __getitem__(self, index: Any) -> ChrfStats[A]:
        return ChrfStats(*(getattr(self, f.name)[index] for f in fields(self)))

    def to_array(self) -> A:
        """``(..., 3 O)``: sacrebleu's layout, ``[hyp, ref, match]`` for each order."""
        be, s = self.backend, _untyped(self)
        stacked = be.concat([s.hyp_counts[..., None], s.ref_counts[..., None],
                             s.matches[..., None]], axis=-1)
        result: A = stacked.reshape(*stacked.shape[:-2], -1)
        return result

    @classmethod
    def from_array(cls, array: A) -> ChrfStats[A]:
        """Inverse of :meth:`to_array`."""
        a: Any = array
        if int(a.shape[-1]) % 3 or int(a.shape[-1]) == 0:
            raise ValueError(f"array: expected a last axis of 3 x orders entries; got "
                             f"{a.shape[-1]}")
        return cls(a[..., 0::3], a[..., 1::3], a[..., 2::3])


def _untyped(value: object) -> Any:
    """``value`` for the arithmetic of this module, which works on any array type."""
    return value


def chrf_scores(stats: ChrfStats[Any] | np.ndarray, beta: int = BETA,
                eps_smoothing: bool = False, *, float32: bool = False) -> np.ndarray:
    """sacrebleu's ``CHRF._compute_f_score`` of each entry, on its 0-100 scale, element-wise
    over the leading axes: the F-beta of the precision and recall averaged over the orders
    where both sides have n-grams (``eps_smoothing``: the mean of each order's F-beta, an
    order without n-grams counting 1e-16), operation for operation as sacrebleu computes it
    (``float32``: in float32, as its bootstrap resamples).

    >>> row = np.array([3, 3, 3, 4, 2, 2])  # [hyp, ref, match] of two orders
    >>> chrf_scores(row).round(6).tolist()
    93.75
    """
    if isinstance(stats, np.ndarray):
        stats = ChrfStats.from_array(stats)
    be = stats.backend
    dtype = np.float32 if float32 else np.float64
    hyp = np.asarray(be.to_numpy(stats.hyp_counts)).astype(dtype)
    ref = np.asarray(be.to_numpy(stats.ref_counts)).astype(dtype)
    match = np.asarray(be.to_numpy(stats.matches)).astype(dtype)
    factor = beta**2
    orders = hyp.shape[-1]
    score = np.zeros(hyp.shape[:-1], dtype=dtype)
    total_precision = np.zeros(hyp.shape[:-1], dtype=dtype)
    total_recall = np.zeros(hyp.shape[:-1], dtype=dtype)
    effective = np.zeros(hyp.shape[:-1], dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(orders):
            n_hyp, n_ref, n_match = hyp[..., i], ref[..., i], match[..., i]
            precision = np.where(n_hyp > 0, n_match / n_hyp, dtype(EPSILON))
            recall = np.where(n_ref > 0, n_match / n_ref, dtype(EPSILON))
            denominator = factor * precision + recall
            score += np.where(denominator > 0, (1 + factor) * precision * recall / denominator,
                              dtype(EPSILON))
            both = (n_hyp > 0) & (n_ref > 0)
            total_precision += np.where(both, precision, dtype(0))
            total_recall += np.where(both, recall, dtype(0))
            effective += both
        if eps_smoothing:
            return np.asarray(100 * score / orders, dtype=np.float64)
        divisor = np.maximum(effective, 1).astype(dtype)
        average_precision = np.where(effective > 0, total_precision / divisor, dtype(0))
        average_recall = np.where(effective > 0, total_recall / divisor, dtype(0))
        value = (1 + factor) * average_precision * average_recall
        value = value / (factor * average_precision + average_recall)
        result = np.where(average_precision + average_recall != 0, 100 * value, dtype(0))
    return np.asarray(result, dtype=np.float64)


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
    beta: int = BETA,
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
    best = np.argmax(quality, axis=1)[:, None, None] if width else np.zeros((rows, 1, 1), int)
    if width == 0:  # no reference at all: nothing matches
        zeros = np.zeros((rows, char_order + word_order), dtype=np.int64)
        return ChrfStats(zeros, zeros.copy(), zeros.copy())
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

