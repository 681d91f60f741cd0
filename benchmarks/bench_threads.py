"""Thread scaling of the CPU counting (issue 13): per-sentence BLEU on 2048 x 1024 MT-like
ids (1 reference, :func:`workloads.mt_like_batch`) with ``BLEUSUITE_NUM_THREADS``
= 1, 2, 4, ... up to every CPU this process may use, for each counting strategy
(``compiled``: the compiled kernel of bleusuite's C part, ``compact``: the NumPy pipeline).

One group per strategy, 1 thread as the baseline: the ratio column is the speed-up. The
target of issue 13 is 2 threads >= 1.8x one thread on a 2-core machine (and 16 threads
>= 8x on 16 cores). Other processes on the same cores make the ratios smaller than they
are, so a **control** group runs work that is parallel by construction (independent
``np.sort`` calls, one chunk per thread, the GIL released) with the same thread counts:
its speed-up is what the machine could give at that moment, and the summary prints it
next to the load average.

Run with ``tox -e bench`` or ``pytest benchmarks/bench_threads.py``. Nothing here asserts a
time.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from workloads import PAD_ID, mt_like_batch

import bleusuite
from bleusuite import native
from bleusuite.threads import worker_threads
from conftest import _RESULTS, add_summary_table

BATCH, LENGTH = 2048, 1024
CPUS = worker_threads() if not os.environ.get("BLEUSUITE_NUM_THREADS") else os.cpu_count() or 1
THREADS = sorted({1, 2, *(t for t in (4, 8, 16, 32, 64) if t < CPUS), CPUS})
STRATEGIES = ("compiled", "compact")
_INPUTS: list[tuple[np.ndarray, np.ndarray]] = []
_EXPECTED: list[np.ndarray] = []


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    if not _INPUTS:
        _INPUTS.append(mt_like_batch(BATCH, LENGTH, refs=1, seed=13))
    return _INPUTS[0]


def group_of(strategy: str) -> str:
    return f"threads: sentence_bleu, MT-like, {BATCH}x{LENGTH} ({strategy})"


CONTROL = "threads: control, independent np.sort calls"
_CONTROL_DATA = np.random.default_rng(0).integers(0, 1 << 40, size=1 << 22)


def _sort_in_chunks(threads: int) -> None:
    """Sort ``_CONTROL_DATA`` in ``threads`` independent chunks on ``threads`` threads."""
    chunks = np.array_split(_CONTROL_DATA, threads)
    if threads == 1:
        np.sort(chunks[0])
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(np.sort, chunks))


@pytest.mark.parametrize("threads", THREADS)
def test_control(timed: Callable[..., Any], threads: int) -> None:
    """Work that scales with threads by construction: the machine's headroom now."""
    timed(CONTROL, f"{threads} thread{'s' if threads > 1 else ''}",
          lambda: _sort_in_chunks(threads), rounds=5, baseline=threads == 1, warmup=1)


@pytest.mark.parametrize("threads", THREADS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_threads(timed: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, strategy: str,
                 threads: int) -> None:
    if strategy == "compiled" and not native.compiled():
        pytest.skip("bleusuite's compiled part is not built or is turned off (BLEUSUITE_NATIVE)")
    monkeypatch.setenv("BLEUSUITE_COUNTING", strategy)
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", str(threads))
    hyp, ref = _inputs()
    result = timed(group_of(strategy), f"{threads} thread{'s' if threads > 1 else ''}",
                   lambda: bleusuite.sentence_bleu(hyp, ref, pad_id=PAD_ID, smooth="method1"),
                   rounds=5, baseline=threads == 1, warmup=1)
    if not _EXPECTED:
        monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "1")
        monkeypatch.setenv("BLEUSUITE_COUNTING", "compact")
        _EXPECTED.append(bleusuite.sentence_bleu(hyp, ref, pad_id=PAD_ID, smooth="method1"))
    np.testing.assert_array_equal(result, _EXPECTED[0])


@pytest.fixture(scope="module", autouse=True)
def scaling_report() -> Iterator[None]:
    yield
    lines = [f"{BATCH} x {LENGTH} MT-like ids, {os.cpu_count()} CPUs, load average "
             f"{os.getloadavg()[0]:.1f} (1 min) at the end of the run"]
    for strategy, group in [(s, group_of(s)) for s in STRATEGIES] + [("control", CONTROL)]:
        results = _RESULTS.get(group, {})
        if "1 thread" not in results:
            continue
        one = results["1 thread"]
        cells = [f"{threads}: {results[name] * 1e3:.0f} ms ({one / results[name]:.2f}x)"
                 for threads in THREADS
                 if (name := f"{threads} thread{'s' if threads > 1 else ''}") in results]
        lines.append(f"  {strategy:8s} " + ", ".join(cells))
    if len(lines) > 1:
        add_summary_table("thread scaling (bench_threads.py)", lines)
