"""``bleusuite score``'s scores from per-sentence statistics: corpus or sentence scores of
each metric, bootstrap confidence intervals (``-ci``) and paired tests (``--paired-bs``,
``--paired-ar``), the resampling itself being :mod:`bleusuite.significance`'s.

BLEU with sacrebleu's smoothing is scored by :func:`bleusuite.scores.sacrebleu.exact_bleu`
everywhere here (corpus, sentences, resamples), so every number printed is sacrebleu's to
the last digit; the other families by the library's formulas (:func:`bleusuite.bleu_score`,
:func:`bleusuite.gleu_score`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

import bleusuite
from bleusuite import backends, result, rules
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
from bleusuite.scores.sacrebleu import exact_bleu
from bleusuite.stats import BleuStats, GleuStats
from bleusuite.tokenizers import Tokenizer

if TYPE_CHECKING:  # imported where a run resamples: a plain score does not need them
    from bleusuite.bootstrap import Confidence
    from bleusuite.significance import PairedResult

__all__ = ["confidences", "metric_report", "paired_results", "render_systems", "report",
           "score_function"]

#: ``(R, F)`` statistics -> ``(R,)`` float64 scores on the 0-100 scale
ScoreFunction = Callable[[np.ndarray], np.ndarray]


def score_function(metric: str, options: ScoreOptions, resampled: bool = False
                   ) -> ScoreFunction:
    """The scores (0-100) of rows of summed statistics of ``metric``; ``resampled``: for
    bootstrap resamples (sacrebleu's BLEU scores those with its float32 arithmetic)."""
    if metric == "bleu" and options.family == "sacrebleu":
        def sacrebleu_bleu(table: np.ndarray) -> np.ndarray:
            return exact_bleu(table, options.smooth, options.smooth_value,
                              options.effective_order, float32=resampled,
                              max_order=MAX_ORDER).scores

        return sacrebleu_bleu
    if metric == "bleu":
        def bleu(table: np.ndarray) -> np.ndarray:
            return _numpy(100.0 * bleusuite.bleu_score(
                BleuStats.from_array(table), max_order=MAX_ORDER, smooth=options.smooth,
                smooth_value=options.smooth_value))

        return bleu

    def gleu(table: np.ndarray) -> np.ndarray:
        return _numpy(100.0 * bleusuite.gleu_score(GleuStats.from_array(table)))

    return gleu


def _numpy(array: Any) -> np.ndarray:
    return np.atleast_1d(np.asarray(backends.get_backend(array).to_numpy(array),
                                    dtype=np.float64))


def _verbose(metric: str, table: np.ndarray, options: ScoreOptions) -> list[str]:
    """sacrebleu's verbose part of each row's score: ``p1/p2/p3/p4 (BP = ...)`` for BLEU,
    ``(matches = m total = t)`` for GLEU."""
    if metric == "gleu":
        return [f"(matches = {m:d} total = {t:d})" for m, t in table.tolist()]
    stats = BleuStats.from_array(table)
    if options.family == "sacrebleu":
        exact = exact_bleu(table, options.smooth, options.smooth_value, options.effective_order,
                           max_order=MAX_ORDER)
        precisions, penalties = exact.precisions, exact.brevity_penalty
    else:
        precisions = result.shown_precisions(stats, MAX_ORDER, options.smooth,
                                             options.smooth_value, scale=100.0)
        penalties = rules.brevity_penalty(backends.get_backend(table), stats.hyp_len,
                                          stats.ref_len)
    return [bleu_verbose_line(row, bp, c, r) for row, bp, c, r in zip(
        precisions.tolist(), penalties.tolist(), stats.hyp_len.tolist(),
        stats.ref_len.tolist(), strict=True)]


def metric_report(metric: str, stats: Any, options: ScoreOptions, signature: Signature,
                  confidence: Confidence | None = None) -> MetricReport:
    """Corpus or per-sentence scores of one metric from its per-sentence statistics."""
    table = np.asarray(backends.get_backend(stats).to_numpy(stats), dtype=np.int64)
    if not options.sentence_level:
        table = table.sum(axis=0, keepdims=True)
    scores = score_function(metric, options)(table)
    return MetricReport(metric.upper(), signature, scores, _verbose(metric, table, options),
                        confidence)


def _table(stats: Any) -> np.ndarray:
    return np.asarray(backends.get_backend(stats).to_numpy(stats), dtype=np.int64)


def confidences(stats: dict[str, Any], options: ScoreOptions,
                bar: Progress) -> dict[str, Confidence]:
    """The bootstrap summary of every metric, all on the same resamples."""
    from bleusuite.bootstrap import Confidence, bootstrap_scores_of_metrics

    metrics = list(stats)
    scores = bootstrap_scores_of_metrics(
        [_table(stats[metric]) for metric in metrics],
        [score_function(metric, options, resampled=True) for metric in metrics],
        options.confidence_n, options.seed, bar)
    return {metric: Confidence.of(s) for metric, s in zip(metrics, scores, strict=True)}


def paired_results(stats: Sequence[dict[str, Any]], metric: str, options: ScoreOptions,
                   bar: Progress) -> list[PairedResult]:
    """The paired test of one metric: the first system is the baseline."""
    from bleusuite.significance import paired_approximate_randomization, paired_bootstrap

    tables = [_table(system[metric]) for system in stats]
    score = score_function(metric, options)
    if options.paired == "bs":
        return paired_bootstrap(tables[0], tables[1:], options.paired_n, options.seed,
                                score=score, bar=bar,
                                resampled_score=score_function(metric, options, True))
    return paired_approximate_randomization(tables[0], tables[1:], options.paired_n,
                                            options.seed, score=score, bar=bar)


def render_systems(names: list[str], stats: Sequence[dict[str, Any]], options: ScoreOptions,
                   signature: Callable[[str], Signature], show: bool) -> str:
    """Several systems: sacrebleu's table (text, LaTeX) or JSON list, with paired tests."""
    from bleusuite.significance import PairedResult

    columns: dict[str, list[str] | list[PairedResult]] = {}
    signatures = {}
    # sacrebleu orders its columns as given with paired tests, else by name
    for metric in options.metrics if options.paired else sorted(options.metrics):
        if options.paired:
            # the tests advance the bar once per resample (or trial), all systems at once
            bar = progress_bar(options.paired_n, f"paired {options.paired} ({metric.upper()})",
                               show and options.paired_n * len(stats[0][metric]) >= 1 << 20,
                               unit="resample")
            try:
                columns[metric.upper()] = paired_results(stats, metric, options, bar)
            finally:
                bar.close()
        else:
            score = score_function(metric, options)
            totals = [_table(system[metric]).sum(axis=0, keepdims=True) for system in stats]
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
           tokenizer: Tokenizer, show: bool) -> str:
    """The command's output from the per-sentence statistics of every system (a list, one
    dict of ``metric -> (B, F)`` arrays per system); ``show``: progress bars on stderr."""
    num_refs = len(inputs.references)

    def signature(metric: str) -> Signature:
        return make_signature(options, metric, num_refs, tokenizer.signature)

    if len(stats) > 1:
        return render_systems(inputs.names, stats, options, signature, show)
    summaries: dict[str, Confidence] = {}
    if options.confidence:
        bar = progress_bar(options.confidence_n, "bootstrap", show, unit="resample")
        try:
            summaries = confidences(stats[0], options, bar)
        finally:
            bar.close()
    reports = [metric_report(metric, stats[0][metric], options, signature(metric),
                             summaries.get(metric))
               for metric in options.metrics]
    return render(reports, options)
