"""``bleusuite score``: read the files, tokenise and number, count, score, format: one route
for every input."""

from __future__ import annotations

import sys

from bleusuite.cli.io import (
    PROGRESS_MIN_LINES,
    load_tokenizer,
    progress_bar,
    read_inputs,
    warn_if_tokenised,
)
from bleusuite.cli.options import ScoreOptions
from bleusuite.cli.scoring import report
from bleusuite.cli.statistics import text_statistics
from bleusuite.text import Encoder

__all__ = ["run_score"]


def run_score(options: ScoreOptions) -> str:
    """``bleusuite score``: the output for the validated ``options``."""
    tokenizer = load_tokenizer(options.tokenize)
    inputs = read_inputs(options)
    warn_if_tokenised(options, inputs.systems)
    texts = [*inputs.systems, *inputs.references]
    show = (not options.quiet and len(texts[0]) * len(inputs.systems) >= PROGRESS_MIN_LINES
            and sys.stderr.isatty())
    bar = progress_bar(len(texts[0]) * len(texts), "tokenizing and counting", show)
    try:
        stats = text_statistics(texts, len(inputs.systems), Encoder(tokenizer, options.lowercase),
                                options, bar)
    finally:
        bar.close()
    return report(inputs, stats, options, tokenizer, show)
