"""The worker threads of the CPU pipeline: how many (``BLEUSUITE_NUM_THREADS``, else every
CPU the process may use) and one reused pool per thread count.

Input normalisation and both CPU counting strategies run blocks of rows on these threads;
NumPy and the compiled kernel release the GIL while they work on a block.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from bleusuite import checks

if TYPE_CHECKING:  # imported with the first threaded batch: a short run does without it
    from concurrent.futures import ThreadPoolExecutor

__all__ = ["run_blocks", "worker_threads"]

_Item = TypeVar("_Item")
_Result = TypeVar("_Result")

_pools: dict[int, ThreadPoolExecutor] = {}
if hasattr(os, "register_at_fork"):
    # a forked child (DataLoader workers, multiprocessing) inherits the pools but not their
    # threads: it must start its own, or its first call would wait forever
    os.register_at_fork(after_in_child=_pools.clear)


def worker_threads() -> int:
    """Threads for the CPU pipeline: ``BLEUSUITE_NUM_THREADS`` if set (1 turns threading
    off), else the CPUs this process may run on (no cap below them).

    >>> worker_threads() >= 1
    True
    """
    setting = checks.environment_integer("BLEUSUITE_NUM_THREADS")
    if setting is not None:
        return setting
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        available = os.cpu_count() or 1
    return max(1, available)


def _thread_pool(threads: int) -> ThreadPoolExecutor:
    if threads not in _pools:
        from concurrent.futures import ThreadPoolExecutor

        _pools[threads] = ThreadPoolExecutor(threads, thread_name_prefix="bleusuite")
    return _pools[threads]


def run_blocks(
    work: Callable[[_Item], _Result], blocks: Iterable[_Item], threads: int
) -> list[_Result]:
    """``[work(block) for block in blocks]``, on up to ``threads`` worker threads.

    >>> run_blocks(lambda b: b * b, range(4), threads=2)
    [0, 1, 4, 9]
    """
    items = list(blocks)
    threads = min(threads, len(items))
    if threads <= 1:
        return [work(item) for item in items]
    return list(_thread_pool(threads).map(work, items))
