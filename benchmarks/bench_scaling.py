"""Scaling (issue 7): time per token and peak memory as the batch grows, for bleusuite
(NumPy, and torch CPU tensors) and the TensorBLEU-style pipeline.

The grid is batch sizes x sentence lengths (default 16, 64, 256, 1024 x 64, 256, 1024,
4096 token ids, one reference, Zipf over 50k ids, per-sentence BLEU). Override it with
``BLEUSUITE_BENCH_BATCHES`` / ``BLEUSUITE_BENCH_LENGTHS`` (comma-separated).

* **Time** is pytest-benchmark's best of a few rounds, one group per implementation.
* **Peak memory** is the growth of the resident set during one call, measured in a
  subprocess per implementation: the high-water mark is reset through
  ``/proc/self/clear_refs`` before each call and read from ``VmHWM`` after it (``ru_maxrss``
  cannot be reset and is inherited across fork). glibc's adaptive mmap threshold is pinned
  (``MALLOC_MMAP_THRESHOLD_``) so that freed arrays go back to the system between calls.
  Asserted: bleusuite's memory grows at most linearly with the number of tokens (log-log
  slope <= 1.25 over the points of 64k tokens and more; the slope is printed). Its absolute
  bound, the all-distinct worst case at 1024 x 4096 within 4 GiB, is checked by
  ``bench_backends.py``.
* The **TensorBLEU-style** pipeline (:mod:`bleusuite.bench.tensorbleu`) takes about
  60 us per token on this CPU (15 - 30 s at 256 x 1024) and its dense bincounts hold batch x
  distinct n-grams entries, so it runs only where the batch has at most 2**16 tokens and
  batch x tokens is at most 2**24 (a few hundred MB).

A plot (time per token, peak memory; matplotlib, Agg) is written at the end of the module to
``$BLEUSUITE_SCALING_PLOT`` (default ``.benchmarks/scaling.png``), and a table is added to
the run's summary. The docs' copy is ``docs/_static/scaling.png``: regenerate it with
``BLEUSUITE_SCALING_PLOT=docs/_static/scaling.png pytest benchmarks/bench_scaling.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import bleusuite
from conftest import add_summary_table, zipf_batch


def _grid(variable: str, default: tuple[int, ...]) -> tuple[int, ...]:
    text = os.environ.get(variable, "")
    return tuple(int(value) for value in text.split(",")) if text.strip() else default


BATCHES = _grid("BLEUSUITE_BENCH_BATCHES", (16, 64, 256, 1024))
LENGTHS = _grid("BLEUSUITE_BENCH_LENGTHS", (64, 256, 1024, 4096))
TENSORBLEU_MAX_TOKENS = 1 << 16
TENSORBLEU_MAX_BATCH_X_TOKENS = 1 << 24
IMPLEMENTATIONS = ("bleusuite numpy", "bleusuite torch CPU", "TensorBLEU-style")
POINTS = [(batch, length) for batch in BATCHES for length in LENGTHS]
LINEAR_FROM_TOKENS = 1 << 16

# (implementation, batch, length) -> seconds (best of rounds) / bytes (peak growth)
TIMES: dict[tuple[str, int, int], float] = {}
MEMORY: dict[tuple[str, int, int], int] = {}
SLOPES: dict[str, float] = {}  # implementation -> log-log slope of memory vs tokens


def runs_here(implementation: str, batch: int, length: int) -> bool:
    """Whether ``implementation`` is measured at ``batch`` x ``length`` (TensorBLEU-style
    is capped, see the module docstring)."""
    if implementation != "TensorBLEU-style":
        return True
    tokens = batch * length
    return tokens <= TENSORBLEU_MAX_TOKENS and batch * tokens <= TENSORBLEU_MAX_BATCH_X_TOKENS


def _rounds(tokens: int) -> int:
    return 5 if tokens <= 1 << 18 else 3 if tokens <= 1 << 20 else 1


def _call(implementation: str, batch: int, length: int) -> Any:
    """The call to time, on inputs converted beforehand."""
    hyp, ref = zipf_batch(batch, length)
    if implementation == "bleusuite numpy":
        return lambda: bleusuite.sentence_bleu(hyp, ref, smooth="method1")
    torch = pytest.importorskip("torch")
    hyp_t, ref_t = torch.from_numpy(hyp), torch.from_numpy(ref)
    if implementation == "bleusuite torch CPU":
        return lambda: bleusuite.sentence_bleu(hyp_t, ref_t, smooth="method1")
    from bleusuite.bench.tensorbleu import tensorbleu_style_stats

    return lambda: bleusuite.bleu_score(tensorbleu_style_stats(hyp_t, ref_t[:, 0]),
                                        smooth="method1")


def _time_cases() -> list[Any]:
    return [
        pytest.param(implementation, batch, length,
                     id=f"{implementation.replace(' ', '_')}-{batch}x{length}")
        for implementation in IMPLEMENTATIONS
        for batch, length in POINTS
        if runs_here(implementation, batch, length)
    ]


@pytest.mark.parametrize(("implementation", "batch", "length"), _time_cases())
def test_time(benchmark: Any, implementation: str, batch: int, length: int) -> None:
    """Best time of per-sentence BLEU at one grid point (recorded for the plot)."""
    call = _call(implementation, batch, length)
    tokens = batch * length
    benchmark.group = f"scaling: {implementation}"
    benchmark.name = f"{batch}x{length}"
    heavy = implementation == "TensorBLEU-style"
    result = benchmark.pedantic(call, rounds=1 if heavy else _rounds(tokens), iterations=1,
                                warmup_rounds=0 if heavy else 1)
    assert np.asarray(result).shape == (batch,)
    if benchmark.stats is not None:  # None under --benchmark-disable
        TIMES[implementation, batch, length] = benchmark.stats.stats.min


MEMORY_SCRIPT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import bleusuite
    from bleusuite.bench.tasks import zipf_batch

    implementation, points = sys.argv[1], json.loads(sys.argv[2])
    if implementation != "bleusuite numpy":
        import torch
    if implementation == "TensorBLEU-style":
        from bleusuite.bench.tensorbleu import tensorbleu_style_stats

    # a first, untimed call: lazy imports and one-off allocations are not the call's memory
    warm_hyp, warm_ref = zipf_batch(2, 8)
    if implementation == "bleusuite numpy":
        bleusuite.sentence_bleu(warm_hyp, warm_ref)
    elif implementation == "bleusuite torch CPU":
        bleusuite.sentence_bleu(torch.from_numpy(warm_hyp), torch.from_numpy(warm_ref))
    else:
        tensorbleu_style_stats(torch.from_numpy(warm_hyp), torch.from_numpy(warm_ref[:, 0]))

    def status_kib(field):
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith(field))

    for batch, length in points:
        hyp, ref = zipf_batch(batch, length)
        if implementation != "bleusuite numpy":
            hyp, ref = torch.from_numpy(hyp), torch.from_numpy(ref)
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")  # the high-water mark restarts from the current RSS
        before = status_kib("VmHWM")
        if implementation == "TensorBLEU-style":
            bleusuite.bleu_score(tensorbleu_style_stats(hyp, ref[:, 0]), smooth="method1")
        else:
            bleusuite.sentence_bleu(hyp, ref, smooth="method1")
        print(json.dumps([batch, length, (status_kib("VmHWM") - before) * 1024]), flush=True)
    """
)


def _measure_memory(implementation: str) -> dict[tuple[int, int], int]:
    points = sorted((p for p in POINTS if runs_here(implementation, *p)),
                    key=lambda p: p[0] * p[1])
    here = Path(__file__).resolve().parent
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="131072", MALLOC_TRIM_THRESHOLD_="131072",
               PYTHONPATH=os.pathsep.join([str(here), str(here.parent),
                                           os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run(
        [sys.executable, "-c", MEMORY_SCRIPT, implementation, json.dumps(points)],
        capture_output=True, text=True, check=True, env=env, cwd=here,
    ).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("[")]
    return {(batch, length): grown for batch, length, grown in rows}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_peak_memory(implementation: str) -> None:
    """Peak resident-memory growth of one call at every grid point; bleusuite's grows
    linearly with the number of tokens."""
    if implementation != "bleusuite numpy":
        pytest.importorskip("torch")
    measured = _measure_memory(implementation)
    for (batch, length), grown in measured.items():
        MEMORY[implementation, batch, length] = grown
    large = {p: grown for p, grown in measured.items() if p[0] * p[1] >= LINEAR_FROM_TOKENS}
    if implementation == "TensorBLEU-style" or len({p[0] * p[1] for p in large}) < 3:
        return  # too few points to fit a slope (or, for TensorBLEU-style, not claimed)
    tokens = np.array([p[0] * p[1] for p in large], dtype=np.float64)
    # no growth at all reads as one page (the resolution of VmHWM): log(0) has no slope
    grown = np.maximum(np.array(list(large.values()), dtype=np.float64), 4096.0)
    slope = float(np.polyfit(np.log(tokens), np.log(grown), 1)[0])
    SLOPES[implementation] = slope
    assert slope <= 1.25, (
        f"{implementation}: peak memory grows as tokens**{slope:.2f}, more than linearly; "
        f"bytes per token: {np.round(grown / tokens).tolist()}"
    )


def _fmt_ns(implementation: str, batch: int, length: int) -> str:
    seconds = TIMES.get((implementation, batch, length))
    return f"{seconds / (batch * length) * 1e9:9.0f}" if seconds else f"{'-':>9s}"


def _fmt_mib(implementation: str, batch: int, length: int) -> str:
    grown = MEMORY.get((implementation, batch, length))
    return f"{grown / 2**20:8.1f}" if grown is not None else f"{'-':>8s}"


def summary_lines() -> list[str]:
    """The scaling table: ns per token (hypothesis tokens) and MiB of peak growth."""
    lines = [
        "per-sentence BLEU, 1 reference; time: best of rounds, ns per hypothesis token; "
        "memory: peak RSS growth during one call (MiB)",
        f"{'batch x length':>15s} {'tokens':>9s} | {'ns/token':>9s} {'ns/token':>9s} "
        f"{'ns/token':>9s} {'TB-style/':>9s} | {'MiB':>8s} {'MiB':>8s} {'MiB':>8s}",
        f"{'':>15s} {'':>9s} | {'numpy':>9s} {'torch':>9s} {'TB-style':>9s} "
        f"{'torch':>9s} | {'numpy':>8s} {'torch':>8s} {'TB-style':>8s}",
    ]
    numpy_, torch_, tensorbleu = IMPLEMENTATIONS
    for batch, length in sorted(POINTS, key=lambda p: (p[0] * p[1], p[0])):
        ours, theirs = TIMES.get((torch_, batch, length)), TIMES.get((tensorbleu, batch, length))
        ratio = f"{theirs / ours:8.0f}x" if ours and theirs else f"{'-':>9s}"
        lines.append(
            f"{f'{batch} x {length}':>15s} {batch * length:9d} | "
            f"{_fmt_ns(numpy_, batch, length)} {_fmt_ns(torch_, batch, length)} "
            f"{_fmt_ns(tensorbleu, batch, length)} {ratio} | "
            f"{_fmt_mib(numpy_, batch, length)} {_fmt_mib(torch_, batch, length)} "
            f"{_fmt_mib(tensorbleu, batch, length)}"
        )
    for implementation, slope in SLOPES.items():
        lines.append(f"{implementation}: peak memory ~ tokens**{slope:.2f} "
                     f"(log-log fit over >= {LINEAR_FROM_TOKENS} tokens)")
    return lines


def plot_path(root: Path) -> Path:
    """``$BLEUSUITE_SCALING_PLOT``, or ``.benchmarks/scaling.png`` under ``root``."""
    chosen = os.environ.get("BLEUSUITE_SCALING_PLOT")
    return Path(chosen) if chosen else root / ".benchmarks" / "scaling.png"


@pytest.fixture(scope="module", autouse=True)
def scaling_report(request: pytest.FixtureRequest) -> Iterator[None]:
    """After the module's tests: the summary table, and the plot (when matplotlib is
    installed and something was measured)."""
    yield
    if not TIMES and not MEMORY:
        return
    lines = summary_lines()
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        lines.append("(no plot: matplotlib is not installed)")
    else:
        path = _save_scaling_plot(
            TIMES, MEMORY, IMPLEMENTATIONS, LENGTHS, plot_path(request.config.rootpath),
            "per-sentence BLEU, 1 reference, Zipf ids (TensorBLEU-style: capped grid)",
        )
        lines.append(f"plot: {path}")
    add_summary_table("bleusuite scaling (bench_scaling.py)", lines)


def _save_scaling_plot(
    times: Mapping[tuple[str, int, int], float],
    memory: Mapping[tuple[str, int, int], float],
    implementations: Sequence[str],
    lengths: Sequence[int],
    path: str | Path,
    title: str = "",
) -> Path:
    """Two log-log panels against the number of tokens (``benchmarks/bench_scaling.py``):
    time per token and peak memory growth; one colour per implementation, one marker per
    sentence length. ``times`` (seconds) and ``memory`` (bytes) are keyed by
    ``(implementation, batch, length)``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    palette = ("tab:blue", "tab:orange", "tab:red", "tab:green", "tab:purple", "tab:brown")
    colours = dict(zip(implementations, palette, strict=False))
    markers = dict(zip(lengths, "os^Dvp<>", strict=False))
    figure = Figure(figsize=(10, 4.2))
    FigureCanvasAgg(figure)
    time_axes, memory_axes = figure.subplots(1, 2)
    for implementation in implementations:
        for length in lengths:
            for data, axes, scale in ((times, time_axes, 1e9), (memory, memory_axes, 2**-20)):
                points = sorted((batch * length, value) for (name, batch, size), value
                                in data.items() if name == implementation and size == length)
                if not points:
                    continue
                tokens = np.array([p[0] for p in points], dtype=np.float64)
                values = np.array([p[1] for p in points], dtype=np.float64)
                shown = values / tokens * scale if data is times else values * scale
                axes.plot(tokens, shown, color=colours[implementation],
                          marker=markers.get(length, "o"), markersize=4, linewidth=1,
                          alpha=0.9)
    if memory:  # the input's own size, for scale: hypotheses + one reference, int64
        tokens = np.array(sorted({b * n for (_, b, n) in memory}), dtype=np.float64)
        memory_axes.plot(tokens, tokens * 2 * 8 * 2**-20, color="gray", linestyle="--",
                         linewidth=0.8)
    for axes in (time_axes, memory_axes):
        axes.set_xscale("log", base=2)
        axes.set_yscale("log")
        axes.set_xlabel("tokens in the batch (batch x length, hypotheses)")
        axes.grid(True, which="major", alpha=0.3)
    time_axes.set_ylabel("ns per token (best of rounds)")
    time_axes.set_title("time per token", fontsize=10)
    memory_axes.set_ylabel("MiB (peak RSS growth during one call)")
    memory_axes.set_title("peak memory growth (dashed: the input ids themselves)", fontsize=10)
    handles = [Line2D([], [], color=colour, label=name) for name, colour in colours.items()]
    handles += [Line2D([], [], color="black", marker=markers.get(length, "o"), linestyle="",
                       markersize=4, label=f"length {length}") for length in lengths]
    figure.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8,
                  frameon=False)
    if title:
        figure.suptitle(title, fontsize=10)
    figure.tight_layout(rect=(0, 0.07, 1, 1))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=90)
    return path
