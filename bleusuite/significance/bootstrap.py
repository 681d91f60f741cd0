"""Bootstrap resampling of summable statistics, with sacrebleu's draws.

sacrebleu's ``--confidence`` re-scores every resample in Python, from a fancy-indexed copy
of the per-sentence statistics. Here a resample is a weighted sum of the per-sentence
statistics:

1. Draw the resamples exactly as sacrebleu does (``numpy.random.default_rng(seed)``):
   ``rng.choice(B, size=(R, B))`` sentence indices for the bootstrap, ``rng.integers(2,
   size=(R, B), dtype=bool)`` swap masks for approximate randomization
   (:mod:`bleusuite.significance`). The same seed gives the same draws, so the same means,
   intervals and p-values.
2. Turn them into ``(R, B)`` weights (how often each sentence was drawn), drawn and counted
   a small step of resamples at a time (a step's arrays stay in cache and reuse their
   memory: in a fresh process, page faults on new ``(R, B)`` matrices cost more than the
   counting) into one weight buffer of up to :data:`WEIGHT_ELEMENTS` values.
3. One matrix product of that buffer with the ``(B, F)`` statistics (of several metrics or
   systems side by side) gives the ``(R, F)`` summed statistics of its resamples (exact:
   the values are integers that the floating-point type holds exactly).
4. Score the rows with the metric, one call per block of resamples, then summarise:
   sacrebleu's mean and 95% interval.

>>> import numpy as np
>>> stats = np.array([[3, 1], [0, 2], [5, 5]])          # (B, F): 3 sentences, 2 fields
>>> scores = bootstrap_scores(stats, lambda s: s[:, 0] / s[:, 1], 1000, seed=12345)
>>> Confidence.of(scores).n_resamples, estimate_ci(scores)[1] > 0
(1000, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from bleusuite.significance.seeding import DEFAULT_SEED, seed_from_environment

__all__ = [
    "DEFAULT_SEED",
    "Confidence",
    "DrawnResamples",
    "NoProgress",
    "WeightedSums",
    "bootstrap_scores",
    "bootstrap_scores_of_metrics",
    "bootstrap_weights",
    "check_count",
    "estimate_ci",
    "multiplicities",
    "resample_indices",
    "resampled_sums",
    "seed_from_environment",
    "swap_masks",
]

#: sentence indices drawn per step: a step's draws and counts (1 MB each) stay in cache
RESAMPLE_CHUNK = 1 << 17
#: rows of summed statistics scored per call of the score function (all systems or metrics)
SCORED_ROWS = 1 << 16
#: weights (multiplicities, masks) summed per matrix product: bounds that buffer in memory
WEIGHT_ELEMENTS = 1 << 22
#: float32 holds every integer up to 2**24 exactly: summed statistics below it are summed in
#: float32 (half the memory traffic of float64), larger ones in float64 (exact below 2**53)
_FLOAT32_EXACT = 1 << 24
_FLOAT64_EXACT = 1 << 53

#: ``(R, F)`` summed statistics (the ``to_array`` layout) -> ``(R,)`` scores (float64, or
#: float32 where the library reproduced scores its resamples in float32: sacrebleu's chrF)
ScoreFunction = Callable[[np.ndarray], np.ndarray]


class Progress(Protocol):
    """What the resampling needs of a progress bar (tqdm's interface)."""

    def update(self, n: int = 1) -> Any: ...


class NoProgress:
    """A progress bar that shows nothing."""

    def update(self, n: int = 1) -> None:
        pass


# --------------------------------------------------------------------------- draws


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

    For several resamplings of the same sentences with the same seed (the metrics of a
    paired test), or to draw while something else runs (``bleusuite score`` draws while
    its other processes count). Give it as ``drawn=`` to :func:`bootstrap_scores_of_metrics`
    or :func:`bleusuite.significance.paired_bootstrap`: the numbers are those of drawing
    there. It holds ``4 R B`` bytes, where drawing in steps holds a few megabytes.

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

    def check(self, num_sentences: int, n_resamples: int, seed: int | None) -> np.ndarray:
        """The weights, where they were drawn for these sentences, resamples and seed."""
        if (self.num_sentences, self.n_resamples, self.seed) != (num_sentences, n_resamples,
                                                                 seed):
            raise ValueError(
                f"drawn: resamples drawn for {self.num_sentences} sentences, "
                f"{self.n_resamples} resamples and seed {self.seed}; this resampling has "
                f"{num_sentences} sentences, {n_resamples} resamples and seed {seed}")
        return self.weights


# --------------------------------------------------------------------- bootstrap


def bootstrap_scores(
    stats: np.ndarray,
    score_of: ScoreFunction,
    n_resamples: int,
    seed: int | None,
    bar: Progress | None = None,
) -> np.ndarray:
    """Scores of ``n_resamples`` bootstrap resamples of the sentences, vectorised.

    The statistics of a resample are the per-sentence statistics ``stats`` ``(B, F)``
    weighted by how often each sentence was drawn: a ``(R, B)`` multiplicity matrix times
    ``stats``, one matrix product per chunk of resamples (exact: every value is an integer
    far below 2**53). ``score_of`` maps ``(R, F)`` summed statistics to ``(R,)`` scores.

    >>> stats = np.array([[3, 1], [0, 2], [5, 5]])          # (B, F) = (3, 2)
    >>> bootstrap_scores(stats, lambda s: s[:, 0] / s[:, 1], 4, seed=0).round(3).tolist()
    [0.556, 3.0, 3.0, 0.833]
    """
    return bootstrap_scores_of_metrics([stats], [score_of], n_resamples, seed, bar)[0]


def bootstrap_scores_of_metrics(
    tables: Sequence[np.ndarray],
    score_functions: Sequence[ScoreFunction],
    n_resamples: int,
    seed: int | None,
    bar: Progress | None = None,
    drawn: DrawnResamples | None = None,
) -> list[np.ndarray]:
    """:func:`bootstrap_scores` of several tables ``(B, F_k)`` on the same resamples (drawn
    once): several metrics of one system, or the same metric of several systems.
    ``drawn``: the resamples drawn ahead (:class:`DrawnResamples`, for the same sentences,
    resamples and seed)."""
    n_resamples = check_count(n_resamples, "n_resamples")
    bar = bar or NoProgress()
    num_sentences = tables[0].shape[0]
    # a resample's multiplicities sum to B
    sums = WeightedSums.side_by_side([np.asarray(t, dtype=np.int64) for t in tables],
                                     num_sentences)
    bounds = np.cumsum([0] + [t.shape[1] for t in tables]).tolist()
    scores: list[list[np.ndarray]] = [[] for _ in tables]
    for summed in sums.resampled(num_sentences, n_resamples, seed, drawn,
                                 max(1, SCORED_ROWS // len(tables))):
        for k, score_of in enumerate(score_functions):
            part = summed[:, bounds[k] : bounds[k + 1]]
            scores[k].append(_floats(score_of(part)))
        bar.update(summed.shape[0])
    return [np.concatenate(parts) for parts in scores]


@dataclass(frozen=True)
class Confidence:
    """sacrebleu's single-system bootstrap summary: mean ± half the 95% interval's width."""

    mean: float
    half_width: float
    low: float
    high: float
    n_resamples: int

    @classmethod
    def of(cls, scores: np.ndarray) -> Confidence:
        """The 2.5% and 97.5% order statistics and the mean, as sacrebleu's
        ``Score.estimate_ci`` (``statistics.mean`` of the sorted scores).

        >>> Confidence.of(np.arange(40.0))
        Confidence(mean=19.5, half_width=18.5, low=1.0, high=38.0, n_resamples=40)
        """
        import statistics

        ordered = np.sort(_floats(scores))
        n = len(ordered)
        lower = n // 40
        low, high = ordered[lower], ordered[n - lower - 1]
        # in the scores' own type, as sacrebleu (its chrF resamples are float32 scalars)
        mean = statistics.mean(list(ordered))
        return cls(float(mean), float(0.5 * (high - low)), float(low), float(high), n)


def estimate_ci(scores: np.ndarray) -> tuple[float, float]:
    """sacrebleu's ``significance.estimate_ci``: the mean of the scores (NumPy's sum of the
    sorted scores) and half the width of their 95% interval.

    >>> estimate_ci(np.arange(40.0))
    (19.5, 18.5)
    """
    ordered = np.sort(_floats(scores))  # float32 scores stay float32, as in sacrebleu
    lower = len(ordered) // 40
    half_width = 0.5 * (ordered[len(ordered) - lower - 1] - ordered[lower])
    return float(ordered.mean()), float(half_width)


def _floats(scores: Any) -> np.ndarray:
    """Scores as a float array: float32 ones kept, anything else float64."""
    array = np.asarray(scores)
    return array if array.dtype == np.float32 else array.astype(np.float64)


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
    """The type that sums up to ``largest_sum`` exactly: float32 (half the memory traffic
    of float64), float64, or int64 beyond 2**53."""
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
