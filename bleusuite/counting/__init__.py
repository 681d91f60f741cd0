"""Clipped n-gram match counts of a batch, exact, on any backend: the strategies (``compiled``,
the C kernel of :mod:`~bleusuite.counting.kernel`, on every CPU path where it is built;
``compact``, the NumPy pipeline of :mod:`~bleusuite.counting.compact`, the same counts where
it is not; ``fixed``, :mod:`~bleusuite.counting.fixed`, no host synchronisation, for GPUs and
JAX; ``triton``, :mod:`~bleusuite.counting.triton`, only where ``BLEUSUITE_COUNTING=triton``
asks) and the choice between them. Every strategy returns the same :class:`MatchCounts`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from bleusuite import environment
from bleusuite.backends.base import Backend
from bleusuite.counting import kernel
from bleusuite.counting.matches import MatchCounts
from bleusuite.counting.ragged import padded_batches
from bleusuite.environment import COUNTING_STRATEGIES
from bleusuite.inputs.batch import RaggedPairs

if TYPE_CHECKING:
    from bleusuite.inputs.batch import Batch

__all__ = ["COUNTING_STRATEGIES", "MatchCounts", "count_matches", "count_pairs",
           "counting_strategy", "ragged_rows"]


def counting_strategy(be: Backend, like: Any) -> str:
    """The counting strategy for a batch of arrays like ``like`` on backend ``be``: where
    reading a value back is free, ``compiled`` where the C part is built, else ``compact``;
    on devices, and always on JAX, ``fixed``. ``BLEUSUITE_COUNTING`` forces one: ``fixed``
    or ``compact`` on any backend but JAX, ``compiled`` on NumPy batches, ``triton`` on
    NumPy and torch batches (an ``ImportError`` where the C part, or triton, is missing).

    >>> from bleusuite.backends import get_backend
    >>> counting_strategy(get_backend(np.zeros(1)), np.zeros(1)) in COUNTING_STRATEGIES
    True
    """
    setting = environment.current().counting
    if not be.compact_counting or (setting == "triton" and be.name not in ("numpy", "torch")):
        return "fixed"  # JAX: immutable arrays, shapes fixed at trace time
    if setting in ("triton", "compact", "fixed") or (
            be.reads_are_free(like) and be.block_entries is not None):
        return _host_strategy(setting)  # forced, or on the host
    return "fixed"


def _host_strategy(setting: str) -> str:
    """The strategy of rows on the host for a ``BLEUSUITE_COUNTING`` setting."""
    if setting == "triton":
        from bleusuite.counting import triton

        if not triton.available():
            raise ImportError(
                "BLEUSUITE_COUNTING=triton needs the triton and torch packages, which this "
                "install lacks (install triton, which PyTorch's CUDA builds ship, or unset "
                "BLEUSUITE_COUNTING)"
            )
        return "triton"
    if setting in ("compact", "fixed"):
        return setting
    if kernel.available():
        return "compiled"
    if setting == "compiled":
        raise ImportError(
            "BLEUSUITE_COUNTING=compiled needs bleusuite's compiled part, which this install "
            "lacks (reinstall where a C compiler is available, or unset BLEUSUITE_COUNTING)"
        )
    return "compact"


def count_matches(batch: Batch, max_order: int, per_reference: bool = False,
                  workers: int | None = None) -> MatchCounts:
    """Clipped n-gram matches of orders 1..``max_order`` for every row of ``batch``, by the
    strategy :func:`counting_strategy` picks (the compiled kernel on up to ``workers``
    threads, default :func:`bleusuite.threads.worker_threads`)."""
    if batch.pairs is not None:
        strategy = counting_strategy(batch.backend, batch.hyp_len)
        if strategy == "compiled":
            return kernel.count_pairs(batch.pairs, max_order, per_reference, workers)
        if strategy in ("compact", "triton") and batch.hyp is None:  # padded by length
            return _count_padded_batches(batch.pairs, max_order, per_reference, strategy)
        batch = batch.padded()  # (padded arrays keep their matrices)
    strategy = counting_strategy(batch.backend, batch.hyp)
    if strategy == "compiled":
        return kernel.count_pairs(ragged_rows(batch), max_order, per_reference)
    return _padded_counter(strategy)(batch, max_order, per_reference)


def ragged_rows(batch: Batch) -> RaggedPairs:
    """The rows of a batch as :class:`RaggedPairs` on the host (a device batch's copied).

    >>> from bleusuite.inputs import normalize_batch
    >>> batch = normalize_batch(np.array([[5, 6, 0]]), np.array([[5, 7, 0]]), pad_id=0)
    >>> pairs = ragged_rows(batch)
    >>> pairs.hyp_lengths.tolist(), pairs.ref_lengths.tolist()
    ([2], [[2]])
    """
    if batch.pairs is not None:
        return batch.pairs
    to_numpy = batch.backend.to_numpy
    return RaggedPairs.from_padded(to_numpy(batch.hyp), to_numpy(batch.hyp_len),
                                   to_numpy(batch.refs), to_numpy(batch.ref_len))


def count_pairs(pairs: RaggedPairs, max_order: int, per_reference: bool = False,
                workers: int | None = None) -> MatchCounts:
    """Clipped matches of ragged rows (NumPy int64 arrays): the compiled kernel where it is
    built (on up to ``workers`` threads), else a NumPy pipeline on padded batches of similar
    length (``BLEUSUITE_COUNTING`` forces one as in :func:`counting_strategy`).

    >>> pairs = RaggedPairs(np.array([1, 2, 3, 1, 2, 4]), np.array([0]), np.array([3]),
    ...                     np.array([1, 2, 3, 1, 2, 4]), np.array([[3]]), np.array([[3]]))
    >>> count_pairs(pairs, 4).clipped.tolist()
    [[2, 1, 0, 0]]
    """
    strategy = _host_strategy(environment.current().counting)
    if strategy == "compiled":
        return kernel.count_pairs(pairs, max_order, per_reference, workers)
    return _count_padded_batches(pairs, max_order, per_reference, strategy)


def _count_padded_batches(pairs: RaggedPairs, max_order: int, per_reference: bool,
                          strategy: str) -> MatchCounts:
    """The counts of ragged rows by ``strategy``, on padded batches of similar length."""
    count = _padded_counter(strategy)
    clipped = np.zeros((pairs.rows, max_order), dtype=np.int64)
    per_ref = (np.zeros((pairs.rows, pairs.references, max_order), dtype=np.int64)
               if per_reference else None)
    for rows, batch in padded_batches(pairs):
        counts = count(batch, max_order, per_reference)
        clipped[rows] = counts.clipped
        if per_ref is not None and counts.per_reference is not None:
            per_ref[rows] = counts.per_reference
    return MatchCounts(clipped, per_ref)


def _padded_counter(strategy: str) -> Callable[[Batch, int, bool], MatchCounts]:
    """The counting function of a strategy on padded batches (imported on first use)."""
    from bleusuite.counting import compact, fixed, triton

    return {"fixed": fixed.count_matches_fixed, "triton": triton.count_matches_triton,
            "compact": compact.count_matches_compact}[strategy]
