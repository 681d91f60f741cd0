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
from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as np

from bleusuite.scores.reports import (
    GIVEN_TOKENS,
    ScoreResult,
    make_signature,
    num_refs,
    num_refs_of_text,
)
from bleusuite.scores.ter.formula import ter_scores
from bleusuite.scores.ter.score import settings_of, statistics_and_batch
from bleusuite.scores.ter.settings import TerSettings
from bleusuite.scores.ter.statistics import TerStats

if TYPE_CHECKING:
    from bleusuite.array_types import Hypotheses, References

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
    def from_stats(cls, stats: TerStats[Any], *, normalized: bool = False,
                   no_punct: bool = False, asian_support: bool = False,
                   case_sensitive: bool = False, nrefs: int | str | None = None,
                   given_tokens: bool = False) -> TerResult:
        """The result of statistics (per sentence, summed here, or summed already) made
        with these options; ``given_tokens``: of token ids or token lists (``tok:given``)."""
        stats = TerStats.summed(stats)
        settings = TerSettings(normalized, no_punct, asian_support, case_sensitive)
        signature = make_signature("ter", settings, nrefs=nrefs,
                                   extra={"tok": GIVEN_TOKENS} if given_tokens else None)
        return cls(float(ter_scores(stats)), int(np.asarray(stats.edits)),
                   float(np.asarray(stats.ref_length)), signature.format())



def corpus_ter_result(
    hypotheses: Hypotheses[Any],
    references: References[Any],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
) -> TerResult:
    """:func:`bleusuite.corpus_ter` as a :class:`TerResult` (same arguments; the score times
    100, sacrebleu's)."""
    settings = settings_of(normalized, no_punct, asian_support, case_sensitive)
    stats, batch = statistics_and_batch(hypotheses, references, settings, pad_id, eos_id,
                                        corpus="corpus_ter_result")
    nrefs = num_refs_of_text(references) if batch is None else num_refs(batch)
    return TerResult.from_stats(stats, normalized=normalized, no_punct=no_punct,
                                asian_support=asian_support, case_sensitive=case_sensitive,
                                nrefs=nrefs, given_tokens=batch is not None)


def result_of_table(total: np.ndarray, settings: TerSettings, nrefs: str,
                    given_tokens: bool = False) -> Any:
    """:func:`bleusuite.scores.registry.result` of this metric."""
    return TerResult.from_stats(
        TerStats.from_array(total), normalized=settings.normalized,
        no_punct=settings.no_punct, asian_support=settings.asian_support,
        case_sensitive=settings.case_sensitive, nrefs=nrefs, given_tokens=given_tokens)
