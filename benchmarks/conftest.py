"""Shared helpers for the benchmarks: inputs, and a side-by-side ratio table.

Each benchmark records its best time under a group; at the end of the run every group is
printed with the ratio of each implementation to the group's baseline, so speed claims are
ratios measured in one run, never absolute wall-clock thresholds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

_RESULTS: dict[str, dict[str, float]] = defaultdict(dict)
_BASELINES: dict[str, str] = {}


def zipf_batch(
    batch: int, length: int, vocab: int = 50_000, refs: int = 1, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Token ids drawn from a Zipf law folded into ``vocab``: hyps (B, L), refs (B, R, L)."""
    rng = np.random.default_rng(seed)
    hyp = (rng.zipf(1.2, size=(batch, length)) % vocab).astype(np.int64)
    ref = (rng.zipf(1.2, size=(batch, refs, length)) % vocab).astype(np.int64)
    return hyp, ref


@pytest.fixture
def timed(benchmark: Any) -> Callable[..., Any]:
    """``timed(group, name, fn, rounds=5, baseline=False)``: benchmark ``fn`` and record
    its best time under ``group``; returns ``fn``'s result."""

    def run(group: str, name: str, fn: Callable[[], Any], rounds: int = 5,
            baseline: bool = False) -> Any:
        benchmark.group = group
        benchmark.name = name
        result = benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=1)
        _RESULTS[group][name] = benchmark.stats.stats.min
        if baseline:
            _BASELINES[group] = name
        return result

    return run


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _RESULTS:
        return
    write = terminalreporter.write_line
    terminalreporter.section("bleusuite side-by-side ratios (best of rounds)")
    for group, results in _RESULTS.items():
        base = _BASELINES.get(group)
        write(f"{group}")
        for name, seconds in sorted(results.items(), key=lambda item: item[1]):
            ratio = ""
            if base in results and name != base:
                ratio = f"   {results[base] / seconds:8.1f}x faster than {base}"
            write(f"    {name:40s} {seconds * 1e3:10.2f} ms{ratio}")
