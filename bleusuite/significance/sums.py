"""Resampled statistics as weighted sums: one matrix product of the ``(R, B)`` weights of
``R`` resamples (how often each sentence was drawn, or a 0/1 swap mask) with the ``(B, F)``
statistics gives their ``(R, F)`` sums, exactly (the values are integers that the floating
point type holds exactly).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from bleusuite.significance.draws import DrawnResamples, bootstrap_weights

__all__ = ["WEIGHT_ELEMENTS", "WeightedSums", "resampled_sums"]

#: weights (multiplicities, masks) summed per matrix product: bounds that buffer in memory
WEIGHT_ELEMENTS = 1 << 22
#: float32 holds every integer up to 2**24 exactly: summed statistics below it are summed in
#: float32 (half the memory traffic of float64), larger ones in float64 (exact below 2**53)
_FLOAT32_EXACT = 1 << 24
_FLOAT64_EXACT = 1 << 53


def resampled_sums(counts: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``(R, F)`` int64: the statistics ``table`` ``(B, F)`` summed with the weights
    ``counts`` ``(R, B)`` (multiplicities, or 0/1 masks), as one matrix product.

    Exact: every value is an integer, and every partial sum stays below what the
    floating-point type holds exactly (float32 where the largest possible sum is below
    2**24, float64 below 2**53, an integer product beyond).

    >>> resampled_sums(np.array([[2, 0, 1], [0, 3, 0]]), np.array([[1, 4], [2, 5], [3, 6]]))
    array([[ 5, 14],
           [ 6, 15]])
    """
    weight_sum = int(np.abs(counts).sum(axis=1).max(initial=0))
    return WeightedSums(table, weight_sum)(counts)


def _largest_magnitude(table: np.ndarray) -> int:
    if table.size == 0:
        return 0
    return max(int(table.max()), -int(table.min()))


def _exact_dtype(largest_sum: int) -> type[np.generic]:
    """The type that sums up to ``largest_sum`` exactly (float32, float64, int64)."""
    if largest_sum >= _FLOAT64_EXACT:
        return np.int64
    return np.float32 if largest_sum < _FLOAT32_EXACT else np.float64


class WeightedSums:
    """:func:`resampled_sums` of one table for many chunks of weights: the table is
    converted once, for weights whose rows sum (in absolute value) to at most
    ``max_weight_sum`` (the number of sentences, for multiplicities and 0/1 masks)."""

    def __init__(self, table: np.ndarray, max_weight_sum: int) -> None:
        table = np.asarray(table)
        self.max_weight_sum = max_weight_sum
        self.dtype = _exact_dtype(_largest_magnitude(table) * max_weight_sum)
        self.table = table.astype(self.dtype, copy=False)

    @classmethod
    def side_by_side(cls, tables: Sequence[np.ndarray], max_weight_sum: int) -> WeightedSums:
        """The sums of the tables ``(B, F_k)`` side by side, ``(B, sum of F_k)``: written
        straight into the converted table (no stacked int64 copy first).

        >>> sums = WeightedSums.side_by_side([np.array([[1], [2]]), np.array([[3], [4]])], 2)
        >>> sums(np.array([[1, 1], [0, 2]])).tolist()
        [[3, 7], [4, 8]]
        """
        tables = [np.asarray(t) for t in tables]
        dtype = _exact_dtype(max(_largest_magnitude(t) for t in tables) * max_weight_sum)
        return cls(np.concatenate(tables, axis=1, dtype=dtype), max_weight_sum)

    def __call__(self, counts: np.ndarray) -> np.ndarray:
        summed = counts.astype(self.dtype, copy=False) @ self.table
        return summed if self.dtype is np.int64 else np.rint(summed).astype(np.int64)

    def resampled(self, num_sentences: int, n_resamples: int, seed: int | None,
                  drawn: DrawnResamples | None, block_rows: int) -> Iterator[np.ndarray]:
        """The sums of ``n_resamples`` bootstrap resamples in blocks of ``block_rows``:
        of the resamples drawn ahead (``drawn``, checked), else drawn here in steps
        (:meth:`blocks` of :func:`bootstrap_weights`)."""
        if drawn is None:
            yield from self.blocks(bootstrap_weights(num_sentences, n_resamples, seed),
                                   block_rows)
            return
        weights = drawn.check(num_sentences, n_resamples, seed)
        for begin in range(0, n_resamples, block_rows):
            yield self(weights[begin : begin + block_rows])

    def blocks(self, chunks: Iterable[np.ndarray], block_rows: int) -> Iterator[np.ndarray]:
        """The sums of successive chunks of weights, gathered into ``(rows, F)`` int64
        blocks of at most ``block_rows`` rows (or one chunk's, if more).

        The chunks (small, as drawn: they stay in cache) are converted into one weight
        buffer of up to :data:`WEIGHT_ELEMENTS` values, reused, and summed with one matrix
        product per block: a few large products keep the BLAS threads busy where many small
        ones wait on each other, and a score function runs once per block.

        >>> sums = WeightedSums(np.array([[1, 2], [3, 4]]), 2)
        >>> chunks = [np.array([[2, 0], [1, 1]]), np.array([[0, 2]])]
        >>> [block.tolist() for block in sums.blocks(chunks, 2)]
        [[[2, 4], [4, 6]], [[6, 8]]]
        """
        weights = np.empty((0, 0), self.dtype)
        filled = 0
        for chunk in chunks:
            rows, width = chunk.shape
            if weights.shape[0] == 0:  # the first chunk (the largest, as drawn) sizes it
                fit = min(block_rows, WEIGHT_ELEMENTS // max(width, 1))
                weights = np.empty((max(rows, fit // rows * rows), width), self.dtype)
            if filled and filled + rows > weights.shape[0]:
                yield self(weights[:filled])
                filled = 0
            if rows > weights.shape[0]:  # larger than the first: summed on its own
                yield self(chunk)
                continue
            np.copyto(weights[filled : filled + rows], chunk, casting="unsafe")
            filled += rows
        if filled:
            yield self(weights[:filled])
