"""Charts of the timings (matplotlib's Agg canvas: no display, no global pyplot state)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from bleusuite.bench.measure import Measurement

__all__ = ["save_plot", "save_scaling_plot"]

#: the colours of the implementations of a scaling plot, in order
SCALING_COLOURS = ("tab:blue", "tab:orange", "tab:red", "tab:green", "tab:purple", "tab:brown")


def save_plot(measurements: Sequence[Measurement], path: str | Path, title: str = "") -> Path:
    """A bar chart of the best times (log scale), one panel per task, each bar labelled
    with its speedup over NLTK; written with matplotlib's Agg canvas (no display needed,
    no global pyplot state). The format follows the suffix of ``path``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    tasks = list(dict.fromkeys(m.entry.task for m in measurements if m.seconds is not None))
    rows = [sum(1 for m in measurements if m.entry.task == t and m.seconds) for t in tasks]
    figure = Figure(figsize=(8, 1.0 + 0.32 * sum(rows) + 0.6 * len(tasks)))
    FigureCanvasAgg(figure)
    axes_list = figure.subplots(len(tasks), 1, squeeze=False,
                                gridspec_kw={"height_ratios": rows or [1]})[:, 0]
    for axes, task in zip(axes_list, tasks, strict=True):
        ran = sorted((m for m in measurements if m.entry.task == task and m.seconds),
                     key=lambda m: m.seconds or 0.0, reverse=True)
        baseline = next((m.seconds for m in ran if m.entry.baseline), None)
        times = [1e3 * (m.seconds or 0.0) for m in ran]
        colours = ["tab:blue" if m.entry.library == "bleusuite" else "tab:gray" for m in ran]
        axes.barh([m.entry.name for m in ran], times, color=colours)
        axes.set_xscale("log")
        axes.set_title(task.label, fontsize=10, loc="left")
        axes.tick_params(labelsize=8)
        for position, m in enumerate(ran):
            if baseline and m.seconds:
                axes.text(1e3 * m.seconds, position, f" {baseline / m.seconds:.1f}x",
                          va="center", fontsize=8)
        axes.set_xlim(min(times) / 2, max(times) * 4)
    axes_list[-1].set_xlabel("best time (ms, log scale); label: speedup over NLTK")
    if title:
        figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    return path


def save_scaling_plot(
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

    colours = dict(zip(implementations, SCALING_COLOURS, strict=False))
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
