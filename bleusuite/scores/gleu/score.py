"""GLEU (Google BLEU, as NLTK's ``gleu_score``): the public functions, and scores from
statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, SupportsIndex, overload

from bleusuite import checks
from bleusuite.inputs import mark_unreferenced, scoring_batch
from bleusuite.scores.gleu.statistics import GleuStats, gleu_statistics_of_batch

if TYPE_CHECKING:
    from bleusuite.array_types import ArrayT, Hypotheses, NumpyArray, References, Scores

__all__ = ["corpus_gleu", "gleu_score", "sentence_gleu"]


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
    be = stats.backend
    matches = be.to_float64(stats.matches)
    totals = be.to_float64(stats.totals)
    return be.where(stats.totals > 0, matches / be.where(stats.totals > 0, totals, 1.0), 0.0)


@overload
def sentence_gleu(
    hypotheses: Hypotheses[NumpyArray],
    references: References[NumpyArray],
    *,
    min_len: int = 1,
    max_len: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
    tokenize: str | None = None,
    lowercase: bool = False,
) -> Scores: ...


@overload
def sentence_gleu(
    hypotheses: Hypotheses[ArrayT],
    references: References[ArrayT],
    *,
    min_len: int = 1,
    max_len: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
    tokenize: str | None = None,
    lowercase: bool = False,
) -> ArrayT: ...


def sentence_gleu(
    hypotheses: Hypotheses[Any],
    references: References[Any],
    *,
    min_len: int = 1,
    max_len: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
    tokenize: str | None = None,
    lowercase: bool = False,
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
    min_len, max_len = checks.gleu_orders(min_len, max_len)
    batch = scoring_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id,
                          tokenize=tokenize, lowercase=lowercase)
    scores = gleu_score(gleu_statistics_of_batch(batch, min_len, max_len))
    return batch.to_caller(mark_unreferenced(batch, scores))


@overload
def corpus_gleu(
    hypotheses: Hypotheses[NumpyArray],
    references: References[NumpyArray],
    *,
    min_len: int = 1,
    max_len: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
    tokenize: str | None = None,
    lowercase: bool = False,
) -> Scores: ...


@overload
def corpus_gleu(
    hypotheses: Hypotheses[ArrayT],
    references: References[ArrayT],
    *,
    min_len: int = 1,
    max_len: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
    tokenize: str | None = None,
    lowercase: bool = False,
) -> ArrayT: ...


def corpus_gleu(
    hypotheses: Hypotheses[Any],
    references: References[Any],
    *,
    min_len: int = 1,
    max_len: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
    tokenize: str | None = None,
    lowercase: bool = False,
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
    min_len, max_len = checks.gleu_orders(min_len, max_len)
    batch = scoring_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id,
                          tokenize=tokenize, lowercase=lowercase, corpus="corpus_gleu")
    score = gleu_score(gleu_statistics_of_batch(batch, min_len, max_len).sum())
    return batch.to_caller(mark_unreferenced(batch, score, corpus=True))
