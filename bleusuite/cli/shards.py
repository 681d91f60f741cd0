"""Tokenise and count a large run in several processes: each takes a slice of the lines.

Tokenising runs in one thread (Python, with the words numbered in C where bleusuite's
compiled part is built: :mod:`bleusuite.native`), and counting a slice needs no
other slice: the per-sentence statistics of a line do not depend on how the tokens are
numbered. So a run of :data:`SHARD_MIN_CHARS` characters or more is cut into contiguous
slices of lines, one per CPU (:func:`bleusuite.threads.worker_threads`:
``BLEUSUITE_NUM_THREADS``, else every CPU the process may use). The command first imports
the modules that count (NumPy among them: about 0.1 s, paid once, where each process
importing it for itself paid it on every CPU at once, and slower: 12 systems x 3,000 lines
took 0.55 s instead of 0.66 s, median of 11 pairs), then forks one child per slice but the
first; each child tokenises, numbers and counts its slice with its own vocabulary and
sends back its statistics through a pipe (as int32 where they fit, through a pipe whose
buffer holds them: the child ends without waiting for the command to read). Meanwhile the
command does what needs no statistics (importing the modules that score, the
tokenised-input check, drawing the bootstrap resamples: ``meanwhile``), counts the first
slice, smaller by the time that took, and joins the slices in line order. The numbers are
those of one process (tested).

It forks only where that is safe and cheap: on Linux, from a process that has one thread
and had not imported NumPy before the command (a command run, not a call from a program
that already uses NumPy and maybe threads of its own), with the NumPy backend. Each
process counts with ``CPUs // processes`` threads.
A child that fails for any reason (killed, out of memory, an error) is not trusted: its
slice is counted again by the command, which then reports any error itself.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import importlib
import itertools
import os
import pickle
import signal
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bleusuite import threads
from bleusuite.cli.options import ScoreOptions, environment_variable
from bleusuite.tokenizers import Tokenizer

if TYPE_CHECKING:
    import numpy as np

__all__ = ["SHARD_MIN_CHARS", "can_fork", "line_slices", "seconds_per_char",
           "systems_statistics"]

#: characters of text (all streams) per process: below 2 x this, one process does it all
#: (a child inherits the imports; forking it and its page faults cost a few hundredths of
#: a second, which a slice of this size repays: tokenising and counting 1M characters
#: takes about 0.1 s)
SHARD_MIN_CHARS = 1 << 20
#: the pipe's buffer for a child's result (Linux's largest by default): the child writes
#: its result and ends without waiting for the command to read it
PIPE_BYTES = 1 << 20
#: seconds to tokenise and count one character (all streams) while the other processes do
#: the same, words numbered in plain Python: 4.0M characters in 0.45 s (12 systems x 3,000
#: lines, one reference, 2-core AMD EPYC; 0.34 s in one process alone); what the command
#: does besides its slice is weighed against it (:func:`seconds_per_char`)
SECONDS_PER_CHAR = 110e-9
#: the same, with bleusuite's compiled part (:mod:`bleusuite.native`): a child took 0.063 s
#: for 2.65M characters, the command 0.037 s for 1.37M (traced); with this rate the
#: command's slice is about 0.2 of the lines, and both end together
SECONDS_PER_CHAR_COMPILED = 35e-9

Statistics = list[dict[str, "np.ndarray"]]


def can_fork() -> bool:
    """Whether this process may count slices in forked children (Linux, one thread, NumPy
    not imported yet: it is then a command run, whose own imports come next)."""
    import threading

    return (sys.platform.startswith("linux") and hasattr(os, "fork")
            and "numpy" not in sys.modules and threading.active_count() == 1)


def line_slices(texts: Sequence[list[str]], processes: int,
                head_start: float = 0.0) -> list[tuple[int, int]]:
    """Contiguous ``(begin, end)`` line ranges, one per process, of about equal work
    (characters, counted on the first stream); none empty.

    ``head_start``: work that the first process does besides its slice, as a share of the
    whole: its slice is that much smaller than the others', so that all end together.

    >>> line_slices([["aaaa", "b", "c", "dddd", "e"]], 2)
    [(0, 3), (3, 5)]
    >>> line_slices([["a", "b"]], 3)
    [(0, 1), (1, 2)]
    >>> line_slices([["x"] * 100], 2, head_start=0.2)  # 0.4 + 0.2 = 0.6
    [(0, 40), (40, 100)]
    """
    lines = len(texts[0])
    processes = max(1, min(processes, lines))
    ends = list(itertools.accumulate(len(line) + 1 for line in texts[0]))
    # each of the others: (1 + head_start) / processes; the first: that less head_start
    first = max(0.0, (1 - (processes - 1) * head_start) / processes)
    other = (1 - first) / max(processes - 1, 1)
    bounds = [0]
    for k in range(1, processes):
        cut = bisect.bisect_left(ends, ends[-1] * (first + (k - 1) * other)) + 1
        bounds.append(min(max(cut, bounds[-1] + 1), lines - (processes - k)))
    bounds.append(lines)
    return list(itertools.pairwise(bounds))


def seconds_per_char(tokenizer: Tokenizer) -> float:
    """Seconds to tokenise and count one character of a run, in one of several processes:
    :data:`SECONDS_PER_CHAR_COMPILED` where the compiled part numbers the words
    (:func:`bleusuite.native.compiled`, a word-local tokenizer), else
    :data:`SECONDS_PER_CHAR`."""
    from bleusuite import native

    fast = tokenizer.word_local and native.compiled()
    return SECONDS_PER_CHAR_COMPILED if fast else SECONDS_PER_CHAR


def _processes(chars: int, options: ScoreOptions) -> int:
    """Processes for a run of ``chars`` characters (all streams)."""
    if options.backend != "numpy" or not can_fork():
        return 1
    return max(1, min(threads.worker_threads(), chars // SHARD_MIN_CHARS))


def systems_statistics(texts: Sequence[list[str]], num_systems: int, tokenizer: Tokenizer,
                       options: ScoreOptions, show: bool = False,
                       processes: int | None = None,
                       meanwhile: Callable[[], object] | None = None,
                       meanwhile_seconds: float = 0.0) -> Statistics:
    """:func:`bleusuite.cli.statistics.text_statistics` of the whole run, in several
    processes where it is large enough and forking is safe (``processes``: that many,
    forced; for tests).

    ``show``: progress bars, for the command's own slice. ``meanwhile``: work of the
    command that needs no statistics (importing the modules that score, drawing the
    bootstrap resamples), done while the children count (the children do not need it);
    it takes about ``meanwhile_seconds``, and the command's own slice is that much smaller
    (:data:`SECONDS_PER_CHAR`). Without children, it is done before counting.
    """
    chars = sum(sum(map(len, stream)) for stream in texts)
    processes = processes or _processes(chars, options)
    if min(processes, len(texts[0])) <= 1:
        if meanwhile is not None:
            meanwhile()
        return _count(texts, num_systems, tokenizer, options, show)
    # imported once, before forking: the children inherit the modules
    importlib.import_module("bleusuite.cli.statistics")
    slices = line_slices(texts, processes, head_start=meanwhile_seconds / max(
        chars * seconds_per_char(tokenizer), 1e-9))

    def count(begin: int, end: int, show: bool = False) -> Statistics:
        return _count([stream[begin:end] for stream in texts], num_systems, tokenizer,
                      options, show)

    def narrowed(begin: int, end: int) -> Statistics:  # a child's work
        return _narrow(count(begin, end))

    each = max(1, threads.worker_threads() // len(slices))
    # the processes together use the CPUs once
    with environment_variable("BLEUSUITE_NUM_THREADS", str(each)):
        sys.stdout.flush()
        sys.stderr.flush()
        children: list[_Child] = []
        try:
            for begin, end in slices[1:]:
                children.append(_Child(functools.partial(narrowed, begin, end)))
            if meanwhile is not None:
                meanwhile()
            parts = [count(*slices[0], show=show)]
            for child, (begin, end) in zip(children, slices[1:], strict=True):
                part = child.result()
                parts.append(count(begin, end) if part is None else part)
        finally:
            for child in children:
                child.stop()
    return _join(parts)


def _count(texts: Sequence[list[str]], num_systems: int, tokenizer: Tokenizer,
           options: ScoreOptions, show: bool) -> Statistics:
    from bleusuite.cli.statistics import text_statistics

    return text_statistics(texts, num_systems, tokenizer, options, show)


def _narrow(part: Statistics) -> Statistics:
    """A child's statistics as int32 where they fit: half the bytes through the pipe
    (:func:`_join` makes them int64 again)."""
    import numpy as np

    limit = np.iinfo(np.int32)
    return [{metric: array.astype(np.int32) if array.size == 0 or (
                limit.min <= array.min() and array.max() <= limit.max) else array
             for metric, array in system.items()} for system in part]


def _join(parts: list[Statistics]) -> Statistics:
    import numpy as np

    return [{metric: np.concatenate([part[k][metric] for part in parts], dtype=np.int64)
             for metric in parts[0][k]} for k in range(len(parts[0]))]


class _Child:
    """A forked process that runs ``work`` and sends back its pickled result."""

    def __init__(self, work: Callable[[], Any]) -> None:
        import fcntl  # forking is for Linux only

        read_end, write_end = os.pipe()
        with contextlib.suppress(OSError, AttributeError):  # a result written in one go
            fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        pid = os.fork()
        if pid == 0:  # the child: never returns, never runs the parent's clean-up
            status = 1
            try:
                os.close(read_end)
                payload = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
                with open(write_end, "wb") as sink:
                    sink.write(payload)
                status = 0
            finally:
                os._exit(status)
        os.close(write_end)
        self.pid: int | None = pid
        self.source: int | None = read_end

    def result(self) -> Any:
        """The child's result, or None where it failed.

        The pipe is read to its end (a result larger than the pipe's buffer keeps the
        child writing until it is read). A child closes the pipe only after writing its
        whole result, and a pickle cut short does not load, so a result that loads is
        whole: the command goes on at once, and the child, which is ending, is reaped in
        the background (tearing down its memory takes it a few milliseconds more).
        """
        import threading

        assert self.source is not None and self.pid is not None
        with open(self.source, "rb") as source:
            self.source = None
            data = source.read()
        pid, self.pid = self.pid, None
        threading.Thread(target=_reap, args=(pid,), name="bleusuite-reaper",
                         daemon=True).start()
        if not data:
            return None
        try:
            return pickle.loads(data)
        except Exception:  # a truncated payload: count the slice again
            return None

    def stop(self) -> None:
        """Kill and reap the child if it still runs (an error or an interrupt in the
        command), and close the pipe."""
        if self.source is not None:
            os.close(self.source)
            self.source = None
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            _reap(self.pid)
            self.pid = None


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
