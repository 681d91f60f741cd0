"""Timing the entries (best of ``repeat`` calls, scores checked against bleusuite's) and the
side-by-side table of ``bleusuite bench``."""

from __future__ import annotations

import importlib.metadata
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

import bleusuite
from bleusuite.bench.peers import BACKEND_NAMES
from bleusuite.bench.tasks import Entry, Inputs

__all__ = ["Measurement", "format_table", "measure"]


@dataclass
class Measurement:
    """What one entry gave: its best time and its score check, or why it was skipped.

    Attributes:
        entry: the implementation.
        seconds: best of the timed calls (``None`` if skipped).
        max_diff: largest ``|score - expected|`` (``None`` if skipped).
        skipped: why it did not run, or ``None``.
    """

    entry: Entry
    seconds: float | None = None
    max_diff: float | None = None
    skipped: str | None = None

    @property
    def agrees(self) -> bool:
        """The scores agree with bleusuite's (a skipped entry does not disagree)."""
        return self.max_diff is None or self.max_diff <= self.entry.atol


class _Progress:
    """A progress bar on stderr: tqdm's if it is installed, else one plain text line
    rewritten in place."""

    def __init__(self, total: int, enabled: bool, stream: TextIO | None = None) -> None:
        self.total = total
        self.done = 0
        self.enabled = enabled
        self.stream = sys.stderr if stream is None else stream
        self.bar: Any = None
        self._width = 0
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self.bar = tqdm(total=total, file=self.stream, leave=False, unit="call",
                            dynamic_ncols=True)

    def step(self, label: str) -> None:
        """Say that one call of ``label`` has finished."""
        self.done += 1
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.set_description_str(label, refresh=False)
            self.bar.update(1)
            return
        line = f"bleusuite bench [{self.done}/{self.total}] {label}"
        self._width = max(self._width, len(line))
        self.stream.write("\r" + line.ljust(self._width))
        self.stream.flush()

    def close(self) -> None:
        """Remove the bar."""
        if self.bar is not None:
            self.bar.close()
        elif self.enabled and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()


def measure(
    chosen: Sequence[Entry], inputs: Inputs, repeat: int = 3, progress: bool = True,
    stream: TextIO | None = None,
) -> list[Measurement]:
    """Run every available entry ``repeat`` times (after its ``warmup`` calls), keep the
    best time, and compare its scores with bleusuite's. ``progress`` shows a bar on
    ``stream`` (stderr by default)."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1; got {repeat}")
    skipped = {id(entry): entry.unavailable() for entry in chosen}
    runnable = [entry for entry in chosen if skipped[id(entry)] is None]
    bar = _Progress(sum(entry.warmup + repeat for entry in runnable), progress, stream)
    results = []
    try:
        for entry in chosen:
            reason = skipped[id(entry)]
            if reason is not None:
                results.append(Measurement(entry, skipped=reason))
                continue
            call = entry.build(inputs)
            label = f"{entry.task.label}: {entry.name}"
            for _ in range(entry.warmup):
                call()
                bar.step(label)
            best = float("inf")
            result = None
            for _ in range(repeat):
                start = time.perf_counter()
                result = call()
                best = min(best, time.perf_counter() - start)
                bar.step(label)
            got, want = entry.scores(result), entry.expected(inputs)
            if got.shape != want.shape:
                diff = float("inf")
            else:
                diff = float(np.max(np.abs(got - want), initial=0.0))
            results.append(Measurement(entry, seconds=best, max_diff=diff))
    finally:
        bar.close()
    return results


#: what installs the peers, said where one is missing or the NLTK column is empty
PEERS_HINT = ('The peers: pip install ".[bench]" in a clone of bleusuite (NLTK, sacrebleu, '
              "pytorch-ignite, torchmetrics; torch's CPU build first on a machine without a "
              "GPU: README.md)")

#: distribution name of each library (for versions and the skipped list)
_LIBRARY_NAMES = {"nltk": "nltk", "sacrebleu": "sacrebleu", "ignite": "pytorch-ignite",
                  "torchmetrics": "torchmetrics", "bleusuite": "numpy"}


def _versions(measurements: Sequence[Measurement]) -> str:
    found = []
    for library in dict.fromkeys(m.entry.library for m in measurements if m.skipped is None):
        name = _LIBRARY_NAMES.get(library)
        if name is None:
            continue
        try:
            found.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            continue
    return ", ".join(found)


def format_table(measurements: Sequence[Measurement], inputs: Inputs, repeat: int) -> str:
    """The side-by-side table: per task, each implementation's best time in ms, its
    speedup over NLTK, and its score check; then the skipped ones, with their reasons."""
    batch, length, refs = inputs.shape
    lines = [
        f"bleusuite bench: {batch} sentences x {length} token ids, {refs} "
        f"reference{'s' if refs > 1 else ''} each; best of {repeat} "
        f"run{'s' if repeat > 1 else ''}",
        f"bleusuite {bleusuite.__version__}; {_versions(measurements)}",
    ]
    notes: dict[str, int] = {}
    without_nltk = False
    for task in dict.fromkeys(m.entry.task for m in measurements):
        ran = [m for m in measurements if m.entry.task == task and m.seconds is not None]
        if not ran:
            continue
        baseline = next((m.seconds for m in ran if m.entry.baseline), None)
        without_nltk = without_nltk or baseline is None
        lines += ["", f"{task.label:44s} {'ms':>10s} {'vs NLTK':>9s}   scores"]
        for m in sorted(ran, key=lambda m: m.seconds or 0.0):
            assert m.seconds is not None and m.max_diff is not None
            speedup = f"{baseline / m.seconds:8.1f}x" if baseline else f"{'n/a':>9s}"
            if m.entry.library == "bleusuite" and m.entry.name == BACKEND_NAMES["numpy"]:
                check = "(the reference)"
            else:
                verdict = "agree" if m.agrees else "DISAGREE"
                check = f"{verdict}, max |diff| {m.max_diff:.1e}"
                if m.entry.library != "bleusuite":
                    text = f"{m.entry.name}: {m.entry.note}"
                    check += f" [{notes.setdefault(text, len(notes) + 1)}]"
            lines.append(f"  {m.entry.name:42s} {m.seconds * 1e3:10.2f} {speedup}   {check}")
    if notes:
        lines += ["", "Scores are compared with bleusuite (numpy) under the same definition:"]
        lines += [f"  [{number}] {text}" for text, number in notes.items()]
    skipped = [m for m in measurements if m.skipped is not None]
    if skipped:
        lines += ["", "Skipped:"]
        reasons = dict.fromkeys(
            f"{_LIBRARY_NAMES.get(m.entry.library, m.entry.library)}: {m.skipped}"
            for m in skipped
        )
        lines += [f"  {reason}" for reason in reasons]
    not_installed = any(m.entry.library != "bleusuite" and "is not installed" in m.skipped
                        for m in skipped if m.skipped is not None)
    if not_installed or without_nltk:
        lines += ["", ("vs NLTK n/a: NLTK did not run. " if without_nltk else "") + PEERS_HINT]
    return "\n".join(lines)
