"""WER as an entry of the metric registry (:mod:`bleusuite.scores.registry`), and its
settings (:class:`WerSettings`): the paired tests (bootstrap resamples of WER, CER) and any
front end that takes metrics by name reach it here. Its score is jiwer's WER (CER with
``characters``) times 100: lower is better.

>>> from bleusuite.scores.wer.entry import METRIC
>>> settings = METRIC.settings(characters=True)
>>> METRIC.title(settings), METRIC.signature(settings)
('CER', {'unit': 'char', 'split': 'jiwer'})
>>> table = METRIC.text_statistics(["a x c"], [["a b c"]], METRIC.settings())
>>> METRIC.scores(table.sum(axis=0), METRIC.settings()).round(4).tolist()
[33.3333]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from bleusuite.scores.registry import TextCountedMetric
from bleusuite.scores.reports import host
from bleusuite.scores.wer.counts import (
    default_chars,
    statistics_of_batch,
    statistics_of_chars,
    statistics_of_lines,
)
from bleusuite.scores.wer.formula import edit_measures
from bleusuite.scores.wer.statistics import WerStats

__all__ = ["METRIC", "WerSettings"]


@dataclass(frozen=True)
class WerSettings:
    """WER's settings: ``characters``, CER (jiwer's ``cer``: characters, spaces kept)
    instead of WER (jiwer's default word split).

    >>> WerSettings(characters=1)
    Traceback (most recent call last):
    ...
    TypeError: characters must be a bool; got 1
    """

    characters: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.characters, bool):
            raise TypeError(f"characters must be a bool; got {self.characters!r}")


class _Wer(TextCountedMetric):
    name = "wer"
    label = "WER"
    statistics = WerStats
    abbreviations: ClassVar[dict[str, str]] = {"unit": "u", "split": "s"}

    def settings(self, **values: Any) -> WerSettings:
        return WerSettings(**values)

    def title(self, settings: WerSettings) -> str:
        return "CER" if settings.characters else "WER"

    def signature(self, settings: WerSettings) -> dict[str, Any]:
        return {"unit": "char" if settings.characters else "word", "split": "jiwer"}

    def scores(self, table: np.ndarray, settings: WerSettings,
               resampled: bool = False) -> np.ndarray:
        return np.atleast_1d(100.0 * edit_measures(np.atleast_2d(table))["wer"])

    # not a metric of the command: no command_flags
    paired_tests = True  # integer counts: resamples sum them
    result_module = "bleusuite.scores.wer.score"

    def token_id_settings(self, settings: WerSettings, given: Mapping[str, Any]) -> WerSettings:
        return settings  # ids are the units, words or characters alike

    def token_id_statistics(self, batch: Any, settings: WerSettings) -> WerStats[Any]:
        # the counts align each row with its first reference: refuse a batch where that is
        # not the row's one reference (several reference columns, or the first absent)
        present = np.asarray(host(batch.ref_present), dtype=bool)
        wrong = np.flatnonzero((present.sum(axis=1) != 1) | ~present[:, 0])
        if len(wrong):
            row = int(wrong[0])
            raise ValueError(f"references: row {row} has {int(present[row].sum())} "
                             "references (one of padding only is absent); WER and CER take "
                             "exactly one per hypothesis, the first")
        return statistics_of_batch(batch)[0]

    def text_statistics(self, hypotheses: list[str], references: Sequence[list[str]],
                        settings: WerSettings) -> np.ndarray:
        if len(references) != 1:
            raise ValueError(f"references: WER and CER take one reference stream; got "
                             f"{len(references)}")
        refs = list(references[0])
        if settings.characters:
            stats = statistics_of_chars([default_chars(h) for h in hypotheses],
                                        [default_chars(r) for r in refs])[0]
        else:
            stats = statistics_of_lines(list(hypotheses), refs)[0]
        table: np.ndarray = stats.to_array()
        return table


#: the registry's entry
METRIC = _Wer()
