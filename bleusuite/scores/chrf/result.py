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
from typing import TYPE_CHECKING, Any

import numpy as np

from bleusuite.scores.chrf.formula import chrf_scores
from bleusuite.scores.chrf.settings import ChrfSettings
from bleusuite.scores.chrf.statistics import ChrfStats
from bleusuite.scores.chrf.text_statistics import chrf_statistics
from bleusuite.scores.reports import ScoreResult, make_signature, num_refs_of_text

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.scores.chrf.settings import ChrfOptions

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
    def from_stats(cls, stats: ChrfStats[Any], *, nrefs: int | str | None = None,
                   **options: Unpack[ChrfOptions]) -> ChrfResult:
        """The result of corpus statistics made with these settings (summed if per
        sentence; ``nrefs``: the signature's)."""
        return cls.of_settings(ChrfStats.summed(stats),
                               ChrfSettings.of_options(options, "from_stats"), nrefs)

    @classmethod
    def of_settings(cls, stats: ChrfStats[Any], settings: ChrfSettings,
                    nrefs: int | str | None) -> ChrfResult:
        """The result of summed statistics under checked settings."""
        from bleusuite.scores.chrf.entry import METRIC  # the unit's own face

        signature = make_signature("chrf", settings, nrefs=nrefs).format()
        return cls(float(chrf_scores(stats, settings.beta, settings.eps_smoothing)),
                   METRIC.title(settings), settings.char_order, settings.word_order,
                   settings.beta,
                   tuple(np.asarray(stats.hyp_counts).tolist()),
                   tuple(np.asarray(stats.ref_counts).tolist()),
                   tuple(np.asarray(stats.matches).tolist()), signature)



def corpus_chrf_result(
    hypotheses: Sequence[str], references: Sequence[str | Sequence[str | None]],
    **options: Unpack[ChrfOptions],
) -> ChrfResult:
    """:func:`bleusuite.corpus_chrf` as a :class:`ChrfResult` (same arguments; the score
    times 100, sacrebleu's)."""
    settings = ChrfSettings.of_options(options, "corpus_chrf_result")
    stats = chrf_statistics(hypotheses, references, settings)
    if len(stats) == 0:
        raise ValueError("hypotheses: corpus_chrf_result needs at least one sentence; got an "
                         "empty batch")
    return ChrfResult.of_settings(stats.sum(), settings, num_refs_of_text(references))


def result_of_table(total: np.ndarray, settings: ChrfSettings, nrefs: str,
                    given_tokens: bool = False) -> Any:
    """:func:`bleusuite.scores.registry.result` of this metric."""
    return ChrfResult.of_settings(ChrfStats.from_array(total), settings, nrefs)
