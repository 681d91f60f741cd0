"""Tokenise and count a large run in several processes: each takes a slice of the lines.

Tokenising is pure Python (one CPU however many threads), and counting a slice needs no
other slice: the per-sentence statistics of a line do not depend on how the tokens are
numbered. So a run of :data:`SHARD_MIN_CHARS` characters or more is cut into contiguous
slices of lines of about equal size, one per CPU (:func:`bleusuite.threads.worker_threads`:
``BLEUSUITE_NUM_THREADS``, else every CPU the process may use). The command first imports
the modules that count and score (NumPy among them: about 0.1 s, paid once, where each
process importing it for itself paid it on every CPU at once, and slower: 12 systems x
3,000 lines took 0.55 s instead of 0.66 s, median of 11 pairs), then forks one child per
slice but the first; each child tokenises, numbers and counts its slice with its own
vocabulary and sends back its statistics through a pipe; the command counts the first
slice meanwhile and joins the slices in line order. The numbers are those of one process
(tested).

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

__all__ = ["SHARD_MIN_CHARS", "can_fork", "line_slices", "systems_statistics"]

#: characters of text (all streams) per process: below 2 x this, one process does it all.
#: Forking and importing NumPy once more cost a child about 0.15 s of CPU, which a slice
#: of this size repays (tokenising and counting 1M characters takes about 0.12 s)
SHARD_MIN_CHARS = 1 << 20

Statistics = list[dict[str, "np.ndarray"]]


def can_fork() -> bool:
    """Whether this process may count slices in forked children (Linux, one thread, NumPy
    not imported yet: it is then a command run, whose own imports come next)."""
    import threading

    return (sys.platform.startswith("linux") and hasattr(os, "fork")
            and "numpy" not in sys.modules and threading.active_count() == 1)


def line_slices(texts: Sequence[list[str]], processes: int) -> list[tuple[int, int]]:
    """Contiguous ``(begin, end)`` line ranges, one per process, of about equal numbers of
    characters (counted on the first stream); none empty.

    >>> line_slices([["aaaa", "b", "c", "dddd", "e"]], 2)
    [(0, 3), (3, 5)]
    >>> line_slices([["a", "b"]], 3)
    [(0, 1), (1, 2)]
    """
    lines = len(texts[0])
    processes = max(1, min(processes, lines))
    ends = list(itertools.accumulate(len(line) + 1 for line in texts[0]))
    bounds = [0]
    for k in range(1, processes):
        cut = bisect.bisect_left(ends, ends[-1] * k / processes) + 1
        bounds.append(min(max(cut, bounds[-1] + 1), lines - (processes - k)))
    bounds.append(lines)
    return list(itertools.pairwise(bounds))


def _processes(texts: Sequence[list[str]], options: ScoreOptions) -> int:
    if options.backend != "numpy" or not can_fork():
        return 1
    chars = sum(sum(map(len, stream)) for stream in texts)
    return max(1, min(threads.worker_threads(), chars // SHARD_MIN_CHARS))


def systems_statistics(texts: Sequence[list[str]], num_systems: int, tokenizer: Tokenizer,
                       options: ScoreOptions, show: bool = False,
                       processes: int | None = None,
                       prepare: Callable[[], object] | None = None) -> Statistics:
    """:func:`bleusuite.cli.statistics.text_statistics` of the whole run, in several
    processes where it is large enough and forking is safe (``processes``: that many,
    forced; for tests).

    ``show``: progress bars, for the command's own slice. ``prepare``: work that the
    command needs next (importing the modules that score); where it forks, it is done
    before, so that the children inherit it.
    """
    slices = line_slices(texts, processes or _processes(texts, options))
    if len(slices) == 1:
        return _count(texts, num_systems, tokenizer, options, show)
    # imported once, before forking: the children inherit the modules
    importlib.import_module("bleusuite.cli.statistics")
    if prepare is not None:
        prepare()

    def count(begin: int, end: int, show: bool = False) -> Statistics:
        return _count([stream[begin:end] for stream in texts], num_systems, tokenizer,
                      options, show)

    each = max(1, threads.worker_threads() // len(slices))
    # the processes together use the CPUs once
    with environment_variable("BLEUSUITE_NUM_THREADS", str(each)):
        sys.stdout.flush()
        sys.stderr.flush()
        children: list[_Child] = []
        try:
            for begin, end in slices[1:]:
                children.append(_Child(functools.partial(count, begin, end)))
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


def _join(parts: list[Statistics]) -> Statistics:
    import numpy as np

    return [{metric: np.concatenate([part[k][metric] for part in parts])
             for metric in parts[0][k]} for k in range(len(parts[0]))]


class _Child:
    """A forked process that runs ``work`` and sends back its pickled result."""

    def __init__(self, work: Callable[[], Any]) -> None:
        read_end, write_end = os.pipe()
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
        """The child's result, or None where it failed (read before waiting: a result
        larger than the pipe's buffer keeps the child writing until it is read)."""
        assert self.source is not None and self.pid is not None
        with open(self.source, "rb") as source:
            self.source = None
            data = source.read()
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        if status != 0 or not data:
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
            os.waitpid(self.pid, 0)
            self.pid = None
