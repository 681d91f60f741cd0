"""chrF's result object for corpus scores (:class:`ChrfResult`), like sacrebleu's
``CHRFScore``.

>>> from bleusuite.scores.chrf.result import corpus_chrf_result
>>> result = corpus_chrf_result(["the cat sat"], [["the cat sat down"]], word_order=2)
>>> print(result.format(signature=False))    # sacrebleu.corpus_chrf(..., word_order=2)
chrF2++ = 68.36
>>> result.signature.rsplit("|", 1)[0]
'nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no'
>>> round(result.score, 4)                   # sacrebleu's .score, 0-100
68.3557
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleusuite.scores.chrf.formula import chrf_scores
from bleusuite.scores.chrf.score import chrf_statistics_of_texts
from bleusuite.scores.chrf.settings import ChrfSettings
from bleusuite.scores.chrf.statistics import BETA, CHAR_ORDER, WORD_ORDER, ChrfStats
from bleusuite.scores.reports import ScoreResult, make_signature, num_refs_of_text

__all__ = ["ChrfResult", "corpus_chrf_result"]


@dataclass(frozen=True)
class ChrfResult(ScoreResult):
    """A corpus chrF score with its settings, the numbers :meth:`format` prints.

    Attributes:
        score: the chrF score, 0-100: sacrebleu's ``score`` (:func:`bleusuite.corpus_chrf`
            returns ``score / 100``).
        name: sacrebleu's name of the score (``chrF2``, ``chrF2++``).
        char_order, word_order, beta: the settings of the score.
        hyp_counts, ref_counts, matches: the summed statistics, per order.
        signature: every setting that changes the number.
    """

    score: float
    name: str
    char_order: int
    word_order: int
    beta: float
    hyp_counts: tuple[int, ...]
    ref_counts: tuple[int, ...]
    matches: tuple[int, ...]
    signature: str

    @classmethod
    def from_stats(cls, stats: ChrfStats[Any], *, char_order: int = CHAR_ORDER,
                   word_order: int = WORD_ORDER, beta: float = BETA, lowercase: bool = False,
                   whitespace: bool = False, eps_smoothing: bool = False,
                   nrefs: int | str | None = None) -> ChrfResult:
        """The result of corpus statistics made with these settings (summed if per
        sentence)."""
        stats = ChrfStats.summed(stats)
        from bleusuite.scores.chrf.entry import METRIC  # the unit's own face

        settings = ChrfSettings.of(char_order=char_order, word_order=word_order, beta=beta,
                                   lowercase=lowercase, whitespace=whitespace,
                                   eps_smoothing=eps_smoothing)
        signature = make_signature("chrf", settings, nrefs=nrefs).format()
        return cls(float(chrf_scores(stats, beta, eps_smoothing)),
                   METRIC.title(settings), char_order, word_order, beta,
                   tuple(np.asarray(stats.hyp_counts).tolist()),
                   tuple(np.asarray(stats.ref_counts).tolist()),
                   tuple(np.asarray(stats.matches).tolist()), signature)



def corpus_chrf_result(
    hypotheses: Sequence[str],
    references: Sequence[str | Sequence[str | None]],
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: float = BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> ChrfResult:
    """:func:`bleusuite.corpus_chrf` as a :class:`ChrfResult` (same arguments; the score
    times 100, sacrebleu's)."""
    stats = chrf_statistics_of_texts(
        hypotheses, references, char_order=char_order, word_order=word_order, beta=beta,
        lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps_smoothing)
    if len(stats) == 0:
        raise ValueError("hypotheses: corpus_chrf_result needs at least one sentence; got an "
                         "empty batch")
    return ChrfResult.from_stats(stats, char_order=char_order, word_order=word_order,
                                 beta=beta, lowercase=lowercase, whitespace=whitespace,
                                 eps_smoothing=eps_smoothing, nrefs=num_refs_of_text(references))


def result_of_table(total: np.ndarray, settings: ChrfSettings, nrefs: str,
                    given_tokens: bool = False) -> Any:
    """:func:`bleusuite.scores.registry.result` of this metric."""
    return ChrfResult.from_stats(
        ChrfStats.from_array(total), char_order=settings.char_order,
        word_order=settings.word_order, beta=settings.beta, lowercase=settings.lowercase,
        whitespace=settings.whitespace, eps_smoothing=settings.eps_smoothing, nrefs=nrefs)
