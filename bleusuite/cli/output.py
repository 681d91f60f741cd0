"""The output of ``bleusuite score``: signatures and the text, JSON and LaTeX formats (one
system, or the table of several). Plain Python: no NumPy."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bleusuite.cli.errors import CommandError
from bleusuite.cli.options import ScoreOptions
from bleusuite.scores import reports
from bleusuite.scores.reports import Signature, json_text

if TYPE_CHECKING:
    import numpy as np

    from bleusuite.significance import PairedResult
    from bleusuite.significance.bootstrap import Confidence

__all__ = ["MetricReport", "Signature", "format_json", "format_line", "make_signature",
           "paired_note", "render", "results_table"]


def make_signature(options: ScoreOptions, metric: str, num_refs: int) -> Signature:
    """The signature of one metric (:func:`bleusuite.scores.reports.make_signature`): the
    number of references, the resampling of ``-ci`` or the paired test and its seed, the
    metric's own fields for the command's settings, and bleusuite's version."""
    resampling = (("bs", options.confidence_n) if options.confidence
                  else (str(options.paired), options.paired_n) if options.paired else None)
    return reports.make_signature(metric, options.settings(metric), nrefs=num_refs,
                                  resampling=resampling,
                                  seed="none" if options.seed is None else options.seed)


@dataclass(frozen=True)
class MetricReport:
    """Scores of one metric on the 0-100 scale: one (corpus) or one per sentence."""

    name: str
    signature: Signature
    scores: Sequence[float] | np.ndarray
    verbose: list[str]
    confidence: Confidence | None = None


def format_line(report: MetricReport, index: int, options: ScoreOptions) -> str:
    """One score as sacrebleu's text format: ``NAME|signature = score verbose``."""
    score = reports.score_text(report.scores[index], options.width, report.confidence)
    if options.score_only:
        return score
    return reports.score_line(report.name, report.signature.format(options.short), score,
                              report.verbose[index])


def format_json(report: MetricReport, index: int, width: int) -> dict[str, Any]:
    """One score as sacrebleu's JSON: name, score, signature, verbose_score, signature keys."""
    return reports.score_record(report.name, report.scores[index], width, report.signature,
                                report.verbose[index], report.confidence, interval=True)


def _print_single_results(lines: list[str], color: bool) -> list[str]:
    """sacrebleu's ``print_single_results`` for text: the bootstrap summaries in cyan on a
    terminal, then the lines aligned on their first ``=`` (a score-only line's is that of
    its ``(μ = ...)``; a shorter score gets a leading space); a line without ``=`` is
    printed as it comes, before the aligned ones, as sacrebleu prints it."""
    if color and "μ" in lines[0]:
        lines = [_CONFIDENCE.sub(lambda m: _color(m.group(), "cyan", True), line)
                 for line in lines]
    if len(lines) == 1:
        return lines
    first = [line for line in lines if "=" not in line]
    aligned = [line for line in lines if "=" in line]
    width = max((line.index("=") - 1 for line in aligned), default=0)
    return first + [f"{line[: line.index('=') - 1]:>{width}}{line[line.index('=') - 1:]}"
                    for line in aligned]


#: sacrebleu's pattern of a bootstrap summary, which it colours
_CONFIDENCE = re.compile(r"(\(μ = [0-9\.]+ ± [0-9\.]+\))")


def render(reports: Sequence[MetricReport], options: ScoreOptions) -> str:
    """The output of ``bleusuite score`` (``--score-only`` overrides the format, as in
    sacrebleu: the bare scores, in a list of several metrics where the format is JSON)."""
    if not options.sentence_level:
        entries = options.output_format == "json" and not options.score_only
        lines = [json_text(format_json(report, 0, options.width), indent=1) if entries
                 else format_line(report, 0, options) for report in reports]
        if options.output_format == "json" and len(lines) > 1:
            # sacrebleu's list of several: its entries (with -b, the bare scores) as they are
            return "[\n" + ",\n".join(lines) + "\n]"
        return lines[0] if entries else "\n".join(_print_single_results(lines, options.color))
    rows = range(len(reports[0].scores))
    if options.output_format == "json" and not options.score_only:
        def entry(i: int) -> Any:
            items = [format_json(report, i, options.width) for report in reports]
            return items[0] if len(items) == 1 else items

        return "\n".join(json_text(entry(i)) for i in rows)
    return "\n".join("\t".join(format_line(report, i, options) for report in reports)
                     for i in rows)


_COLORS = {"yellow": "\x1b[33m", "cyan": "\x1b[36m", "red": "\x1b[31m", "green": "\x1b[32m"}


def _color(text: str, color: str, enabled: bool) -> str:
    return f"{_COLORS[color]}{text}\x1b[0m" if enabled else text


def results_table(names: list[str], columns: dict[str, list[str] | list[PairedResult]],
                  signatures: dict[str, str], options: ScoreOptions) -> str:
    """sacrebleu's ``print_results_table`` for text (``fancy_grid``) and LaTeX
    (``latex_booktabs``): the same cells, the same call to ``tabulate``, the same notes."""
    try:
        from tabulate import tabulate
    except ImportError:
        raise CommandError("tables of several systems need tabulate (pip install "
                           "'bleusuite[cli]'); or use -f json") from None
    width, paint = options.width, options.color
    multiline = options.output_format == "text"
    cells: dict[str, list[str]] = {"System": list(names)}
    bootstrap = False
    for metric, values in columns.items():
        shown = []
        for value in values:
            if isinstance(value, str):
                shown.append(value)
                continue
            text = f"{value.score:.{width}f}"
            if value.mean is not None:
                bootstrap = True
                text += f" ({value.mean:.{width}f} ± {value.ci:.{width}f})"
            if value.p_value is not None:
                p_text = f"(p = {value.p_value:.4f})"
                p_text = _color(p_text, "red", paint) if value.p_value > 0.05 else p_text + "*"
                text += ("\n" if multiline else " ") + p_text
            shown.append(text)
        cells[f"{metric} (μ ± 95% CI)" if bootstrap else metric] = shown
    # with a paired test, the first row (the baseline's) in yellow
    baseline = names[0] if names[0].startswith("Baseline:") else ""
    colored = {_color(title, "cyan", paint):
               [_color(column[0], "yellow", paint), *column[1:]] if baseline else column
               for title, column in cells.items()}
    table = tabulate(colored, headers="keys",
                     tablefmt="fancy_grid" if multiline else "latex_booktabs",
                     colalign=("right",), stralign="center", numalign="center",
                     floatfmt=f".{width}f")
    lines = [table, ""]
    if options.paired:
        lines += paired_note(options, baseline)
    lines += ["-----------------", "Metric signatures", "-----------------"]
    lines += [f" - {name:<10} {sig}" for name, sig in signatures.items()]
    return "\n".join(lines)


def paired_note(options: ScoreOptions, baseline: str) -> list[str]:
    """sacrebleu's explanation printed under a table of paired tests."""
    paint, bootstrap = options.color, options.paired == "bs"
    test = "bootstrap resampling" if bootstrap else "approximate randomization"
    kind = "resampling trials" if bootstrap else "trials"
    title = f"Paired {test} test with {options.paired_n_shown} {kind}"
    bline = _color("baseline", "yellow", paint)
    null = _color("Null hypothesis", "green", paint)
    return [
        "-" * len(title), title, "-" * len(title),
        f" - Each system is pairwise compared to {_color(baseline, 'yellow', paint)}.",
        "   Actual system score / bootstrap estimated true mean / 95% CI are provided for "
        "each metric." if bootstrap else "   Actual system score is provided for each metric.",
        "",
        f" - {null}: the system and the {bline} translations are essentially",
        f"   generated by the same underlying process. For a given system and the {bline},",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        f"   or higher occurring due to chance, under the assumption that the {null.lower()} "
        "is correct.",
        "",
        f" - Assuming a significance threshold of 0.05, the {null.lower()} can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be '
        "attributed",
        f'   to chance, hence the system is significantly "different" than the {bline}.',
        f"   Otherwise, the p-values are {_color('highlighted in red', 'red', paint)}.",
        "",
        f' - NOTE: Significance does not tell whether a system is "better" than the {bline} '
        "but rather",
        '   emphasizes the "difference" of the systems in terms of the replicability of the '
        "delta.",
        "",
    ]
