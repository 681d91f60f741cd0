"""pytorch-ignite metrics of edits: a drop-in replacement for Ignite 0.5.5's
``ignite.metrics.nlp.CharacterErrorRate`` (its numbers: float32 sums, its edge rules), and
``WordErrorRate``, jiwer's corpus WER (its default word split) as an Ignite metric.

Both keep int64 sums (edits and reference units) as their state, reduced across processes
(``sync_all_reduce``), and align each batch in C on the worker threads.

>>> from bleusuite.metrics import CharacterErrorRate, WordErrorRate
>>> cer = CharacterErrorRate()
>>> cer.update((["the cat sat on the mat", "hello world"], ["the cat sat on mat", "hello world"]))
>>> round(cer.compute(), 4)                   # Ignite's CharacterErrorRate gives 0.1379
0.1379
>>> wer = WordErrorRate()
>>> wer.update((["the cat sat on the mat"], ["the cat sat on mat"]))
>>> wer.compute()                             # jiwer.wer("the cat sat on mat", ...)
0.2
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch
from ignite.exceptions import NotComputableError
from ignite.metrics.metric import Metric, reinit__is_reduced, sync_all_reduce

from bleusuite.scores.wer.counts import statistics_of_chars, statistics_of_lines
from bleusuite.scores.wer.formula import measures_of_totals

__all__ = ["CharacterErrorRate", "WordErrorRate"]

_CPU = torch.device("cpu")


class _EditRate(Metric):
    """Summed edits and reference units of ``(y_pred, y)`` batches of strings."""

    characters = False

    def __init__(self, output_transform: Callable[[Any], Any] = lambda x: x,
                 device: str | torch.device = _CPU,
                 skip_unrolling: bool = False) -> None:
        super().__init__(output_transform=output_transform, device=device,
                         skip_unrolling=skip_unrolling)

    @reinit__is_reduced
    def reset(self) -> None:
        self._counts = torch.zeros(4, dtype=torch.int64, device=self._device)
        self._num_examples = 0

    @reinit__is_reduced
    def update(self, output: Sequence[Any]) -> None:
        y_pred, y = output[0], output[1]
        if not isinstance(y_pred, str | list) or not isinstance(y, str | list):
            raise TypeError(f"y_pred and y must be str or list[str], got y_pred: {type(y_pred)} "
                            f"and y: {type(y)}")
        if isinstance(y_pred, str) and isinstance(y, str):
            y_pred, y = [y_pred], [y]
        if not all(isinstance(p, str) for p in y_pred) or not all(isinstance(r, str) for r in y):
            raise TypeError("All elements of y_pred and y must be strings.")
        if len(y_pred) != len(y):
            raise ValueError(f"y_pred and y must have the same length. Got y_pred of length "
                             f"{len(y_pred)} and y of length {len(y)}.")
        if self.characters:
            stats = statistics_of_chars(list(y_pred), list(y))[0]
        else:
            stats = statistics_of_lines(list(y_pred), list(y))[0]
        summed = torch.from_numpy(stats.to_array()).sum(dim=0)
        self._counts += summed.to(self._device)
        self._num_examples += 1

    def _totals(self) -> tuple[int, int, int, int]:
        if self._num_examples == 0:
            raise NotComputableError(f"{type(self).__name__} must have at least one example "
                                     "before it can be computed.")
        hits, subs, dels, ins = (int(x) for x in self._counts.tolist())
        return hits, subs, dels, ins


class CharacterErrorRate(_EditRate):
    """Ignite's ``CharacterErrorRate``: the edit distance of each prediction's characters
    to its reference's (every character, none stripped) over the reference characters;
    0.0 (or 1.0 where there are edits) for empty references. ``update((y_pred, y))`` takes
    a string each or lists of strings."""

    characters = True

    @sync_all_reduce("_counts")
    def compute(self) -> float:
        hits, subs, dels, ins = self._totals()
        errors, refs = subs + dels + ins, hits + subs + dels
        if refs == 0:
            return 0.0 if errors == 0 else 1.0
        # Ignite's float32 sums and division (the same numbers below 2**24)
        return (torch.tensor(float(errors)) / torch.tensor(float(refs))).item()


class WordErrorRate(_EditRate):
    """jiwer's corpus WER (its default word split; the insertions where every reference is
    empty) of all batches, as an Ignite metric: float64."""

    @sync_all_reduce("_counts")
    def compute(self) -> float:
        result: float = measures_of_totals(*self._totals())["wer"]
        return float(result)
