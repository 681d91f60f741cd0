"""BLEU as an entry of the metric registry (:mod:`bleusuite.scores.registry`).

>>> import numpy as np
>>> table = np.array([[4, 6, 4, 3, 2, 1, 4, 3, 2, 1, 4, 3, 2, 1]])  # one summed row
>>> METRIC.scores(table, METRIC.settings()).round(4).tolist()
[60.6531]
>>> METRIC.verbose(table, METRIC.settings())
['100.0/100.0/100.0/100.0 (BP = 0.607 ratio = 0.667 hyp_len = 4 ref_len = 6)']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from bleusuite import backends
from bleusuite.scores import rules
from bleusuite.scores.bleu import smoothing
from bleusuite.scores.bleu.precisions import shown_precisions
from bleusuite.scores.bleu.sacrebleu_formula import exact_bleu
from bleusuite.scores.bleu.score import score_of
from bleusuite.scores.bleu.settings import SACREBLEU_DEFAULTS, BleuSettings
from bleusuite.scores.bleu.statistics import (
    BleuStats,
    bleu_statistics_from_counts,
    bleu_statistics_of_batch,
)
from bleusuite.scores.registry import WordCountedMetric, WordCounting
from bleusuite.scores.reports import GIVEN_TOKENS
from bleusuite.text import load_tokenizer

__all__ = ["METRIC", "tokens_field", "verbose_line"]


def verbose_line(precisions: Sequence[float], bp: float, hyp_len: int, ref_len: int) -> str:
    """sacrebleu's verbose part of a BLEU score: ``p1/p2/p3/p4 (BP = ... ref_len = ...)``.

    >>> verbose_line([75.0, 50.0, 0.0, 0.0], 1.0, 4, 4)
    '75.0/50.0/0.0/0.0 (BP = 1.000 ratio = 1.000 hyp_len = 4 ref_len = 4)'
    """
    ratio = hyp_len / ref_len if ref_len else 0
    return (f"{'/'.join(f'{p:.1f}' for p in precisions)} (BP = {bp:.3f} ratio = {ratio:.3f} "
            f"hyp_len = {hyp_len:d} ref_len = {ref_len:d})")


def tokens_field(tokenize: str | None) -> str:
    """``tok:`` of a signature: the tokenizer's own signature, or ``given`` for tokens."""
    return GIVEN_TOKENS if tokenize is None else load_tokenizer(tokenize).signature


class _Bleu(WordCountedMetric):
    name = "bleu"
    label = "BLEU"
    abbreviations: ClassVar[dict[str, str]] = {"case": "c", "eff": "e", "tok": "tok",
                                                 "smooth": "s"}
    statistics = BleuStats
    settings_type, default_settings = BleuSettings, SACREBLEU_DEFAULTS  # the command's

    def signature(self, settings: BleuSettings) -> dict[str, Any]:
        return {"case": "lc" if settings.lowercase else "mixed",
                "eff": "yes" if settings.effective_order else "no",
                "tok": tokens_field(settings.tokenize),
                "smooth": smoothing.signature_item(settings.smooth, settings.smooth_value),
                # sacrebleu's rule is not written (its signatures stay sacrebleu's)
                "reflen": None if settings.ref_length == "closest" else settings.ref_length}

    def scores(self, table: np.ndarray, settings: BleuSettings,
               resampled: bool = False) -> np.ndarray:
        if settings.family == "sacrebleu":  # its exact digits (float32 on resamples)
            return exact_bleu(table, settings.smooth, settings.smooth_value,
                              settings.effective_order, float32=resampled,
                              max_order=settings.max_order).scores
        scores = score_of(BleuStats.from_array(table), settings)
        return np.atleast_1d(100.0 * np.asarray(scores, dtype=np.float64))

    def verbose(self, table: np.ndarray, settings: BleuSettings) -> list[str]:
        stats = BleuStats.from_array(np.atleast_2d(table))
        precisions = shown_precisions(stats, settings.max_order, settings.smooth,
                                      settings.smooth_value, scale=100.0)
        penalties = rules.brevity_penalty(backends.get_backend(table), stats.hyp_len,
                                          stats.ref_len)
        return [verbose_line(row, bp, c, r) for row, bp, c, r in zip(
            precisions.tolist(), penalties.tolist(), stats.hyp_len.tolist(),
            stats.ref_len.tolist(), strict=True)]

    command_flags: ClassVar[dict[str, str]] = {
        "tokenize": "tokenize", "lowercase": "lowercase", "smooth": "smooth",
        "smooth_value": "smooth_value", "effective_order": "effective_order"}
    command_fixed: ClassVar[dict[str, Any]] = {"max_order": 4}
    paired_tests = True
    warns_tokenised = True  # sacrebleu's BLEU warns

    def sentence_settings(self, values: dict[str, Any]) -> dict[str, Any]:
        if "effective_order" not in values and smoothing.family_of(
                values.get("smooth", self.settings().smooth)) == "sacrebleu":
            return {**values, "effective_order": True}
        return values

    def token_id_statistics(self, batch: Any, settings: BleuSettings) -> BleuStats[Any]:
        return bleu_statistics_of_batch(batch, settings.stats_order)

    def word_counting(self, settings: BleuSettings) -> WordCounting:
        return WordCounting(settings.tokenize or "none", settings.lowercase,
                            settings.stats_order, per_reference=False)

    def word_statistics(self, clipped: np.ndarray, per_reference: np.ndarray | None,
                        lengths: np.ndarray, settings: BleuSettings) -> np.ndarray:
        be = backends.get_backend(lengths)
        hyp_len, ref_len = lengths[0], np.ascontiguousarray(lengths[1:].T)
        stats = bleu_statistics_from_counts(be, hyp_len, ref_len, None,
                                            clipped[:, : settings.stats_order], far=1 << 62,
                                            ref_length=settings.ref_length)
        table: np.ndarray = stats.to_array()
        return table


#: the registry's entry
METRIC = _Bleu()
