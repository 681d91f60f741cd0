"""``bleusuite score``'s scores from per-sentence statistics: corpus or sentence scores of
each metric, bootstrap confidence intervals (``-ci``) and paired tests (``--paired-bs``,
``--paired-ar``), the resampling itself being :mod:`bleusuite.significance`'s.
Every score comes from its metric's registry entry (:mod:`bleusuite.scores.registry`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import closing
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from bleusuite.cli.io import Progress, ScoreInputs, progress_bar
from bleusuite.cli.options import ScoreOptions
from bleusuite.cli.output import MetricReport, Signature, make_signature, render, results_table
from bleusuite.scores import registry

if TYPE_CHECKING:  # imported where a run resamples: a plain score does not need them
    from bleusuite.significance.bootstrap import Confidence
    from bleusuite.significance.draws import DrawnResamples
    from bleusuite.significance.paired import PairedResult

__all__ = ["DRAW_AHEAD_MAX", "confidences", "draw_ahead", "paired_results",
           "render_systems", "report", "score_function"]

#: the largest resamples x sentences drawn ahead (4 bytes each: 64 MiB); above, the
#: resampling draws in steps as it sums
DRAW_AHEAD_MAX = 1 << 24

#: ``(R, F)`` statistics -> ``(R,)`` float64 scores on the 0-100 scale
ScoreFunction = Callable[[np.ndarray], np.ndarray]


def score_function(metric: str, options: ScoreOptions, resampled: bool = False
                   ) -> ScoreFunction:
    """The scores (0-100) of rows of summed statistics of ``metric``; ``resampled``: for
    bootstrap resamples (sacrebleu scores those in float32)."""
    return partial(registry.get(metric).scores, settings=options.settings(metric),
                   resampled=resampled)


def draw_ahead(options: ScoreOptions, num_systems: int,
               num_sentences: int) -> Callable[[], DrawnResamples | None]:
    """The run's bootstrap resamples (``-ci`` of one system, ``--paired-bs`` of several),
    drawn on a thread while the command tokenises and counts
    (:meth:`~bleusuite.significance.draws.DrawnResamples.ahead`): the call returned gives
    them, or None where nothing was drawn ahead (no resampling, or more than
    :data:`DRAW_AHEAD_MAX` draws: the resampling then draws as it goes, the same numbers)."""
    if num_systems > 1:
        resamples = options.paired_n if options.paired == "bs" else 0
    else:
        resamples = options.confidence_n if options.confidence else 0
    if resamples < 1 or num_sentences < 1 or resamples * num_sentences > DRAW_AHEAD_MAX:
        return lambda: None
    from bleusuite.significance.draws import DrawnResamples

    return DrawnResamples.ahead(num_sentences, resamples, options.seed)


def confidences(stats: dict[str, np.ndarray], options: ScoreOptions,
                bar: Progress, drawn: DrawnResamples | None = None) -> dict[str, Confidence]:
    """The bootstrap summary of every metric, all on the same resamples."""
    from bleusuite.significance.bootstrap import Confidence, bootstrap_scores_of_metrics

    metrics = list(stats)
    scores = bootstrap_scores_of_metrics(
        [stats[metric] for metric in metrics],
        [score_function(metric, options, resampled=True) for metric in metrics],
        options.confidence_n, options.seed, bar, drawn)
    return {metric: Confidence.of(s) for metric, s in zip(metrics, scores, strict=True)}


def paired_results(stats: Sequence[dict[str, np.ndarray]], metric: str, options: ScoreOptions,
                   bar: Progress, drawn: DrawnResamples | None = None) -> list[PairedResult]:
    """The paired test of one metric: the first system is the baseline."""
    from bleusuite.significance.paired import paired_approximate_randomization, paired_bootstrap

    tables = [system[metric] for system in stats]
    score = score_function(metric, options)
    if options.paired == "bs":
        return paired_bootstrap(tables[0], tables[1:], options.paired_n, options.seed,
                                score=score, bar=bar,
                                resampled_score=score_function(metric, options, True),
                                drawn=drawn)
    return paired_approximate_randomization(tables[0], tables[1:], options.paired_n,
                                            options.seed, score=score, bar=bar)


def render_systems(names: list[str], stats: Sequence[dict[str, np.ndarray]],
                   options: ScoreOptions, signature: Callable[[str], Signature],
                   show: bool, drawn: DrawnResamples | None = None) -> str:
    """Several systems: sacrebleu's table (text, LaTeX) or JSON list, with paired tests."""
    from bleusuite.significance.paired import PairedResult

    columns: dict[str, list[str] | list[PairedResult]] = {}
    signatures = {}
    # sacrebleu orders the columns as given with paired tests, else by name
    for metric in options.metrics if options.paired else sorted(options.metrics):
        title = registry.get(metric).title(options.settings(metric))
        if options.paired:
            # the tests advance the bar once per resample (or trial), all systems at once
            with closing(progress_bar(
                    options.paired_n, f"paired {options.paired} ({title})",
                    show and options.paired_n * len(stats[0][metric]) >= 1 << 20,
                    unit="resample")) as bar:
                columns[title] = paired_results(stats, metric, options, bar, drawn)
        else:
            score = score_function(metric, options)
            totals = [system[metric].sum(axis=0, keepdims=True) for system in stats]
            columns[title] = [f"{score(total)[0]:.{options.width}f}" for total in totals]
        signatures[title] = signature(metric).format(options.short)
    if options.output_format == "json":
        import json

        return json.dumps([{"system": name, **{
            title: value.as_dict() if isinstance(value := values[i], PairedResult) else value
            for title, values in columns.items()}} for i, name in enumerate(names)], indent=4)
    return results_table(names, columns, signatures, options)


def report(inputs: ScoreInputs, stats: Sequence[dict[str, np.ndarray]], options: ScoreOptions,
           show: bool, drawn: DrawnResamples | None = None) -> str:
    """The command's output from the per-sentence statistics of every system (a list, one
    dict of ``metric -> (B, F)`` arrays per system); ``show``: progress bars on stderr;
    ``drawn``: the run's resamples drawn ahead (:func:`draw_ahead`)."""
    signature = partial(make_signature, options, num_refs=len(inputs.references))
    if len(stats) > 1:
        return render_systems(inputs.names, stats, options, signature, show, drawn)
    summaries: dict[str, Confidence] = {}
    if options.confidence:
        with closing(progress_bar(options.confidence_n, "bootstrap", show,
                                  unit="resample")) as bar:
            summaries = confidences(stats[0], options, bar, drawn)
    # one system: sacrebleu reports the metrics by name, but one per line at sentence level
    order = list(options.metrics) if options.sentence_level else sorted(options.metrics)
    reports = []
    for metric in order:  # corpus or per-sentence scores
        table = stats[0][metric]
        table = table if options.sentence_level else table.sum(axis=0, keepdims=True)
        entry, settings = registry.get(metric), options.settings(metric)
        reports.append(MetricReport(entry.title(settings), signature(metric),
                                    entry.scores(table, settings), entry.verbose(table, settings),
                                    summaries.get(metric)))
    if options.detail and not options.sentence_level:
        from bleusuite.cli.testsets import NO_SUBSETS

        return f"{render(reports, options)}\n{NO_SUBSETS}"
    return render(reports, options)
