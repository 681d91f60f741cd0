"""``bleusuite score``'s scores from per-sentence statistics, with NumPy: corpus or sentence
scores of each metric, bootstrap confidence intervals (``-ci``) and paired tests
(``--paired-bs``, ``--paired-ar``), the resampling itself being
:mod:`bleusuite.significance`'s."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

import bleusuite
from bleusuite import backends, result, smoothing
from bleusuite.cli.io import Progress, ScoreInputs, progress_bar
from bleusuite.cli.options import MAX_ORDER, ScoreOptions
from bleusuite.cli.output import (
    MetricReport,
    Signature,
    bleu_verbose_line,
    make_signature,
    render,
    results_table,
)
from bleusuite.stats import BleuStats, GleuStats
from bleusuite.tokenizers import Tokenizer

if TYPE_CHECKING:  # imported where a run resamples: a plain score does not need them
    from bleusuite.bootstrap import Confidence, DrawnResamples
    from bleusuite.significance import PairedResult

__all__ = ["bleu_verbose", "confidences", "metric_report", "paired_results", "render_systems",
           "report", "shown_precisions"]


def _bleu_of(options: ScoreOptions) -> Callable[[Any], Any]:
    """``(..., F)`` statistics array -> BLEU on the 0-100 scale (the array's backend)."""

    def score(array: Any) -> Any:
        return 100.0 * bleusuite.bleu_score(
            BleuStats.from_array(array), max_order=MAX_ORDER, smooth=options.smooth,
            smooth_value=options.smooth_value, effective_order=options.effective_order,
        )

    return score


def _gleu_of(array: Any) -> Any:
    return 100.0 * bleusuite.gleu_score(GleuStats.from_array(array))


def shown_precisions(stats: BleuStats, smooth: str, smooth_value: float | None) -> np.ndarray:
    """The n-gram precisions (0-100) printed after a BLEU score, ``(..., N)``.

    For sacrebleu's smoothing names these are the smoothed precisions sacrebleu prints
    (its ``BLEUScore.precisions``); for NLTK and ignite names, the plain precisions with the
    family's denominators. Display only: the score comes from :func:`bleusuite.bleu_score`.
    """
    return result.shown_precisions(stats, MAX_ORDER, smooth, smooth_value, scale=100.0)


def _brevity_penalty(hyp_len: int, ref_len: int) -> float:
    """The library's brevity penalty of corpus lengths (1.0 when both are 0, as sacrebleu)."""
    be = backends.get_backend()
    return float(smoothing.brevity_penalty(be, np.int64(hyp_len), np.int64(ref_len)))


def bleu_verbose(stats: BleuStats, options: ScoreOptions) -> list[str]:
    """sacrebleu's verbose part, ``p1/p2/p3/p4 (BP = ... ref_len = ...)``, per entry."""
    precisions = np.atleast_2d(shown_precisions(stats, options.smooth, options.smooth_value))
    hyp_len = np.atleast_1d(np.asarray(stats.hyp_len)).tolist()
    ref_len = np.atleast_1d(np.asarray(stats.ref_len)).tolist()
    return [bleu_verbose_line(row, _brevity_penalty(c, r), c, r)
            for row, c, r in zip(precisions.tolist(), hyp_len, ref_len, strict=True)]


def _score_function(metric: str, options: ScoreOptions) -> Callable[[Any], Any]:
    return _bleu_of(options) if metric == "bleu" else _gleu_of


def _to_numpy(array: Any) -> np.ndarray:
    return np.asarray(backends.get_backend(array).to_numpy(array))


def confidences(stats: dict[str, Any], options: ScoreOptions, bar: Progress,
                drawn: DrawnResamples | None = None) -> dict[str, Confidence]:
    """The bootstrap summary of every metric, all on the same resamples (for sacrebleu's
    BLEU, scored with its float32 arithmetic on resamples: its means and intervals);
    ``drawn``: those resamples, drawn ahead."""
    from bleusuite.bootstrap import Confidence, bootstrap_scores_of_metrics

    metrics = list(stats)
    scores = bootstrap_scores_of_metrics(
        [_to_numpy(stats[metric]) for metric in metrics],
        [_numpy_scores(metric, options)[1] for metric in metrics],
        options.confidence_n, options.seed, bar, drawn,
    )
    return {metric: Confidence.of(s) for metric, s in zip(metrics, scores, strict=True)}


def metric_report(
    metric: str, stats: Any, options: ScoreOptions, signature: Signature,
    confidence: Confidence | None = None,
) -> MetricReport:
    """Corpus or per-sentence scores of one metric from its per-sentence statistics."""
    table = stats if options.sentence_level else backends.get_backend(stats).sum_(stats, axis=0)
    scores = np.atleast_1d(_to_numpy(_score_function(metric, options)(table)))
    shown = np.atleast_2d(_to_numpy(table))
    if metric == "bleu":
        verbose = bleu_verbose(BleuStats.from_array(shown), options)
    else:
        verbose = [f"(matches = {m:d} total = {t:d})" for m, t in shown.tolist()]
    return MetricReport(metric.upper(), signature, scores, verbose, confidence)


def _numpy_scores(metric: str, options: ScoreOptions) -> tuple[
        Callable[[np.ndarray], np.ndarray], Callable[[np.ndarray], np.ndarray]]:
    """(score, resampled score) of a metric on ``(R, F)`` statistics, as NumPy arrays.

    sacrebleu's smoothing methods get sacrebleu's own arithmetic (float32 precisions on
    resamples), so that means, intervals and p-values are its numbers to the last bit."""
    from bleusuite.significance import sacrebleu_bleu_scores

    if metric == "bleu" and options.family == "sacrebleu":
        def bleu(table: np.ndarray) -> np.ndarray:
            return sacrebleu_bleu_scores(table, options.smooth, options.smooth_value)

        def resampled_bleu(table: np.ndarray) -> np.ndarray:
            return sacrebleu_bleu_scores(table, options.smooth, options.smooth_value,
                                         float32=True)

        return bleu, resampled_bleu
    score_of = _score_function(metric, options)

    def score(table: np.ndarray) -> np.ndarray:
        return np.atleast_1d(_to_numpy(score_of(table))).astype(np.float64)

    return score, score


def paired_results(stats: Sequence[dict[str, Any]], metric: str, options: ScoreOptions,
                   bar: Progress, drawn: DrawnResamples | None = None) -> list[PairedResult]:
    """The paired test of one metric: the first system is the baseline (``drawn``: the
    resamples of ``--paired-bs``, drawn ahead)."""
    from bleusuite.significance import paired_approximate_randomization, paired_bootstrap

    tables = [_to_numpy(system[metric]) for system in stats]
    score, resampled = _numpy_scores(metric, options)
    if options.paired == "bs":
        return paired_bootstrap(tables[0], tables[1:], options.paired_n, options.seed,
                                score=score, resampled_score=resampled, bar=bar,
                                drawn=drawn)
    return paired_approximate_randomization(tables[0], tables[1:], options.paired_n,
                                            options.seed, score=score, bar=bar)


def render_systems(names: list[str], stats: Sequence[dict[str, Any]], options: ScoreOptions,
                   signature: Callable[[str], Signature], show: bool,
                   drawn: DrawnResamples | None = None) -> str:
    """Several systems: sacrebleu's table (text, LaTeX) or JSON list, with paired tests
    (``drawn``: the resamples of ``--paired-bs``, drawn ahead, shared by the metrics)."""
    from bleusuite.significance import PairedResult

    columns: dict[str, list[str] | list[PairedResult]] = {}
    signatures = {}
    if options.paired:
        for metric in options.metrics:
            # the tests advance the bar once per resample (or trial), all systems at once
            bar = progress_bar(options.paired_n, f"paired {options.paired} ({metric.upper()})",
                               show and options.paired_n * len(stats[0][metric]) >= 1 << 20,
                               unit="resample")
            try:
                columns[metric.upper()] = paired_results(stats, metric, options, bar, drawn)
            finally:
                bar.close()
            signatures[metric.upper()] = signature(metric).format(options.short)
    else:
        for metric in sorted(options.metrics):
            score, _ = _numpy_scores(metric, options)  # sacrebleu's arithmetic for its BLEU
            totals = [_to_numpy(system[metric]).sum(axis=0, keepdims=True) for system in stats]
            columns[metric.upper()] = [f"{score(total)[0]:.{options.width}f}" for total in totals]
            signatures[metric.upper()] = signature(metric).format(options.short)
    if options.output_format == "json":
        entries = []
        for i, name in enumerate(names):
            entry: dict[str, Any] = {"system": name}
            for metric, values in columns.items():
                value = values[i]
                entry[metric] = value.as_dict() if isinstance(value, PairedResult) else value
            entries.append(entry)
        return json.dumps(entries, indent=4)
    return results_table(names, columns, signatures, options)


def report(inputs: ScoreInputs, stats: Sequence[dict[str, Any]], options: ScoreOptions,
           tokenizer: Tokenizer, show: bool, drawn: DrawnResamples | None = None) -> str:
    """The command's output from the per-sentence statistics of every system (a list, one
    dict of ``metric -> (B, F)`` arrays per system); ``show``: progress bars on stderr;
    ``drawn``: the bootstrap resamples of the run, drawn ahead
    (:class:`~bleusuite.bootstrap.DrawnResamples`) or None."""
    num_refs = len(inputs.references)

    def signature(metric: str) -> Signature:
        return make_signature(options, metric, num_refs, tokenizer.signature)

    if len(stats) > 1:
        return render_systems(inputs.names, stats, options, signature, show, drawn)
    summaries: dict[str, Confidence] = {}
    if options.confidence:
        bar = progress_bar(options.confidence_n, "bootstrap", show, unit="resample")
        try:
            summaries = confidences(stats[0], options, bar, drawn)
        finally:
            bar.close()
    reports = [metric_report(metric, stats[0][metric], options, signature(metric),
                             summaries.get(metric))
               for metric in options.metrics]
    return render(reports, options)
