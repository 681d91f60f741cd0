"""The ``bleusuite`` command.

* ``bleusuite``: BLEU and GLEU of the sample corpus shipped in the package (WMT newstest2015
  en-ru), or ``--hyp FILE --ref FILE``: of whitespace-tokenised files (:mod:`.plain`).
* ``bleusuite score REF [REF ...] -i HYP [HYP ...]``: a drop-in for the ``sacrebleu``
  command, its flags, tokenizers, output formats, exit statuses and numbers. One route for
  every input: read (:mod:`.io`), tokenise, number and count (:mod:`.statistics`), score
  with each metric's registry entry (:mod:`.scoring`), print (:mod:`.output`).
* ``bleusuite bench``: bleusuite side by side with the other libraries (:mod:`bleusuite.bench`).

:func:`main` leaves the calling process as it found it (no environment variable, signal or
allocator setting): a program may call it as a function.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import NoReturn

from bleusuite.cli.errors import CommandError

__all__ = ["CommandError", "command", "main"]

#: the exit status when the reader of the output has gone (``bleusuite score ... | head``):
#: sacrebleu's, which dies of SIGPIPE (128 + 13)
BROKEN_PIPE_STATUS = 141
#: the exit status when the input needs more memory than the process can have (sacrebleu
#: has none: it dies with a traceback and 1)
MEMORY_STATUS = 1


def command() -> NoReturn:
    """The ``bleusuite`` process (the console script and ``python -m bleusuite``)."""
    raise SystemExit(main())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (sacrebleu's: 2 for a usage error, 1 for
    other errors, an input too large for the memory among them, each reported in one line
    on standard error; 141 when the reader of the output has gone).

    The output is written whole (:func:`bleusuite.cli.io.write_output`), or the command
    fails: an output that cannot take it (a full disk, a file size limit) is an error with
    a non-zero status, never a cut report with status 0.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    # the command's name for messages: bleusuite score, bleusuite bench or bleusuite
    program = f"bleusuite {arguments[0]}" if arguments[:1] in (["score"], ["bench"]) \
        else "bleusuite"
    try:
        text = _run(arguments)
        if isinstance(text, int):  # bench, which prints its own table
            return text
    except CommandError as error:
        print(f"{program}: error: {_one_line(str(error))}", file=sys.stderr)
        return error.status
    except KeyboardInterrupt:
        print(f"{program}: interrupted", file=sys.stderr)
        return 130
    except MemoryError as error:
        # the library's message names the input that needed the memory (where it knows it)
        return _out_of_memory(program, str(error))
    from bleusuite.cli.io import write_output

    try:
        write_output(text)
    except BrokenPipeError:
        return BROKEN_PIPE_STATUS
    except MemoryError:  # the encoded copy of a very large output
        return _out_of_memory(program, "writing the output")
    except (OSError, UnicodeEncodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        print(f"{program}: error: cannot write the output: {reason}", file=sys.stderr)
        return 1
    return 0


def _run(arguments: list[str]) -> str | int:
    """The command's output, or (``bench``) its exit status."""
    from bleusuite.cli.parser import build_parser, load_bench_module

    args = build_parser(with_bench=arguments[:1] != ["score"]).parse_args(arguments)
    if args.command == "bench":
        return int(load_bench_module().run(args))
    try:
        if args.command == "score" and (args.list or args.citation):
            from bleusuite.cli.testsets import run_test_sets

            return run_test_sets(args)
        if args.command == "score":
            from bleusuite.cli.options import ScoreOptions
            from bleusuite.cli.score import run_score

            return run_score(ScoreOptions.from_args(args))
        from bleusuite.cli.plain import run_plain

        return run_plain(args)
    except (ValueError, TypeError, ImportError, FileNotFoundError) as error:
        # the library's checks, a tokenizer (its package, or its model file)
        raise CommandError(str(error)) from None
    except OSError as error:
        # a resource the system refuses (a model file it may not read, too many open files,
        # no thread or memory to map): its own words, in one line
        reason = error.strerror or str(error) or type(error).__name__
        raise CommandError(f"{reason}: {error.filename}" if error.filename else reason) from None


def _out_of_memory(program: str, reason: str) -> int:
    """Report that the process ran out of memory (``reason``: what needed it, or empty)."""
    reason = f": {_one_line(reason)}" if reason else ""
    print(f"{program}: error: out of memory{reason}", file=sys.stderr)
    return MEMORY_STATUS


def _one_line(message: str) -> str:
    """``message`` on one line (a library's message may hold line breaks)."""
    return " ".join(part.strip() for part in message.splitlines() if part.strip())

