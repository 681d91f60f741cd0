"""torchmetrics' ``EditDistance`` and ``ExtendedEditDistance`` (issue 44): bleusuite's
classes against torchmetrics 1.9's, side by side, the results checked equal (every digit
and the dtype).

Workload: WMT-like pairs, :func:`workloads.edited_wmt_text` (the shipped WMT15
English-Russian sample's system output, about 19 words and 123 characters a line, edited at
``rate=0.15``, against its reference), 1,000 and 10,000 pairs. Each row is one ``update``
of every pair and a ``compute`` on a new metric: torchmetrics once (pure Python: seconds,
minutes at 10,000 pairs), bleusuite best of 5 on 2 threads (``BLEUSUITE_NUM_THREADS=2``).

``BLEUSUITE_BENCH_EED_PAIRS`` (default ``1000,10000``) changes the sizes. Run with ``tox -e
bench`` or ``pytest benchmarks/bench_eed.py``.
"""

from __future__ import annotations

import os
import time
import warnings
from typing import Any

import pytest
from workloads import edited_wmt_text

from conftest import add_summary_table

torch = pytest.importorskip("torch")
torchmetrics_text = pytest.importorskip("torchmetrics.text")
ours = pytest.importorskip("bleusuite.torchmetrics")

SIZES = [int(n) for n in os.environ.get("BLEUSUITE_BENCH_EED_PAIRS", "1000,10000").split(",")]
METRICS = ["EditDistance", "ExtendedEditDistance"]
_BEST: dict[tuple[str, int, str], float] = {}
_OUTPUT: dict[tuple[str, int, str], Any] = {}


@pytest.fixture(scope="module")
def pairs() -> dict[int, tuple[list[str], list[str]]]:
    (hyps,), refs = edited_wmt_text(max(SIZES), seed=7, rate=0.15)
    return {size: (hyps[:size], refs[:size]) for size in SIZES}


def _group(metric: str, size: int) -> str:
    return f"{metric}, {size:,} WMT-like pairs"


def _run(library: Any, metric: str, size: int, preds: list[str],
         target: list[str]) -> Any:
    def run() -> Any:
        start = time.perf_counter()
        instance = getattr(library, metric)()
        instance.update(preds, target)
        result = instance.compute()
        key = (metric, size, library.__name__)
        _BEST[key] = min(time.perf_counter() - start, _BEST.get(key, float("inf")))
        _OUTPUT[key] = result
        return result

    return run


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("metric", METRICS)
def test_torchmetrics(timed, pairs, metric, size):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        timed(_group(metric, size), f"torchmetrics.text.{metric}",
              _run(torchmetrics_text, metric, size, *pairs[size]), rounds=1, baseline=True,
              warmup=0)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("metric", METRICS)
def test_bleusuite(timed, pairs, metric, size, monkeypatch):
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "2")
    timed(_group(metric, size), f"bleusuite.torchmetrics.{metric}, 2 threads",
          _run(ours, metric, size, *pairs[size]), rounds=5)


def test_results_are_identical_and_the_summary():
    lines = []
    for metric in METRICS:
        for size in SIZES:
            theirs_key = (metric, size, torchmetrics_text.__name__)
            ours_key = (metric, size, ours.__name__)
            if theirs_key not in _OUTPUT or ours_key not in _OUTPUT:
                continue
            theirs, mine = _OUTPUT[theirs_key], _OUTPUT[ours_key]
            assert mine.dtype == theirs.dtype and torch.equal(mine, theirs)
            ratio = _BEST[theirs_key] / _BEST[ours_key]
            lines.append(f"{_group(metric, size)}: torchmetrics {_BEST[theirs_key]:.2f} s, "
                         f"bleusuite {_BEST[ours_key] * 1e3:.1f} ms, {ratio:.0f}x")
    if lines:
        add_summary_table("issue 44 (torchmetrics EditDistance, EED)", lines)
