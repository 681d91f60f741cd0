"""bleusuite inside a torch training loop on the CPU (issue 24, item 12): does the default
number of worker threads slow the caller's loop?

Each round is one training step of a small MLP (torch's intra-op threads run its
matrix products, and may spin for a moment afterwards) followed by
``bleusuite.sentence_bleu`` on CPU id tensors, as an RL loop scores its samples; the time of
the bleusuite call alone is recorded. For each batch size the default (threads only for a
call with enough tokens for each: :data:`bleusuite.counting.kernel.MIN_TOKENS_PER_THREAD`)
is compared with ``BLEUSUITE_NUM_THREADS=1``, the two taking turns step by step; the ratio
column says whether the default costs the loop anything (above 1: slower than one thread).

Run with ``tox -e bench`` or ``pytest benchmarks/bench_training_loop.py``. Nothing here
asserts a time.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pytest
from workloads import PAD_ID, mt_like_batch

import bleusuite
from conftest import add_summary_table

torch = pytest.importorskip("torch")

SIZES = [(64, 128), (256, 256), (256, 1024), (1024, 1024)]
STEPS = 20


def _loop(rows: int, length: int) -> Callable[[], float]:
    """One call: a training step, then the timed BLEU call; returns the BLEU call's time."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(),
                                torch.nn.Linear(1024, 512))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    inputs = torch.randn(256, 512)
    hyp, refs = (torch.from_numpy(a) for a in mt_like_batch(rows, length, refs=1, seed=1))

    def step() -> float:
        loss = model(inputs).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        start = time.perf_counter()
        bleusuite.sentence_bleu(hyp, refs, pad_id=PAD_ID, smooth="method1")
        return time.perf_counter() - start

    return step


_MEDIANS: dict[tuple[int, int], dict[str, float]] = {}


@pytest.mark.parametrize(("rows", "length"), SIZES, ids=[f"{b}x{n}" for b, n in SIZES])
def test_bleu_in_a_training_loop(monkeypatch, rows, length):
    """The median time of the BLEU call of a step, with the default threads and with one,
    the two taking turns so that a change of load affects both alike."""
    step = _loop(rows, length)
    times: dict[str, list[float]] = {"default threads": [], "1 thread": []}
    for _ in range(3):
        step()
    for _ in range(STEPS):
        for name in times:
            if name == "1 thread":
                monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "1")
            else:
                monkeypatch.delenv("BLEUSUITE_NUM_THREADS", raising=False)
            times[name].append(step())
    _MEDIANS[rows, length] = {name: float(np.median(t)) for name, t in times.items()}


def test_summary():
    if not _MEDIANS:
        pytest.skip("run the whole file")
    lines = ["| batch | default threads | 1 thread | default / 1 thread |", "|---|---|---|---|"]
    for (rows, length), medians in _MEDIANS.items():
        default, one = medians["default threads"], medians["1 thread"]
        lines.append(f"| {rows} x {length} | {default * 1e3:.2f} ms | {one * 1e3:.2f} ms | "
                     f"{default / one:.2f} |")
    add_summary_table("sentence_bleu in a torch training loop (median of the calls)", lines)
    print("\n".join(lines))
