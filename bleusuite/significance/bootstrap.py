"""Bootstrap resampling of summable statistics, with sacrebleu's draws.

Where sacrebleu's ``--confidence`` re-scores a fancy-indexed copy of the statistics for
every resample in Python, here the resamples are sacrebleu's draws
(:mod:`bleusuite.significance.draws`, the same seed gives the same numbers) turned into
``(R, B)`` weights, their summed statistics one exact matrix product per block
(:mod:`bleusuite.significance.sums`), scored by the metric one call per block and
summarised as sacrebleu does: mean and 95% interval.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from bleusuite.significance.draws import DrawnResamples, check_count
from bleusuite.significance.sums import WeightedSums

__all__ = ["SCORED_ROWS", "Confidence", "NoProgress", "Progress", "ScoreFunction",
           "bootstrap_scores", "bootstrap_scores_of_metrics", "estimate_ci"]

#: rows of summed statistics scored per call of the score function (all systems or metrics)
SCORED_ROWS = 1 << 16

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

        ordered, low, high = _interval(scores)
        # in the scores' own type, as sacrebleu (its chrF resamples are float32 scalars)
        mean = statistics.mean(list(ordered))
        return cls(float(mean), float(0.5 * (high - low)), float(low), float(high), len(ordered))


def estimate_ci(scores: np.ndarray) -> tuple[float, float]:
    """sacrebleu's ``significance.estimate_ci``: the mean of the scores (NumPy's sum of the
    sorted scores) and half the width of their 95% interval.

    >>> estimate_ci(np.arange(40.0))
    (19.5, 18.5)
    """
    ordered, low, high = _interval(scores)
    return float(ordered.mean()), float(0.5 * (high - low))


def _interval(scores: Any) -> tuple[np.ndarray, Any, Any]:
    """The sorted scores (float32 ones kept, as in sacrebleu, anything else float64) and
    their 2.5% and 97.5% order statistics."""
    ordered = np.sort(_floats(scores))
    lower = len(ordered) // 40
    return ordered, ordered[lower], ordered[len(ordered) - lower - 1]


def _floats(scores: Any) -> np.ndarray:
    array = np.asarray(scores)
    return array if array.dtype == np.float32 else array.astype(np.float64)
