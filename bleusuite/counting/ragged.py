"""Ragged rows: each hypothesis and each of its references a slice of a flat id array.

The compiled kernel reads this form directly (a padded batch is one view of it, and the
command's token ids of whole files are another, with no padding at all);
:func:`padded_batches` turns it back into padded batches for the NumPy pipeline, where
the compiled part is not built.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from bleusuite import backends
from bleusuite.inputs.batch import Batch

__all__ = ["FILL", "RaggedPairs", "padded_batches"]

#: token slots (rows x (1 + references) x width) per padded batch of :func:`padded_batches`
BATCH_SLOTS = 1 << 20
#: the value past the end of a sentence in :func:`padded_batches` (never read as a token)
FILL = -1


class Streams(Protocol):
    """Line-aligned streams of token ids in one flat array (what
    :class:`~bleusuite.text.TokenIds` holds): ``starts`` and ``lengths`` ``(streams, B)``."""

    @property
    def ids(self) -> np.ndarray: ...
    @property
    def starts(self) -> np.ndarray: ...
    @property
    def lengths(self) -> np.ndarray: ...


@dataclass(frozen=True)
class RaggedPairs:
    """``B`` rows: row b's hypothesis is ``hyp_ids[hyp_starts[b] : + hyp_lengths[b]]``, its
    reference r ``ref_ids[ref_starts[b, r] : + ref_lengths[b, r]]`` (length 0: absent or
    empty). Every array is int64; the id arrays are flat (they may be the same array).

    >>> pairs = RaggedPairs.from_padded(np.array([[1, 2, 0]]), np.array([2]),
    ...                                 np.array([[[1, 2, 3]]]), np.array([[3]]))
    >>> pairs.hyp_starts.tolist(), pairs.ref_starts.tolist(), pairs.rows
    ([0], [[0]], 1)
    """

    hyp_ids: np.ndarray
    hyp_starts: np.ndarray
    hyp_lengths: np.ndarray
    ref_ids: np.ndarray
    ref_starts: np.ndarray
    ref_lengths: np.ndarray

    @property
    def rows(self) -> int:
        return int(self.hyp_starts.shape[0])

    @property
    def references(self) -> int:
        return int(self.ref_starts.shape[1])

    @classmethod
    def from_padded(cls, hyp: np.ndarray, hyp_len: np.ndarray, refs: np.ndarray,
                    ref_len: np.ndarray) -> RaggedPairs:
        """The rows of a padded batch: hypotheses ``(B, Lh)``, references ``(B, R, Lr)``,
        their lengths ``(B,)`` and ``(B, R)`` (each sentence left-aligned in its row)."""
        hyp = np.ascontiguousarray(hyp, dtype=np.int64)
        refs = np.ascontiguousarray(refs, dtype=np.int64)
        rows, hyp_width = hyp.shape
        num_refs, ref_width = refs.shape[1], refs.shape[2]
        return cls(
            hyp.reshape(-1), np.arange(rows, dtype=np.int64) * hyp_width,
            np.ascontiguousarray(hyp_len, dtype=np.int64),
            refs.reshape(-1),
            (np.arange(rows * num_refs, dtype=np.int64) * ref_width).reshape(rows, num_refs),
            np.ascontiguousarray(ref_len, dtype=np.int64),
        )

    @classmethod
    def from_streams(cls, streams: Streams, num_systems: int) -> RaggedPairs:
        """Every line of every system (system after system) with its reference lines, from
        line-aligned streams of one id array (:class:`~bleusuite.text.TokenIds`): the
        ``num_systems`` systems first, then the references.

        >>> from types import SimpleNamespace
        >>> streams = SimpleNamespace(ids=np.array([5, 6, 5, 7, 5, 6]),  # A, B, a reference
        ...                           starts=np.array([[0], [2], [4]]),
        ...                           lengths=np.array([[2], [2], [2]]))
        >>> pairs = RaggedPairs.from_streams(streams, 2)
        >>> pairs.hyp_starts.tolist(), pairs.ref_starts.tolist()
        ([0, 2], [[4], [4]])
        """
        ids, starts, lengths = streams.ids, streams.starts, streams.lengths
        ref_starts = np.tile(np.ascontiguousarray(starts[num_systems:].T), (num_systems, 1))
        ref_lengths = np.tile(np.ascontiguousarray(lengths[num_systems:].T), (num_systems, 1))
        return cls(ids, starts[:num_systems].reshape(-1), lengths[:num_systems].reshape(-1),
                   ids, ref_starts, ref_lengths)

    def take(self, rows: np.ndarray) -> RaggedPairs:
        """The rows ``rows`` (an index array), sharing the id arrays."""
        return RaggedPairs(self.hyp_ids, self.hyp_starts[rows], self.hyp_lengths[rows],
                           self.ref_ids, self.ref_starts[rows], self.ref_lengths[rows])


def _padded(ids: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int) -> np.ndarray:
    """``(*starts.shape, width)`` the slices, filled with :data:`FILL` past their ends."""
    out = np.full((*starts.shape, width), FILL, dtype=np.int64)
    flat_lengths = lengths.reshape(-1)
    total = int(flat_lengths.sum())
    if total:
        # each slice's positions in ids, slice after slice: one gather, one masked store
        shift = np.repeat(starts.reshape(-1) - (np.cumsum(flat_lengths) - flat_lengths),
                          flat_lengths)
        kept = np.arange(width) < lengths[..., None]
        out[kept] = ids[shift + np.arange(total)]
    return out


def padded_batches(pairs: RaggedPairs, slots: int = BATCH_SLOTS) -> Iterator[
        tuple[np.ndarray, Batch]]:
    """The rows as padded NumPy batches of similar length, each at most ``slots`` token
    slots (sorting by length keeps the padding small): ``(rows, batch)`` pairs, the row
    indices of each batch with it. Every reference is present (an empty one has length 0)."""
    be = backends.get_backend(pairs.hyp_lengths)
    longest = np.maximum(pairs.hyp_lengths, pairs.ref_lengths.max(axis=1, initial=0))
    order = np.argsort(longest, kind="stable")
    widths = np.maximum(longest[order], 1)
    streams = 1 + pairs.references
    begin, size = 0, len(order)
    while begin < size:
        end = bisect.bisect_right(
            range(begin + 1, size + 1), slots,
            key=lambda stop: (stop - begin) * streams * int(widths[stop - 1]))
        end = max(end + begin, begin + 1)
        rows = order[begin:end]
        width = int(widths[end - 1])
        hyp = _padded(pairs.hyp_ids, pairs.hyp_starts[rows], pairs.hyp_lengths[rows], width)
        refs = _padded(pairs.ref_ids, pairs.ref_starts[rows], pairs.ref_lengths[rows], width)
        present = np.ones(refs.shape[:2], dtype=bool)
        yield rows, Batch(be, None, hyp, pairs.hyp_lengths[rows], refs,
                          pairs.ref_lengths[rows], present)
        begin = end
