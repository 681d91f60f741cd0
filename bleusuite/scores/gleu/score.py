"""GLEU (Google BLEU, as NLTK's ``gleu_score``): the public functions, and scores from
statistics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, overload

from bleusuite import checks
from bleusuite.backends import trace
from bleusuite.backends.base import Backend
from bleusuite.counting import count_matches
from bleusuite.inputs import Batch, mark_unreferenced
from bleusuite.inputs.normalize import options_batch, options_corpus_batches
from bleusuite.scores.gleu.settings import CALL_OPTIONS, GleuSettings
from bleusuite.scores.gleu.statistics import (
    GleuStats,
    gleu_statistics_from_counts,
    gleu_statistics_of_batch,
)
from bleusuite.scores.statistics import corpus_statistics

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.array_types import ArrayT, Hypotheses, NumpyArray, References, Scores
    from bleusuite.scores.gleu.settings import GleuCallOptions

__all__ = ["corpus_gleu", "corpus_statistics_of", "formula", "gleu_score", "scores_from_counts",
           "sentence_gleu", "sentence_scores"]


@overload
def gleu_score(stats: GleuStats[NumpyArray]) -> Scores: ...


@overload
def gleu_score(stats: GleuStats[ArrayT]) -> ArrayT: ...


def gleu_score(stats: GleuStats[Any]) -> Any:
    """GLEU from statistics: ``matches / totals`` (0 where ``totals`` is 0).

    >>> import numpy as np
    >>> from bleusuite import gleu_statistics
    >>> stats = gleu_statistics(np.array([[1, 2, 3], [4, 5, 6]]), np.array([[1, 2, 4], [4, 5, 6]]))
    >>> gleu_score(stats).tolist(), float(gleu_score(stats.sum()))
    ([0.5, 1.0], 0.75)
    """
    if not isinstance(stats, GleuStats):
        raise TypeError(f"stats must be a GleuStats; got {type(stats).__name__}")
    return formula(stats.backend, stats.matches, stats.totals)


def formula(be: Backend, matches: Any, totals: Any) -> Any:
    """GLEU's arithmetic, the one place it is written: ``matches / totals``, 0 where
    ``totals`` is 0."""
    present = totals > 0
    return be.where(present, be.to_float64(matches) / be.where(present, be.to_float64(totals),
                                                                 1.0), 0.0)


def scores_from_counts(be: Backend, hyp_len: Any, ref_len: Any, present: Any, per_reference: Any,
                       min_len: int, max_len: int) -> Any:
    """Sentence scores from the lengths, the references present and the clipped matches per
    reference."""
    stats = gleu_statistics_from_counts(be, per_reference, hyp_len, ref_len, present, min_len,
                                        max_len)
    return formula(be, stats.matches, stats.totals)


def sentence_scores(batch: Batch, settings: GleuSettings) -> Any:
    """The sentence scores of a normalised batch (small host batches by the traced face)."""
    if batch.on_host and batch.size <= trace.ROW_LIMIT:
        counts = count_matches(batch, settings.max_len, per_reference=True).per_reference
        assert counts is not None  # asked for
        scores = trace.by_rows(scores_from_counts, (settings.min_len, settings.max_len), [
            batch.hyp_len, batch.ref_len, batch.ref_present, counts])
        if scores is not None:
            return scores
    stats = gleu_statistics_of_batch(batch, settings.min_len, settings.max_len)
    return mark_unreferenced(batch, gleu_score(stats))


@overload
def sentence_gleu(
    hypotheses: Hypotheses[NumpyArray], references: References[NumpyArray],
    **options: Unpack[GleuCallOptions],
) -> Scores: ...


@overload
def sentence_gleu(
    hypotheses: Hypotheses[ArrayT], references: References[ArrayT],
    **options: Unpack[GleuCallOptions],
) -> ArrayT: ...


def sentence_gleu(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[GleuCallOptions],
) -> Any:
    """GLEU of every hypothesis (NLTK's ``sentence_gleu``): shape (B,), float64.

    n-grams of orders ``min_len``..``max_len`` are pooled; against each reference,
    ``tp`` = shared n-grams (as multisets) and ``n_all`` = max(hypothesis n-grams, reference
    n-grams); the reference with the best ``tp / n_all`` is kept (the first on ties), and
    the score is ``tp / n_all``. Inputs as in :func:`bleusuite.sentence_bleu`, ``tokenize``
    and ``lowercase`` (text, tokenised as sacrebleu does) included.

    >>> import numpy as np
    >>> sentence_gleu(np.array([[1, 2, 3, 4]]), np.array([[1, 2, 3, 5]])).round(4)
    array([0.6])
    >>> sentence_gleu(["The cat sat."], ["the cat sat!"], tokenize="13a", lowercase=True)
    array([0.6])
    """
    checks.keywords(options, CALL_OPTIONS, "sentence_gleu")
    settings = GleuSettings.of_options(options)
    batch = options_batch(hypotheses, references, options, settings)
    return batch.to_caller(sentence_scores(batch, settings))


@overload
def corpus_gleu(
    hypotheses: Hypotheses[NumpyArray], references: References[NumpyArray],
    **options: Unpack[GleuCallOptions],
) -> Scores: ...


@overload
def corpus_gleu(
    hypotheses: Hypotheses[ArrayT], references: References[ArrayT],
    **options: Unpack[GleuCallOptions],
) -> ArrayT: ...


def corpus_gleu(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[GleuCallOptions],
) -> Any:
    """Corpus GLEU (NLTK's ``corpus_gleu``): sum of matches / sum of totals, a 0-d array.

    Inputs as in :func:`sentence_gleu`; :func:`bleusuite.corpus_gleu_result` returns the
    same score as a :class:`bleusuite.GleuResult` (matches, totals, signature).

    >>> import numpy as np
    >>> print(float(corpus_gleu(np.array([[1, 2, 3, 4], [5, 6, 7, 8]]),
    ...                         np.array([[1, 2, 3, 5], [5, 6, 7, 8]]))))
    0.8

    Raises:
        ValueError: for an empty batch.
    """
    checks.keywords(options, CALL_OPTIONS, "corpus_gleu")
    settings = GleuSettings.of_options(options)
    stats, batch, _ = corpus_statistics_of(hypotheses, references, options, settings)
    return batch.to_caller(mark_unreferenced(batch, gleu_score(stats), corpus=True))


def corpus_statistics_of(hypotheses: Any, references: Any, options: Mapping[str, Any],
                         settings: GleuSettings,
                         with_nrefs: bool = False) -> tuple[GleuStats[Any], Batch, str | None]:
    """:func:`bleusuite.scores.statistics.corpus_statistics` of a call's arguments."""
    batches = options_corpus_batches(hypotheses, references, options, settings, "corpus_gleu")
    return corpus_statistics(batches, lambda b: gleu_statistics_of_batch(
        b, settings.min_len, settings.max_len), with_nrefs)
