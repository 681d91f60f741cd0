"""bleusuite.threads: the blocks of a call on the worker threads, and work run in order on a
thread of its own."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from bleusuite import threads
from bleusuite.threads import InOrder, run_blocks


def test_run_blocks_gives_the_results_in_order_from_several_threads() -> None:
    """The caller and a helper each run a block, whatever the scheduling: a block on either
    side holds its thread until the other side has run one (the helpers hold at most one
    block each, so blocks are left for the caller); no sleep, no race."""
    seen: set[str] = set()
    caller = threading.current_thread()
    caller_ran, helper_ran = threading.Event(), threading.Event()

    def work(block: int) -> int:
        seen.add(threading.current_thread().name)
        mine, other = ((caller_ran, helper_ran) if threading.current_thread() is caller
                       else (helper_ran, caller_ran))
        mine.set()
        other.wait(timeout=60)  # set at once where run_blocks shares the blocks
        return block * block

    assert run_blocks(work, range(40), threads=3) == [b * b for b in range(40)]
    assert caller_ran.is_set() and helper_ran.is_set(), seen  # the caller works too
    assert len(seen) > 1


def test_run_blocks_raises_the_first_error_once_the_blocks_before_it_ran() -> None:
    ran: list[int] = []

    def work(block: int) -> int:
        ran.append(block)
        if block in (3, 7):
            raise ValueError(f"block {block}")
        return block

    with pytest.raises(ValueError, match="block 3"):
        run_blocks(work, range(10), threads=2)
    # every block before the first error ran; those after it may have been skipped
    assert set(range(4)) <= set(ran) <= set(range(10))


def test_nested_calls_on_the_same_threads_finish() -> None:
    def outer(block: int) -> int:
        return sum(run_blocks(lambda b: b + block, range(4), threads=2))

    done: list[list[int]] = []
    caller = threading.Thread(target=lambda: done.append(run_blocks(outer, range(6), 2)))
    caller.start()
    caller.join(timeout=30)
    assert done == [[6 + 4 * block for block in range(6)]]


def test_one_thread_or_one_block_runs_in_the_callers_thread() -> None:
    names = run_blocks(lambda _: threading.current_thread().name, range(3), threads=1)
    assert names == [threading.current_thread().name] * 3
    assert run_blocks(lambda b: b, [], threads=4) == []


def test_in_order_runs_the_items_one_after_another() -> None:
    running: list[int] = []
    overlapped: list[bool] = []

    def work(item: int) -> int:
        overlapped.append(bool(running))
        running.append(item)
        time.sleep(0.001)
        running.remove(item)
        return -item

    later = InOrder(work)
    for item in range(5):
        later.add(item)
    assert later.results() == [0, -1, -2, -3, -4]
    assert not any(overlapped)
    assert InOrder(work).results() == []


def test_in_order_raises_the_first_error_and_skips_the_rest() -> None:
    ran: list[int] = []

    def work(item: int) -> int:
        ran.append(item)
        if item == 1:
            raise KeyError(item)
        return item

    later = InOrder(work)
    for item in range(4):
        later.add(item)
    with pytest.raises(KeyError):
        later.results()
    assert ran == [0, 1]


def test_threaded_calls_do_not_import_concurrent_futures() -> None:
    """The threads are plain threading threads: the import of concurrent.futures (and
    logging) would cost a short command more than it saves."""
    code = ("import sys; from bleusuite.threads import run_blocks; "
            "assert run_blocks(abs, range(-3, 3), 2) == [3, 2, 1, 0, 1, 2]; "
            "print('concurrent.futures' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"


def test_cpus_given_set_the_threads_in_this_thread_only(monkeypatch) -> None:
    """The CPUs a scheduler gave the work (Ray's) set the threads inside the block, in this
    thread only; an explicit BLEUSUITE_NUM_THREADS wins (issue 35, item 14)."""
    monkeypatch.delenv("BLEUSUITE_NUM_THREADS", raising=False)
    everything = threads.worker_threads()
    seen: list[int] = []
    with threads.cpus_given(1):
        assert threads.worker_threads() == 1
        other = threading.Thread(target=lambda: seen.append(threads.worker_threads()))
        other.start()
        other.join()
        with threads.cpus_given(None):
            assert threads.worker_threads() == everything
        with threads.cpus_given(10_000):  # never more than the process may use
            assert threads.worker_threads() == everything
        monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "3")
        assert threads.worker_threads() == 3
        monkeypatch.delenv("BLEUSUITE_NUM_THREADS")
    assert seen == [everything] and threads.worker_threads() == everything
    with pytest.raises(ValueError, match="cpus"), threads.cpus_given(0):
        pass
