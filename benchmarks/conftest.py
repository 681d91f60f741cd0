"""Shared helpers for the benchmarks: inputs, and a side-by-side ratio table.

Each benchmark records its best time under a group; at the end of the run every group is
printed with the ratio of each implementation to the group's baseline (and, where a group
names one, to a second reference), so speed claims are ratios measured in one run, never
absolute wall-clock thresholds. Other tables (scaling, memory) can be added to the same
summary with :func:`add_summary_table`.

The benchmark files are named ``bench_*.py`` so that the plain test run never collects them;
:func:`pytest_collect_file` below collects them when pytest is pointed at this folder
(``pytest benchmarks``, i.e. ``tox -e bench``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bleusuite.bench.tasks import zipf_batch

__all__ = ["add_summary_table", "zipf_batch"]  # zipf_batch: the kit's, one definition

_RESULTS: dict[str, dict[str, float]] = defaultdict(dict)
_BASELINES: dict[str, str] = {}
_REFERENCES: dict[str, str] = {}
_TABLES: dict[str, list[str]] = {}


def pytest_collect_file(file_path: Path, parent: Any) -> Any:
    """Collect ``bench_*.py`` in this folder (pytest's default pattern is ``test_*.py``)."""
    if (
        file_path.suffix == ".py"
        and file_path.name.startswith("bench_")
        and not parent.session.isinitpath(file_path)  # a file named on the command line is
    ):  # collected by pytest itself
        return pytest.Module.from_parent(parent, path=file_path)
    return None


def mt_like(rows: int, length: int, refs: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The GPU issue's MT-like batch: Zipf references over a 50k vocabulary (ids from 1),
    row lengths L/2..L with tail padding (0), the hypothesis the first reference with 30%
    of its tokens replaced; hyps (B, L), refs (B, R, L)."""
    rng = np.random.default_rng(seed)
    ref = (rng.zipf(1.2, size=(rows, refs, length)) % 50_000 + 1).astype(np.int64)
    lengths = rng.integers(length // 2, length + 1, size=(rows, refs))
    ref[np.arange(length) >= lengths[..., None]] = 0
    hyp = ref[:, 0].copy()
    replace = (rng.random(hyp.shape) < 0.3) & (hyp != 0)
    hyp[replace] = rng.integers(1, 50_000, size=int(replace.sum()))
    return hyp, ref


def add_summary_table(title: str, lines: list[str]) -> None:
    """Print ``lines`` under ``title`` in the end-of-run summary (a later call with the same
    title replaces the earlier table)."""
    _TABLES[title] = list(lines)


@pytest.fixture
def timed(benchmark: Any) -> Callable[..., Any]:
    """``timed(group, name, fn, rounds=5, baseline=False, *, warmup=1, reference=False)``:
    benchmark ``fn`` and record its best time under ``group``; returns ``fn``'s result.

    ``baseline`` marks the entry every other one in the group is compared with;
    ``reference`` marks a second one, printed as an extra ratio column. ``warmup`` untimed
    calls come first (0 for slow pure-Python peers, which gain nothing from one). Under
    ``--benchmark-disable`` ``fn`` runs once and nothing is recorded.
    """

    def run(group: str, name: str, fn: Callable[[], Any], rounds: int = 5,
            baseline: bool = False, *, warmup: int = 1, reference: bool = False) -> Any:
        benchmark.group = group
        benchmark.name = name
        result = benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=warmup)
        if benchmark.stats is None:  # --benchmark-disable: a correctness-only run
            return result
        _RESULTS[group][name] = benchmark.stats.stats.min
        if baseline:
            _BASELINES[group] = name
        if reference:
            _REFERENCES[group] = name
        return result

    return run


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _RESULTS and not _TABLES:
        return
    write = terminalreporter.write_line
    if _RESULTS:
        terminalreporter.section("bleusuite side-by-side ratios (best of rounds)")
    for group, results in _RESULTS.items():
        base = _BASELINES.get(group)
        reference = _REFERENCES.get(group)
        write(f"{group}")
        for name, seconds in sorted(results.items(), key=lambda item: item[1]):
            ratio = ""
            if base in results and name != base:
                speedup = results[base] / seconds
                ratio = (f"   {speedup:8.1f}x faster than {base}" if speedup >= 1 else
                         f"   {1 / speedup:8.2f}x the time of {base}")
            if reference in results and name not in (base, reference):
                ratio += f"   {results[reference] / seconds:8.1f}x vs {reference}"
            write(f"    {name:40s} {seconds * 1e3:10.2f} ms{ratio}")
    for title, lines in _TABLES.items():
        terminalreporter.section(title)
        for line in lines:
            write(line)
