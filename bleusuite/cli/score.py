"""``bleusuite score``: read the files, count, score, format.

Three routes to the same numbers:

* a small run that only scores (one system, BLEU, sacrebleu's smoothing, no resampling) is
  counted and scored in plain Python (:mod:`bleusuite.cli.quick`), without importing NumPy:
  importing it takes longer than the whole work of a file of a few hundred lines;
* a large run is tokenised and counted in slices of lines, one process per CPU
  (:mod:`bleusuite.cli.shards`);
* the rest in this process; the scores, intervals and paired tests come from the
  statistics with NumPy (:mod:`bleusuite.cli.scoring`).
"""

from __future__ import annotations

import importlib
import sys
import types

from bleusuite.cli import quick, shards
from bleusuite.cli.io import PROGRESS_MIN_LINES, load_tokenizer, read_inputs, warn_if_tokenised
from bleusuite.cli.options import ScoreOptions

__all__ = ["run_score"]


def run_score(options: ScoreOptions) -> str:
    """``bleusuite score``: read, tokenise, count, score, format."""
    tokenizer = load_tokenizer(options.tokenize)
    inputs = read_inputs(options)
    warn_if_tokenised(options, inputs.systems)
    if quick.applies(options, inputs):
        return quick.run(options, inputs, tokenizer)
    texts = [*inputs.systems, *inputs.references]
    num_lines, num_systems = len(texts[0]), len(inputs.systems)
    show = (not options.quiet and num_lines * num_systems >= PROGRESS_MIN_LINES
            and sys.stderr.isatty())
    stats = shards.systems_statistics(texts, num_systems, tokenizer, options, show,
                                      meanwhile=lambda: _import_scoring(options))
    return _import_scoring(options).report(inputs, stats, options, tokenizer, show)


def _import_scoring(options: ScoreOptions) -> types.ModuleType:
    """The module that scores (and, for a run that resamples, the one that resamples)."""
    if options.confidence or options.paired:
        importlib.import_module("bleusuite.significance")
    return importlib.import_module("bleusuite.cli.scoring")
