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
from typing import TYPE_CHECKING

from bleusuite.cli import quick, shards
from bleusuite.cli.io import PROGRESS_MIN_LINES, load_tokenizer, read_inputs, warn_if_tokenised
from bleusuite.cli.options import ScoreOptions

if TYPE_CHECKING:  # imported where a run resamples
    from bleusuite.bootstrap import DrawnResamples

__all__ = ["keep_freed_memory", "run_score"]

#: the largest ``(R, B)`` bootstrap weights drawn ahead, while the other processes count
#: (float32: 16 MB); larger ones are drawn in steps as they are summed
DRAW_AHEAD_WEIGHTS = 1 << 22
#: seconds that importing the scoring modules takes, that drawing ahead takes once and per
#: weight (importing ``numpy.random``: 0.02 s; 3M weights: 0.035 s), and that the
#: tokenised-input check takes per system line (36,000 lines: 0.012 s), measured on a
#: 2-core AMD EPYC: the command does them while the other processes count, and its own
#: slice is that much smaller (:func:`bleusuite.cli.shards.systems_statistics`)
IMPORT_SCORING_SECONDS = 0.01
DRAW_SETUP_SECONDS, DRAW_SECONDS_PER_WEIGHT, WARN_SECONDS_PER_LINE = 0.02, 12e-9, 0.33e-6
#: glibc's ``mallopt`` parameters: M_TRIM_THRESHOLD and M_TOP_PAD
_M_TRIM_THRESHOLD, _M_TOP_PAD = -1, -2


def run_score(options: ScoreOptions) -> str:
    """``bleusuite score``: read, tokenise, count, score, format."""
    tokenizer = load_tokenizer(options.tokenize)
    inputs = read_inputs(options)
    if quick.applies(options, inputs):
        warn_if_tokenised(options, inputs.systems)
        return quick.run(options, inputs, tokenizer)
    texts = [*inputs.systems, *inputs.references]
    num_lines, num_systems = len(texts[0]), len(inputs.systems)
    show = (not options.quiet and num_lines * num_systems >= PROGRESS_MIN_LINES
            and sys.stderr.isatty())
    keep_freed_memory()
    resamples = _resamples_drawn_ahead(options, num_systems, num_lines)
    drawn: DrawnResamples | None = None

    def meanwhile() -> None:  # what needs no statistics, done while the others count
        nonlocal drawn
        _import_scoring(options)
        warn_if_tokenised(options, inputs.systems)
        if resamples:
            drawn = _draw(num_lines, resamples, options.seed)

    seconds = IMPORT_SCORING_SECONDS + WARN_SECONDS_PER_LINE * num_lines * num_systems
    if resamples:
        seconds += DRAW_SETUP_SECONDS + DRAW_SECONDS_PER_WEIGHT * resamples * num_lines
    stats = shards.systems_statistics(texts, num_systems, tokenizer, options, show,
                                      meanwhile=meanwhile, meanwhile_seconds=seconds)
    return _import_scoring(options).report(inputs, stats, options, tokenizer, show,
                                           drawn=drawn)


def _resamples_drawn_ahead(options: ScoreOptions, num_systems: int, num_lines: int) -> int:
    """How many bootstrap resamples the run draws ahead: those of ``--paired-bs`` or of
    ``--confidence`` (one system), where their ``(R, B)`` weights are at most
    :data:`DRAW_AHEAD_WEIGHTS`; else 0 (they are drawn in steps as they are summed)."""
    if options.paired == "bs":
        resamples = options.paired_n
    elif options.confidence and num_systems == 1:
        resamples = options.confidence_n
    else:
        return 0
    return resamples if 0 < resamples * num_lines <= DRAW_AHEAD_WEIGHTS else 0


def _draw(num_lines: int, resamples: int, seed: int | None) -> DrawnResamples:
    """The run's bootstrap resamples, drawn while the other processes count."""
    from bleusuite.bootstrap import DrawnResamples

    return DrawnResamples.draw(num_lines, resamples, seed)


def _import_scoring(options: ScoreOptions) -> types.ModuleType:
    """The module that scores (and, for a run that resamples, the one that resamples)."""
    if options.confidence or options.paired:
        importlib.import_module("bleusuite.significance")
    return importlib.import_module("bleusuite.cli.scoring")


def keep_freed_memory() -> bool:
    """Let this process keep the memory it frees for its next arrays (glibc only).

    Counting allocates and frees many arrays of a few hundred kilobytes to a few megabytes.
    By default glibc gives freed memory at the top of the heap back to the system, and the
    next array faults its pages in afresh (each fault costs microseconds on a virtual
    machine). Raising ``M_TRIM_THRESHOLD`` and ``M_TOP_PAD`` keeps the memory for reuse:
    measured on 12 systems x 3,000 lines, 39,600 -> 30,300 page faults and about 7% less CPU
    time. The command's memory is given back when it exits. Returns whether it applied (not
    on other C libraries, nor outside Linux).
    """
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(_M_TRIM_THRESHOLD, 1 << 30)) and bool(mallopt(_M_TOP_PAD, 64 << 20))
