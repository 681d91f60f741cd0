"""The ``bleusuite`` command.

Three ways to call it (and ``bleusuite bench``, from :mod:`bleusuite.benchkit`, which times
bleusuite against the other BLEU libraries):

* ``bleusuite`` scores the sample corpus shipped in the package (100 sentences of WMT
  newstest2015 en-ru) and prints BLEU and GLEU.
* ``bleusuite --hyp FILE --ref FILE [--ref FILE ...]`` does the same for
  whitespace-tokenised text files, one sentence per line.
* ``bleusuite score REF [REF ...] -i HYP [HYP ...]`` is a drop-in for the ``sacrebleu``
  command: the same flags (``-m``, ``-tok``, ``-lc``, ``-s``, ``-sv``, ``-f``, ``-w``,
  ``-ci``, ``-nr``, ``-e``, ``--paired-bs``, ``--paired-ar``, ...), sacrebleu's own
  tokenizers, output formats and exit codes, and the same numbers, computed from vectorised
  statistics. It needs the ``cli`` extra (``pip install 'bleusuite[cli]'``: sacrebleu for
  the tokenizers, tabulate for the tables of several systems, tqdm for the progress bar).

How ``score`` works: every line is tokenised by sacrebleu's tokenizer class and split on
whitespace; tokens are numbered with one dictionary for the whole corpus (every system and
every reference); the sentences of all systems go to :func:`bleusuite.bleu_statistics` /
:func:`bleusuite.gleu_statistics` in batches of similar length; the per-sentence statistics
are summed (corpus score), scored one by one (``--sentence-level``), or resampled
(``--confidence``, ``--paired-bs``, ``--paired-ar``: :mod:`bleusuite.significance`).

The package's modules: ``parser`` (the command line), ``options`` (``score``'s validated
settings), ``io`` (reading files, the tokenizers, the progress bar), ``score`` (the
``score`` command: which route counts), ``quick`` (a small run in plain Python, without
NumPy), ``shards`` (a large run counted in several processes), ``statistics`` (text to
per-sentence statistics: length batches, every system in one pass), ``scoring`` (scores,
confidence intervals and paired tests from the statistics), ``output`` (signatures; text,
JSON and LaTeX output), ``plain`` (the plain command). This module runs the command; every
name the package had as one module is re-exported here, imported on first access.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from bleusuite import _lazy_attribute
from bleusuite.cli.errors import CommandError

__all__ = [
    "CommandError",
    "ScoreInputs",
    "ScoreOptions",
    "TokenIds",
    "bootstrap_scores",
    "bootstrap_scores_of_metrics",
    "build_parser",
    "command",
    "encode_texts",
    "length_batches",
    "load_tokenizer",
    "main",
    "multiplicities",
    "read_inputs",
    "read_lines",
    "resample_indices",
    "sentence_statistics",
    "stacked_systems",
    "systems_statistics",
]

#: where each name that the package had as one module lives now: imported on first access
#: (PEP 562), so that a plain ``bleusuite score`` imports only the modules it runs
_LAZY: dict[str, str] = {
    **dict.fromkeys((
        "PROGRESS_MIN_LINES", "TOKENISED_WARNING", "TOKENISED_WARNING_LINES", "Progress",
        "ScoreInputs", "_NoProgress", "describe", "load_tokenizer", "progress_bar",
        "read_inputs", "read_lines", "read_references", "read_systems", "read_texts",
        "warn_if_tokenised"), "bleusuite.cli.io"),
    **dict.fromkeys(("GLEU_ORDERS", "MAX_ORDER", "OUTPUT_FORMATS", "PAIRED_DEFAULTS",
                     "ScoreOptions", "_parse_seed"), "bleusuite.cli.options"),
    **dict.fromkeys(("BACKENDS", "METRICS", "_bench_module", "build_parser"),
                    "bleusuite.cli.parser"),
    **dict.fromkeys(("Corpus", "corpus_report", "format_report", "load_corpus", "run_plain",
                     "sample_corpus"), "bleusuite.cli.plain"),
    **dict.fromkeys((
        "SIGNATURE_ABBREVIATIONS", "MetricReport", "Signature", "format_json", "format_line",
        "make_signature", "paired_note", "render", "results_table"), "bleusuite.cli.output"),
    **dict.fromkeys((
        "_bleu_of", "_brevity_penalty", "_gleu_of", "_numpy_scores", "_score_function",
        "_to_numpy", "bleu_verbose", "confidences", "metric_report", "paired_results",
        "render_systems", "report", "shown_precisions"), "bleusuite.cli.scoring"),
    "run_score": "bleusuite.cli.score",
    **dict.fromkeys(("SHARD_MIN_CHARS", "line_slices"), "bleusuite.cli.shards"),
    **dict.fromkeys(("BATCH_SLOTS", "length_batches", "sentence_statistics",
                     "stacked_systems", "systems_statistics", "text_statistics"),
                    "bleusuite.cli.statistics"),
    **dict.fromkeys((
        "DEFAULT_SEED", "Confidence", "bootstrap_scores", "bootstrap_scores_of_metrics",
        "multiplicities", "resample_indices", "seed_from_environment"), "bleusuite.bootstrap"),
    **dict.fromkeys(("PairedResult", "paired_approximate_randomization", "paired_bootstrap",
                     "sacrebleu_bleu_scores"), "bleusuite.significance"),
    "SMOOTHING_NAMES": "bleusuite.smoothing",
    **dict.fromkeys(("BleuStats", "GleuStats"), "bleusuite.stats"),
    **dict.fromkeys(("FILL_ID", "TokenIds", "encode_texts"), "bleusuite.text"),
    **dict.fromkeys(("TOKENIZERS", "Tokenizer"), "bleusuite.tokenizers"),
}


def __getattr__(name: str) -> Any:
    return _lazy_attribute(globals(), _LAZY, name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


#: environment of the command's own process, set where unset before NumPy is imported
#: (:func:`command`): OpenBLAS's threads wait for work asleep instead of spinning 2**28
#: cycles first (the smallest wait it accepts is 2**4)
BLAS_SETTINGS = {"OPENBLAS_THREAD_TIMEOUT": "4"}


def command() -> NoReturn:
    """The ``bleusuite`` process (the console script and ``python -m bleusuite``):
    :func:`main`, then the process ends at once.

    Once the output is written and flushed, nothing is left to do: the process ends with
    ``os._exit`` instead of tearing the interpreter down object by object (the command
    opens no file for writing, and its own threads are idle by then). On 12 systems x
    3,000 lines that tear-down took 36-52 ms, as long as the paired bootstrap itself.
    Where flushing fails (a closed pipe), Python's own exit reports it as usual.

    Before anything imports NumPy, it sets ``OPENBLAS_THREAD_TIMEOUT=4`` unless it is set
    already (:data:`BLAS_SETTINGS`): an OpenBLAS worker thread otherwise busy-waits for
    about 0.1 s from the moment NumPy loads, taking a CPU from the processes that count
    (0.07 s of CPU per run; the command's one matrix product still uses every thread).
    """
    for name, value in BLAS_SETTINGS.items():
        os.environ.setdefault(name, value)
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        raise SystemExit(status) from None
    os._exit(status)


def _write(text: str) -> int:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (sacrebleu's: 2 for a usage error, 1 for
    other errors, each reported in one line)."""
    try:
        return _run(argv)
    except CommandError as error:
        print(f"{_program(argv)}: error: {error}", file=sys.stderr)
        return error.status
    except KeyboardInterrupt:
        print(f"{_program(argv)}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `bleusuite score ... | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _run(argv: Sequence[str] | None) -> int:
    from bleusuite.cli.parser import _bench_module, build_parser

    arguments = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(with_bench=arguments[:1] != ["score"]).parse_args(arguments)
    if args.command == "bench":
        return int(_bench_module().run(args))
    try:
        if args.command == "score":
            from bleusuite.cli.options import ScoreOptions
            from bleusuite.cli.score import run_score

            output = run_score(ScoreOptions.from_args(args))
        else:
            from bleusuite.cli.plain import run_plain

            output = run_plain(args)
    except (ValueError, TypeError) as error:  # the library's argument checks
        raise CommandError(str(error)) from None
    return _write(output)


def _program(argv: Iterable[str] | None) -> str:
    """The command's name for messages: ``bleusuite score``, ``bleusuite bench`` or
    ``bleusuite``."""
    args = list(sys.argv[1:] if argv is None else argv)
    return f"bleusuite {args[0]}" if args[:1] in (["score"], ["bench"]) else "bleusuite"
