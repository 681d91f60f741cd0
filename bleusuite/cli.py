"""The ``bleusuite`` command.

Three ways to call it (and ``bleusuite bench``, from :mod:`bleusuite.bench`, which times
bleusuite against the other BLEU libraries):

* ``bleusuite`` scores the sample corpus shipped in the package (100 sentences of WMT
  newstest2015 en-ru) and prints BLEU and GLEU.
* ``bleusuite --hyp FILE --ref FILE [--ref FILE ...]`` does the same for
  whitespace-tokenised text files, one sentence per line.
* ``bleusuite score REF [REF ...] -i HYP`` is a sacrebleu-compatible command: the same flags
  (``-m``, ``-tok``, ``-lc``, ``-s``, ``-sv``, ``-f``, ``-w``, ``-ci``, ...), sacrebleu's own
  tokenizers, and the same numbers as the ``sacrebleu`` command, computed from vectorised
  statistics. It needs the ``cli`` extra (``pip install 'bleusuite[cli]'``: sacrebleu for
  the tokenizers, tqdm for the progress bar).

How ``score`` works: every line is tokenised by sacrebleu's tokenizer class and split on
whitespace; tokens are numbered with one dictionary for the whole corpus; the sentences go
to :func:`bleusuite.bleu_statistics` / :func:`bleusuite.gleu_statistics` in batches of
similar length; the per-sentence statistics are summed (corpus score), scored one by one
(``--sentence-level``), or resampled (``--confidence``).
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import gc
import gzip
import importlib
import itertools
import json
import os
import statistics
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn, Protocol

import numpy as np

import bleusuite
from bleusuite import backends, smoothing
from bleusuite.smoothing import SMOOTHING_NAMES
from bleusuite.stats import BleuStats, GleuStats

__all__ = [
    "CommandError",
    "TokenIds",
    "bootstrap_scores",
    "bootstrap_scores_of_metrics",
    "build_parser",
    "encode_texts",
    "length_batches",
    "load_tokenizer",
    "main",
    "multiplicities",
    "read_lines",
    "resample_indices",
    "sentence_statistics",
]

#: sacrebleu's BLEU order (the score command has no option to change it)
MAX_ORDER = 4
#: GLEU orders of the score command (NLTK's defaults)
GLEU_ORDERS = (1, 4)
#: sacrebleu's default bootstrap seed (its ``SACREBLEU_SEED``), so that the same seed draws
#: the same resamples in both programs
DEFAULT_SEED = 12345
#: inputs with fewer lines than this never show a progress bar
PROGRESS_MIN_LINES = 5000
#: token slots (sentences x streams x padded length) per statistics batch
BATCH_SLOTS = 1 << 20
#: sentence indices drawn per bootstrap chunk (bounds the multiplicity matrix in memory)
BOOTSTRAP_CHUNK = 1 << 22
#: lines read, split and numbered at a time
ENCODE_CHUNK_LINES = 20_000
#: id that fills a token matrix past the end of a line. It is given as ``eos_id`` (not
#: ``pad_id``), so an empty reference line stays a present reference of length 0, as in
#: sacrebleu, instead of an absent one.
FILL_ID = -1

# name -> (module, class, word_local). word_local: the tokenizer acts on each
# whitespace-separated word independently of its neighbours, so tokenising every distinct
# word once gives the same tokens as tokenising every line (see _UnitEncoder.units_of).
TOKENIZERS: dict[str, tuple[str, str, bool]] = {
    "13a": ("sacrebleu.tokenizers.tokenizer_13a", "Tokenizer13a", True),
    "none": ("sacrebleu.tokenizers.tokenizer_none", "NoneTokenizer", True),
    "intl": ("sacrebleu.tokenizers.tokenizer_intl", "TokenizerV14International", False),
    "char": ("sacrebleu.tokenizers.tokenizer_char", "TokenizerChar", True),
    "zh": ("sacrebleu.tokenizers.tokenizer_zh", "TokenizerZh", False),
}
METRICS = ("bleu", "gleu")
BACKENDS = ("numpy", "torch")


class CommandError(Exception):
    """A problem to report in one line, with exit status 2."""


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one-line :class:`CommandError`."""

    def error(self, message: str) -> NoReturn:
        raise CommandError(f"{message} (see '{self.prog} --help')")


# ------------------------------------------------------------------------------ parser


def build_parser() -> argparse.ArgumentParser:
    """The parser of the whole command, ``score`` included."""
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
        "--smooth", default="none", choices=SMOOTHING_NAMES, metavar="NAME",
        help="smoothing (default: none, sacrebleu's; see the docs for the full list)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--version", action="version", version=f"bleusuite {bleusuite.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_score_arguments(commands.add_parser(
        "score", help="sacrebleu-compatible scoring: bleusuite score REF [REF ...] -i HYP",
        description="BLEU and GLEU with sacrebleu's flags, tokenizers and output formats. "
        "Reads the hypotheses from -i HYP, or from standard input.",
    ))
    bench = _bench_module()
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
    parser.add_argument("refs", nargs="+", metavar="REF",
                        help="reference files, line-aligned with the hypotheses")
    parser.add_argument("--input", "-i", metavar="HYP", default=None,
                        help="hypothesis file ('-' or absent: standard input)")
    parser.add_argument("--metrics", "-m", nargs="+", choices=METRICS, default=["bleu"],
                        help="metrics to compute (default: bleu)")
    parser.add_argument("--sentence-level", "-sl", action="store_true",
                        help="one line of scores per input line")
    parser.add_argument("--tokenize", "-tok", choices=tuple(TOKENIZERS), default="13a",
                        help="sacrebleu tokenizer (default: 13a)")
    parser.add_argument("--lowercase", "-lc", action="store_true",
                        help="case-insensitive scores (lowercase every line first)")
    parser.add_argument(
        "--smooth-method", "-s", choices=SMOOTHING_NAMES, default="exp", metavar="NAME",
        help="BLEU smoothing (default: exp, sacrebleu's). sacrebleu: none, floor, add-k, "
        "exp; NLTK: method0..method7; pytorch-ignite: no_smooth, smooth1, nltk_smooth2, "
        "smooth2",
    )
    parser.add_argument("--smooth-value", "-sv", type=float, default=None, metavar="VALUE",
                        help="value of floor (0.1), add-k (1) or NLTK's method1 epsilon (0.1)")
    parser.add_argument("--format", "-f", dest="output_format", choices=("json", "text"),
                        default=None, help="output format (default: json, or text with "
                        "--sentence-level, as sacrebleu)")
    parser.add_argument("--width", "-w", type=int, default=1,
                        help="digits after the decimal point (default: 1)")
    parser.add_argument("--score-only", "-b", action="store_true",
                        help="print only the scores")
    parser.add_argument("--short", "-sh", action="store_true",
                        help="abbreviated signature (text format)")
    parser.add_argument("--confidence", "-ci", action="store_true",
                        help="95%% bootstrap confidence interval of the corpus scores")
    parser.add_argument("--confidence-n", "-cin", type=int, default=1000, metavar="N",
                        help="bootstrap resamples (default: 1000)")
    parser.add_argument("--seed", default=str(DEFAULT_SEED),
                        help=f"bootstrap seed, or 'none' (default: {DEFAULT_SEED}, sacrebleu's; "
                        "the same seed draws the same resamples as sacrebleu)")
    parser.add_argument("--backend", choices=BACKENDS, default="numpy",
                        help="array backend of the statistics (default: numpy)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


# ------------------------------------------------------------------------------ input


def read_lines(path: str | None, what: str) -> list[str]:
    """Lines of a UTF-8 text file (``None`` or ``'-'``: standard input), as sacrebleu reads them.

    In a file only ``\\n`` ends a line (sacrebleu opens files with ``newline="\\n"``;
    ``str.splitlines`` would also split on form feeds and Unicode separators), and a file
    whose name ends in ``.gz`` is gzip-compressed. Standard input is read with universal
    newlines, as sacrebleu's ``io.TextIOWrapper(sys.stdin.buffer)``: ``\\r\\n`` and a lone
    ``\\r`` end a line too. A final line end does not start an empty line.

    Raises:
        CommandError: the file cannot be read, is not gzip data (``.gz``) or is not UTF-8
            (the message names the line).
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
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise CommandError(
            f"{describe(path, what)} is not valid UTF-8 (line {line}, byte {error.start})"
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
    data = resources.files("bleusuite") / "data"
    hyp = (data / "sample-hyp.txt").read_text(encoding="utf-8").splitlines()
    ref = (data / "sample-ref.txt").read_text(encoding="utf-8").splitlines()
    return Corpus(
        "sample: 100 sentences of WMT newstest2015 en-ru (Google Translate vs reference)",
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


@dataclass(frozen=True)
class Tokenizer:
    """A sacrebleu tokenizer: ``tokenize(line) -> str`` whose output is split on whitespace.

    Attributes:
        name: the ``--tokenize`` name.
        tokenize: the sacrebleu tokenizer object.
        signature: the tokenizer's own signature (``tok:`` in the signature line).
        word_local: whether it acts on each whitespace-separated word independently.
    """

    name: str
    tokenize: Callable[[str], str]
    signature: str
    word_local: bool


def load_tokenizer(name: str) -> Tokenizer:
    """sacrebleu's tokenizer class ``name``, imported on first use.

    Raises:
        CommandError: sacrebleu is not installed, or ``name`` is unknown.
    """
    if name not in TOKENIZERS:
        raise CommandError(f"unknown tokenizer {name!r}; choose one of {', '.join(TOKENIZERS)}")
    module_name, class_name, word_local = TOKENIZERS[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise CommandError(
            f"'bleusuite score' needs sacrebleu's tokenizers ({error}); install them with "
            "pip install 'bleusuite[cli]'"
        ) from None
    instance = getattr(module, class_name)()
    return Tokenizer(name, instance, str(instance.signature()), word_local)


@dataclass(frozen=True)
class TokenIds:
    """Token ids of line-aligned texts (stream 0: hypotheses, 1..: references), ragged.

    Attributes:
        ids: all token ids, flat int64.
        starts: ``(S, B)`` offset in ``ids`` of each line of each stream.
        lengths: ``(S, B)`` number of tokens of each line.
        vocabulary: the token of each id.
    """

    ids: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray
    vocabulary: list[str]

    def tokens(self, stream: int, line: int) -> list[str]:
        """The tokens of one line (for inspection and tests)."""
        begin = int(self.starts[stream, line])
        end = begin + int(self.lengths[stream, line])
        return [self.vocabulary[i] for i in self.ids[begin:end].tolist()]

    def padded(self, stream: int, rows: np.ndarray, width: int) -> np.ndarray:
        """``(len(rows), width)`` ids of some lines of a stream, filled with ``FILL_ID``."""
        out = np.full((len(rows), max(width, 1)), FILL_ID, dtype=np.int64)
        counts = self.lengths[stream, rows]
        if counts.sum():
            row = np.repeat(np.arange(len(rows)), counts)
            first = np.cumsum(counts) - counts
            column = np.arange(int(counts.sum())) - np.repeat(first, counts)
            out[row, column] = self.ids[np.repeat(self.starts[stream, rows], counts) + column]
        return out


class _UnitEncoder:
    """Tokenises *units* (words or lines) once each and numbers their tokens.

    A unit is what the tokenizer is called on: each whitespace-separated word for
    word-local tokenizers, each whole line otherwise. Distinct units are tokenised once (a
    corpus of 100,000 lines has a few tens of thousands of distinct words), and each token
    gets an int id from one vocabulary shared by hypotheses and references.
    """

    def __init__(self, tokenizer: Tokenizer, lowercase: bool) -> None:
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        self.unit_index: dict[str, int] = {}
        self.vocabulary: dict[str, int] = {}
        self.unit_token_ids: list[int] = []
        self.unit_token_counts: list[int] = []

    def units_of(self, lines: list[str]) -> tuple[list[str], np.ndarray]:
        """The units of some lines, and how many each line has.

        sacrebleu does ``tokenize(line.rstrip().lower().rstrip())``. For a word-local
        tokenizer that equals tokenising the words of ``line.lower()`` one by one: the
        tokenizers pad their input with spaces (13a) or ignore whitespace (none, char), and
        none of their rules looks across whitespace.
        """
        if self.tokenizer.word_local:
            if self.lowercase:
                lines = list(map(str.lower, lines))
            split = list(map(str.split, lines))
            counts = np.fromiter(map(len, split), dtype=np.int64, count=len(split))
            return list(itertools.chain.from_iterable(split)), counts
        units = list(map(str.rstrip, lines))
        if self.lowercase:
            units = [unit.lower().rstrip() for unit in units]
        return units, np.ones(len(units), dtype=np.int64)

    def index_units(self, units: list[str]) -> np.ndarray:
        """Ids of the units, tokenising the ones not seen before."""
        new = [unit for unit in dict.fromkeys(units) if unit not in self.unit_index]
        first = len(self.unit_index)
        self.unit_index.update(zip(new, range(first, first + len(new)), strict=True))
        vocabulary = self.vocabulary
        for unit in new:
            tokens = self.tokenizer.tokenize(unit).split()
            self.unit_token_counts.append(len(tokens))
            self.unit_token_ids.extend(vocabulary.setdefault(t, len(vocabulary)) for t in tokens)
        return np.fromiter(map(self.unit_index.__getitem__, units), dtype=np.int64,
                           count=len(units))

    def token_ids(self, unit_ids: np.ndarray, units_per_line: np.ndarray) -> tuple[
            np.ndarray, np.ndarray]:
        """The flat token ids of a stream of units, and the number of tokens per line."""
        counts = np.asarray(self.unit_token_counts, dtype=np.int64)
        unit_ids_flat = np.asarray(self.unit_token_ids, dtype=np.int64)
        unit_start = np.cumsum(counts) - counts
        tokens_per_unit = counts[unit_ids]
        before_unit = np.concatenate([[0], np.cumsum(tokens_per_unit)])
        line_end = np.cumsum(units_per_line)
        line_lengths = before_unit[line_end] - before_unit[line_end - units_per_line]
        position = np.arange(int(before_unit[-1])) - np.repeat(before_unit[:-1], tokens_per_unit)
        source = np.repeat(unit_start[unit_ids], tokens_per_unit) + position
        return unit_ids_flat[source], line_lengths


def encode_texts(
    texts: Sequence[list[str]], tokenizer: Tokenizer, lowercase: bool, bar: Progress | None = None
) -> TokenIds:
    """Token ids of line-aligned texts, tokenised as sacrebleu does.

    >>> tok = load_tokenizer("13a")
    >>> ids = encode_texts([["Hello, world!"], ["hello world ."]], tok, lowercase=True)
    >>> ids.lengths.tolist(), ids.ids.tolist()
    ([[4], [3]], [0, 1, 2, 3, 0, 2, 4])
    """
    bar = bar or _NoProgress()
    with _garbage_collector_paused():
        return _encode(texts, _UnitEncoder(tokenizer, lowercase), bar)


@contextlib.contextmanager
def _garbage_collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (restored on exit).

    Splitting lines allocates millions of small lists, which keeps triggering full
    collections of an ever larger heap: pausing it makes encoding about 3x faster. Nothing
    here creates reference cycles.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _encode(texts: Sequence[list[str]], encoder: _UnitEncoder, bar: Progress) -> TokenIds:
    streams = []
    for lines in texts:
        unit_ids, units_per_line = [], []
        for begin in range(0, len(lines), ENCODE_CHUNK_LINES):
            chunk = lines[begin : begin + ENCODE_CHUNK_LINES]
            units, counts = encoder.units_of(chunk)
            unit_ids.append(encoder.index_units(units))
            units_per_line.append(counts)
            bar.update(len(chunk))
        streams.append((np.concatenate(unit_ids), np.concatenate(units_per_line)))
    encoded = [encoder.token_ids(ids, per_line) for ids, per_line in streams]
    lengths = np.stack([line_lengths for _, line_lengths in encoded])
    sizes = lengths.sum(axis=1)
    starts = (np.cumsum(lengths, axis=1) - lengths) + (np.cumsum(sizes) - sizes)[:, None]
    ids = np.concatenate([flat for flat, _ in encoded]).astype(np.int64, copy=False)
    return TokenIds(ids, starts, lengths, list(encoder.vocabulary))


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


# -------------------------------------------------------------------------- bootstrap


def resample_indices(
    num_sentences: int, n_resamples: int, seed: int | None, chunk: int | None = None
) -> Iterator[np.ndarray]:
    """Bootstrap resamples as rows of sentence indices, ``chunk`` rows at a time.

    Joined, the chunks are ``numpy.random.default_rng(seed).choice(num_sentences,
    size=(n_resamples, num_sentences))``: sacrebleu's resamples for the same seed (NumPy
    draws the rows one after the other, so drawing them in pieces changes nothing).

    >>> rows = np.concatenate(list(resample_indices(5, 3, seed=1, chunk=2)))
    >>> bool((rows == np.random.default_rng(1).choice(5, size=(3, 5))).all())
    True
    """
    if chunk is None:
        chunk = max(1, BOOTSTRAP_CHUNK // max(num_sentences, 1))
    rng = np.random.default_rng(seed)
    for begin in range(0, n_resamples, chunk):
        rows = min(chunk, n_resamples - begin)
        yield rng.choice(num_sentences, size=(rows, num_sentences), replace=True)


def multiplicities(indices: np.ndarray, num_sentences: int) -> np.ndarray:
    """``(R, B)``: how many times each sentence occurs in each resample ``(R, B)``."""
    rows = indices.shape[0]
    flat = (indices + (np.arange(rows) * num_sentences)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * num_sentences).reshape(rows, num_sentences)


def bootstrap_scores(
    stats: np.ndarray,
    score_of: Callable[[np.ndarray], np.ndarray],
    n_resamples: int,
    seed: int | None,
    bar: Progress | None = None,
) -> np.ndarray:
    """Scores of ``n_resamples`` bootstrap resamples of the sentences, vectorised.

    The statistics of a resample are the per-sentence statistics ``stats`` ``(B, F)``
    weighted by how often each sentence was drawn: a ``(R, B)`` multiplicity matrix times
    ``stats``, one matrix product per chunk of resamples (exact: every value is an integer
    far below 2**53). ``score_of`` maps ``(R, F)`` summed statistics to ``(R,)`` scores.
    """
    return bootstrap_scores_of_metrics([stats], [score_of], n_resamples, seed, bar)[0]


def bootstrap_scores_of_metrics(
    tables: Sequence[np.ndarray],
    score_functions: Sequence[Callable[[np.ndarray], np.ndarray]],
    n_resamples: int,
    seed: int | None,
    bar: Progress | None = None,
) -> list[np.ndarray]:
    """:func:`bootstrap_scores` of several metrics on the same resamples (drawn once)."""
    bar = bar or _NoProgress()
    num_sentences = tables[0].shape[0]
    weights = np.concatenate([np.asarray(t, dtype=np.float64) for t in tables], axis=1)
    bounds = np.cumsum([0] + [t.shape[1] for t in tables]).tolist()
    scores: list[list[np.ndarray]] = [[] for _ in tables]
    for indices in resample_indices(num_sentences, n_resamples, seed):
        counts = multiplicities(indices, num_sentences).astype(np.float64)
        summed = np.rint(counts @ weights).astype(np.int64)
        for k, score_of in enumerate(score_functions):
            part = summed[:, bounds[k] : bounds[k + 1]]
            scores[k].append(np.asarray(score_of(part), dtype=np.float64))
        bar.update(indices.shape[0])
    return [np.concatenate(parts) for parts in scores]


@dataclass(frozen=True)
class Confidence:
    """sacrebleu's bootstrap summary: mean ± half the width of the 95% interval."""

    mean: float
    half_width: float
    low: float
    high: float
    n_resamples: int

    @classmethod
    def of(cls, scores: np.ndarray) -> Confidence:
        """The 2.5% and 97.5% order statistics, as sacrebleu's ``estimate_ci``."""
        ordered = np.sort(scores)
        n = len(ordered)
        lower = n // 40
        low, high = float(ordered[lower]), float(ordered[n - lower - 1])
        return cls(statistics.mean(ordered.tolist()), 0.5 * (high - low), low, high, n)


# ----------------------------------------------------------------------------- scores


@dataclass(frozen=True)
class ScoreOptions:
    """Validated settings of ``bleusuite score``."""

    refs: tuple[str, ...]
    hyp: str | None
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
    def from_args(cls, args: argparse.Namespace) -> ScoreOptions:
        if args.hyp is not None or args.ref:
            raise CommandError("--hyp/--ref are options of the plain command; write "
                               "'bleusuite score REF [REF ...] -i HYP'")
        try:
            smoothing.check_smooth_value(args.smooth_method, args.smooth_value)
        except ValueError as error:
            raise CommandError(str(error).replace("smooth_value", "--smooth-value")) from None
        if args.sentence_level and args.confidence:
            raise CommandError("--confidence needs corpus scores: drop --sentence-level")
        if args.confidence_n < 1:
            raise CommandError(f"--confidence-n must be at least 1; got {args.confidence_n}")
        if not 0 <= args.width <= 20:
            raise CommandError(f"--width must be between 0 and 20; got {args.width}")
        output_format = args.output_format or ("text" if args.sentence_level else "json")
        return cls(
            tuple(args.refs), args.input, tuple(dict.fromkeys(args.metrics)), args.tokenize,
            args.lowercase, args.smooth_method, args.smooth_value, args.sentence_level,
            output_format, args.width, args.score_only, args.short, args.confidence,
            args.confidence_n, _parse_seed(args.seed), args.backend, args.quiet,
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
SIGNATURE_ABBREVIATIONS = {"nrefs": "#", "bs": "bs", "seed": "rs", "case": "c", "eff": "e",
                           "tok": "tok", "smooth": "s", "ngram": "n", "version": "v"}


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
    """The signature of one metric (bleusuite's version, the smoothing and its family)."""
    items: dict[str, Any] = {"nrefs": num_refs}
    if options.confidence:
        items["bs"] = options.confidence_n
        items["seed"] = "none" if options.seed is None else options.seed
    items["case"] = "lc" if options.lowercase else "mixed"
    if metric == "bleu":
        items["eff"] = "yes" if options.effective_order else "no"
        items["tok"] = tokenizer
        smooth = f"{options.family}/{options.smooth}"
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
    """The bootstrap summary of every metric, all on the same resamples."""
    metrics = list(stats)
    scores = bootstrap_scores_of_metrics(
        [_to_numpy(stats[metric]) for metric in metrics],
        [_score_function(metric, options) for metric in metrics],
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
    texts = read_texts(options.hyp, options.refs)
    num_lines = len(texts[0])
    show = not options.quiet and num_lines >= PROGRESS_MIN_LINES and sys.stderr.isatty()
    bar = progress_bar(num_lines * len(texts), "tokenizing", show)
    try:
        token_ids = encode_texts(texts, tokenizer, options.lowercase, bar)
    finally:
        bar.close()
    bar = progress_bar(num_lines, "counting n-grams", show)
    try:
        stats = sentence_statistics(token_ids, options.metrics, options.stats_order,
                                    options.backend, bar)
    finally:
        bar.close()
    summaries: dict[str, Confidence] = {}
    if options.confidence:
        bar = progress_bar(options.confidence_n, "bootstrap", show, unit="resample")
        try:
            summaries = confidences(stats, options, bar)
        finally:
            bar.close()
    reports = [
        metric_report(metric, stats[metric], options,
                      make_signature(options, metric, len(options.refs), tokenizer.signature),
                      summaries.get(metric))
        for metric in options.metrics
    ]
    return render(reports, options)


def _write(text: str) -> int:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (2 for any error, with a one-line message)."""
    try:
        return _run(argv)
    except CommandError as error:
        print(f"{_program(argv)}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{_program(argv)}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `bleusuite score ... | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _run(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
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
