"""BLEU: the public functions, and scores from statistics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from bleusuite import checks
from bleusuite.backends import trace
from bleusuite.backends.base import Backend
from bleusuite.counting import count_matches
from bleusuite.inputs import Batch, mark_unreferenced
from bleusuite.inputs.normalize import options_batch, options_corpus_batches
from bleusuite.scores.bleu import (
    addone_formula,
    ignite_formula,
    nltk_formula,
    sacrebleu_formula,
    smoothing,
)
from bleusuite.scores.bleu.settings import CALL_OPTIONS, OPTIONS, BleuSettings
from bleusuite.scores.bleu.statistics import (
    BleuStats,
    bleu_statistics_from_counts,
    bleu_statistics_of_batch,
)
from bleusuite.scores.statistics import corpus_statistics

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.array_types import ArrayT, Hypotheses, NumpyArray, References, Scores
    from bleusuite.scores.bleu.settings import BleuCallOptions, BleuOptions

__all__ = ["bleu_score", "corpus_bleu", "corpus_statistics_of", "score_of", "scores_from_counts",
           "sentence_bleu", "sentence_scores"]


def score_of(stats: BleuStats[Any], settings: BleuSettings) -> Any:
    """The score of statistics (per sentence, or summed)."""
    if stats.max_order < settings.stats_order:
        raise ValueError(
            f"stats: smooth={settings.smooth!r} with {settings.max_order} orders needs statistics "
            f"up to order {settings.stats_order}; these hold {stats.max_order} (compute them "
            f"with max_order={settings.stats_order})"
        )
    be = stats.backend
    if settings.smooth == "method6":  # raises at once where reading the counts is free
        nltk_formula.check_method6(be, stats, settings.max_order)
    if be.name == "numpy" and settings.smooth != "method6":
        table = stats.to_array()
        scores = trace.by_rows(_formula_of_table, (settings,), [np.atleast_2d(table)])
        if scores is not None:
            return scores if table.ndim == 2 else scores.reshape(())
    return be.compiled(_formula, static_argnums=(0, 2))(be, stats, settings)


def _formula_of_table(be: Backend, table: Any, settings: BleuSettings) -> Any:
    """:func:`_formula` of statistics in their ``to_array`` form."""
    return _formula(be, BleuStats.from_array(table), settings)


def scores_from_counts(be: Backend, hyp_len: Any, ref_len: Any, present: Any, clipped: Any,
                       settings: BleuSettings, far: int) -> Any:
    """Sentence scores from the lengths, the references present and the clipped matches."""
    stats = bleu_statistics_from_counts(be, hyp_len, ref_len, present, clipped, far=far,
                                        ref_length=settings.ref_length)
    return _formula(be, stats, settings)


def sentence_scores(batch: Batch, settings: BleuSettings) -> Any:
    """The sentence scores of a normalised batch (small host batches by the traced face)."""
    if batch.on_host and settings.smooth != "method6" and batch.size <= trace.ROW_LIMIT:
        clipped = count_matches(batch, settings.stats_order).clipped
        scores = trace.by_rows(scores_from_counts, (settings, 1 << 62), [
            batch.hyp_len, batch.ref_len, batch.ref_present, clipped])
        if scores is not None:
            return scores
    stats = bleu_statistics_of_batch(batch, settings.stats_order, settings.ref_length)
    return mark_unreferenced(batch, score_of(stats, settings))


def _formula(be: Backend, stats: BleuStats[Any], settings: BleuSettings) -> Any:
    weights = None
    uniform = settings.uniform_weights
    if uniform is not None:
        # filled on the device, not copied from the host: no transfer, so the call can be
        # captured in a CUDA graph
        if len(set(uniform)) == 1:
            weights = be.full((len(uniform),), uniform[0], be.float64, like=stats.matches)
        else:
            weights = be.concat(
                [be.full((1,), w, be.float64, like=stats.matches) for w in uniform], axis=0,
            )
    order, smooth = settings.max_order, settings.smooth
    if settings.family == "nltk":
        epsilon = smoothing.smooth_value_of("method1", settings.smooth_value)
        return nltk_formula.nltk_bleu(be, stats, weights, order, smooth, epsilon)
    if settings.family == "ignite":
        return ignite_formula.ignite_bleu(be, stats, weights, order, smooth)
    if settings.family in ("torchmetrics", "nmt"):
        return addone_formula.addone_bleu(be, stats, weights, order, smooth)
    scores = sacrebleu_formula.sacrebleu_scores(be, stats, weights, order, smooth,
                                                settings.smooth_value, settings.effective_order)
    return scores[0] / 100.0  # sacrebleu's score / 100


@overload
def bleu_score(stats: BleuStats[NumpyArray], **options: Unpack[BleuOptions]) -> Scores: ...


@overload
def bleu_score(stats: BleuStats[ArrayT], **options: Unpack[BleuOptions]) -> ArrayT: ...


def bleu_score(stats: BleuStats[Any], **options: Unpack[BleuOptions]) -> Any:
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
    checks.keywords(options, OPTIONS, "bleu_score")
    return score_of(stats, BleuSettings.of_options(options))


@overload
def sentence_bleu(
    hypotheses: Hypotheses[NumpyArray], references: References[NumpyArray],
    **options: Unpack[BleuCallOptions],
) -> Scores: ...


@overload
def sentence_bleu(
    hypotheses: Hypotheses[ArrayT], references: References[ArrayT],
    **options: Unpack[BleuCallOptions],
) -> ArrayT: ...


def sentence_bleu(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[BleuCallOptions],
) -> Any:
    """BLEU of every hypothesis against its own references: shape (B,), float64.

    Args:
        hypotheses: (B, L) integer array (NumPy, torch, CuPy, JAX); a list of 1-D integer
            arrays (ragged); a list of token sequences (any hashable tokens); or, with
            ``tokenize``, a list of strings.
        references: (B, L) or (B, R, L) array; a list of 1-D arrays (one reference each);
            NLTK's form, per hypothesis a list of reference token sequences (or 1-D arrays);
            with ``tokenize``, per hypothesis a string or a list of strings. A reference of
            only ``pad_id`` is absent (rows may have different numbers of references).
            Arrays on one side and token lists on the other are fine.
        max_order: highest n-gram order; defaults to ``len(weights)``, or 4.
        weights: one weight per order (NLTK's ``weights``); default uniform ``1/max_order``.
        smooth: smoothing method; its name picks whose numbers you get exactly: NLTK
            ``"method0"``..``"method7"``; pytorch-ignite ``"no_smooth"``, ``"smooth1"``,
            ``"nltk_smooth2"``, ``"smooth2"``; sacrebleu ``"none"``, ``"floor"``, ``"add-k"``,
            ``"exp"`` (its scores / 100); torchmetrics' ``smooth=True``
            ``"torchmetrics_smooth"`` (with ``ref_length="closest_first"``); evaluate's
            ``bleu`` with ``smooth=True`` ``"nmt_smooth"`` (with ``ref_length="shortest"``);
            their ``smooth=False`` is ``"no_smooth"``. Default (None): ``"no_smooth"`` for
            tokens, ``"exp"`` for text (``tokenize`` given), as sacrebleu.
        smooth_value: sacrebleu's value for ``"floor"`` (0.1) and ``"add-k"`` (1), or NLTK's
            epsilon for ``"method1"`` (0.1).
        effective_order: sacrebleu's ``effective_order`` (only with its smoothing names).
            Default (None): True for the sentence scores of text with sacrebleu's
            smoothing (as ``sacrebleu.sentence_bleu``), else False.
        pad_id: token id that is not part of any sentence (left or right padding).
        eos_id: token id that ends a sentence (it and everything after are ignored).
        tokenize: score text: the name of a sacrebleu tokenizer (``"13a"``, ``"intl"``,
            ``"zh"``, ``"char"``, ``"none"``, ``"ja-mecab"``, ``"ko-mecab"``; needs
            sacrebleu); with the default smoothing text gives ``sacrebleu.sentence_bleu`` /
            ``corpus_bleu``'s numbers (/ 100).
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
    >>> sentence_bleu(["The cat sat."], ["The cat sat!"], tokenize="13a").round(4)
    array([0.5946])

    The last is ``sacrebleu.sentence_bleu("The cat sat.", ["The cat sat!"]).score / 100``:
    text takes sacrebleu's smoothing (``"exp"``, with effective order) unless told
    otherwise.
    >>> refs = [["a b c d e f", "a b c d"]]    # 6 and 4 words: both 1 away from 5
    >>> sentence_bleu(["a b c d e"], refs, tokenize="none", ref_length="closest_first")
    array([0.81873075])
    """
    checks.keywords(options, CALL_OPTIONS, "sentence_bleu")
    settings = BleuSettings.of_options(options, sentence=True)
    batch = options_batch(hypotheses, references, options, settings)
    return batch.to_caller(sentence_scores(batch, settings))


@overload
def corpus_bleu(
    hypotheses: Hypotheses[NumpyArray], references: References[NumpyArray],
    **options: Unpack[BleuCallOptions],
) -> Scores: ...


@overload
def corpus_bleu(
    hypotheses: Hypotheses[ArrayT], references: References[ArrayT],
    **options: Unpack[BleuCallOptions],
) -> ArrayT: ...


def corpus_bleu(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[BleuCallOptions],
) -> Any:
    """Corpus BLEU of the batch: the statistics of all sentences summed, then scored.

    Same arguments as :func:`sentence_bleu`; returns a 0-d float64 array
    (:func:`bleusuite.corpus_bleu_result`: the same score with its parts). With NLTK's
    ``"method5"``..``"method7"`` the terms NLTK takes from the *last* sentence only come
    from the corpus sums here.

    >>> import numpy as np
    >>> hyp = np.array([[11, 12, 13, 14, 15], [11, 12, 13, 14, 17]])
    >>> ref = np.array([[11, 12, 13, 14, 16], [11, 12, 13, 14, 16]])
    >>> print(f"{float(corpus_bleu(hyp, ref)):.6f}")
    0.668740

    Raises:
        ValueError: for an empty batch (a corpus score needs at least one sentence).
    """
    checks.keywords(options, CALL_OPTIONS, "corpus_bleu")
    settings = BleuSettings.of_options(options)
    stats, batch, _ = corpus_statistics_of(hypotheses, references, options, settings)
    return batch.to_caller(mark_unreferenced(batch, score_of(stats, settings), corpus=True))


def corpus_statistics_of(hypotheses: Any, references: Any, options: Mapping[str, Any],
                         settings: BleuSettings,
                         with_nrefs: bool = False) -> tuple[BleuStats[Any], Batch, str | None]:
    """:func:`bleusuite.scores.statistics.corpus_statistics` of a call's arguments."""
    batches = options_corpus_batches(hypotheses, references, options, settings, "corpus_bleu")
    return corpus_statistics(batches, lambda b: bleu_statistics_of_batch(
        b, settings.stats_order, settings.ref_length), with_nrefs)
