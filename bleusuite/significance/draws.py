"""sacrebleu's draws of bootstrap resamples and randomization trials
(``numpy.random.default_rng(seed)``): the same seed gives the same draws, so the same
means, intervals and p-values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleusuite.threads import InOrder

__all__ = ["RESAMPLE_CHUNK", "DrawnResamples", "bootstrap_weights", "check_count",
           "multiplicities", "resample_indices", "swap_masks"]

#: sentence indices drawn per step: a step's draws and counts (1 MB each) stay in cache
RESAMPLE_CHUNK = 1 << 17


def check_count(value: Any, argname: str) -> int:
    """``value`` as a positive int (resamples, trials, sentences), or a ValueError naming
    ``argname``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"{argname} must be a positive integer; got {value!r}")
    return int(value)


def _chunk_rows(num_sentences: int, chunk: int | None) -> int:
    return max(1, RESAMPLE_CHUNK // max(num_sentences, 1)) if chunk is None else chunk


def resample_indices(
    num_sentences: int, n_resamples: int, seed: int | None, chunk: int | None = None
) -> Iterator[np.ndarray]:
    """Bootstrap resamples as rows of sentence indices, ``chunk`` rows at a time.

    Joined, the chunks are ``numpy.random.default_rng(seed).choice(num_sentences,
    size=(n_resamples, num_sentences))``: sacrebleu's resamples for the same seed (NumPy
    draws the rows one after the other, so drawing them in pieces changes nothing).

    >>> rows = np.concatenate(list(resample_indices(5, 3, seed=1, chunk=2)))
    >>> bool((rows == np.random.default_rng(1).choice(5, size=(3, 5))).all())
    True
    """
    chunk = _chunk_rows(num_sentences, chunk)
    rng = np.random.default_rng(seed)
    for begin in range(0, n_resamples, chunk):
        rows = min(chunk, n_resamples - begin)
        yield rng.choice(num_sentences, size=(rows, num_sentences), replace=True)


def swap_masks(
    num_sentences: int, n_trials: int, seed: int | None, chunk: int | None = None
) -> Iterator[np.ndarray]:
    """Approximate-randomization trials as ``(rows, B)`` boolean masks, ``chunk`` at a time.

    Joined, they are sacrebleu's ``default_rng(seed).integers(2, size=(n_trials, B),
    dtype=bool)`` (True: pseudo-system A takes the baseline's sentence). NumPy fills boolean
    arrays from 32-bit draws and drops a call's unused bits, so ``chunk`` is rounded up to a
    multiple of 32 rows: every chunk but the last then uses whole draws, as one call does.

    >>> masks = np.concatenate(list(swap_masks(6, 70, seed=2, chunk=32)))
    >>> rng = np.random.default_rng(2)
    >>> bool((masks == rng.integers(2, size=(70, 6), dtype=bool)).all())
    True
    """
    chunk = -(-_chunk_rows(num_sentences, chunk) // 32) * 32
    rng = np.random.default_rng(seed)
    for begin in range(0, n_trials, chunk):
        rows = min(chunk, n_trials - begin)
        yield rng.integers(2, size=(rows, num_sentences), dtype=bool)


def multiplicities(indices: np.ndarray, num_sentences: int) -> np.ndarray:
    """``(R, B)``: how many times each sentence occurs in each resample ``(R, B)``.

    >>> multiplicities(np.array([[0, 0, 2], [1, 2, 1]]), 3).tolist()
    [[2, 0, 1], [0, 2, 1]]
    """
    rows = indices.shape[0]
    flat = (indices + (np.arange(rows) * num_sentences)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * num_sentences).reshape(rows, num_sentences)


def bootstrap_weights(
    num_sentences: int, n_resamples: int, seed: int | None, chunk: int | None = None
) -> Iterator[np.ndarray]:
    """:func:`multiplicities` of :func:`resample_indices`, ``chunk`` resamples at a time.

    >>> drawn = np.concatenate(list(bootstrap_weights(4, 5, seed=3, chunk=2)))
    >>> rows = np.random.default_rng(3).choice(4, size=(5, 4))
    >>> bool((drawn == multiplicities(rows, 4)).all())
    True
    """
    offsets: np.ndarray | None = None
    for indices in resample_indices(num_sentences, n_resamples, seed, chunk):
        rows = indices.shape[0]
        if offsets is None:  # the first chunk is the largest
            offsets = (np.arange(rows, dtype=indices.dtype) * num_sentences)[:, None]
        indices += offsets[:rows]  # the draws are ours: offset in place, no second matrix
        counts = np.bincount(indices.reshape(-1), minlength=indices.size)
        yield counts.reshape(rows, num_sentences)


@dataclass(frozen=True)
class DrawnResamples:
    """Bootstrap resamples drawn ahead of time: all of :func:`bootstrap_weights` at once, as
    one ``(R, B)`` float32 matrix of multiplicities (exact: a multiplicity is at most
    ``B``, far below 2**24 for any matrix that fits in memory).

    For several resamplings of the same sentences and seed, or to draw while something else
    runs: give it as ``drawn=`` to :func:`bootstrap_scores_of_metrics` or
    :func:`bleusuite.significance.paired_bootstrap` (the same numbers). It holds ``4 R B``
    bytes, where drawing in steps holds a few megabytes.

    >>> drawn = DrawnResamples.draw(4, 5, seed=3)
    >>> bool((drawn.weights == np.concatenate(list(bootstrap_weights(4, 5, seed=3)))).all())
    True
    """

    num_sentences: int
    n_resamples: int
    seed: int | None
    weights: np.ndarray

    @classmethod
    def draw(cls, num_sentences: int, n_resamples: int, seed: int | None) -> DrawnResamples:
        """Draw ``n_resamples`` resamples of ``num_sentences`` sentences (sacrebleu's draws
        for ``seed``; None: fresh entropy)."""
        n_resamples = check_count(n_resamples, "n_resamples")
        num_sentences = check_count(num_sentences, "num_sentences")
        weights = np.empty((n_resamples, num_sentences), dtype=np.float32)
        row = 0
        for chunk in bootstrap_weights(num_sentences, n_resamples, seed):
            np.copyto(weights[row : row + len(chunk)], chunk, casting="unsafe")
            row += len(chunk)
        return cls(num_sentences, n_resamples, seed, weights)

    @classmethod
    def ahead(cls, num_sentences: int, n_resamples: int,
              seed: int | None) -> Callable[[], DrawnResamples | None]:
        """:meth:`draw` on a thread of its own, started now (NumPy's generator releases the
        GIL while it fills). The call returned waits for the draws and gives them, or None
        where there was no memory or no thread for them (the resampling then draws in
        steps: the same numbers).

        >>> drawn = DrawnResamples.ahead(4, 5, seed=3)
        >>> bool((drawn().weights == DrawnResamples.draw(4, 5, seed=3).weights).all())
        True
        """
        drawing: InOrder[None, DrawnResamples] = InOrder(
            lambda _: cls.draw(num_sentences, n_resamples, seed))
        try:
            drawing.add(None)
        except RuntimeError:  # no thread to be had (a process or thread limit): the
            return lambda: None  # resampling draws as it sums, the same numbers

        def result() -> DrawnResamples | None:
            try:
                return drawing.results()[0]
            except MemoryError:
                return None

        return result

    def check(self, num_sentences: int, n_resamples: int, seed: int | None) -> np.ndarray:
        """The weights, where they were drawn for these sentences, resamples and seed."""
        if (self.num_sentences, self.n_resamples, self.seed) != (num_sentences, n_resamples,
                                                                 seed):
            raise ValueError(
                f"drawn: resamples drawn for {self.num_sentences} sentences, "
                f"{self.n_resamples} resamples and seed {self.seed}; this resampling has "
                f"{num_sentences} sentences, {n_resamples} resamples and seed {seed}")
        return self.weights
