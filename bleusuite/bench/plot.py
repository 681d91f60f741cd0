"""Charts of the timings (matplotlib's Agg canvas: no display, no global pyplot state)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bleusuite.bench.measure import Measurement

__all__ = ["save_plot"]

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
