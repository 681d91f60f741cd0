"""The two forms a scoring call's sentences take: :class:`Batch` (what every input form
becomes) and :class:`RaggedPairs` (the host rows that the compiled kernels read)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bleusuite import backends
from bleusuite.backends.base import Backend

if TYPE_CHECKING:
    from bleusuite.text.token_ids import TokenIds

__all__ = ["Batch", "RaggedPairs", "grouped_batch", "identity", "mark_unreferenced", "padded_rows",
           "rows_batch", "stream_pairs"]


@dataclass(slots=True)
class RaggedPairs:
    """``B`` rows: row b's hypothesis is ``hyp_ids[hyp_starts[b] : + hyp_lengths[b]]``, its
    reference r ``ref_ids[ref_starts[b, r] : + ref_lengths[b, r]]`` (length 0: absent or
    empty); every array int64, the id arrays flat (maybe one array); not to be changed.

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
        """The rows of left-aligned ``(B, Lh)`` hypotheses and ``(B, R, Lr)`` references."""
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
    def from_streams(cls, streams: TokenIds, num_systems: int) -> RaggedPairs:
        """Every line of every system (system after system) with its reference lines, from
        streams of one id array: the ``num_systems`` systems first, then the references.

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

    def take(self, rows: np.ndarray | slice) -> RaggedPairs:
        """The rows ``rows`` (an index array, or a slice), sharing the id arrays."""
        return RaggedPairs(self.hyp_ids, self.hyp_starts[rows], self.hyp_lengths[rows],
                           self.ref_ids, self.ref_starts[rows], self.ref_lengths[rows])


@dataclass(slots=True)
class Batch:
    """A normalised batch: every sentence with its length, ragged on the host, padded on
    devices; not to be changed once made.

    Attributes:
        backend: the backend module that owns the arrays (NumPy for every host batch).
        to_caller: maps a result array back to the caller's array type (and device).
        hyp_len: (B,) int64 hypothesis lengths.
        ref_len: (B, R) int64 reference lengths (0 for absent references).
        ref_present: (B, R) bool, False where a row carries fewer than R references.
        pairs: on the host, the rows as :class:`RaggedPairs` (None on devices).
        hyp: on devices, (B, Lh) int64 left-aligned hypothesis tokens (host: :meth:`padded`).
        refs: on devices, (B, R, Lr) int64 reference tokens; None on the host.
        has_reference: (B,) bool on devices, where the check would need a host read
            (scores are NaN where it is False); None where the check was made at once.
        hyp_width: on the host, the caller's hypotheses' width, for :meth:`padded` (per-position
            results take the caller's shape).
    """

    backend: Backend
    to_caller: Any
    hyp_len: Any
    ref_len: Any
    ref_present: Any
    pairs: RaggedPairs | None = None
    hyp: Any = None
    refs: Any = None
    has_reference: Any = None
    hyp_width: int | None = None

    @property
    def size(self) -> int:
        return int(self.hyp_len.shape[0])

    @property
    def on_host(self) -> bool:
        """Whether the rows are ragged on the host (:attr:`pairs`)."""
        return self.pairs is not None

    def padded(self) -> Batch:
        """The batch with :attr:`hyp` and :attr:`refs` too (on the host, the ragged rows
        copied into matrices, the hypotheses :attr:`hyp_width` wide)."""
        if self.pairs is None or self.hyp is not None:
            return self
        pairs = self.pairs
        hyp = padded_rows(pairs.hyp_ids, pairs.hyp_starts, pairs.hyp_lengths,
                          width=self.hyp_width)
        refs = padded_rows(pairs.ref_ids, pairs.ref_starts, pairs.ref_lengths)
        return Batch(self.backend, self.to_caller, self.hyp_len, self.ref_len,
                     self.ref_present, pairs, hyp, refs, self.has_reference, self.hyp_width)

    def rows(self, start: int, stop: int) -> Batch:
        """The sentences ``start:stop`` (views, no copy)."""
        def part(a: Any) -> Any:
            return None if a is None else a[start:stop]

        pairs = None if self.pairs is None else self.pairs.take(slice(start, stop))
        return Batch(self.backend, self.to_caller, self.hyp_len[start:stop],
                     self.ref_len[start:stop], self.ref_present[start:stop], pairs,
                     part(self.hyp), part(self.refs), part(self.has_reference),
                     self.hyp_width)


def rows_batch(hyp_tokens: np.ndarray, hyp_index: np.ndarray, hyp_len: np.ndarray,
               ref_tokens: np.ndarray, ref_index: np.ndarray, ref_len: np.ndarray) -> Batch:
    """The host batch of rows picked, in place, from two matrices of sentences: hypothesis b
    is row ``hyp_index[b]`` of ``hyp_tokens``, its reference r row ``ref_index[b, r]`` of
    ``ref_tokens`` (every reference present).

    >>> tokens = np.array([[1, 2, 3], [1, 2, 4]])
    >>> batch = rows_batch(tokens, np.array([0, 1]), np.array([3, 3]), tokens,
    ...                    np.array([[1], [0]]), np.array([[3], [3]]))
    >>> batch.pairs.ref_starts.tolist()
    [[3], [0]]
    """
    hyp_tokens = np.ascontiguousarray(hyp_tokens, dtype=np.int64)
    ref_tokens = np.ascontiguousarray(ref_tokens, dtype=np.int64)
    pairs = RaggedPairs(hyp_tokens.reshape(-1), hyp_index * hyp_tokens.shape[1], hyp_len,
                        ref_tokens.reshape(-1), ref_index * ref_tokens.shape[1], ref_len)
    present = np.ones(ref_len.shape, dtype=bool)
    return Batch(backends.get_backend(), identity, hyp_len, ref_len, present, pairs)


def grouped_batch(hyp_ids: np.ndarray, hyp_len: np.ndarray, ref_ids: np.ndarray,
                  ref_len: np.ndarray, counts: np.ndarray) -> Batch:
    """The host batch of sentences laid out one after the other: the hypotheses in
    ``hyp_ids``, and in ``ref_ids`` each hypothesis's ``counts[b]`` references in turn.

    >>> batch = grouped_batch(np.array([1, 2, 3]), np.array([2, 1]), np.array([1, 2, 3, 4]),
    ...                       np.array([2, 1, 1]), np.array([1, 2]))
    >>> batch.pairs.ref_starts.tolist(), batch.ref_present.tolist()
    ([[0, 0], [2, 3]], [[True, False], [True, True]])
    """
    images = counts.shape[0]
    width = int(counts.max()) if images else 1
    present = np.arange(width) < counts[:, None]
    lengths = np.zeros((images, width), dtype=np.int64)
    lengths[present] = ref_len
    starts = np.zeros((images, width), dtype=np.int64)
    starts[present] = np.cumsum(ref_len) - ref_len
    hyp_len = np.asarray(hyp_len, dtype=np.int64)
    pairs = RaggedPairs(np.asarray(hyp_ids, dtype=np.int64), np.cumsum(hyp_len) - hyp_len,
                        hyp_len, np.asarray(ref_ids, dtype=np.int64), starts, lengths)
    return Batch(backends.get_backend(), identity, hyp_len, lengths, present, pairs,
                 hyp_width=int(hyp_len.max()) if images else 0)


def stream_pairs(ids: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                 rows: int) -> RaggedPairs:
    """The ragged rows of sentences laid out in one id array as streams: the ``rows``
    hypotheses, then reference stream after reference stream (ROUGE's documents).

    >>> pairs = stream_pairs(np.array([1, 2, 1, 3]), np.array([0, 2]), np.array([2, 2]), 1)
    >>> pairs.hyp_lengths.tolist(), pairs.ref_starts.tolist()
    ([2], [[2]])
    """
    references = (len(starts) - rows) // rows if rows else 0
    return RaggedPairs(
        ids, np.ascontiguousarray(starts[:rows]), np.ascontiguousarray(lengths[:rows]), ids,
        np.ascontiguousarray(starts[rows:].reshape(references, rows).T),
        np.ascontiguousarray(lengths[rows:].reshape(references, rows).T))


def padded_rows(ids: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                fill: int = 0, width: int | None = None) -> np.ndarray:
    """``(*starts.shape, width)`` int64: the slices ``ids[start : start + length]``
    left-aligned, ``fill`` past their ends (``width``: at least the longest).

    >>> padded_rows(np.array([5, 6, 7]), np.array([1, 0]), np.array([2, 1])).tolist()
    [[6, 7], [5, 0]]
    """
    longest = int(lengths.max(initial=0))
    width = longest if width is None else max(width, longest)
    out = np.full((*starts.shape, width), fill, dtype=np.int64)
    flat_lengths = lengths.reshape(-1)
    total = int(flat_lengths.sum())
    if total:
        # each slice's positions in ids, slice after slice: one gather, one masked store
        shift = np.repeat(starts.reshape(-1) - (np.cumsum(flat_lengths) - flat_lengths),
                          flat_lengths)
        kept = np.arange(width) < lengths[..., None]
        out[kept] = ids[shift + np.arange(total)]
    return out


def mark_unreferenced(batch: Batch, scores: Any, corpus: bool = False) -> Any:
    """Scores with NaN where a hypothesis has no reference (a corpus score: if any has none),
    on devices (:attr:`Batch.has_reference`); elsewhere such input has already raised."""
    if batch.has_reference is None:
        return scores
    be = batch.backend
    missing = ~batch.has_reference
    if corpus:
        missing = be.any_(missing)
    return be.where(missing, float("nan"), scores)


def identity(a: Any) -> Any:
    """The ``to_caller`` of a batch whose arrays are the caller's own."""
    return a


backends.register_container(Batch, meta_fields=("backend", "to_caller"))
