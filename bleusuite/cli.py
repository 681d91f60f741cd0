"""The ``bleusuite`` command.

Three ways to call it (and ``bleusuite bench``, from :mod:`bleusuite.bench`, which times
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
(``--confidence``, ``--paired-bs``, ``--paired-ar``: :mod:`bleusuite.significance`). This
module parses and renders; the resampling lives in :mod:`bleusuite.significance`.
"""

from __future__ import annotations

import argparse
import bisect
import codecs
import gzip
import importlib
import json
import os
import sys
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, Protocol

import numpy as np

import bleusuite
from bleusuite import backends, smoothing, text
from bleusuite.significance import (
    DEFAULT_SEED,
    Confidence,
    PairedResult,
    bootstrap_scores,
    bootstrap_scores_of_metrics,
    multiplicities,
    paired_approximate_randomization,
    paired_bootstrap,
    resample_indices,
    sacrebleu_bleu_scores,
    seed_from_environment,
)
from bleusuite.smoothing import SMOOTHING_NAMES
from bleusuite.stats import BleuStats, GleuStats
from bleusuite.text import FILL_ID, TOKENIZERS, TokenIds, Tokenizer, encode_texts

__all__ = [
    "CommandError",
    "ScoreInputs",
    "ScoreOptions",
    "TokenIds",
    "bootstrap_scores",
    "bootstrap_scores_of_metrics",
    "build_parser",
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

#: sacrebleu's BLEU order (the score command has no option to change it)
MAX_ORDER = 4
#: GLEU orders of the score command (NLTK's defaults)
GLEU_ORDERS = (1, 4)
#: inputs with fewer lines than this never show a progress bar
PROGRESS_MIN_LINES = 5000
#: token slots (sentences x streams x padded length) per statistics batch
BATCH_SLOTS = 1 << 20
METRICS = ("bleu", "gleu")
BACKENDS = ("numpy", "torch")


class CommandError(Exception):
    """A problem to report in one line. The exit status is sacrebleu's: 2 for a usage error
    (argparse's), 1 for anything else, 17 for a malformed tab-separated input."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one-line :class:`CommandError`."""

    def error(self, message: str) -> NoReturn:
        raise CommandError(f"{message} (see '{self.prog} --help')", status=2)


# ------------------------------------------------------------------------------ parser


def build_parser(with_bench: bool = True) -> argparse.ArgumentParser:
    """The parser of the whole command, ``score`` included (``bench`` too unless
    ``with_bench`` is false: ``bleusuite score`` does not import the bench module)."""
    parser = _Parser(
        prog="bleusuite",
        description="Exact BLEU and GLEU of whitespace-tokenised text files. With no files, "
        "scores the sample corpus shipped with bleusuite. 'bleusuite score --help' describes "
        "the sacrebleu-compatible command.",
    )
    parser.add_argument("--hyp", metavar="FILE", help="system output, one sentence per line")
    parser.add_argument(
        "--ref", metavar="FILE", action="append", default=[],
        help="reference file, line-aligned with --hyp (repeat for several references)",
    )
    parser.add_argument("--max-order", type=int, default=4, help="highest n-gram order (4)")
    parser.add_argument(
        "--smooth", default="exp", choices=SMOOTHING_NAMES, metavar="NAME",
        help="smoothing (default: exp, sacrebleu's, as in 'bleusuite score'; see the docs "
        "for the full list)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--version", action="version", version=f"bleusuite {bleusuite.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_score_arguments(commands.add_parser(
        "score", help="sacrebleu-compatible scoring: bleusuite score REF [REF ...] -i HYP",
        description="BLEU and GLEU with sacrebleu's flags, tokenizers and output formats. "
        "Reads the hypotheses from -i HYP, or from standard input.",
    ))
    bench = _bench_module() if with_bench else None
    if bench is not None:
        bench.add_arguments(commands.add_parser(
            "bench", help="time bleusuite against the BLEU/GLEU libraries installed here",
            description="Time bleusuite against the BLEU/GLEU libraries installed here on one "
            "batch of random token ids, check that the scores agree, and print a table.",
        ))
    return parser


def _bench_module() -> Any:
    """``bleusuite.bench`` (the ``bench`` command), or None where it is not shipped."""
    try:
        return importlib.import_module("bleusuite.bench")
    except ImportError:
        return None


def _add_score_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("refs", nargs="*", metavar="REF",
                        help="reference files, line-aligned with the hypotheses")
    parser.add_argument("--input", "-i", metavar="HYP", nargs="*", default=None,
                        help="hypothesis file(s); several files: several systems scored on the "
                        "same references (absent: standard input, one system per "
                        "tab-separated column)")
    parser.add_argument("--num-refs", "-nr", type=int, default=1, metavar="N",
                        help="split the one reference file on tabs into N references")
    parser.add_argument("--encoding", "-e", default="utf-8",
                        help="encoding of the input files (default: utf-8)")
    parser.add_argument("--metrics", "-m", nargs="+", choices=METRICS, default=["bleu"],
                        help="metrics to compute (default: bleu)")
    parser.add_argument("--sentence-level", "-sl", action="store_true",
                        help="one line of scores per input line")
    parser.add_argument("--tokenize", "-tok", choices=tuple(TOKENIZERS), default="13a",
                        help="sacrebleu tokenizer (default: 13a)")
    parser.add_argument("--lowercase", "-lc", action="store_true",
                        help="case-insensitive scores (lowercase every line first)")
    parser.add_argument("--force", action="store_true",
                        help="no warning on hypotheses that look tokenised")
    parser.add_argument(
        "--smooth-method", "-s", choices=SMOOTHING_NAMES, default="exp", metavar="NAME",
        help="BLEU smoothing (default: exp, sacrebleu's). sacrebleu: none, floor, add-k, "
        "exp; NLTK: method0..method7; pytorch-ignite: no_smooth, smooth1, nltk_smooth2, "
        "smooth2",
    )
    parser.add_argument("--smooth-value", "-sv", type=float, default=None, metavar="VALUE",
                        help="value of floor (0.1), add-k (1) or NLTK's method1 epsilon (0.1); "
                        "ignored by sacrebleu's none and exp, as in sacrebleu")
    parser.add_argument("--format", "-f", dest="output_format",
                        choices=("json", "text", "latex"), default=None,
                        help="output format (default: json, or text with --sentence-level, as "
                        "sacrebleu; latex: a table of several systems). The SACREBLEU_FORMAT "
                        "environment variable overrides it, as in sacrebleu")
    parser.add_argument("--width", "-w", type=int, default=1,
                        help="digits after the decimal point (default: 1)")
    parser.add_argument("--score-only", "-b", action="store_true",
                        help="print only the scores")
    parser.add_argument("--short", "-sh", action="store_true",
                        help="abbreviated signature (text format)")
    parser.add_argument("--no-color", "-nc", action="store_true",
                        help="no colours in the tables of several systems")
    parser.add_argument("--confidence", "-ci", action="store_true",
                        help="95%% bootstrap confidence interval of the corpus scores")
    parser.add_argument("--confidence-n", "-cin", type=int, default=1000, metavar="N",
                        help="bootstrap resamples (default: 1000)")
    paired = parser.add_mutually_exclusive_group()
    paired.add_argument("--paired-ar", "-par", action="store_true",
                        help="paired approximate randomization test of every system against "
                        "the first (the baseline)")
    paired.add_argument("--paired-bs", "-pbs", action="store_true",
                        help="paired bootstrap resampling test of every system against the "
                        "first (the baseline)")
    parser.add_argument("--paired-ar-n", "-parn", type=int, default=10000, metavar="N",
                        help="approximate randomization trials (default: 10000)")
    parser.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000, metavar="N",
                        help="paired bootstrap resamples (default: 1000)")
    parser.add_argument("--paired-jobs", "-j", type=int, default=1, metavar="N",
                        help="accepted for sacrebleu compatibility: the tests are vectorised "
                        "over systems and resamples in one process")
    parser.add_argument("--seed", default=None,
                        help=f"resampling seed, or 'none' (default: $SACREBLEU_SEED, else "
                        f"{DEFAULT_SEED}, as sacrebleu: the same seed draws the same "
                        "resamples as sacrebleu)")
    parser.add_argument("--backend", choices=BACKENDS, default="numpy",
                        help="array backend of the statistics (default: numpy)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    parser.add_argument("--version", "-V", action="version",
                        version=f"bleusuite {bleusuite.__version__}")


# ------------------------------------------------------------------------------ input


def read_lines(path: str | None, what: str, encoding: str = "utf-8") -> list[str]:
    """Lines of a text file in ``encoding`` (``None`` or ``'-'``: standard input), as
    sacrebleu reads them.

    In a file only ``\\n`` ends a line (sacrebleu opens files with ``newline="\\n"``;
    ``str.splitlines`` would also split on form feeds and Unicode separators), and a file
    whose name ends in ``.gz`` is gzip-compressed. Standard input is read with universal
    newlines, as sacrebleu's ``io.TextIOWrapper(sys.stdin.buffer)``: ``\\r\\n`` and a lone
    ``\\r`` end a line too. A final line end does not start an empty line.

    Raises:
        CommandError: the file cannot be read, is not gzip data (``.gz``) or is not valid in
            ``encoding`` (the message names the line).
    """
    from_stdin = path in (None, "-")
    try:
        data = sys.stdin.buffer.read() if from_stdin else Path(str(path)).read_bytes()
    except OSError as error:
        raise CommandError(f"cannot read {describe(path, what)}: {error.strerror}") from None
    if not from_stdin and str(path).endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise CommandError(f"{describe(path, what)} is not valid gzip data: {error}") from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise CommandError(
            f"{describe(path, what)} is not valid "
            f"{'UTF-8' if encoding == 'utf-8' else encoding} (line {line}, byte {error.start})"
        ) from None
    if from_stdin:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def describe(path: str | None, what: str) -> str:
    """``'hypothesis file out.txt'``, or ``'standard input (hypothesis)'``."""
    return f"standard input ({what})" if path in (None, "-") else f"{what} file {path}"


def read_texts(hyp_path: str | None, ref_paths: Sequence[str]) -> list[list[str]]:
    """The hypothesis lines and then each reference file's lines, checked to align."""
    if hyp_path in (None, "-") and sys.stdin.isatty():
        raise CommandError("no hypothesis: give -i HYP or pipe the hypotheses to stdin")
    references = [read_lines(path, "reference") for path in ref_paths]
    hypotheses = read_lines(hyp_path, "hypothesis")
    if not hypotheses:
        raise CommandError(f"{describe(hyp_path, 'hypothesis')} is empty: nothing to score")
    for path, lines in zip(ref_paths, references, strict=True):
        if len(lines) != len(hypotheses):
            raise CommandError(
                f"reference file {path} has {len(lines)} lines but the "
                f"{describe(hyp_path, 'hypothesis')} has {len(hypotheses)}"
            )
    return [hypotheses, *references]


@dataclass(frozen=True)
class ScoreInputs:
    """What ``bleusuite score`` reads: the systems (named as sacrebleu names them) and the
    reference streams, all line-aligned."""

    names: list[str]
    systems: list[list[str]]
    references: list[list[str]]


#: sacrebleu's warning on hypotheses that look tokenised (given at 100 such lines)
TOKENISED_WARNING = (
    "That's 100 lines that end in a tokenized period ('.')",
    "It looks like you forgot to detokenize your test data, which may hurt your score.",
    "If you insist your data is detokenized, or don't care, you can suppress this message "
    "with the `force` parameter.",
)
TOKENISED_WARNING_LINES = 100


def read_references(options: ScoreOptions) -> list[list[str]]:
    """The reference streams: one per file, or ``--num-refs`` tab-separated ones per line.

    Raises:
        CommandError: a line has another number of tab-separated fields (exit status 17, as
            sacrebleu).
    """
    streams = [read_lines(path, "reference", options.encoding) for path in options.refs]
    if options.num_refs == 1:
        return streams
    split = []
    for number, line in enumerate(streams[0], start=1):
        fields = line.rstrip().split("\t", options.num_refs - 1)
        if len(fields) != options.num_refs:
            raise CommandError(
                f"reference file {options.refs[0]}, line {number}: expected "
                f"{options.num_refs} tab-separated references (--num-refs), found {len(fields)}",
                status=17,
            )
        split.append(fields)
    return [list(column) for column in zip(*split, strict=True)] if split else \
        [[] for _ in range(options.num_refs)]


def read_systems(options: ScoreOptions) -> tuple[list[str], list[list[str]]]:
    """The systems' names and lines: one per ``-i`` file, or one per tab-separated column of
    standard input (sacrebleu's ``System 1``, ``System 2``, ...)."""
    if options.hyps is not None and len(options.hyps) == 0:
        raise CommandError("-i/--input needs at least one hypothesis file")
    if options.hyps is None or tuple(options.hyps) == ("-",):
        if sys.stdin.isatty():
            raise CommandError("no hypothesis: give -i HYP or pipe the hypotheses to stdin")
        lines = read_lines(None, "hypothesis", options.encoding)
        if not lines:
            raise CommandError(f"{describe(None, 'hypothesis')} is empty: nothing to score")
        if not any("\t" in line for line in lines):
            return ["System 1"], [lines]
        first = lines[0].rstrip().split("\t")
        columns: list[list[str]] = [[field] for field in first]
        for number, line in enumerate(lines[1:], start=2):
            fields = line.rstrip().split("\t")
            if len(fields) != len(first):
                raise CommandError(
                    f"standard input: line {number} has {len(fields)} tab-separated systems, "
                    f"line 1 has {len(first)} (the number must not vary across lines)",
                    status=17,
                )
            for column, field in zip(columns, fields, strict=True):
                column.append(field.rstrip())
        return [f"System {i + 1}" for i in range(len(columns))], columns
    names: list[str] = []
    systems = []
    for path in options.hyps:
        if path in names:
            if options.paired and path == names[0]:
                if not options.quiet:
                    print(f"bleusuite score: ignoring {path!r} as it was also given as the "
                          "baseline", file=sys.stderr)
                continue
            raise CommandError(f"{path!r} already used to name a system: give each system "
                               "a different file name")
        lines = read_lines(path, "hypothesis", options.encoding)
        if not lines:
            raise CommandError(f"{describe(path, 'hypothesis')} is empty: nothing to score")
        names.append(path)
        systems.append(lines)
    return names, systems


def read_inputs(options: ScoreOptions) -> ScoreInputs:
    """References and systems, checked against each other and against the options."""
    references = read_references(options)
    names, systems = read_systems(options)
    if options.paired:
        names = (["Baseline"] + [f"System {i}" for i in range(1, len(names))]
                 if options.hyps is None else [f"Baseline: {names[0]}", *names[1:]])
    if options.sentence_level and len(systems) > 1:
        raise CommandError("--sentence-level scores one system; got several")
    if options.sentence_level and options.paired:
        raise CommandError("statistical tests are unavailable with --sentence-level")
    if options.paired and len(systems) == 1:
        raise CommandError("paired tests need several systems after -i/--input (the first "
                           "is the baseline)")
    if len(systems) > 1 and options.confidence:
        raise CommandError("--confidence is for one system: use --paired-bs or --paired-ar "
                           "for several")
    where = options.refs[0] if options.num_refs > 1 else None
    for name, lines in zip(names, systems, strict=True):
        for number, stream in enumerate(references):
            if len(stream) != len(lines):
                path = where or options.refs[number]
                source = (describe(options.hyp, "hypothesis") if len(systems) == 1
                          else f"system {name}")
                raise CommandError(f"reference file {path} has {len(stream)} lines but the "
                                   f"{source} has {len(lines)}")
    return ScoreInputs(names, systems, references)


def warn_if_tokenised(options: ScoreOptions, systems: Sequence[list[str]]) -> None:
    """sacrebleu's warning (on stderr) for each system with 100 or more lines ending in
    ``' .'``: text that looks tokenised, which BLEU's own tokenizer would then split again."""
    if options.force or "bleu" not in options.metrics:
        return
    for lines in systems:
        if sum(line.rstrip().endswith(" .") for line in lines) >= TOKENISED_WARNING_LINES:
            for text in TOKENISED_WARNING:
                print(f"bleusuite score: warning: {text}", file=sys.stderr)


# ------------------------------------------------------------------- the plain command


@dataclass(frozen=True)
class Corpus:
    """Whitespace-tokenised sentences of the plain ``bleusuite`` command."""

    name: str
    hypotheses: list[list[str]]
    references: list[list[list[str]]]


def load_corpus(hyp_path: str, ref_paths: Sequence[str]) -> Corpus:
    """A corpus from a hypothesis file and line-aligned reference files."""
    hyp_lines = read_lines(hyp_path, "hypothesis")
    ref_columns = [read_lines(path, "reference") for path in ref_paths]
    for path, lines in zip(ref_paths, ref_columns, strict=True):
        if len(lines) != len(hyp_lines):
            raise CommandError(
                f"{path} has {len(lines)} lines but {hyp_path} has {len(hyp_lines)}"
            )
    if not hyp_lines:
        raise CommandError(f"{hyp_path} is empty: nothing to score")
    hypotheses = [line.split() for line in hyp_lines]
    references = [[column[i].split() for column in ref_columns] for i in range(len(hyp_lines))]
    return Corpus(hyp_path, hypotheses, references)


def sample_corpus() -> Corpus:
    """The sample corpus shipped in ``bleusuite/data``."""
    from importlib import resources  # only here: it costs start-up time to every command

    data = resources.files("bleusuite") / "data"
    hyp = (data / "sample-hyp.txt").read_text(encoding="utf-8").splitlines()
    ref = (data / "sample-ref.txt").read_text(encoding="utf-8").splitlines()
    return Corpus(
        "sample: WMT newstest2015 en-ru, Google Translate vs reference",
        [line.split() for line in hyp],
        [[line.split()] for line in ref],
    )


def corpus_report(corpus: Corpus, max_order: int, smooth: str) -> dict[str, Any]:
    """BLEU, mean sentence BLEU and GLEU of a corpus, as the plain command prints them."""
    stats_order = max(max_order, smoothing.extra_orders(smooth))  # NLTK method5/7: 5-grams
    stats = bleusuite.bleu_statistics(corpus.hypotheses, corpus.references, max_order=stats_order)
    total = stats.sum()
    bleu = float(bleusuite.bleu_score(total, max_order=max_order, smooth=smooth))
    matches = np.asarray(total.matches[:max_order], dtype=np.float64)
    totals = np.asarray(total.totals[:max_order], dtype=np.float64)
    precisions = np.divide(matches, totals, out=np.zeros_like(matches), where=totals > 0)
    hyp_len, ref_len = int(total.hyp_len), int(total.ref_len)
    sentence = bleusuite.bleu_score(stats, smooth="exp", max_order=max_order,
                                    effective_order=True)
    gleu = float(bleusuite.corpus_gleu(corpus.hypotheses, corpus.references))
    return {
        "corpus": corpus.name,
        "sentences": len(corpus.hypotheses),
        "bleu": {
            "score": 100 * bleu,
            "smooth": smooth,
            "max_order": max_order,
            "precisions": [100 * p for p in precisions.tolist()],
            "bp": _brevity_penalty(hyp_len, ref_len),
            "ratio": hyp_len / ref_len if ref_len else 0.0,
            "hyp_len": hyp_len,
            "ref_len": ref_len,
        },
        "mean_sentence_bleu": 100 * float(np.mean(sentence)),
        "gleu": {"score": 100 * gleu, "min_len": 1, "max_len": 4},
    }


def format_report(result: dict[str, Any]) -> str:
    """The text output of the plain command."""
    bleu = result["bleu"]
    precisions = "/".join(f"{p:.1f}" for p in bleu["precisions"])
    return "\n".join([
        f"{result['corpus']} ({result['sentences']} sentences)",
        f"BLEU = {bleu['score']:.2f} {precisions} (BP={bleu['bp']:.3f}, "
        f"ratio={bleu['ratio']:.3f}, hyp_len={bleu['hyp_len']}, ref_len={bleu['ref_len']}; "
        f"smooth={bleu['smooth']})",
        f"GLEU = {result['gleu']['score']:.2f} (orders 1-4)",
        f"mean sentence BLEU = {result['mean_sentence_bleu']:.2f} "
        "(smooth=exp, effective order, as sacrebleu's sentence_bleu)",
    ])


def run_plain(args: argparse.Namespace) -> str:
    """The plain command: the sample corpus, or ``--hyp``/``--ref`` files."""
    if args.hyp is None and not args.ref:
        corpus = sample_corpus()
    elif args.hyp is None or not args.ref:
        raise CommandError("give both --hyp FILE and at least one --ref FILE (or neither)")
    else:
        corpus = load_corpus(args.hyp, args.ref)
    result = corpus_report(corpus, args.max_order, args.smooth)
    return json.dumps(result, indent=2) if args.format == "json" else format_report(result)


# ----------------------------------------------------------------------- progress bar


class Progress(Protocol):
    """What the command needs of a progress bar (tqdm's interface)."""

    def update(self, n: int = 1) -> Any: ...

    def close(self) -> None: ...


class _NoProgress:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, desc: str, enabled: bool, unit: str = "line") -> Progress:
    """A tqdm bar on stderr, or a silent stand-in when disabled or tqdm is missing."""
    if not enabled:
        return _NoProgress()
    try:
        from tqdm import tqdm
    except ImportError:
        return _NoProgress()
    bar: Progress = tqdm(total=total, desc=desc, file=sys.stderr, leave=False, unit=unit,
                         dynamic_ncols=True)
    return bar


# -------------------------------------------------------------------------- tokenising


def load_tokenizer(name: str) -> Tokenizer:
    """sacrebleu's tokenizer ``name`` (:func:`bleusuite.text.load_tokenizer`).

    Raises:
        CommandError: sacrebleu is not installed, or ``name`` is unknown.
    """
    try:
        return text.load_tokenizer(name)
    except (ImportError, ValueError) as error:
        raise CommandError(f"'bleusuite score': {error}") from None


# ------------------------------------------------------------------------- statistics


def length_batches(token_ids: TokenIds, slots: int = BATCH_SLOTS) -> list[np.ndarray]:
    """Sentence indices in batches of similar length, each at most ``slots`` token slots.

    Sorting by length keeps padding small whatever the spread of sentence lengths.
    """
    longest = token_ids.lengths.max(axis=0)
    order = np.argsort(longest, kind="stable")
    widths = np.maximum(longest[order], 1)
    streams = token_ids.lengths.shape[0]
    batches, begin, size = [], 0, len(order)
    while begin < size:
        end = bisect.bisect_right(
            range(begin + 1, size + 1), slots,
            key=lambda stop: (stop - begin) * streams * int(widths[stop - 1]),
        ) + begin
        end = max(end, begin + 1)
        batches.append(order[begin:end])
        begin = end
    return batches


def _to_backend(array: np.ndarray, backend: str) -> Any:
    if backend == "numpy":
        return array
    try:
        import torch
    except ImportError:
        raise CommandError("--backend torch needs PyTorch: pip install torch") from None
    return torch.from_numpy(array)


def sentence_statistics(
    token_ids: TokenIds,
    metrics: Sequence[str],
    max_order: int,
    backend: str = "numpy",
    bar: Progress | None = None,
) -> dict[str, Any]:
    """Per-sentence statistics arrays (``to_array`` form, input order) of each metric.

    The arrays belong to ``backend`` (the token matrices are converted before scoring).
    """
    bar = bar or _NoProgress()
    num_refs = token_ids.lengths.shape[0] - 1
    parts: dict[str, list[Any]] = {metric: [] for metric in metrics}
    order = []
    for rows in length_batches(token_ids):
        width = int(token_ids.lengths[:, rows].max())
        hyp = token_ids.padded(0, rows, width)
        refs = np.stack([token_ids.padded(r + 1, rows, width) for r in range(num_refs)], axis=1)
        hyp_b, refs_b = _to_backend(hyp, backend), _to_backend(refs, backend)
        if "bleu" in parts:
            stats = bleusuite.bleu_statistics(hyp_b, refs_b, max_order=max_order, eos_id=FILL_ID)
            parts["bleu"].append(stats.to_array())
        if "gleu" in parts:
            gstats = bleusuite.gleu_statistics(hyp_b, refs_b, min_len=GLEU_ORDERS[0],
                                               max_len=GLEU_ORDERS[1], eos_id=FILL_ID)
            parts["gleu"].append(gstats.to_array())
        order.append(rows)
        bar.update(len(rows))
    inverse = np.argsort(np.concatenate(order), kind="stable")
    result = {}
    for metric, arrays in parts.items():
        be = backends.get_backend(arrays[0])
        result[metric] = be.concat(arrays, axis=0)[be.asarray(inverse, like=arrays[0])]
    return result


# ----------------------------------------------------------------------------- scores


#: sacrebleu's output formats (``-f`` and ``SACREBLEU_FORMAT``)
OUTPUT_FORMATS = ("json", "text", "latex")
#: sacrebleu's defaults when ``--paired-bs-n`` / ``--paired-ar-n`` is 0 or less
PAIRED_DEFAULTS = {"bs": 1000, "ar": 10000}


@dataclass(frozen=True)
class ScoreOptions:
    """Validated settings of ``bleusuite score``.

    ``hyps`` is None for standard input, else the hypothesis files (one per system).
    ``paired`` is ``'bs'``, ``'ar'`` or None; ``paired_n`` its resamples or trials, and
    ``paired_n_shown`` the number as given (sacrebleu prints that one in its note).
    """

    refs: tuple[str, ...]
    hyps: tuple[str, ...] | None
    metrics: tuple[str, ...]
    tokenize: str
    lowercase: bool
    smooth: str
    smooth_value: float | None
    sentence_level: bool
    output_format: str
    width: int
    score_only: bool
    short: bool
    confidence: bool
    confidence_n: int
    seed: int | None
    backend: str
    quiet: bool
    num_refs: int = 1
    encoding: str = "utf-8"
    paired: str | None = None
    paired_n: int = 0
    paired_n_shown: int = 0
    force: bool = False
    color: bool = False

    @property
    def hyp(self) -> str | None:
        """The hypothesis file of a single system (None: standard input)."""
        return self.hyps[0] if self.hyps else None

    @property
    def family(self) -> str:
        return smoothing.family_of(self.smooth)

    @property
    def effective_order(self) -> bool:
        """sacrebleu's sentence-level scores use the effective order (its own families)."""
        return self.sentence_level and self.family == "sacrebleu"

    @property
    def stats_order(self) -> int:
        return max(MAX_ORDER, smoothing.extra_orders(self.smooth))

    @classmethod
    def from_args(cls, args: argparse.Namespace,
                  environ: dict[str, str] | None = None) -> ScoreOptions:
        environ = dict(os.environ) if environ is None else environ
        if args.hyp is not None or args.ref:
            raise CommandError("--hyp/--ref are options of the plain command; write "
                               "'bleusuite score REF [REF ...] -i HYP'")
        if not args.refs:
            raise CommandError("no reference files: give them before -i/--input "
                               "(bleusuite score REF [REF ...] -i HYP); test-set downloads "
                               "(-t) are not supported")
        smooth_value = args.smooth_value
        if args.smooth_method in ("exp", "none"):
            smooth_value = None  # sacrebleu ignores the value of a method without one
        try:
            smoothing.check_smooth_value(args.smooth_method, smooth_value)
        except ValueError as error:
            raise CommandError(str(error).replace("smooth_value", "--smooth-value")) from None
        if args.sentence_level and args.confidence:
            raise CommandError("--confidence needs corpus scores: drop --sentence-level")
        if args.confidence_n < 1:
            raise CommandError(f"--confidence-n must be at least 1; got {args.confidence_n}")
        if not 0 <= args.width <= 20:
            raise CommandError(f"--width must be between 0 and 20; got {args.width}")
        if args.num_refs < 1:
            raise CommandError(f"--num-refs must be at least 1; got {args.num_refs}")
        if args.num_refs != 1 and len(args.refs) > 1:
            raise CommandError("--num-refs reads several tab-separated references from one "
                               f"file; got {len(args.refs)} reference files")
        try:
            encoding = codecs.lookup(args.encoding).name
        except LookupError:
            raise CommandError(f"--encoding: unknown encoding {args.encoding!r}") from None
        output_format = args.output_format or ("text" if args.sentence_level else "json")
        shown_format = environ.get("SACREBLEU_FORMAT", "").lower()
        if shown_format in OUTPUT_FORMATS and not args.sentence_level:
            # sacrebleu's sentence-level output is always text, whatever the variable says
            # (bleusuite's -sl -f json, an extension, needs the flag)
            output_format = shown_format
        paired = "bs" if args.paired_bs else "ar" if args.paired_ar else None
        paired_n_shown = args.paired_bs_n if paired == "bs" else args.paired_ar_n
        paired_n = paired_n_shown if paired_n_shown > 0 else PAIRED_DEFAULTS.get(paired or "", 0)
        if args.seed is None:
            try:
                seed = seed_from_environment(environ)
            except ValueError as error:
                raise CommandError(str(error)) from None
        else:
            seed = _parse_seed(args.seed)
        hyps = None if args.input is None else tuple(args.input)
        color = (not args.no_color and not environ.get("NO_COLOR")
                 and sys.stdout.isatty())
        return cls(
            tuple(args.refs), hyps, tuple(dict.fromkeys(args.metrics)), args.tokenize,
            args.lowercase, args.smooth_method, smooth_value, args.sentence_level,
            output_format, args.width, args.score_only, args.short, args.confidence,
            args.confidence_n, seed, args.backend, args.quiet, args.num_refs, encoding,
            paired, paired_n, paired_n_shown, args.force, color,
        )


def _parse_seed(value: str) -> int | None:
    if value.lower() == "none":
        return None
    try:
        seed = int(value)
    except ValueError:
        raise CommandError(f"--seed must be an integer or 'none'; got {value!r}") from None
    if seed < 0:
        raise CommandError(f"--seed must be non-negative; got {seed}")
    return seed


#: sacrebleu's short signature keys (``--short``)
SIGNATURE_ABBREVIATIONS = {"nrefs": "#", "bs": "bs", "ar": "ar", "seed": "rs", "case": "c",
                           "eff": "e", "tok": "tok", "smooth": "s", "ngram": "n", "version": "v"}


class Signature:
    """A sacrebleu-style signature: every setting that changes the number, in one line."""

    def __init__(self, items: dict[str, Any]) -> None:
        self.items = {key: value for key, value in items.items() if value is not None}

    def format(self, short: bool = False) -> str:
        """``key:value|...``; ``short`` uses sacrebleu's abbreviations."""
        return "|".join(
            f"{SIGNATURE_ABBREVIATIONS.get(key, key) if short else key}:{value}"
            for key, value in self.items.items()
        )


def make_signature(options: ScoreOptions, metric: str, num_refs: int, tokenizer: str) -> Signature:
    """The signature of one metric: sacrebleu's fields in sacrebleu's order, bleusuite's
    version, and the smoothing as sacrebleu writes it (prefixed with its family, ``nltk/`` or
    ``ignite/``, for the other libraries' methods)."""
    items: dict[str, Any] = {"nrefs": num_refs}
    if options.confidence or options.paired:
        resampling = "bs" if options.confidence else options.paired
        items[str(resampling)] = options.confidence_n if options.confidence else options.paired_n
        items["seed"] = "none" if options.seed is None else options.seed
    items["case"] = "lc" if options.lowercase else "mixed"
    if metric == "bleu":
        items["eff"] = "yes" if options.effective_order else "no"
        items["tok"] = tokenizer
        smooth = options.smooth
        if options.family != "sacrebleu":
            smooth = f"{options.family}/{smooth}"
        if options.smooth in smoothing.SMOOTH_VALUE_DEFAULTS:
            value = options.smooth_value
            if value is None:
                value = smoothing.SMOOTH_VALUE_DEFAULTS[options.smooth]
            smooth += f"[{value:.2f}]"
        items["smooth"] = smooth
    else:
        items["tok"] = tokenizer
        items["ngram"] = f"{GLEU_ORDERS[0]}-{GLEU_ORDERS[1]}"
    items["version"] = f"bleusuite-{bleusuite.__version__}"
    return Signature(items)


@dataclass(frozen=True)
class MetricReport:
    """Scores of one metric on the 0-100 scale: one (corpus) or one per sentence."""

    name: str
    signature: Signature
    scores: np.ndarray
    verbose: list[str]
    confidence: Confidence | None = None


def shown_precisions(stats: BleuStats, smooth: str, smooth_value: float | None) -> np.ndarray:
    """The n-gram precisions (0-100) printed after a BLEU score, ``(..., N)``.

    For sacrebleu's smoothing names these are the smoothed precisions sacrebleu prints
    (its ``BLEUScore.precisions``); for NLTK and ignite names, the plain precisions with the
    family's denominators. Display only: the score comes from :func:`bleusuite.bleu_score`.
    """
    family = smoothing.family_of(smooth)
    correct = np.asarray(stats.matches[..., :MAX_ORDER], dtype=np.float64)
    if family != "sacrebleu":
        source = stats.clamped_totals if family == "nltk" else stats.totals
        denominator = np.maximum(np.asarray(source[..., :MAX_ORDER], dtype=np.float64), 1.0)
        return 100.0 * correct / denominator
    any_correct = correct.sum(axis=-1, keepdims=True) > 0
    be = backends.get_backend(np.asarray(stats.matches))
    precisions, _ = smoothing.sacrebleu_precisions(be, stats, MAX_ORDER, smooth, smooth_value)
    return np.where(any_correct, precisions, 0.0)


def _brevity_penalty(hyp_len: int, ref_len: int) -> float:
    """The library's brevity penalty of corpus lengths (1.0 when both are 0, as sacrebleu)."""
    be = backends.get_backend()
    return float(smoothing.brevity_penalty(be, np.int64(hyp_len), np.int64(ref_len)))


def bleu_verbose(stats: BleuStats, options: ScoreOptions) -> list[str]:
    """sacrebleu's verbose part, ``p1/p2/p3/p4 (BP = ... ref_len = ...)``, per entry."""
    precisions = np.atleast_2d(shown_precisions(stats, options.smooth, options.smooth_value))
    hyp_len = np.atleast_1d(np.asarray(stats.hyp_len)).tolist()
    ref_len = np.atleast_1d(np.asarray(stats.ref_len)).tolist()
    lines = []
    for row, c, r in zip(precisions.tolist(), hyp_len, ref_len, strict=True):
        bp = _brevity_penalty(c, r)
        ratio = c / r if r else 0
        lines.append(f"{'/'.join(f'{p:.1f}' for p in row)} (BP = {bp:.3f} ratio = {ratio:.3f} "
                     f"hyp_len = {c:d} ref_len = {r:d})")
    return lines


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


def _score_function(metric: str, options: ScoreOptions) -> Callable[[Any], Any]:
    return _bleu_of(options) if metric == "bleu" else _gleu_of


def _to_numpy(array: Any) -> np.ndarray:
    return np.asarray(backends.get_backend(array).to_numpy(array))


def confidences(stats: dict[str, Any], options: ScoreOptions, bar: Progress) -> dict[
        str, Confidence]:
    """The bootstrap summary of every metric, all on the same resamples (for sacrebleu's
    BLEU, scored with its float32 arithmetic on resamples: its means and intervals)."""
    metrics = list(stats)
    scores = bootstrap_scores_of_metrics(
        [_to_numpy(stats[metric]) for metric in metrics],
        [_numpy_scores(metric, options)[1] for metric in metrics],
        options.confidence_n, options.seed, bar,
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


# ---------------------------------------------------------------------------- output


def _score_text(report: MetricReport, index: int, width: int) -> str:
    text = f"{report.scores[index]:.{width}f}"
    if report.confidence is not None:
        c = report.confidence
        text += (f" (μ = {c.mean:.{width}f} ± {c.half_width:.{width}f}, "
                 f"95% CI [{c.low:.{width}f}, {c.high:.{width}f}])")
    return text


def format_line(report: MetricReport, index: int, options: ScoreOptions) -> str:
    """One score as sacrebleu's text format: ``NAME|signature = score verbose``."""
    score = _score_text(report, index, options.width)
    if options.score_only:
        return score
    return f"{report.name}|{report.signature.format(options.short)} = {score} " \
        f"{report.verbose[index]}"


def format_json(report: MetricReport, index: int, width: int) -> dict[str, Any]:
    """One score as sacrebleu's JSON: name, score, signature, verbose_score, signature keys."""
    entry: dict[str, Any] = {
        "name": report.name,
        "score": float(f"{report.scores[index]:.{width}f}"),
        "signature": report.signature.format(),
    }
    if report.confidence is not None:
        c = report.confidence
        entry["confidence_mean"] = float(f"{c.mean:.{width}f}")
        entry["confidence_var"] = float(f"{c.half_width:.{width}f}")
        entry["confidence"] = f"μ = {c.mean:.{width}f} ± {c.half_width:.{width}f}"
        entry["confidence_low"] = float(f"{c.low:.{width}f}")
        entry["confidence_high"] = float(f"{c.high:.{width}f}")
    entry["verbose_score"] = report.verbose[index]
    entry.update({key: str(value) for key, value in report.signature.items.items()})
    return entry


def _align(lines: list[str]) -> list[str]:
    """Right-align the names and signatures on ``=``, as sacrebleu does for several metrics."""
    width = max(line.index(" = ") for line in lines)
    return [f"{line[: line.index(' = ')]:>{width}}{line[line.index(' = '):]}" for line in lines]


def render(reports: Sequence[MetricReport], options: ScoreOptions) -> str:
    """The output of ``bleusuite score`` (``--score-only`` overrides the format, as in
    sacrebleu)."""
    if not options.sentence_level:
        if options.output_format == "json" and not options.score_only:
            entries = [format_json(report, 0, options.width) for report in reports]
            return json.dumps(entries[0] if len(entries) == 1 else entries, indent=1,
                              ensure_ascii=False)
        lines = [format_line(report, 0, options) for report in reports]
        return "\n".join(lines if options.score_only else _align(lines))
    rows = range(len(reports[0].scores))
    if options.output_format == "json" and not options.score_only:
        def entry(i: int) -> Any:
            items = [format_json(report, i, options.width) for report in reports]
            return items[0] if len(items) == 1 else items

        return "\n".join(json.dumps(entry(i), ensure_ascii=False) for i in rows)
    return "\n".join("\t".join(format_line(report, i, options) for report in reports)
                     for i in rows)


# ------------------------------------------------------------------------ score command


def run_score(options: ScoreOptions) -> str:
    """``bleusuite score``: read, tokenise, count, score, format."""
    tokenizer = load_tokenizer(options.tokenize)
    inputs = read_inputs(options)
    warn_if_tokenised(options, inputs.systems)
    texts = [*inputs.systems, *inputs.references]
    num_lines, num_systems = len(texts[0]), len(inputs.systems)
    show = (not options.quiet and num_lines * num_systems >= PROGRESS_MIN_LINES
            and sys.stderr.isatty())
    bar = progress_bar(num_lines * len(texts), "tokenizing", show)
    try:
        token_ids = encode_texts(texts, tokenizer, options.lowercase, bar)
    finally:
        bar.close()
    bar = progress_bar(num_lines * num_systems, "counting n-grams", show)
    try:
        stats = systems_statistics(token_ids, num_systems, options, bar)
    finally:
        bar.close()
    num_refs = len(inputs.references)

    def signature(metric: str) -> Signature:
        return make_signature(options, metric, num_refs, tokenizer.signature)

    if num_systems > 1:
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


def systems_statistics(token_ids: TokenIds, num_systems: int, options: ScoreOptions,
                       bar: Progress) -> list[dict[str, Any]]:
    """Per-sentence statistics of each system (streams ``0..S-1``) against the shared
    references (the other streams), counted in one pass: the systems' sentences are stacked
    into one batch of ``S x B`` rows, each paired with its references (a view of the same
    ids, nothing is copied or re-tokenised), so the batches are as full as possible."""
    stacked = stacked_systems(token_ids, num_systems)
    stats = sentence_statistics(stacked, options.metrics, options.stats_order,
                                options.backend, bar)
    lines = token_ids.lengths.shape[1]
    return [{metric: array[k * lines : (k + 1) * lines] for metric, array in stats.items()}
            for k in range(num_systems)]


def stacked_systems(token_ids: TokenIds, num_systems: int) -> TokenIds:
    """Token ids of ``S`` systems and shared references (streams ``S..``) as one system of
    ``S x B`` lines: stream 0 holds every system's lines, system after system, and each
    reference stream is repeated ``S`` times. Only the offsets are rearranged.

    >>> tok = load_tokenizer("none")
    >>> ids = encode_texts([["a b", "c"], ["a", "c d"], ["a b", "c d"]], tok, False)
    >>> stacked = stacked_systems(ids, 2)
    >>> [stacked.tokens(0, i) for i in range(4)], stacked.tokens(1, 2)
    ([['a', 'b'], ['c'], ['a'], ['c', 'd']], ['a', 'b'])
    """
    starts, lengths = token_ids.starts, token_ids.lengths
    refs = range(num_systems, lengths.shape[0])
    stacked_starts = np.stack([starts[:num_systems].ravel(),
                               *(np.tile(starts[r], num_systems) for r in refs)])
    stacked_lengths = np.stack([lengths[:num_systems].ravel(),
                                *(np.tile(lengths[r], num_systems) for r in refs)])
    return TokenIds(token_ids.ids, stacked_starts, stacked_lengths, token_ids.vocabulary)


# ------------------------------------------------------------------- several systems


def _numpy_scores(metric: str, options: ScoreOptions) -> tuple[
        Callable[[np.ndarray], np.ndarray], Callable[[np.ndarray], np.ndarray]]:
    """(score, resampled score) of a metric on ``(R, F)`` statistics, as NumPy arrays.

    sacrebleu's smoothing methods get sacrebleu's own arithmetic (float32 precisions on
    resamples), so that means, intervals and p-values are its numbers to the last bit."""
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
                   bar: Progress) -> list[PairedResult]:
    """The paired test of one metric: the first system is the baseline."""
    tables = [_to_numpy(system[metric]) for system in stats]
    score, resampled = _numpy_scores(metric, options)
    if options.paired == "bs":
        return paired_bootstrap(tables[0], tables[1:], options.paired_n, options.seed,
                                score=score, resampled_score=resampled, bar=bar)
    return paired_approximate_randomization(tables[0], tables[1:], options.paired_n,
                                            options.seed, score=score, bar=bar)


def render_systems(names: list[str], stats: Sequence[dict[str, Any]], options: ScoreOptions,
                   signature: Callable[[str], Signature], show: bool) -> str:
    """Several systems: sacrebleu's table (text, LaTeX) or JSON list, with paired tests."""
    columns: dict[str, list[str] | list[PairedResult]] = {}
    signatures = {}
    if options.paired:
        for metric in options.metrics:
            units = options.paired_n * (len(stats) if options.paired == "bs" else len(stats) - 1)
            bar = progress_bar(units, f"paired {options.paired} ({metric.upper()})",
                               show and options.paired_n * len(stats[0][metric]) >= 1 << 20,
                               unit="resample")
            try:
                columns[metric.upper()] = paired_results(stats, metric, options, bar)
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
    colored: dict[str, list[str]] = {}
    baseline, has_baseline = "", False
    for title, column in cells.items():
        if column[0].startswith("Baseline:") or has_baseline:
            if column[0].startswith("Baseline:"):
                baseline = column[0]
            has_baseline = True
            column[0] = _color(column[0], "yellow", paint)
        colored[_color(title, "cyan", paint)] = column
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
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(with_bench=arguments[:1] != ["score"]).parse_args(arguments)
    if args.command == "bench":
        return int(_bench_module().run(args))
    try:
        if args.command == "score":
            output = run_score(ScoreOptions.from_args(args))
        else:
            output = run_plain(args)
    except (ValueError, TypeError) as error:  # the library's argument checks
        raise CommandError(str(error)) from None
    return _write(output)


def _program(argv: Iterable[str] | None) -> str:
    """The command's name for messages: ``bleusuite score``, ``bleusuite bench`` or
    ``bleusuite``."""
    args = list(sys.argv[1:] if argv is None else argv)
    return f"bleusuite {args[0]}" if args[:1] in (["score"], ["bench"]) else "bleusuite"
