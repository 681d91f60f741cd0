"""TER's result object for corpus scores (:class:`TerResult`), like sacrebleu's
``TERScore``.

>>> from bleusuite.scores.ter.result import corpus_ter_result
>>> result = corpus_ter_result(["the cat sat on the mat"], [["on the mat the cat sat"]])
>>> print(result.format(signature=False))    # sacrebleu.corpus_ter(...)
TER = 16.67
>>> result.signature.rsplit("|", 1)[0]
'nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no'
>>> round(result.score, 4)                   # sacrebleu's .score, 0-100
16.6667
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bleusuite.scores.reports import (
    GIVEN_TOKENS,
    ScoreResult,
    make_signature,
    num_refs,
    num_refs_of_text,
)
from bleusuite.scores.ter.formula import ter_scores
from bleusuite.scores.ter.score import statistics_and_batch
from bleusuite.scores.ter.settings import OPTIONS, TerSettings
from bleusuite.scores.ter.statistics import TerStats

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.array_types import Hypotheses, References
    from bleusuite.scores.ter.settings import TerCallOptions, TerOptions

__all__ = ["TerResult", "corpus_ter_result"]


@dataclass(frozen=True)
class TerResult(ScoreResult):
    """A corpus TER score with its parts, the numbers :meth:`format` prints.

    Attributes:
        score: the TER score, 0-100: sacrebleu's ``score`` (:func:`bleusuite.corpus_ter`
            returns ``score / 100``).
        num_edits: the edits, summed over the sentences (sacrebleu's ``num_edits``).
        ref_length: the references' average lengths, summed (sacrebleu's ``ref_length``).
        signature: every setting that changes the number.
    """

    score: float
    num_edits: int
    ref_length: float
    signature: str
    name: str = "TER"

    @classmethod
    def from_stats(cls, stats: TerStats[Any], *, nrefs: int | str | None = None,
                   given_tokens: bool = False, **options: Unpack[TerOptions]) -> TerResult:
        """The result of statistics (per sentence, summed here, or summed already) made
        with these options; ``given_tokens``: of token ids or token lists (``tok:given``)."""
        settings = TerSettings.of_options(options, "from_stats", OPTIONS)
        return cls.of_settings(TerStats.summed(stats), settings, nrefs, given_tokens)

    @classmethod
    def of_settings(cls, stats: TerStats[Any], settings: TerSettings,
                    nrefs: int | str | None, given_tokens: bool = False) -> TerResult:
        """The result of summed statistics under checked settings."""
        signature = make_signature("ter", settings, nrefs=nrefs,
                                   extra={"tok": GIVEN_TOKENS} if given_tokens else None)
        return cls(float(ter_scores(stats)), int(np.asarray(stats.edits)),
                   float(np.asarray(stats.ref_length)), signature.format())



def corpus_ter_result(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[TerCallOptions],
) -> TerResult:
    """:func:`bleusuite.corpus_ter` as a :class:`TerResult` (same arguments; the score times
    100, sacrebleu's)."""
    settings = TerSettings.of_options(options, "corpus_ter_result")
    stats, batch = statistics_and_batch(hypotheses, references, settings, options,
                                        corpus="corpus_ter_result")
    nrefs = num_refs_of_text(references) if batch is None else num_refs(batch)
    return TerResult.of_settings(stats.sum(), settings, nrefs, given_tokens=batch is not None)


def result_of_table(total: np.ndarray, settings: TerSettings, nrefs: str,
                    given_tokens: bool = False) -> Any:
    """:func:`bleusuite.scores.registry.result` of this metric."""
    return TerResult.of_settings(TerStats.from_array(total), settings, nrefs, given_tokens)
