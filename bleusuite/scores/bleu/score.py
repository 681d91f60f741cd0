"""BLEU: the public functions, and scores from statistics."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, SupportsIndex, overload

from bleusuite import checks
from bleusuite.backends.base import Backend
from bleusuite.inputs import mark_unreferenced, scoring_batch
from bleusuite.scores import rules
from bleusuite.scores.bleu import addone, ignite, nltk, sacrebleu, smoothing
from bleusuite.scores.bleu.statistics import BleuStats, bleu_statistics_of_batch

if TYPE_CHECKING:
    from bleusuite.array_types import ArrayT, Hypotheses, NumpyArray, References, Scores

__all__ = ["bleu_score", "corpus_bleu", "sentence_bleu"]


@dataclass(frozen=True)
class BleuConfig:
    """Validated scoring settings (everything that changes the number)."""

    order: int
    weights: tuple[float, ...] | None  # None: sacrebleu's own uniform mean of the logs
    smooth: str
    family: str
    smooth_value: float | None
    effective_order: bool

    @property
    def stats_order(self) -> int:
        """Orders the statistics must hold."""
        return max(self.order, smoothing.extra_orders(self.smooth))

    @classmethod
    def make(
        cls,
        max_order: Any,
        weights: Any,
        smooth: Any,
        smooth_value: Any,
        effective_order: Any,
    ) -> BleuConfig:
        family = smoothing.family_of(smooth)
        if weights is None:
            order = checks.order(4 if max_order is None else max_order, "max_order")
            uniform = tuple([1 / order] * order)
            resolved: tuple[float, ...] | None = None if family == "sacrebleu" else uniform
        else:
            given = None if max_order is None else checks.order(max_order, "max_order")
            resolved = checks.weights(weights, given)
            order = checks.order(len(resolved), "len(weights)")
        if not isinstance(effective_order, bool):
            raise TypeError(f"effective_order must be a bool; got {effective_order!r}")
        if effective_order and family != "sacrebleu":
            raise ValueError(
                "effective_order=True is sacrebleu's option: use it with smooth='none', "
                f"'floor', 'add-k' or 'exp' (got smooth={smooth!r})"
            )
        if effective_order and weights is not None:
            raise ValueError("effective_order=True averages uniformly: do not pass weights")
        value = smoothing.check_smooth_value(smooth, smooth_value)
        return cls(order, resolved, smooth, family, value, effective_order)


def score_of(stats: BleuStats[Any], config: BleuConfig) -> Any:
    if stats.max_order < config.stats_order:
        raise ValueError(
            f"stats: smooth={config.smooth!r} with {config.order} orders needs statistics up to "
            f"order {config.stats_order}; these hold {stats.max_order} (compute them with "
            f"max_order={config.stats_order})"
        )
    be = stats.backend
    if config.smooth == "method6":  # raises at once where reading the counts is free
        nltk.check_method6(be, stats, config.order)
    return be.compiled(_formula, static_argnums=(0, 2))(be, stats, config)


def _formula(be: Backend, stats: BleuStats[Any], config: BleuConfig) -> Any:
    weights = None
    if config.weights is not None:
        # filled on the device, not copied from the host: no transfer, so the call can be
        # captured in a CUDA graph
        if len(set(config.weights)) == 1:
            weights = be.full((len(config.weights),), config.weights[0], be.float64,
                              like=stats.matches)
        else:
            weights = be.concat(
                [be.full((1,), w, be.float64, like=stats.matches) for w in config.weights],
                axis=0,
            )
    if config.family == "nltk":
        epsilon = smoothing.smooth_value_of("method1", config.smooth_value)
        return nltk.nltk_bleu(be, stats, weights, config.order, config.smooth, epsilon)
    if config.family == "ignite":
        return ignite.ignite_bleu(be, stats, weights, config.order, config.smooth)
    if config.family in ("torchmetrics", "nmt"):
        return addone.addone_bleu(be, stats, weights, config.order, config.smooth)
    return sacrebleu.array_bleu(
        be, stats, weights, config.order, config.smooth, config.smooth_value,
        config.effective_order,
    )


@overload
def bleu_score(
    stats: BleuStats[NumpyArray],
    *,
    max_order: int | None = None,
    weights: Sequence[float] | None = None,
    smooth: str = "no_smooth",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> Scores: ...


@overload
def bleu_score(
    stats: BleuStats[ArrayT],
    *,
    max_order: int | None = None,
    weights: Sequence[float] | None = None,
    smooth: str = "no_smooth",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> ArrayT: ...


def bleu_score(
    stats: BleuStats[Any],
    *,
    max_order: int | None = None,
    weights: Sequence[float] | None = None,
    smooth: str = "no_smooth",
    smooth_value: float | None = None,
    effective_order: bool = False,
) -> Any:
    """BLEU from statistics: one score per entry of ``stats`` (or one for summed stats).

    Per-sentence statistics give sentence scores; ``stats.sum()`` gives the corpus score.
    The settings are those of :func:`sentence_bleu`.

    >>> import numpy as np
    >>> from bleusuite import bleu_statistics
    >>> stats = bleu_statistics(np.array([[1, 2, 3, 4, 5]]), np.array([[1, 2, 3, 4, 6]]))
    >>> bleu_score(stats).round(6)
    array([0.66874])
    >>> float(bleu_score(stats.sum(), smooth="exp")).__round__(6)
    0.66874
    """
    if not isinstance(stats, BleuStats):
        raise TypeError(f"stats must be a BleuStats; got {type(stats).__name__}")
    config = BleuConfig.make(max_order, weights, smooth, smooth_value, effective_order)
    return score_of(stats, config)


@overload
def sentence_bleu(
    hypotheses: Hypotheses[NumpyArray],
    references: References[NumpyArray],
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
    ref_length: str = "closest",
) -> Scores: ...


@overload
def sentence_bleu(
    hypotheses: Hypotheses[ArrayT],
    references: References[ArrayT],
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
    ref_length: str = "closest",
) -> ArrayT: ...


def sentence_bleu(
    hypotheses: Hypotheses[Any],
    references: References[Any],
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
    ref_length: str = "closest",
) -> Any:
    """BLEU of every hypothesis against its own references: shape (B,), float64.

    Args:
        hypotheses: (B, L) integer array (NumPy, or a torch / CuPy array); a list of 1-D
            integer arrays (ragged, e.g. one tensor per generated sequence); a list of token
            sequences (lists of ints, strings or any hashable tokens; ragged); or, with
            ``tokenize``, a list of strings.
        references: (B, L) array (one reference each) or (B, R, L); a list of 1-D arrays
            (one reference each); or, NLTK's form, a list with one list of reference token
            sequences (or 1-D arrays) per hypothesis; with ``tokenize``, per hypothesis a
            string or a list of strings. A reference made only of ``pad_id`` is absent, so
            rows may carry different numbers of references. Arrays on one side and token
            lists on the other are fine: the lists are moved once to the arrays' device.
        max_order: highest n-gram order; defaults to ``len(weights)``, or 4.
        weights: one weight per order (NLTK's ``weights``); default uniform ``1/max_order``.
        smooth: smoothing method; its name picks whose numbers you get exactly:
            NLTK ``"method0"``..``"method7"``, pytorch-ignite ``"no_smooth"`` (default),
            ``"smooth1"``, ``"nltk_smooth2"``, ``"smooth2"``, sacrebleu ``"none"``,
            ``"floor"``, ``"add-k"``, ``"exp"`` (sacrebleu scores divided by 100),
            torchmetrics' ``smooth=True`` ``"torchmetrics_smooth"`` (its ``smooth=False``
            is ``"no_smooth"``; both with ``ref_length="closest_first"``), or evaluate's
            ``bleu`` (the tensorflow/nmt script) with ``smooth=True``: ``"nmt_smooth"`` (its
            ``smooth=False`` is ``"no_smooth"``; both with ``ref_length="shortest"``).
        smooth_value: sacrebleu's value for ``"floor"`` (0.1) and ``"add-k"`` (1), or NLTK's
            epsilon for ``"method1"`` (0.1).
        effective_order: sacrebleu's ``effective_order`` (only with its smoothing names).
        pad_id: token id that is not part of any sentence (left or right padding).
        eos_id: token id that ends a sentence (it and everything after are ignored).
        tokenize: score text: the name of a sacrebleu tokenizer (``"13a"``, ``"intl"``,
            ``"zh"``, ``"char"``, ``"none"``, ``"ja-mecab"``, ``"ko-mecab"``; needs
            sacrebleu). Each string is tokenised as sacrebleu does and split on spaces, so
            sacrebleu's smoothing names give sacrebleu's numbers (/ 100). The smoothing
            default stays ``"no_smooth"``: for sacrebleu's ``sentence_bleu`` pass
            ``smooth="exp", effective_order=True``; for its ``corpus_bleu``, ``smooth="exp"``.
        lowercase: with ``tokenize``, lowercase everything first (sacrebleu's ``-lc``).
        ref_length: the reference length the brevity penalty compares with: ``"closest"``
            (NLTK, pytorch-ignite, sacrebleu: the shorter of equally close references),
            ``"closest_first"`` (torchmetrics: the first of them, in the order given) or
            ``"shortest"`` (the tensorflow/nmt script that evaluate's ``bleu`` runs).

    Returns:
        float64 scores in [0, 1], an array of the input's kind (NumPy for lists).

    Raises:
        TypeError, ValueError: for malformed input; the message names the argument.

    >>> import numpy as np
    >>> hyp = np.array([[11, 12, 13, 14, 15, 0], [11, 12, 0, 0, 0, 0]])
    >>> ref = np.array([[11, 12, 13, 14, 16, 0], [11, 12, 13, 0, 0, 0]])
    >>> sentence_bleu(hyp, ref, pad_id=0).round(4)
    array([0.6687, 0.    ])
    >>> sentence_bleu(hyp, ref, pad_id=0, smooth="exp", effective_order=True).round(4)
    array([0.6687, 0.6065])
    >>> sentence_bleu([["the", "cat", "sat"]], [[["the", "cat", "sat"], ["a", "cat"]]],
    ...               smooth="method1").round(4)     # no 4-gram: NLTK's epsilon / 1
    array([0.5623])
    >>> sentence_bleu(["The cat sat."], ["The cat sat!"], tokenize="13a", smooth="exp",
    ...               effective_order=True).round(4)    # sacrebleu.sentence_bleu / 100
    array([0.5946])
    >>> refs = [["a b c d e f", "a b c d"]]    # 6 and 4 words: both 1 away from 5
    >>> sentence_bleu(["a b c d e"], refs, tokenize="none", ref_length="closest_first")
    array([0.81873075])
    """
    config = BleuConfig.make(max_order, weights, smooth, smooth_value, effective_order)
    ref_length = rules.check_ref_length(ref_length)
    batch = scoring_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id,
                          tokenize=tokenize, lowercase=lowercase)
    stats = bleu_statistics_of_batch(batch, config.stats_order, ref_length)
    return batch.to_caller(mark_unreferenced(batch, score_of(stats, config)))


@overload
def corpus_bleu(
    hypotheses: Hypotheses[NumpyArray],
    references: References[NumpyArray],
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
    ref_length: str = "closest",
) -> Scores: ...


@overload
def corpus_bleu(
    hypotheses: Hypotheses[ArrayT],
    references: References[ArrayT],
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
    ref_length: str = "closest",
) -> ArrayT: ...


def corpus_bleu(
    hypotheses: Hypotheses[Any],
    references: References[Any],
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
    ref_length: str = "closest",
) -> Any:
    """Corpus BLEU of the batch: the statistics of all sentences summed, then scored.

    Same arguments as :func:`sentence_bleu`; returns a 0-d float64 array
    (:func:`bleusuite.corpus_bleu_result` returns the same score with its precisions,
    brevity penalty, lengths and signature). With NLTK's
    ``"method5"``..``"method7"`` the extra terms NLTK takes from the *last* sentence
    only (its 5-gram precision, its n-gram counts) come from the corpus sums here.

    >>> import numpy as np
    >>> hyp = np.array([[11, 12, 13, 14, 15], [11, 12, 13, 14, 17]])
    >>> ref = np.array([[11, 12, 13, 14, 16], [11, 12, 13, 14, 16]])
    >>> print(f"{float(corpus_bleu(hyp, ref)):.6f}")
    0.668740

    Raises:
        ValueError: for an empty batch (a corpus score needs at least one sentence).
    """
    config = BleuConfig.make(max_order, weights, smooth, smooth_value, effective_order)
    ref_length = rules.check_ref_length(ref_length)
    batch = scoring_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id,
                          tokenize=tokenize, lowercase=lowercase, corpus="corpus_bleu")
    stats = bleu_statistics_of_batch(batch, config.stats_order, ref_length)
    return batch.to_caller(mark_unreferenced(batch, score_of(stats.sum(), config), corpus=True))
