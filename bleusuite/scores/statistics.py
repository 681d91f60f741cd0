"""What the statistics of every metric share: moving their arrays, and n-gram totals.

A metric's score is a pure function of a few integer counts per sentence. Those counts add
up: the statistics of a corpus are the sum of those of its sentences, so batches, processes
(an all-reduce) and bootstrap resamples are combined before scoring. Each metric's own
statistics type lives with the metric (:class:`bleusuite.BleuStats`,
:class:`bleusuite.GleuStats`, :class:`bleusuite.ChrfStats`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

from bleusuite.backends.base import Backend

__all__ = ["map_arrays", "ngram_totals"]

_Stats = TypeVar("_Stats")


def map_arrays(stats: _Stats, fn: Callable[[Any], Any]) -> _Stats:
    """The same statistics with ``fn`` applied to every array (e.g. to move them)."""
    return type(stats)(*(fn(getattr(stats, f.name)) for f in fields(stats)))  # type: ignore


def ngram_totals(be: Backend, lengths: Any, first: int, last: int) -> Any:
    """``(..., last - first + 1)``: ``max(0, length - n + 1)`` for n = first..last.

    >>> import numpy as np
    >>> from bleusuite.backends import get_backend
    >>> ngram_totals(get_backend(np.zeros(1)), np.array([3, 1]), 1, 4).tolist()
    [[3, 2, 1, 0], [1, 0, 0, 0]]
    """
    orders = be.arange(last - first + 1, like=lengths) + first
    return be.maximum(lengths[..., None] - orders + 1, 0)
