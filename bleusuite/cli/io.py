"""What ``bleusuite`` reads and shows while it works: text files and standard input (as
sacrebleu reads them), the systems and references of ``score``, sacrebleu's tokenizers and
the progress bar."""

from __future__ import annotations

import codecs
import operator
import os
import select
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bleusuite.checks import counted
from bleusuite.cli.errors import CommandError
from bleusuite.cli.options import ScoreOptions
from bleusuite.scores import registry

__all__ = ["PROGRESS_MIN_LINES", "Progress", "ScoreInputs", "describe", "progress_bar",
           "read_inputs", "read_lines", "read_references", "read_systems",
           "warn_if_tokenised", "write_output"]

#: inputs with fewer lines than this never show a progress bar
PROGRESS_MIN_LINES = 5000


#: what a file that does not decode can be read with
_ENCODING_HINT = "give its encoding with -e/--encoding (e.g. -e latin-1)"


def read_lines(path: str | None, what: str, encoding: str = "utf-8") -> list[str]:
    """Lines of a text file in ``encoding`` (``None`` or ``'-'``: standard input), as
    sacrebleu reads them: each without its trailing whitespace (``str.rstrip()``, which
    also takes a ``\\r`` before the line end, ``\\u3000``, ``\\x1c``-``\\x1f``, ``\\u2029``
    and every other character that ``str.isspace`` calls whitespace).

    In a file only ``\\n`` ends a line (sacrebleu opens files with ``newline="\\n"``;
    ``str.splitlines`` would also split on form feeds and Unicode separators), and a file
    whose name ends in ``.gz`` is gzip-compressed. Standard input is read with universal
    newlines, as sacrebleu's ``io.TextIOWrapper(sys.stdin.buffer)``: ``\\r\\n`` and a lone
    ``\\r`` end a line too. A final line end does not start an empty line; a last line of
    whitespace alone is an empty line, as in sacrebleu.

    Raises:
        CommandError: the file cannot be read, is not gzip data (``.gz``) or is not valid in
            ``encoding`` (the message names the line).
    """
    from_stdin = path in (None, "-")
    try:
        if from_stdin:
            data = sys.stdin.buffer.read()
        else:
            with open(str(path), "rb") as handle:
                data = handle.read()
    except OSError as error:
        raise CommandError(f"cannot read {describe(path, what)}: {error.strerror}") from None
    if not from_stdin and str(path).endswith(".gz"):
        import gzip
        import zlib

        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise CommandError(f"{describe(path, what)} is not valid gzip data: {error}") from None
    name = "UTF-8" if encoding == "utf-8" else encoding
    try:  # as open(..., encoding=) reads a file (sacrebleu's): UTF-16/32 need their BOM
        text = codecs.getincrementaldecoder(encoding)("strict").decode(data, final=True)
    except UnicodeDecodeError as error:
        line = data[: error.start].decode(encoding, "replace").count("\n") + 1
        raise CommandError(f"{describe(path, what)} is not valid {name} (line {line}, byte "
                           f"{error.start}: {error.reason}); {_ENCODING_HINT}") from None
    except UnicodeError as error:  # UTF-16/32 without a byte order mark, among others
        raise CommandError(f"{describe(path, what)} is not valid {name}: {error}; "
                           f"{_ENCODING_HINT}") from None
    if from_stdin:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return list(map(str.rstrip, lines))


def write_output(text: str) -> None:
    """Write ``text`` and a line end to standard output, every byte of it, or raise.

    ``sys.stdout.write`` does not report a partial write when Python runs unbuffered (a full
    disk, a file size limit, a full non-blocking pipe), so the bytes go to the descriptor
    in a loop until all are out. A standard output without a descriptor takes a plain write.

    Raises:
        OSError: the output cannot take the bytes (BrokenPipeError: the reader is gone).
    """
    stream = sys.stdout
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        stream.write(text + "\n")
        stream.flush()
        return
    stream.flush()
    data = memoryview((text + "\n").encode(stream.encoding or "utf-8",
                                          stream.errors or "strict"))
    while data:
        try:
            written = os.write(descriptor, data)
        except BlockingIOError:  # a full non-blocking pipe: wait until it takes more
            select.select([], [descriptor], [])
            continue
        data = data[written:]


def describe(path: str | None, what: str) -> str:
    """``'hypothesis file out.txt'``, or ``'standard input (hypothesis)'``."""
    return f"standard input ({what})" if path in (None, "-") else f"{what} file {path}"


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
                    f"standard input: line {number} has "
                    f"{counted(len(fields), 'tab-separated system')}, line 1 has {len(first)} "
                    "(the number must not vary across lines)",
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
                source = (describe(options.hyps[0] if options.hyps else None, "hypothesis")
                          if len(systems) == 1 else f"system {name}")
                raise CommandError(f"reference file {path} has {counted(len(stream), 'line')} "
                                   f"but the {source} has {len(lines)}")
    return ScoreInputs(names, systems, references)


def warn_if_tokenised(options: ScoreOptions, systems: Sequence[list[str]]) -> None:
    """sacrebleu's warning (on stderr) for each system with 100 or more lines ending in
    ``' .'``: text that looks tokenised, which BLEU's own tokenizer would then split again."""
    if options.force or not any(registry.get(m).warns_tokenised for m in options.metrics):
        return
    ends_tokenised = operator.methodcaller("endswith", " .")
    for lines in systems:
        if sum(map(ends_tokenised, map(str.rstrip, lines))) >= TOKENISED_WARNING_LINES:
            for text in TOKENISED_WARNING:
                print(f"bleusuite score: warning: {text}", file=sys.stderr)


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
