"""ROUGE's result object for corpus scores (:class:`RougeResult`): the mean precision,
recall and F-measure of the documents, the measure asked for, and a signature.

>>> result = corpus_rouge_result(["the cat sat on the mat"], [["the cat was on the mat"]])
>>> print(result.format(signature=False))
ROUGE-L = 83.33 (P 83.33 R 83.33 F 83.33)
>>> result.signature.rsplit("|", 1)[0]
'nrefs:1|measure:fmeasure|tok:rouge|stem:no|multiref:best-f'

A result holds the numbers it prints, on the 0-100 scale (:func:`bleusuite.corpus_rouge`
returns ``score / 100``, rouge-score's scale).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bleusuite.scores.reports import ScoreResult, host, make_signature, num_refs_of_text
from bleusuite.scores.rouge.entry import METRIC, verbose_line
from bleusuite.scores.rouge.score import rouge_score, rouge_scores
from bleusuite.scores.rouge.settings import RougeSettings
from bleusuite.scores.rouge.statistics import RougeStats

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.scores.rouge.settings import RougeOptions

__all__ = ["RougeResult", "corpus_rouge_result"]


@dataclass(frozen=True)
class RougeResult(ScoreResult):
    """A corpus ROUGE score with its parts, the numbers :meth:`format` prints (0-100).

    Attributes:
        score: the mean ``measure`` of the documents, 0-100 (100 times
            :func:`bleusuite.corpus_rouge`).
        name: ``ROUGE-1``, ..., ``ROUGE-L``, ``ROUGE-Lsum``.
        rouge_type: rouge-score's name of the type (``rouge1``, ``rougeL``, ...).
        measure: ``precision``, ``recall`` or ``fmeasure``.
        precision, recall, fmeasure: the documents' means of each, 0-100.
        documents: the number of documents.
        signature: every setting that changes the number.
    """

    score: float
    name: str
    rouge_type: str
    measure: str
    precision: float
    recall: float
    fmeasure: float
    documents: int
    signature: str

    @classmethod
    def from_stats(cls, stats: RougeStats[Any], settings: RougeSettings | None = None, *,
                   nrefs: int | str | None = None) -> RougeResult:
        """The result of statistics made with ``settings`` (summed if per document)."""
        stats = RougeStats.summed(stats)
        settings = settings or RougeSettings()
        summed = RougeStats(*(np.asarray(host(a), dtype=np.float64) for a in (
            stats.precision, stats.recall, stats.fmeasure, stats.documents)))
        means = {measure: 100.0 * float(rouge_score(summed, measure))
                 for measure in ("precision", "recall", "fmeasure")}
        signature = make_signature("rouge", settings, nrefs=nrefs).format()
        return cls(means[settings.measure], METRIC.title(settings), settings.rouge_type,
                   settings.measure, means["precision"], means["recall"], means["fmeasure"],
                   int(summed.documents), signature)

    def verbose(self) -> str:
        """``(P = ... R = ... F = ...)`` of the line."""
        return verbose_line(self.precision, self.recall, self.fmeasure)


def corpus_rouge_result(
    hypotheses: Any, references: Any, **options: Unpack[RougeOptions],
) -> RougeResult:
    """:func:`bleusuite.corpus_rouge` as a :class:`RougeResult` (same arguments; the score
    times 100).

    Raises:
        ValueError: for an empty batch, or a bad argument (named).
    """
    settings = RougeSettings.of_options(options, "corpus_rouge_result")
    stats = rouge_scores(hypotheses, references, rouge_types=(settings.rouge_type,),
                         use_stemmer=settings.use_stemmer, tokenize=settings.tokenize,
                         pad_id=options.get("pad_id"),
                         eos_id=options.get("eos_id"))[settings.rouge_type]
    if len(stats) == 0:
        raise ValueError("hypotheses: corpus_rouge_result needs at least one document; got "
                         "an empty batch")
    # token-id arrays: no nrefs in the signature
    nrefs = num_refs_of_text(references) if isinstance(references, list) and references \
        else None
    return RougeResult.from_stats(stats, settings, nrefs=nrefs)


def result_of_table(total: np.ndarray, settings: RougeSettings, nrefs: str,
                    given_tokens: bool = False) -> Any:
    """:func:`bleusuite.scores.registry.result` of this metric."""
    return RougeResult.from_stats(RougeStats.from_array(total), settings, nrefs=nrefs)
