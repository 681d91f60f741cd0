"""torchmetrics' edit-distance metrics on bleusuite's alignment: ``WordErrorRate``,
``CharErrorRate``, ``MatchErrorRate``, ``WordInfoLost`` and ``WordInfoPreserved``, with
torchmetrics 1.9's numbers (re-exported by :mod:`bleusuite.torchmetrics`).

torchmetrics splits words with ``str.split()`` and takes every character of a line for
CER (no stripping: jiwer strips the ends), and computes in float32: so do these. Each
metric keeps int64 sums (edit distance, reference and prediction words, the longer side's
words) as its state (``dist_reduce_fx="sum"``), exact across batches and processes; the
result is torchmetrics' float32 arithmetic on them (its float32 sums are the same numbers
while they stay below 2**24).

>>> from bleusuite.torchmetrics import WordErrorRate
>>> wer = WordErrorRate()
>>> wer(["this is the prediction", "there is an other sample"],
...     ["this is the reference", "there is another one"])
tensor(0.5000)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import torch
from torchmetrics import Metric

from bleusuite.scores.wer.counts import statistics_of_chars, statistics_of_lines

__all__ = ["CharErrorRate", "MatchErrorRate", "WordErrorRate", "WordInfoLost",
           "WordInfoPreserved"]


class _EditMetric(Metric):
    """The sums of the edit distances and lengths of (prediction, target) pairs."""

    is_differentiable = False
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0
    characters = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("errors", "target_total", "preds_total", "longer_total"):
            self.add_state(name, torch.tensor(0, dtype=torch.int64), dist_reduce_fx="sum")

    def update(self, preds: str | list[str], target: str | list[str]) -> None:
        """Add the pairs of ``preds`` and ``target`` (a string or a list of them each; the
        shorter list's length is taken, as torchmetrics' ``zip``)."""
        preds = [preds] if isinstance(preds, str) else list(preds)
        target = [target] if isinstance(target, str) else list(target)
        for name, lines in (("preds", preds), ("target", target)):
            if set(map(type, lines)) <= {str}:  # at C speed; the loop names the bad item
                continue
            for line in lines:
                if not isinstance(line, str):
                    raise TypeError(f"{name} must be a string or a list of strings; got an "
                                    f"item of type {type(line).__name__}")
        rows = min(len(preds), len(target))
        preds, target = preds[:rows], target[:rows]
        if self.characters:
            stats = statistics_of_chars(preds, target)[0]
        else:
            stats = statistics_of_lines(preds, target, plain=True)[0]
        # summed on the host, in NumPy: a call of torch's would cost more than the sums
        hits, subs, dels, ins = (int(x) for x in stats.to_array().sum(axis=0))
        longer = int(np.maximum(stats.ref_words, stats.hyp_words).sum())
        for name, value in (("errors", subs + dels + ins), ("target_total", hits + subs + dels),
                            ("preds_total", hits + subs + ins), ("longer_total", longer)):
            state: torch.Tensor = getattr(self, name)
            setattr(self, name, state + value)

    def _floats(self) -> tuple[torch.Tensor, ...]:
        return tuple(getattr(self, name).to(torch.float32) for name in (
            "errors", "target_total", "preds_total", "longer_total"))


class _ErrorRate(_EditMetric):
    """The edit distance over one of the sums of lengths (``total``)."""

    higher_is_better = False
    total: ClassVar[str]

    def compute(self) -> torch.Tensor:
        return (self.errors.to(torch.float32)
                / getattr(self, self.total).to(torch.float32))


class WordErrorRate(_ErrorRate):
    """torchmetrics' ``WordErrorRate``: edit distance over the target words."""

    total = "target_total"


class CharErrorRate(WordErrorRate):
    """torchmetrics' ``CharErrorRate``: edit distance over the target characters."""

    characters = True


class MatchErrorRate(_ErrorRate):
    """torchmetrics' ``MatchErrorRate``: edit distance over the longer side's words."""

    total = "longer_total"


class WordInfoPreserved(_EditMetric):
    """torchmetrics' ``WordInfoPreserved``: ((E - L) / T) * ((E - L) / P), E the edit
    distance, L the longer side's words, T and P the target and prediction words."""

    higher_is_better = True

    def compute(self) -> torch.Tensor:
        errors, target_total, preds_total, longer = self._floats()
        kept = errors - longer
        return (kept / target_total) * (kept / preds_total)


class WordInfoLost(WordInfoPreserved):
    """torchmetrics' ``WordInfoLost``: 1 - its WIP."""

    higher_is_better = False

    def compute(self) -> torch.Tensor:
        return 1 - super().compute()
