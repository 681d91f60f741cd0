"""Clipped n-gram match counts of a batch, exact, on any backend: the strategies and the
choice between them.

- ``compiled`` (:mod:`bleusuite.counting.kernel`): the compiled kernel of bleusuite's C part,
  on every CPU path (NumPy arrays, torch CPU tensors through NumPy views, token lists,
  text, the command) where it is built;
- ``compact`` (:mod:`bleusuite.counting.compact`): the NumPy pipeline (packed n-gram keys,
  one row-wise sort, running sums), the same counts where the C part is not built;
- ``fixed`` (:mod:`bleusuite.counting.fixed`): every shape follows from the input shapes,
  no host synchronisation (the GPU and JAX path);
- ``triton`` (:mod:`bleusuite.counting.triton`): one Triton kernel launch on torch tensors
  (NumPy batches counted on torch views of them), only where ``BLEUSUITE_COUNTING=triton``
  asks for it; on CPU tensors in Triton's interpreter (``TRITON_INTERPRET=1``).

Every strategy returns the same :class:`MatchCounts`.
"""

from __future__ import annotations

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
    """The counting strategy for a batch of arrays like ``like`` on backend ``be``.

    Where reading a value back is free (NumPy arrays, and torch CPU tensors through NumPy
    views): ``compiled`` where the C part is built, else ``compact``. On devices (CUDA,
    CuPy, torch ``meta``): ``fixed``. JAX always counts with ``fixed`` (immutable arrays,
    shapes fixed at trace time). ``BLEUSUITE_COUNTING`` forces a strategy (for tests and
    comparisons): ``fixed`` or ``compact`` on any backend but JAX, ``compiled`` on NumPy
    batches (an ``ImportError`` where the C part is not built), ``triton`` on NumPy and
    torch batches (CuPy's keep ``fixed``; an ``ImportError`` where triton does not import);
    ``auto`` or unset is the default.

    >>> from bleusuite.backends import get_backend
    >>> counting_strategy(get_backend(np.zeros(1)), np.zeros(1)) in COUNTING_STRATEGIES
    True
    """
    setting = environment.current().counting
    if not be.compact_counting:  # JAX: immutable arrays, shapes fixed at trace time
        return "fixed"
    if setting == "triton":
        return _triton_strategy() if be.name in ("numpy", "torch") else "fixed"
    if setting in ("compact", "fixed"):
        return setting
    on_host = be.reads_are_free(like) and be.block_entries is not None
    if not on_host:
        return "fixed"
    return _host_strategy(setting)


def _host_strategy(setting: str) -> str:
    """The strategy of rows on the host for a ``BLEUSUITE_COUNTING`` setting: the one it
    forces, else ``compiled`` where the C part is built, else ``compact``."""
    if setting == "triton":
        return _triton_strategy()
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


def _triton_strategy() -> str:
    """``triton``, where triton and torch can be imported."""
    from bleusuite.counting import triton

    if not triton.available():
        raise ImportError(
            "BLEUSUITE_COUNTING=triton needs the triton and torch packages, which this "
            "install lacks (install triton, which PyTorch's CUDA builds ship, or unset "
            "BLEUSUITE_COUNTING)"
        )
    return "triton"


def count_matches(batch: Batch, max_order: int, per_reference: bool = False,
                  workers: int | None = None) -> MatchCounts:
    """Clipped n-gram matches of orders 1..``max_order`` for every row of ``batch``, by the
    strategy :func:`counting_strategy` picks (the ragged rows of a host batch go to the
    compiled kernel as they are, on up to ``workers`` threads: default
    :func:`bleusuite.threads.worker_threads`)."""
    if batch.pairs is not None:
        strategy = counting_strategy(batch.backend, batch.hyp_len)
        if strategy == "compiled":
            return kernel.count_pairs(batch.pairs, max_order, per_reference, workers)
        if strategy in ("compact", "triton") and batch.hyp is None:  # padded by length
            return _count_padded_batches(batch.pairs, max_order, per_reference, strategy)
        batch = batch.padded()  # (padded arrays keep their matrices)
    strategy = counting_strategy(batch.backend, batch.hyp)
    if strategy == "triton":
        from bleusuite.counting import triton

        return triton.count_matches_triton(batch, max_order, per_reference)
    if strategy == "fixed":
        from bleusuite.counting import fixed

        return fixed.count_matches_fixed(batch, max_order, per_reference)
    if strategy == "compact":
        from bleusuite.counting import compact

        return compact.count_matches_compact(batch, max_order, per_reference)
    return kernel.count_pairs(ragged_rows(batch), max_order, per_reference)


def ragged_rows(batch: Batch) -> RaggedPairs:
    """The rows of a batch as :class:`RaggedPairs` on the host, the form the compiled kernels
    read (an absent reference has length 0): a host batch's own rows, a device batch's
    copied to the host.

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
    built (on up to ``workers`` threads, default :func:`bleusuite.threads.worker_threads`),
    else the NumPy pipeline on padded batches of similar length (the same counts).
    ``BLEUSUITE_COUNTING`` forces a strategy here as in :func:`counting_strategy` (``fixed``
    and ``compact`` count the padded batches with that pipeline).

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
    """The counts of ragged rows by a NumPy pipeline (``compact`` or ``fixed``) or the Triton
    kernel, on padded batches of similar length."""
    from bleusuite.counting import compact, fixed, triton

    count = {"fixed": fixed.count_matches_fixed, "triton": triton.count_matches_triton}.get(
        strategy, compact.count_matches_compact)
    clipped = np.zeros((pairs.rows, max_order), dtype=np.int64)
    per_ref = (np.zeros((pairs.rows, pairs.references, max_order), dtype=np.int64)
               if per_reference else None)
    for rows, batch in padded_batches(pairs):
        counts = count(batch, max_order, per_reference)
        clipped[rows] = counts.clipped
        if per_ref is not None and counts.per_reference is not None:
            per_ref[rows] = counts.per_reference
    return MatchCounts(clipped, per_ref)
