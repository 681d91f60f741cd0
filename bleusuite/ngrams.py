"""Clipped n-gram match counts for a whole batch, exact, on any backend: the counting
strategies and the choice between them.

- ``compact`` (:mod:`bleusuite.counting_compact`): the NumPy pipeline (packed n-gram keys,
  one row-wise sort, running sums; drops n-grams that cannot match before the next order);
- ``numba`` (:mod:`bleusuite.counting_numba`): a compiled per-row kernel, with the
  optional numba installed;
- ``fixed`` (:mod:`bleusuite.fixed`): every shape follows from the input shapes, no host
  synchronisation (the GPU and JAX path).

Every strategy returns the same :class:`MatchCounts`; this module also holds the worker
threads the CPU strategies share.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

from bleusuite.backends.base import Backend
from bleusuite.inputs import Batch
from bleusuite.threads import worker_threads

__all__ = [
    "COUNTING_STRATEGIES", "MatchCounts", "count_matches", "counting_strategy", "worker_threads"
]

@dataclass(frozen=True)
class MatchCounts:
    """Clipped n-gram matches of every hypothesis, per order 1..max_order.

    Attributes:
        clipped: (B, K) int64, sum over the hypothesis n-grams of
            ``min(count in hypothesis, max count in any reference)`` (BLEU's numerator).
        per_reference: (B, R, K) int64, sum of ``min(count in hypothesis, count in
            reference r)`` (GLEU's true positives), or None when not asked for.
    """

    clipped: Any
    per_reference: Any | None

#: Counting strategies: ``compact`` (this module: drops n-grams that cannot match, reads a
#: few sizes back; the NumPy pipeline), ``numba`` (:mod:`bleusuite.counting_numba`: a
#: compiled per-row kernel for NumPy batches, with the optional numba installed) and
#: ``fixed`` (:mod:`bleusuite.fixed`: every shape follows from the input shapes, no host
#: synchronisation; the GPU path).
COUNTING_STRATEGIES = ("compact", "fixed", "numba")


#: token positions from which ``auto`` imports numba for a batch: importing it takes about a
#: second, more than the NumPy pipeline needs for smaller batches (a short command-line run
#: should not pay it); once numba is imported, every NumPy batch uses the kernel
NUMBA_MIN_ENTRIES = 1 << 18


def counting_strategy(be: Backend, like: Any, entries: int = 0) -> str:
    """The counting strategy for a batch of ``entries`` token positions like ``like``.

    ``BLEUSUITE_COUNTING`` chooses when set: ``fixed`` or ``compact`` on any backend;
    ``numba`` for NumPy batches (an ``ImportError`` without numba; other backends keep
    their default); ``auto`` (or unset) is the default: where reading a value back is free
    (NumPy, and torch CPU tensors through NumPy views) the compiled kernel when numba can
    be imported (and is imported already, or the batch holds at least
    :data:`NUMBA_MIN_ENTRIES` positions), else the NumPy pipeline; on devices (CUDA, CuPy,
    ``meta``) ``fixed``. JAX always counts with ``fixed`` (immutable arrays, shapes fixed
    at trace time: a forced ``compact`` or ``numba`` does not apply to it, and both give
    the same counts).

    >>> import numpy as np
    >>> from bleusuite.backends import get_backend
    >>> counting_strategy(get_backend(np.zeros(1)), np.zeros(1)) in COUNTING_STRATEGIES
    True
    """
    setting = os.environ.get("BLEUSUITE_COUNTING", "").strip().lower()
    if setting not in ("", "auto", *COUNTING_STRATEGIES):
        raise ValueError(
            f"BLEUSUITE_COUNTING must be one of auto, {', '.join(COUNTING_STRATEGIES)}; "
            f"got {setting!r}"
        )
    if not be.compact_counting:  # JAX: immutable arrays, shapes fixed at trace time
        return "fixed"
    if setting in ("compact", "fixed"):
        return setting
    on_host = be.reads_are_free(like) and be.block_entries is not None
    if not on_host:
        return "fixed"
    worth_importing = (setting == "numba" or entries >= NUMBA_MIN_ENTRIES
                       or "bleusuite.counting_numba" in sys.modules)
    if worth_importing and _numba_importable():
        return "numba"
    if setting == "numba":
        raise ImportError(
            "BLEUSUITE_COUNTING=numba needs numba: pip install 'bleusuite[numba]' (or unset "
            "BLEUSUITE_COUNTING to use the NumPy pipeline)"
        )
    return "compact"


def count_matches(batch: Batch, max_order: int, per_reference: bool = False) -> MatchCounts:
    """Clipped n-gram matches of orders 1..``max_order`` for every row of ``batch``, by the
    strategy :func:`counting_strategy` picks. The CPU strategies run blocks of rows on up
    to :func:`worker_threads` threads.
    """
    entries = batch.hyp.shape[0] * (batch.hyp.shape[1] + batch.refs.shape[1] * batch.refs.shape[2])
    strategy = counting_strategy(batch.backend, batch.hyp, entries)
    if strategy == "fixed":
        from bleusuite.fixed import count_matches_fixed  # it imports MatchCounts from here

        return count_matches_fixed(batch, max_order, per_reference)
    if strategy == "numba":
        from bleusuite.counting_numba import count_matches_numba

        return count_matches_numba(batch, max_order, per_reference)
    from bleusuite.counting_compact import count_matches_compact

    return count_matches_compact(batch, max_order, per_reference)


_numba_found: list[bool] = []


def _numba_importable() -> bool:
    if not _numba_found:
        try:
            import bleusuite.counting_numba  # noqa: F401
        except Exception:  # missing, or an install that cannot load: the NumPy pipeline
            _numba_found.append(False)
        else:
            _numba_found.append(True)
    return _numba_found[0]
