"""``bleusuite score``: read the files, tokenise and number, count, score, format: one route
for every input."""

from __future__ import annotations

import sys
from contextlib import closing

from bleusuite.cli.io import PROGRESS_MIN_LINES, progress_bar, read_inputs, warn_if_tokenised
from bleusuite.cli.options import ScoreOptions
from bleusuite.cli.output import make_signature
from bleusuite.cli.scoring import draw_ahead, report
from bleusuite.cli.statistics import text_statistics

__all__ = ["run_score"]


def run_score(options: ScoreOptions) -> str:
    """``bleusuite score``: the output for the validated ``options``."""
    for metric in options.metrics:  # a tokenizer that cannot load fails before reading
        make_signature(options, metric, 1)
    inputs = read_inputs(options)
    warn_if_tokenised(options, inputs.systems)
    texts = [*inputs.systems, *inputs.references]
    drawn = draw_ahead(options, len(inputs.systems), len(texts[0]))
    show = (not options.quiet and len(texts[0]) * len(inputs.systems) >= PROGRESS_MIN_LINES
            and sys.stderr.isatty())
    with closing(progress_bar(len(texts[0]) * len(texts), "tokenizing and counting", show)) as bar:
        stats = text_statistics(texts, len(inputs.systems), options, bar)
    return report(inputs, stats, options, show, drawn())
