"""Result objects for corpus scores: the number, and everything that explains it.

:func:`bleusuite.corpus_bleu` returns a bare 0-d array, the fastest thing to hand on. When a
report is wanted (precisions, brevity penalty, lengths, a signature to print beside the
number, a dict for ``json.dumps``), :func:`corpus_bleu_result` / :func:`corpus_gleu_result`
take the same inputs and return a :class:`BleuResult` / :class:`GleuResult`, like
sacrebleu's ``BLEUScore``; :meth:`BleuResult.from_stats` builds one from statistics already
summed. The score inside is the one :func:`bleusuite.bleu_score` computes, bit for bit.

>>> import json
>>> from bleusuite import corpus_bleu_result
>>> result = corpus_bleu_result(["The cat sat on the mat."], [["The cat sat on a mat."]],
...                             tokenize="13a", smooth="exp")
>>> print(result.format(signature=False))    # sacrebleu.corpus_bleu prints the same
BLEU = 48.89 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
>>> result.signature.rsplit("|", 1)[0]     # then version:bleusuite-<version>
'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp'
>>> round(float(result), 6), result.brevity_penalty
(0.488923, 1.0)
>>> json.loads(json.dumps(result.to_dict()))["precisions"][:2]
[0.8571428571428571, 0.6666666666666666]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as np

from bleusuite import backends, checks, rules, smoothing
from bleusuite.bleu import BleuConfig, _score
from bleusuite.gleu import gleu_score
from bleusuite.inputs import Batch
from bleusuite.scores.sacrebleu import smoothed_precisions
from bleusuite.stats import (
    BleuStats,
    GleuStats,
    bleu_statistics_of_batch,
    gleu_statistics_of_batch,
    map_arrays,
)
from bleusuite.text import scoring_batch

if TYPE_CHECKING:
    from bleusuite.array_types import DeviceArray, Hypotheses, References

__all__ = [
    "BleuResult",
    "GleuResult",
    "corpus_bleu_result",
    "corpus_gleu_result",
    "shown_precisions",
]

#: ``tok:`` of the signature when the caller gives tokens (ids or token lists)
GIVEN_TOKENS = "given"


def _version() -> str:
    from bleusuite import __version__

    return f"bleusuite-{__version__}"


def _signature(items: dict[str, Any]) -> str:
    return "|".join(f"{key}:{value}" for key, value in items.items() if value is not None)


def _host(a: Any) -> np.ndarray:
    """A statistics array as NumPy (statistics are a few numbers: one small transfer)."""
    if isinstance(a, np.ndarray):
        return a
    return np.asarray(backends.get_backend(a).to_numpy(a))


def shown_precisions(stats: BleuStats[Any], max_order: int, smooth: str,
                     smooth_value: float | None, scale: float = 1.0) -> np.ndarray:
    """The n-gram precisions (0-1, or 0-``scale``: the command line shows 0-100) reported
    beside a BLEU score, shape ``(..., max_order)``.

    For sacrebleu's smoothing names these are the smoothed precisions sacrebleu reports
    (its ``BLEUScore.precisions`` / 100); for NLTK and pytorch-ignite names, the plain
    precisions with the family's denominators. The score itself comes from
    :func:`bleusuite.bleu_score`, not from these.

    >>> import numpy as np
    >>> from bleusuite import bleu_statistics
    >>> stats = bleu_statistics(np.array([[1, 2, 3]]), np.array([[1, 2, 4]])).sum()
    >>> shown_precisions(stats, 4, "exp", None).round(4).tolist()
    [0.6667, 0.5, 0.5, 0.0]
    """
    family = smoothing.family_of(smooth)
    stats = map_arrays(stats, _host)
    correct = stats.matches[..., :max_order].astype(np.float64)
    if family != "sacrebleu":
        source = stats.clamped_totals if family == "nltk" else stats.totals
        denominator = np.maximum(source[..., :max_order].astype(np.float64), 1.0)
        result: np.ndarray = scale * correct / denominator
        return result
    any_correct = correct.sum(axis=-1, keepdims=True) > 0
    precisions, _ = smoothed_precisions(backends.get_backend(), stats.matches[..., :max_order],
                                        stats.totals[..., :max_order], smooth, smooth_value,
                                        scale=scale)
    shown: np.ndarray = np.where(any_correct, precisions, 0.0)
    return shown


def _num_refs(batch: Batch) -> str:
    counts = np.unique(_host(batch.backend.sum_(batch.backend.to_int64(batch.ref_present),
                                                axis=1)))
    return str(int(counts[0])) if len(counts) == 1 else "var"


@dataclass(frozen=True)
class BleuResult:
    """A corpus BLEU score with its parts, on the 0-1 scale (``format`` prints 0-100).

    Attributes:
        score: the BLEU score, as :func:`bleusuite.corpus_bleu` returns it.
        precisions: per order, the precisions reported beside the score (sacrebleu's
            smoothed ones for its smoothing names; see :func:`shown_precisions`).
        brevity_penalty: ``exp(1 - ref_len / hyp_len)`` when shorter, else 1 (0 if empty).
        hyp_len: hypothesis tokens in the corpus.
        ref_len: closest reference lengths, summed.
        matches: clipped n-gram matches per order.
        totals: hypothesis n-grams per order.
        max_order: highest order.
        smooth: the smoothing name.
        smooth_value: its value, where it takes one.
        effective_order: sacrebleu's effective order.
        signature: every setting that changes the number, sacrebleu-style.
        percent_precisions: the precisions on sacrebleu's 0-100 scale, computed as sacrebleu
            computes them (``100 * m / t``, which can round otherwise than ``100 *
            precision``: 23/80 prints 28.8, not 28.7): what :meth:`format` prints. Empty
            for a result built without them; ``format`` then scales ``precisions``.
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
    percent_precisions: tuple[float, ...] = field(default=(), repr=False, compare=False)

    @property
    def ratio(self) -> float:
        """``hyp_len / ref_len`` (0 without reference tokens)."""
        return self.hyp_len / self.ref_len if self.ref_len else 0.0

    def __float__(self) -> float:
        return self.score

    @classmethod
    def from_stats(
        cls,
        stats: BleuStats[Any],
        *,
        max_order: int | None = None,
        weights: Sequence[float] | None = None,
        smooth: str = "no_smooth",
        smooth_value: float | None = None,
        effective_order: bool = False,
        nrefs: int | str | None = None,
        tokenize: str | None = None,
        lowercase: bool = False,
    ) -> BleuResult:
        """The result of corpus statistics (summed with ``.sum()`` if per sentence).

        The settings are those of :func:`bleusuite.bleu_score`; ``nrefs``, ``tokenize`` and
        ``lowercase`` only fill the signature.

        >>> import numpy as np
        >>> from bleusuite import bleu_statistics
        >>> stats = bleu_statistics(np.array([[1, 2, 3, 4, 5]]), np.array([[1, 2, 3, 4, 6]]))
        >>> result = BleuResult.from_stats(stats, smooth="method1")
        >>> round(result.score, 6), result.matches, result.totals
        (0.66874, (4, 3, 2, 1), (5, 4, 3, 2))
        """
        if not isinstance(stats, BleuStats):
            raise TypeError(f"stats must be a BleuStats; got {type(stats).__name__}")
        if stats.matches.ndim > 1:
            stats = stats.sum()
        config = BleuConfig.make(max_order, weights, smooth, smooth_value, effective_order)
        score = float(_host(_score(stats, config)))
        order = config.order
        hyp_len, ref_len = int(_host(stats.hyp_len)), int(_host(stats.ref_len))
        value = (smoothing.SMOOTH_VALUE_DEFAULTS.get(smooth) if smooth_value is None
                 else smooth_value)
        signature = _signature({
            "nrefs": nrefs,
            "case": "lc" if lowercase else "mixed",
            "eff": "yes" if effective_order else "no",
            "tok": GIVEN_TOKENS if tokenize is None else tokenize,
            "smooth": smoothing.signature_item(smooth, smooth_value),
            "w": None if weights is None else "/".join(f"{w:g}" for w in config.weights or ()),
            "version": _version(),
        })
        return cls(
            score=score,
            precisions=tuple(shown_precisions(stats, order, smooth, smooth_value).tolist()),
            brevity_penalty=float(rules.brevity_penalty(backends.get_backend(),
                                                        np.int64(hyp_len), np.int64(ref_len))),
            hyp_len=hyp_len,
            ref_len=ref_len,
            matches=tuple(int(m) for m in _host(stats.matches)[:order]),
            totals=tuple(int(t) for t in _host(stats.totals)[:order]),
            max_order=order,
            smooth=smooth,
            smooth_value=value,
            effective_order=effective_order,
            signature=signature,
            percent_precisions=tuple(
                shown_precisions(stats, order, smooth, smooth_value, scale=100.0).tolist()),
        )

    def format(self, width: int = 2, *, score_only: bool = False, signature: bool = True) -> str:
        """sacrebleu's text line (0-100 scale): ``BLEU|signature = 30.81 60.2/... (BP = ...)``.

        Args:
            width: digits after the decimal point of the score.
            score_only: only the score.
            signature: include the signature after ``BLEU|``.
        """
        score = f"{100 * self.score:.{width}f}"
        if score_only:
            return score
        shown = self.percent_precisions or tuple(100 * p for p in self.precisions)
        precisions = "/".join(f"{p:.1f}" for p in shown)
        name = f"BLEU|{self.signature}" if signature else "BLEU"
        return (
            f"{name} = {score} {precisions} (BP = {self.brevity_penalty:.3f} ratio = "
            f"{self.ratio:.3f} hyp_len = {self.hyp_len:d} ref_len = {self.ref_len:d})"
        )

    def __str__(self) -> str:
        return self.format()

    def to_dict(self) -> dict[str, Any]:
        """Plain Python values (``json.dumps`` takes them), scores on the 0-1 scale."""
        return {
            "name": "BLEU",
            "score": self.score,
            "precisions": list(self.precisions),
            "brevity_penalty": self.brevity_penalty,
            "ratio": self.ratio,
            "hyp_len": self.hyp_len,
            "ref_len": self.ref_len,
            "matches": list(self.matches),
            "totals": list(self.totals),
            "max_order": self.max_order,
            "smooth": self.smooth,
            "smooth_value": self.smooth_value,
            "effective_order": self.effective_order,
            "signature": self.signature,
        }


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
        signature = _signature({
            "nrefs": nrefs,
            "case": "lc" if lowercase else "mixed",
            "tok": GIVEN_TOKENS if tokenize is None else tokenize,
            "ngram": f"{min_len}-{max_len}",
            "version": _version(),
        })
        return cls(float(_host(gleu_score(stats))), int(_host(stats.matches)),
                   int(_host(stats.totals)), min_len, max_len, signature)

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


def corpus_bleu_result(
    hypotheses: Hypotheses[DeviceArray],
    references: References[DeviceArray],
    *,
    max_order: int | None = None,
    weights: Sequence[float] | None = None,
    smooth: str = "no_smooth",
    smooth_value: float | None = None,
    effective_order: bool = False,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
    tokenize: str | None = None,
    lowercase: bool = False,
) -> BleuResult:
    """:func:`bleusuite.corpus_bleu` as a :class:`BleuResult` (same arguments, same score).

    >>> import numpy as np
    >>> hyp = np.array([[11, 12, 13, 14, 15], [11, 12, 13, 14, 17]])
    >>> ref = np.array([[11, 12, 13, 14, 16], [11, 12, 13, 14, 16]])
    >>> result = corpus_bleu_result(hyp, ref)
    >>> round(result.score, 6), result.hyp_len, result.signature.split("|")[:4]
    (0.66874, 10, ['nrefs:1', 'case:mixed', 'eff:no', 'tok:given'])

    Raises:
        TypeError, ValueError: as :func:`bleusuite.corpus_bleu`.
    """
    config = BleuConfig.make(max_order, weights, smooth, smooth_value, effective_order)
    batch = scoring_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id,
                          tokenize=tokenize, lowercase=lowercase, corpus="corpus_bleu")
    stats = bleu_statistics_of_batch(batch, config.stats_order).sum()
    return BleuResult.from_stats(
        stats, max_order=max_order, weights=weights, smooth=smooth, smooth_value=smooth_value,
        effective_order=effective_order, nrefs=_num_refs(batch), tokenize=tokenize,
        lowercase=lowercase,
    )


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
    return GleuResult.from_stats(stats, min_len=min_len, max_len=max_len, nrefs=_num_refs(batch),
                                 tokenize=tokenize, lowercase=lowercase)
