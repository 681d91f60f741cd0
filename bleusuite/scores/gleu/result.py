"""GLEU's result object for corpus scores (:class:`GleuResult`).

>>> from bleusuite import corpus_gleu_result
>>> print(corpus_gleu_result(["the cat sat"], [["the cat sat down"]], tokenize="13a")
...       .format(signature=False))
GLEU = 60.00 (matches = 6 total = 10)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from bleusuite import checks
from bleusuite.scores.gleu.entry import METRIC
from bleusuite.scores.gleu.score import corpus_statistics_of, gleu_score
from bleusuite.scores.gleu.settings import CALL_OPTIONS, GleuSettings
from bleusuite.scores.gleu.statistics import GleuStats
from bleusuite.scores.reports import ScoreResult, host, make_signature

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.array_types import DeviceArray, Hypotheses, References
    from bleusuite.scores.gleu.settings import GleuCallOptions

__all__ = ["RESULT_OPTIONS", "GleuResult", "GleuResultOptions", "corpus_gleu_result"]


class GleuResultOptions(TypedDict, total=False):
    """The keyword arguments of :meth:`GleuResult.from_stats`: the orders, and what only
    fills the signature."""

    min_len: int
    max_len: int
    nrefs: int | str | None
    tokenize: str | None
    lowercase: bool


#: the names of :class:`GleuResultOptions`
RESULT_OPTIONS = GleuResultOptions.__optional_keys__


@dataclass(frozen=True)
class GleuResult(ScoreResult):
    """A corpus GLEU score with its parts, the numbers :meth:`format` prints.

    Attributes:
        score: ``100 * matches / totals`` (0 when ``totals`` is 0): 100 times
            :func:`bleusuite.corpus_gleu`.
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

    title = "GLEU"

    @classmethod
    def from_stats(cls, stats: GleuStats[Any],
                   **options: Unpack[GleuResultOptions]) -> GleuResult:
        """The result of corpus statistics computed with ``min_len``..``max_len``.

        >>> import numpy as np
        >>> from bleusuite import gleu_statistics
        >>> stats = gleu_statistics(np.array([[1, 2, 3, 4]]), np.array([[1, 2, 3, 5]]))
        >>> GleuResult.from_stats(stats).format(signature=False)
        'GLEU = 60.00 (matches = 6 total = 10)'
        """
        checks.keywords(options, RESULT_OPTIONS, "from_stats")
        return cls.of_settings(GleuStats.summed(stats), GleuSettings.of_options(options),
                               options.get("nrefs"))

    @classmethod
    def of_settings(cls, stats: GleuStats[Any], settings: GleuSettings,
                    nrefs: int | str | None) -> GleuResult:
        """The result of summed statistics under checked settings."""
        min_len, max_len = settings.min_len, settings.max_len
        signature = make_signature("gleu", settings, nrefs=nrefs).format()
        return cls(100.0 * float(host(gleu_score(stats))), int(host(stats.matches)),
                   int(host(stats.totals)), min_len, max_len, signature)

    def verbose(self) -> str:
        """``(matches = 8 total = 13)``, as ``bleusuite score -m gleu`` prints it."""
        return METRIC.verbose(np.array([[self.matches, self.totals]]),
                              GleuSettings(min_len=self.min_len, max_len=self.max_len))[0]


def corpus_gleu_result(
    hypotheses: Hypotheses[DeviceArray], references: References[DeviceArray],
    **options: Unpack[GleuCallOptions],
) -> GleuResult:
    """:func:`bleusuite.corpus_gleu` as a :class:`GleuResult` (same arguments; the score
    times 100).

    >>> result = corpus_gleu_result(["the cat sat"], [["the cat sat down"]], tokenize="13a")
    >>> result.format(signature=False), result.to_dict()["matches"]
    ('GLEU = 60.00 (matches = 6 total = 10)', 6)
    """
    checks.keywords(options, CALL_OPTIONS, "corpus_gleu_result")
    settings = GleuSettings.of_options(options)
    stats, _, nrefs = corpus_statistics_of(hypotheses, references, options, settings, True)
    return GleuResult.of_settings(stats, settings, nrefs)


def result_of_table(total: np.ndarray, settings: GleuSettings, nrefs: str,
                    given_tokens: bool = False) -> Any:
    """:func:`bleusuite.scores.registry.result` of this metric."""
    return GleuResult.of_settings(GleuStats.from_array(total), settings, nrefs)
