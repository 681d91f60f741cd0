"""The worker threads of the CPU pipeline: how many (:func:`worker_threads`), the blocks of
one call run on them (:func:`run_blocks`), and work run in order on one thread while the
caller goes on (:class:`InOrder`). NumPy and the compiled kernel release the GIL while they
work on a block. The threads are plain :mod:`threading` threads, started at the first
threaded call and kept; ``concurrent.futures`` is not imported (its import, with
``logging``, costs a short run more than the work it would spread).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from queue import SimpleQueue
from typing import Generic, TypeVar

import numpy as np

from bleusuite import checks, environment

__all__ = ["BLOCKS_PER_THREAD", "InOrder", "cpus_given", "run_blocks", "work_blocks",
           "worker_threads"]

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")

#: blocks per thread of :func:`work_blocks`: rows differ in work, so more blocks than threads
#: even out the work
BLOCKS_PER_THREAD = 4

#: the CPUs a scheduler gave the work running in this thread (:func:`cpus_given`)
_given: ContextVar[int | None] = ContextVar("bleusuite_cpus_given", default=None)


def worker_threads() -> int:
    """Threads for the CPU pipeline: ``BLEUSUITE_NUM_THREADS`` if set, else the CPUs given to
    the work in this thread (:func:`cpus_given`), else the CPUs this process may run on.

    >>> import os
    >>> worker_threads() >= 1
    True
    >>> with cpus_given(1):
    ...     worker_threads() if "BLEUSUITE_NUM_THREADS" not in os.environ else 1
    1
    """
    setting = environment.current().num_threads
    if setting is not None:
        return setting
    available = _available_cpus()
    given = _given.get()
    return max(1, available if given is None else min(given, available))


@functools.cache
def _available_cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@contextlib.contextmanager
def cpus_given(cpus: int | None) -> Iterator[None]:
    """Within the block, in this thread, :func:`worker_threads` follows the ``cpus`` a
    scheduler gave the work (``bleusuite.ray``: Ray's CPUs of the task), so that a node
    running one task per CPU runs one thread per CPU, not CPUs x CPUs; an explicit
    ``BLEUSUITE_NUM_THREADS`` still wins; ``None`` changes nothing.

    Raises:
        ValueError: ``cpus`` is below 1.
    """
    if cpus is not None:
        cpus = checks.integer(cpus, "cpus", minimum=1)
    token = _given.set(cpus)
    try:
        yield
    finally:
        _given.reset(token)


class _Call(Generic[_Item, _Result]):
    """One :func:`run_blocks` call: its items, taken by whichever thread asks next."""

    def __init__(self, work: Callable[[_Item], _Result], items: list[_Item]) -> None:
        self.work, self.items = work, items
        self.results: list[_Result | None] = [None] * len(items)
        self.errors: list[BaseException | None] = [None] * len(items)
        self.next = itertools.count()  # next() of a count is atomic under the GIL
        self.left = len(items)
        self.lock = threading.Lock()
        self.done = threading.Event()
        #: the last block to run: after an error, the blocks after the first that failed are
        #: skipped (its error is the one raised); -1 once the caller is interrupted
        self.last = len(items)
        self.active = 0  # the threads in run() now

    def run(self) -> None:
        with self.lock:
            self.active += 1
        try:
            while (index := next(self.next)) < len(self.items):
                if index <= self.last:
                    try:
                        self.results[index] = self.work(self.items[index])
                    except BaseException as error:  # re-raised in the caller's thread
                        self.errors[index] = error
                        with self.lock:
                            self.last = min(self.last, index)
                with self.lock:
                    self.left -= 1
        finally:
            # done once every block has ended and every thread that took some has left:
            # nothing of the call is running or held by a helper when the caller returns
            with self.lock:
                self.active -= 1
                if self.left == 0 and self.active == 0:
                    self.done.set()


_helpers: dict[int, SimpleQueue[_Call[object, object]]] = {}
if hasattr(os, "register_at_fork"):
    # a forked child (DataLoader workers, multiprocessing) inherits the queues but not the
    # threads that read them: it must start its own, or its first call would wait forever
    os.register_at_fork(after_in_child=_helpers.clear)


def _helper_queue(helpers: int) -> SimpleQueue[_Call[object, object]]:
    """The queue read by ``helpers`` daemon threads (started on first use)."""
    if helpers not in _helpers:
        calls: SimpleQueue[_Call[object, object]] = SimpleQueue()

        def serve() -> None:
            while True:
                calls.get().run()

        for number in range(helpers):
            threading.Thread(target=serve, name=f"bleusuite-{helpers}-{number}",
                             daemon=True).start()
        _helpers[helpers] = calls
    return _helpers[helpers]


def run_blocks(
    work: Callable[[_Item], _Result], blocks: Iterable[_Item], threads: int
) -> list[_Result]:
    """``[work(block) for block in blocks]``, on up to ``threads`` threads (the caller's and
    helpers). The first error, in the order of the blocks, is raised once the blocks before
    it have run; on Ctrl-C the helpers' compiled calls are stopped, and the interrupt raised
    once they have returned.

    >>> run_blocks(lambda b: b * b, range(4), threads=2)
    [0, 1, 4, 9]
    """
    items = list(blocks)
    threads = min(threads, len(items))
    if threads <= 1:
        return [work(item) for item in items]
    call = _Call(work, items)
    queue = _helper_queue(threads - 1)
    for _ in range(threads - 1):
        queue.put(call)  # type: ignore[arg-type]
    try:
        call.run()
        call.done.wait()
    except BaseException:
        call.last = -1
        _stop_and_wait(call.done)
        raise
    for error in call.errors:
        if error is not None:
            raise error
    return call.results  # type: ignore[return-value]


def _stop_and_wait(done: threading.Event) -> None:
    """After an interrupt: stop the compiled calls running now (they return at their next
    poll), and wait until ``done``, stopping them again at each further Ctrl-C."""
    from bleusuite import native

    while not done.is_set():
        if (module := native.module()) is not None:
            module.stop_calls()
        with contextlib.suppress(KeyboardInterrupt):
            done.wait()


def work_blocks(cumulative: np.ndarray, most: int, min_per_thread: int) -> tuple[list[int], int]:
    """Row bounds of blocks of about equal work for :func:`run_blocks` (``cumulative``: the
    running total of each row's work), and the threads to run them on: at most ``most``,
    and one per ``min_per_thread`` of work (below that, a hand-over costs what it saves);
    :data:`BLOCKS_PER_THREAD` blocks per thread.

    >>> work_blocks(np.cumsum([5, 5, 5, 5]), most=2, min_per_thread=10)
    ([0, 1, 2, 3, 4], 2)
    >>> work_blocks(np.cumsum([5, 5]), most=2, min_per_thread=10)
    ([0, 2], 1)
    """
    rows = len(cumulative)
    total = int(cumulative[-1]) if rows else 0
    workers = min(most, total // min_per_thread, rows)
    if workers <= 1:
        return [0, rows], 1
    blocks = min(rows, workers * BLOCKS_PER_THREAD)
    cuts = np.searchsorted(cumulative, np.arange(1, blocks) * (total / blocks), side="left")
    return [0, *sorted({int(cut) + 1 for cut in cuts} - {0, rows}), rows], workers


class InOrder(Generic[_Item, _Result]):
    """``work`` of each item given to :meth:`add`, in order on a thread of its own while the
    caller goes on; :meth:`results` waits for them and raises the first error.

    >>> squares = InOrder(lambda x: x * x)
    >>> for x in range(3):
    ...     squares.add(x)
    >>> squares.results()
    [0, 1, 4]
    """

    def __init__(self, work: Callable[[_Item], _Result]) -> None:
        self._work = work
        self._items: SimpleQueue[tuple[_Item] | None] = SimpleQueue()
        self._results: list[_Result] = []
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._finished = threading.Event()

    def _serve(self) -> None:
        try:
            while (item := self._items.get()) is not None:
                if self._error is None:  # after an error the rest is skipped
                    try:
                        self._results.append(self._work(item[0]))
                    except BaseException as error:
                        self._error = error
        finally:
            self._finished.set()

    def add(self, item: _Item) -> None:
        """Queue ``work(item)`` after the items added before it."""
        if self._thread is None:
            self._finished = threading.Event()
            self._thread = threading.Thread(target=self._serve, name="bleusuite-in-order",
                                            daemon=True)
            self._thread.start()
        self._items.put((item,))

    def results(self) -> list[_Result]:
        """Wait for every item, then ``[work(item) for item in items]`` (or the first error
        of ``work``, the items after it not run); called once, after the last :meth:`add`."""
        if self._thread is not None:
            self._items.put(None)
            try:
                self._finished.wait()  # not join(): an interrupted join marks it ended (3.11)
            except BaseException:  # interrupted: stop the item's compiled call, skip the rest
                self._error = self._error or KeyboardInterrupt()
                _stop_and_wait(self._finished)
                raise
            finally:
                self._thread = None
        if self._error is not None:
            raise self._error
        return self._results
