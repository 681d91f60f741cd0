"""BLEU's result object for corpus scores (:class:`BleuResult`, like sacrebleu's
``BLEUScore``): the score of :func:`bleusuite.corpus_bleu`, 0-100, with its precisions,
brevity penalty, lengths and signature.

>>> import json
>>> from bleusuite import corpus_bleu_result
>>> result = corpus_bleu_result(["The cat sat on the mat."], [["The cat sat on a mat."]],
...                             tokenize="13a", smooth="exp")
>>> print(result.format(signature=False))    # sacrebleu.corpus_bleu prints the same
BLEU = 48.89 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
>>> result.signature.rsplit("|", 1)[0]     # then version:bleusuite-<version>
'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp'
>>> round(result.score, 4), result.brevity_penalty     # sacrebleu's .score, 0-100
(48.8923, 1.0)
>>> json.loads(json.dumps(result.to_dict()))["precisions"][:2]
[85.71428571428571, 66.66666666666667]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bleusuite import backends, checks
from bleusuite.scores import rules
from bleusuite.scores.bleu import smoothing
from bleusuite.scores.bleu.entry import verbose_line
from bleusuite.scores.bleu.precisions import shown_precisions
from bleusuite.scores.bleu.sacrebleu_formula import exact_bleu
from bleusuite.scores.bleu.score import corpus_statistics_of, score_of
from bleusuite.scores.bleu.settings import CALL_OPTIONS, BleuOptions, BleuSettings
from bleusuite.scores.bleu.statistics import BleuStats
from bleusuite.scores.reports import ScoreResult, host, make_signature

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.array_types import DeviceArray, Hypotheses, References
    from bleusuite.scores.bleu.settings import BleuCallOptions

__all__ = ["RESULT_OPTIONS", "BleuResult", "BleuResultOptions", "corpus_bleu_result"]


class BleuResultOptions(BleuOptions, total=False):
    """The keyword arguments of :meth:`BleuResult.from_stats`: BLEU's settings, and what only
    fills the signature."""

    nrefs: int | str | None
    tokenize: str | None
    lowercase: bool
    ref_length: str


#: the names of :class:`BleuResultOptions`
RESULT_OPTIONS = BleuResultOptions.__optional_keys__


@dataclass(frozen=True)
class BleuResult(ScoreResult):
    """A corpus BLEU score with its parts, the numbers :meth:`format` prints: ``score`` and
    ``precisions`` on sacrebleu's 0-100 scale.

    Attributes:
        score: the BLEU score, 0-100: :func:`bleusuite.corpus_bleu` times 100 (sacrebleu's
            ``score`` to the last bit with its smoothing names).
        precisions: per order, the precisions reported beside the score, 0-100, as
            sacrebleu computes them (:func:`shown_precisions`).
        brevity_penalty: ``exp(1 - ref_len / hyp_len)`` when shorter, else 1 (0 if empty).
        hyp_len: hypothesis tokens in the corpus.
        ref_len: the chosen reference lengths (``ref_length``), summed.
        matches: clipped n-gram matches per order.
        totals: hypothesis n-grams per order.
        max_order: highest order.
        smooth: the smoothing name.
        smooth_value: its value, where it takes one.
        effective_order: sacrebleu's effective order.
        signature: every setting that changes the number, sacrebleu-style.
        ref_length: the rule that chose each sentence's reference length.
    """

    score: float
    precisions: tuple[float, ...]
    brevity_penalty: float
    hyp_len: int
    ref_len: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    max_order: int
    smooth: str
    smooth_value: float | None
    effective_order: bool
    signature: str
    ref_length: str = "closest"

    @property
    def ratio(self) -> float:
        """``hyp_len / ref_len`` (0 without reference tokens)."""
        return self.hyp_len / self.ref_len if self.ref_len else 0.0

    title = "BLEU"

    @classmethod
    def from_stats(cls, stats: BleuStats[Any],
                   **options: Unpack[BleuResultOptions]) -> BleuResult:
        """The result of corpus statistics (summed if per sentence) under the settings of
        :func:`bleusuite.bleu_score`; ``nrefs``, ``tokenize``, ``lowercase`` and
        ``ref_length`` only fill the signature.

        >>> import numpy as np
        >>> from bleusuite import bleu_statistics
        >>> stats = bleu_statistics(np.array([[1, 2, 3, 4, 5]]), np.array([[1, 2, 3, 4, 6]]))
        >>> result = BleuResult.from_stats(stats, smooth="method1")
        >>> round(result.score, 4), result.matches, result.totals
        (66.874, (4, 3, 2, 1), (5, 4, 3, 2))
        """
        checks.keywords(options, RESULT_OPTIONS, "from_stats")
        return cls.of_settings(BleuStats.summed(stats), BleuSettings.of_options(options),
                               options.get("nrefs"))

    @classmethod
    def of_settings(cls, stats: BleuStats[Any], config: BleuSettings,
                    nrefs: int | str | None) -> BleuResult:
        """The result of summed statistics under checked settings."""
        smooth, smooth_value, order = config.smooth, config.smooth_value, config.max_order
        if config.family == "sacrebleu" and config.weights is None:  # sacrebleu's digits
            score = float(exact_bleu(stats, smooth, smooth_value, config.effective_order,
                                     max_order=order).scores[0])
        else:
            score = 100.0 * float(host(score_of(stats, config)))
        hyp_len, ref_len = int(host(stats.hyp_len)), int(host(stats.ref_len))
        weights = None if config.weights is None else "/".join(f"{w:g}" for w in config.weights)
        signature = make_signature("bleu", config, nrefs=nrefs, extra={"w": weights})
        shown = shown_precisions(stats, order, smooth, smooth_value, scale=100.0)
        penalty = rules.brevity_penalty(backends.get_backend(), np.int64(hyp_len),
                                        np.int64(ref_len))
        return cls(
            score, tuple(shown.tolist()), float(penalty),
            hyp_len, ref_len, tuple(int(m) for m in host(stats.matches)[:order]),
            tuple(int(t) for t in host(stats.totals)[:order]), order, smooth,
            smoothing.SMOOTH_VALUE_DEFAULTS.get(smooth) if smooth_value is None else smooth_value,
            config.effective_order, signature.format(), config.ref_length)

    def verbose(self) -> str:
        """``60.2/... (BP = ...)``: sacrebleu's text after the score."""
        return verbose_line(self.precisions, self.brevity_penalty, self.hyp_len, self.ref_len)

    def to_dict(self) -> dict[str, Any]:
        """Plain Python values (``json.dumps`` takes them), as the fields hold them, with
        ``ratio`` after ``brevity_penalty``."""
        items = list(super().to_dict().items())
        return dict([*items[:4], ("ratio", self.ratio), *items[4:]])


def corpus_bleu_result(
    hypotheses: Hypotheses[DeviceArray], references: References[DeviceArray],
    **options: Unpack[BleuCallOptions],
) -> BleuResult:
    """:func:`bleusuite.corpus_bleu` as a :class:`BleuResult` (same arguments, same score).

    >>> import numpy as np
    >>> hyp = np.array([[11, 12, 13, 14, 15], [11, 12, 13, 14, 17]])
    >>> ref = np.array([[11, 12, 13, 14, 16], [11, 12, 13, 14, 16]])
    >>> result = corpus_bleu_result(hyp, ref)
    >>> round(result.score, 4), result.hyp_len, result.signature.split("|")[:4]
    (66.874, 10, ['nrefs:1', 'case:mixed', 'eff:no', 'tok:given'])
    >>> corpus_bleu_result(hyp, ref, ref_length="shortest").signature.split("|")[4:6]
    ['smooth:ignite/no_smooth', 'reflen:shortest']

    Raises:
        TypeError, ValueError: as :func:`bleusuite.corpus_bleu`.
    """
    checks.keywords(options, CALL_OPTIONS, "corpus_bleu_result")
    config = BleuSettings.of_options(options)
    stats, _, nrefs = corpus_statistics_of(hypotheses, references, options, config, True)
    return BleuResult.of_settings(stats, config, nrefs)


def result_of_table(total: np.ndarray, settings: BleuSettings, nrefs: str,
                    given_tokens: bool = False) -> Any:
    """:func:`bleusuite.scores.registry.result` of this metric."""
    return BleuResult.of_settings(BleuStats.from_array(total), settings, nrefs)
