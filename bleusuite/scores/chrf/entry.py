"""chrF and chrF++ as an entry of the metric registry (:mod:`bleusuite.scores.registry`).

>>> settings = METRIC.settings(word_order=2)
>>> METRIC.title(settings), METRIC.signature(settings)["nw"]
('chrF2++', 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from bleusuite.scores.chrf.formula import chrf_scores
from bleusuite.scores.chrf.settings import ChrfSettings
from bleusuite.scores.chrf.statistics import ChrfStats
from bleusuite.scores.chrf.text_statistics import chrf_statistics
from bleusuite.scores.registry import TextCountedMetric, reference_rows

__all__ = ["METRIC"]


class _Chrf(TextCountedMetric):
    name = "chrf"
    label = "chrF"
    #: sacrebleu's short keys of its signature fields
    abbreviations: ClassVar[dict[str, str]] = {"case": "c", "eff": "e", "nc": "nc",
                                                 "nw": "nw", "space": "s"}
    statistics = ChrfStats
    settings_type = ChrfSettings

    def title(self, settings: ChrfSettings) -> str:
        return f"chrF{settings.beta}" + "+" * settings.word_order

    def signature(self, settings: ChrfSettings) -> dict[str, Any]:
        return {"case": "lc" if settings.lowercase else "mixed",
                "eff": "no" if settings.eps_smoothing else "yes",
                "nc": settings.char_order, "nw": settings.word_order,
                "space": "yes" if settings.whitespace else "no"}

    def scores(self, table: np.ndarray, settings: ChrfSettings,
               resampled: bool = False) -> np.ndarray:
        table = np.atleast_2d(table)
        scores = chrf_scores(table, settings.beta, settings.eps_smoothing, float32=resampled)
        if not resampled:
            return np.atleast_1d(scores)
        # sacrebleu's resampled chrF scores are float32 scalars, but a Python float where
        # its formula takes a branch of Python constants: NumPy's array of them is float32
        # (and so are its mean and interval) only where no row took such a branch
        python_float = _python_float_rows(table, settings)
        if not python_float.any():
            return np.atleast_1d(scores.astype(np.float32))
        # those rows' arithmetic is Python's: float64 throughout
        scores = np.atleast_1d(scores).astype(np.float64)
        scores[python_float] = chrf_scores(table[python_float], settings.beta,
                                           settings.eps_smoothing)
        return scores

    command_flags: ClassVar[dict[str, str]] = {
        "char_order": "chrf_char_order", "word_order": "chrf_word_order", "beta": "chrf_beta",
        "lowercase": "chrf_lowercase", "whitespace": "chrf_whitespace",
        "eps_smoothing": "chrf_eps_smoothing"}
    paired_tests = True

    # chrF counts characters: the base refuses token ids
    def text_statistics(self, hypotheses: list[str], references: Sequence[list[str]],
                        settings: ChrfSettings) -> np.ndarray:
        return chrf_statistics(hypotheses, reference_rows(hypotheses, references),
                               settings).to_array()


def _python_float_rows(table: np.ndarray, settings: ChrfSettings) -> np.ndarray:
    """The rows whose score sacrebleu's ``CHRF._compute_f_score`` returns as a Python float
    (not a float32 scalar) on float32 statistics: without eps smoothing, a score of 0 (its
    ``return 0.0``); with it, a row where no order adds a term of float32 counts (each order
    adds its Python ``eps``)."""
    hyp, ref, match = table[:, 0::3], table[:, 1::3], table[:, 2::3]
    if not settings.eps_smoothing:
        # precision and recall are both 0 where no order has matches (or none counts)
        counted = (hyp > 0) & (ref > 0)
        zero: np.ndarray = np.logical_not((counted & (match > 0)).any(axis=1))
        return zero
    factor_zero = settings.beta == 0
    denominator_zero = (ref > 0) & (match == 0) & (factor_zero | (hyp > 0))
    float32_term = ~denominator_zero & ((hyp > 0) | (ref > 0))
    result: np.ndarray = ~float32_term.any(axis=1)
    return result


#: the registry's entry
METRIC = _Chrf()
