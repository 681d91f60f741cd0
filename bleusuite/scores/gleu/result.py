"""GLEU's result object for corpus scores (:class:`GleuResult`).

>>> from bleusuite import corpus_gleu_result
>>> print(corpus_gleu_result(["the cat sat"], [["the cat sat down"]], tokenize="13a")
...       .format(signature=False))
GLEU = 60.00 (6/10)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, SupportsIndex

from bleusuite import checks
from bleusuite.inputs import scoring_batch
from bleusuite.scores.gleu.metric import METRIC
from bleusuite.scores.gleu.score import gleu_score
from bleusuite.scores.gleu.statistics import GleuStats, gleu_statistics_of_batch
from bleusuite.scores.reports import host, num_refs, signature_of, version_field

if TYPE_CHECKING:
    from bleusuite.array_types import DeviceArray, Hypotheses, References

__all__ = ["GleuResult", "corpus_gleu_result"]


@dataclass(frozen=True)
class GleuResult:
    """A corpus GLEU score with its parts (0-1 scale; ``format`` prints 0-100).

    Attributes:
        score: ``matches / totals`` (0 when ``totals`` is 0), as :func:`bleusuite.corpus_gleu`.
        matches: shared n-grams, summed over sentences.
        totals: ``max(hypothesis n-grams, reference n-grams)``, summed.
        min_len: lowest n-gram order.
        max_len: highest n-gram order.
        signature: every setting that changes the number.
    """

    score: float
    matches: int
    totals: int
    min_len: int
    max_len: int
    signature: str

    def __float__(self) -> float:
        return self.score

    @classmethod
    def from_stats(
        cls,
        stats: GleuStats[Any],
        *,
        min_len: int = 1,
        max_len: int = 4,
        nrefs: int | str | None = None,
        tokenize: str | None = None,
        lowercase: bool = False,
    ) -> GleuResult:
        """The result of corpus statistics computed with ``min_len``..``max_len``.

        >>> import numpy as np
        >>> from bleusuite import gleu_statistics
        >>> stats = gleu_statistics(np.array([[1, 2, 3, 4]]), np.array([[1, 2, 3, 5]]))
        >>> GleuResult.from_stats(stats).format(signature=False)
        'GLEU = 60.00 (6/10)'
        """
        if not isinstance(stats, GleuStats):
            raise TypeError(f"stats must be a GleuStats; got {type(stats).__name__}")
        min_len, max_len = checks.gleu_orders(min_len, max_len)
        if stats.matches.ndim > 0:
            stats = stats.sum()
        settings = METRIC.settings(tokenize=tokenize, lowercase=lowercase, min_len=min_len,
                                   max_len=max_len)
        signature = signature_of({"nrefs": nrefs, **METRIC.signature(settings),
                                  "version": version_field()})
        return cls(float(host(gleu_score(stats))), int(host(stats.matches)),
                   int(host(stats.totals)), min_len, max_len, signature)

    def format(self, width: int = 2, *, score_only: bool = False, signature: bool = True) -> str:
        """``GLEU|signature = 61.54 (8/13)`` (0-100 scale; matches/totals in brackets)."""
        score = f"{100 * self.score:.{width}f}"
        if score_only:
            return score
        name = f"GLEU|{self.signature}" if signature else "GLEU"
        return f"{name} = {score} ({self.matches}/{self.totals})"

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict[str, Any]:
        """Plain Python values (``json.dumps`` takes them), the score on the 0-1 scale."""
        return {
            "name": "GLEU", "score": self.score, "matches": self.matches,
            "totals": self.totals, "min_len": self.min_len, "max_len": self.max_len,
            "signature": self.signature,
        }


def corpus_gleu_result(
    hypotheses: Hypotheses[DeviceArray],
    references: References[DeviceArray],
    *,
    min_len: int = 1,
    max_len: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
    tokenize: str | None = None,
    lowercase: bool = False,
) -> GleuResult:
    """:func:`bleusuite.corpus_gleu` as a :class:`GleuResult` (same arguments, same score).

    >>> result = corpus_gleu_result(["the cat sat"], [["the cat sat down"]], tokenize="13a")
    >>> result.format(signature=False), result.to_dict()["matches"]
    ('GLEU = 60.00 (6/10)', 6)
    """
    min_len, max_len = checks.gleu_orders(min_len, max_len)
    batch = scoring_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id,
                          tokenize=tokenize, lowercase=lowercase, corpus="corpus_gleu")
    stats = gleu_statistics_of_batch(batch, min_len, max_len).sum()
    return GleuResult.from_stats(stats, min_len=min_len, max_len=max_len, nrefs=num_refs(batch),
                                 tokenize=tokenize, lowercase=lowercase)
