"""The compiled counting kernel (``bleusuite/csrc/counting.c``, through
:mod:`bleusuite.native`): clipped matches of ragged rows, one row at a time with the GIL
released, in blocks of rows of about equal work on the worker threads (a call too small to
repay a thread's hand-over runs in the caller's thread).
"""

from __future__ import annotations

import numpy as np

from bleusuite import native, threads
from bleusuite.counting.matches import MatchCounts
from bleusuite.inputs.batch import RaggedPairs

__all__ = ["MIN_TOKENS_PER_THREAD", "available", "count_pairs", "count_prefixes"]

#: tokens (hypotheses and references) that each thread of a call gets at least: below
#: that, handing work to a thread costs about what it saves (see docs/benchmarks.md)
MIN_TOKENS_PER_THREAD = 1 << 16


def available() -> bool:
    """Whether the compiled part is built and not turned off (:func:`bleusuite.native.compiled`)."""
    return native.compiled()


def count_pairs(pairs: RaggedPairs, max_order: int, per_reference: bool = False,
                workers: int | None = None) -> MatchCounts:
    """Clipped matches of orders 1..``max_order`` of every row (NumPy int64 arrays), on up
    to ``workers`` threads (default :func:`bleusuite.threads.worker_threads`).

    >>> pairs = RaggedPairs.from_padded(np.array([[1, 2, 3]]), np.array([3]),
    ...                                 np.array([[[1, 2, 4]]]), np.array([[3]]))
    >>> count_pairs(pairs, 4).clipped.tolist() if available() else [[2, 1, 0, 0]]
    [[2, 1, 0, 0]]
    """
    per_ref = (np.empty((pairs.rows, pairs.references, max_order), dtype=np.int64)
               if per_reference else None)
    return MatchCounts(_count(pairs, max_order, per_ref, None, workers), per_ref)


def count_prefixes(pairs: RaggedPairs, max_order: int, width: int,
                   workers: int | None = None) -> np.ndarray:
    """Clipped matches of every prefix of each hypothesis, ``(B, width, max_order)`` int64,
    as :func:`bleusuite.counting.prefix.prefix_matches` gives them, in the counting pass.

    >>> pairs = RaggedPairs.from_padded(np.array([[7, 7, 8, 9]]), np.array([4]),
    ...                                 np.array([[[7, 8, 9, 0]]]), np.array([[3]]))
    >>> count_prefixes(pairs, 2, 4)[0].tolist() if available() else [[1, 0], [1, 0], [2, 1], [3, 2]]
    [[1, 0], [1, 0], [2, 1], [3, 2]]
    """
    prefix = np.empty((pairs.rows, width, max_order), dtype=np.int64)
    _count(pairs, max_order, None, prefix, workers)
    return prefix


def _count(pairs: RaggedPairs, max_order: int, per_ref: np.ndarray | None,
           prefix: np.ndarray | None, workers: int | None) -> np.ndarray:
    """The clipped matches ``(B, max_order)``; ``per_ref`` and ``prefix`` filled if given."""
    module = native.module()
    if module is None:
        raise ImportError("the compiled part (bleusuite._native) is not built or is turned off")
    clipped = np.empty((pairs.rows, max_order), dtype=np.int64)
    bounds, workers = _blocks(pairs, threads.worker_threads() if workers is None else workers)

    def block(index: int) -> None:
        module.count_matches(pairs.hyp_ids, pairs.hyp_starts, pairs.hyp_lengths, pairs.ref_ids,
                             pairs.ref_starts, pairs.ref_lengths, clipped, per_ref,
                             bounds[index], bounds[index + 1], prefix)

    if workers == 1:
        block(0)
    else:
        threads.run_blocks(block, range(len(bounds) - 1), workers)
    return clipped


def _blocks(pairs: RaggedPairs, most: int) -> tuple[list[int], int]:
    """Row bounds of blocks of about equal tokens, and the threads to count them on."""
    rows = pairs.rows
    # the id arrays hold every token (and maybe more): a small call needs no count
    bound = pairs.hyp_ids.size + (0 if pairs.ref_ids is pairs.hyp_ids else pairs.ref_ids.size)
    if most <= 1 or rows <= 1 or bound < 2 * MIN_TOKENS_PER_THREAD:
        return [0, rows], 1
    tokens = np.cumsum(pairs.hyp_lengths + pairs.ref_lengths.sum(axis=1))
    return threads.work_blocks(tokens, most, MIN_TOKENS_PER_THREAD)
