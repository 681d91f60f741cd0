"""Paired significance tests on summable statistics.

sacrebleu's ``--paired-bs`` and ``--paired-ar``, on sacrebleu's draws, with the resampled
statistics of every system as one matrix product (as :mod:`bleusuite.significance.bootstrap`
does for one system), scored by the metric and summarised as sacrebleu does: mean and 95%
interval, p-values.

The statistics are any metric's of the sentences (:class:`~bleusuite.BleuStats`,
:class:`~bleusuite.GleuStats`, :class:`~bleusuite.WerStats`, ...: one row per sentence, any
backend; they are moved to NumPy for the resampling), or their ``to_array()`` form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from bleusuite import backends
from bleusuite.scores import registry
from bleusuite.significance.bootstrap import (
    SCORED_ROWS,
    NoProgress,
    Progress,
    ScoreFunction,
    bootstrap_scores_of_metrics,
    estimate_ci,
)
from bleusuite.significance.draws import DrawnResamples, check_count, swap_masks
from bleusuite.significance.seeding import DEFAULT_SEED
from bleusuite.significance.sums import WeightedSums

__all__ = ["PairedResult", "paired_approximate_randomization", "paired_bootstrap"]

#: per-sentence statistics of any metric (``BleuStats``, ``GleuStats``, ``ChrfStats``), or
#: their ``to_array()`` form
Statistics = Any


def _p_value(statistic: np.ndarray, real_difference: float) -> float:
    """sacrebleu's ``(count of statistic > real difference + 1) / (trials + 1)``."""
    return (int(np.sum(statistic > real_difference)) + 1) / (len(statistic) + 1)


def _numpy_table(stats: Statistics, argname: str) -> np.ndarray:
    if hasattr(stats, "to_array"):
        array = stats.to_array()
        array = np.asarray(backends.get_backend(array).to_numpy(array))
    elif isinstance(stats, np.ndarray):
        array = stats
    else:
        raise TypeError(f"{argname} must be a metric's statistics (BleuStats, GleuStats, "
                        f"ChrfStats) or a NumPy array of them; got {type(stats).__name__}")
    if array.ndim != 2:
        raise ValueError(f"{argname}: expected one row of statistics per sentence, shape "
                         f"(sentences, fields); got shape {array.shape}")
    return np.asarray(array, dtype=np.int64)


@dataclass(frozen=True)
class PairedResult:
    """One system's row of a paired test (sacrebleu's ``significance.Result``).

    Attributes:
        score: the system's corpus score.
        p_value: the p-value of its difference to the baseline (None for the baseline).
        mean: the bootstrap estimate of the true mean (paired bootstrap only).
        ci: half the width of the 95% bootstrap interval around ``mean``.
    """

    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None

    def as_dict(self) -> dict[str, float | None]:
        """sacrebleu's ``Result.__dict__`` (what its JSON output prints)."""
        return {"score": self.score, "p_value": self.p_value, "mean": self.mean, "ci": self.ci}


def _scores_of_totals(score: ScoreFunction, totals: list[np.ndarray]) -> list[float]:
    return [float(x) for x in np.asarray(score(np.stack(totals))).tolist()]


def _prepare(
    baseline: Statistics, systems: Sequence[Statistics], score: ScoreFunction | None,
    resampled_score: ScoreFunction | None,
) -> tuple[list[np.ndarray], ScoreFunction, ScoreFunction]:
    if isinstance(systems, np.ndarray) or hasattr(systems, "to_array"):
        raise TypeError("systems must be a sequence of statistics (one per system); got a "
                        "single " + type(systems).__name__)
    if len(systems) == 0:
        raise ValueError("systems: a paired test needs at least one system besides the baseline")
    tables = [_numpy_table(baseline, "baseline")]
    tables += [_numpy_table(s, f"systems[{i}]") for i, s in enumerate(systems)]
    for i, table in enumerate(tables[1:]):
        if table.shape != tables[0].shape:
            raise ValueError(f"systems[{i}]: statistics of shape {table.shape} do not match the "
                             f"baseline's {tables[0].shape} (same sentences, same metric)")
    # the metric of the statistics with its default settings (a bare array is BLEU's)
    metric = registry.get("bleu") if isinstance(baseline, np.ndarray) else \
        registry.of_statistics(baseline)
    settings = metric.settings()
    if score is not None:
        return tables, score, resampled_score or score
    return (tables, partial(metric.scores, settings=settings),
            resampled_score or partial(metric.scores, settings=settings, resampled=True))


def paired_bootstrap(
    baseline: Statistics,
    systems: Sequence[Statistics],
    n_resamples: int = 1000,
    seed: int | None = DEFAULT_SEED,
    *,
    score: ScoreFunction | None = None,
    resampled_score: ScoreFunction | None = None,
    bar: Progress | None = None,
    drawn: DrawnResamples | None = None,
) -> list[PairedResult]:
    """Paired bootstrap resampling (Koehn 2004), as sacrebleu's ``--paired-bs``.

    Every system is resampled with the same sentence indices as the baseline (sacrebleu's
    draw for ``seed``). For each system: the score, the bootstrap mean and 95% half-width
    (:func:`estimate_ci`), and the p-value of the observed difference to the baseline: the
    share of resamples whose centred absolute difference exceeds it, ``(c + 1) / (R + 1)``.

    Args:
        baseline: per-sentence statistics of the baseline system.
        systems: per-sentence statistics of the other systems, on the same sentences.
        n_resamples: bootstrap resamples (sacrebleu's default 1000).
        seed: the generator's seed (None: fresh entropy, as ``SACREBLEU_SEED=none``).
        score: ``(R, F)`` summed statistics -> ``(R,)`` scores. Default: sacrebleu's BLEU
            (``exp`` smoothing) for :class:`~bleusuite.BleuStats`, 100 x GLEU for
            :class:`~bleusuite.GleuStats`, 100 x jiwer's WER for
            :class:`~bleusuite.WerStats` (of characters: CER); any metric's by
            :func:`bleusuite.scores.registry.of_statistics`.
        resampled_score: the score of the resamples (default: ``score``; with the default
            BLEU, sacrebleu's float32 arithmetic on resamples, so the numbers are its own).
        bar: a progress bar (``update(n)`` per chunk of resamples).
        drawn: the resamples drawn ahead (:class:`~bleusuite.significance.bootstrap.DrawnResamples`,
            for the same sentences, ``n_resamples`` and ``seed``; the numbers are the same).

    Returns:
        One :class:`PairedResult` per system, the baseline first (its ``p_value`` None).

    >>> import numpy as np
    >>> from bleusuite import bleu_statistics
    >>> refs = np.array([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [1, 3, 5, 7, 9]])
    >>> base = bleu_statistics(np.array([[1, 2, 3, 4, 9], [6, 7, 8, 1, 10], [1, 3, 5, 2, 9]]),
    ...                        refs)
    >>> [r.p_value for r in paired_bootstrap(base, [base], n_resamples=9)]  # 1 / (9 + 1)
    [None, 0.1]
    """
    n_resamples = check_count(n_resamples, "n_resamples")
    tables, score, resampled_score = _prepare(baseline, systems, score, resampled_score)
    real = _scores_of_totals(score, [t.sum(axis=0) for t in tables])
    # the systems resampled side by side, each scored apart: a metric returns float32
    # scores, or float64 where the library it reproduces made that system's array float64
    # (sacrebleu's chrF and TER, where some resample takes a branch of Python floats)
    resampled = bootstrap_scores_of_metrics(tables, [resampled_score] * len(tables),
                                            n_resamples, seed, bar, drawn)  # S x (R,)
    results = []
    for k, scores in enumerate(resampled):
        mean, ci = estimate_ci(scores)
        if k == 0:
            results.append(PairedResult(real[0], None, mean, ci))
            continue
        difference = abs(real[0] - real[k])
        sample_differences = np.abs(scores - resampled[0])
        centred = sample_differences - sample_differences.mean()
        results.append(PairedResult(real[k], _p_value(centred, difference), mean, ci))
    return results


def paired_approximate_randomization(
    baseline: Statistics,
    systems: Sequence[Statistics],
    n_trials: int = 10000,
    seed: int | None = DEFAULT_SEED,
    *,
    score: ScoreFunction | None = None,
    bar: Progress | None = None,
) -> list[PairedResult]:
    """Paired approximate randomization (Riezler and Maxwell 2005), as sacrebleu's
    ``--paired-ar``.

    Each trial swaps a random half of the sentences between a system and the baseline
    (sacrebleu's masks for ``seed``, the same for every system); the p-value is the share of
    trials whose absolute score difference exceeds the observed one, ``(c + 1) / (R + 1)``.
    The pseudo-systems' statistics are ``system + mask @ (baseline - system)`` and
    ``baseline + system - that``: one matrix product for all systems.

    Args:
        baseline, systems, seed, score, bar: as in :func:`paired_bootstrap`.
        n_trials: randomization trials (sacrebleu's default 10000).

    Returns:
        One :class:`PairedResult` per system, the baseline first; ``mean`` and ``ci`` are
        None (sacrebleu's command does not bootstrap here).

    >>> import numpy as np
    >>> from bleusuite import bleu_statistics
    >>> refs = np.array([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [1, 3, 5, 7, 9]])
    >>> base = bleu_statistics(np.array([[1, 2, 3, 4, 9], [6, 7, 8, 1, 10], [1, 3, 5, 2, 9]]),
    ...                        refs)
    >>> best = bleu_statistics(refs, refs)
    >>> [round(r.score, 1) for r in paired_approximate_randomization(base, [best], 50)]
    [43.1, 100.0]
    """
    n_trials = check_count(n_trials, "n_trials")
    tables, score, _ = _prepare(baseline, systems, score, None)
    bar = bar or NoProgress()
    fields_ = tables[0].shape[1]
    totals = [t.sum(axis=0) for t in tables]
    real = _scores_of_totals(score, totals)
    # (B, (S-1) x F): what swapping a sentence adds to each system's pseudo-system A
    deltas = np.concatenate([tables[0] - t for t in tables[1:]], axis=1)
    swapped = WeightedSums(deltas, len(deltas))  # 0/1 masks: rows sum to at most B
    system_totals = np.concatenate(totals[1:])
    pair_totals = np.concatenate([totals[0] + t for t in totals[1:]])
    differences: list[np.ndarray] = []
    masks = swap_masks(tables[0].shape[0], n_trials, seed)
    for summed in swapped.blocks(masks, max(1, SCORED_ROWS // (2 * len(systems)))):
        shuffled_a = summed + system_totals
        shuffled_b = pair_totals - shuffled_a
        a = score(shuffled_a.reshape(-1, fields_)).reshape(len(summed), -1)
        b = score(shuffled_b.reshape(-1, fields_)).reshape(len(summed), -1)
        differences.append(np.abs(a - b))
        bar.update(len(summed))
    trial_differences = np.concatenate(differences).T  # (S - 1, R)
    results = [PairedResult(real[0])]
    for k, trials in enumerate(trial_differences, start=1):
        results.append(PairedResult(real[k], _p_value(trials, abs(real[0] - real[k]))))
    return results
