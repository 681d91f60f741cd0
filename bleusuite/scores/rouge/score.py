"""ROUGE of text or token ids: the public functions, and scores from statistics.

Every type and measure of a batch comes from one tokenising and one counting pass
(:func:`rouge_scores`); :func:`sentence_rouge` and :func:`corpus_rouge` are one type and
one measure of it. A corpus score is the mean of the documents' scores (pytorch-ignite's
and torchmetrics'; the centre of rouge-score's ``BootstrapAggregator``).

>>> hyps = ["the cat sat on the mat", "a dog ran home"]
>>> refs = [["the cat was on the mat"], ["the dog ran", "a dog ran home fast"]]
>>> sentence_rouge(hyps, refs, rouge_type="rouge2").round(4).tolist()
[0.6, 0.8571]
>>> scores = rouge_scores(hyps, refs, rouge_types=("rouge1", "rougeL"))
>>> scores["rougeL"].recall.round(4).tolist()          # per document
[0.8333, 0.8]
>>> round(float(rouge_score(scores["rougeL"].sum())), 4)  # corpus: the mean F-measure
0.8611
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, SupportsIndex, overload

import numpy as np

from bleusuite import backends, checks
from bleusuite.inputs import mark_unreferenced, normalize_batch
from bleusuite.inputs.batch import identity
from bleusuite.inputs.checks import check_references_present, is_text
from bleusuite.inputs.normalize import text_rows
from bleusuite.scores.rouge.counts import RougeCounts, counts_of_batch, counts_of_documents
from bleusuite.scores.rouge.documents import encode_documents
from bleusuite.scores.rouge.formula import best_reference
from bleusuite.scores.rouge.settings import (
    DEFAULT_TYPES,
    MEASURES,
    OPTIONS,
    SCORES_OPTIONS,
    RougeSettings,
    check_types,
)
from bleusuite.scores.rouge.statistics import RougeStats

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.array_types import ArrayT, Hypotheses, NumpyArray, References, Scores
    from bleusuite.scores.rouge.settings import RougeOptions, RougeScoresOptions

__all__ = ["corpus_rouge", "rouge_counts", "rouge_score", "rouge_scores",
           "sentence_rouge", "statistics_by_type", "type_statistics"]


def rouge_score(stats: RougeStats[ArrayT], measure: str = "fmeasure") -> ArrayT:
    """The mean ``measure`` (``precision``, ``recall`` or ``fmeasure``) of the documents
    that ``stats`` hold: per document for per-document statistics, the corpus score for
    ``stats.sum()`` (0 where there is no document).

    >>> import numpy as np
    >>> stats = RougeStats(np.array([0.5]), np.array([1.0]), np.array([2 / 3]), np.ones(1))
    >>> rouge_score(stats, "recall").tolist(), float(rouge_score(stats.sum()))
    ([1.0], 0.6666666666666666)
    """
    if not isinstance(stats, RougeStats):
        raise TypeError(f"stats must be a RougeStats; got {type(stats).__name__}")
    if not isinstance(measure, str) or measure not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}; got {measure!r}")
    be = stats.backend
    documents = be.to_float64(stats.documents)
    value = be.to_float64(getattr(stats, measure))
    return be.where(documents > 0, value / be.where(documents > 0, documents, 1.0), 0.0)


def rouge_counts(
    hypotheses: Any,
    references: Any,
    rouge_types: tuple[str, ...],
    settings: RougeSettings,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
) -> tuple[RougeCounts, Any]:
    """The counts of text or token ids, and the function that returns a result to the
    caller's array type (NaN for a hypothesis without reference on a device)."""
    if is_text(hypotheses) or (isinstance(hypotheses, Sequence) and not len(hypotheses)
                               and settings.tokenize is not None
                               and backends.backend_name(references) is None):
        if pad_id is not None or eos_id is not None:
            raise ValueError("pad_id and eos_id apply to token ids; the inputs are strings")
        if settings.tokenize is None:
            raise ValueError("tokenize=None is for token ids; text needs a tokenizer "
                             "(tokenize='rouge', rouge-score's)")
        rows = text_rows(hypotheses, references)
        if not rows:  # no document: no count (one absent reference each)
            empty = np.zeros((0, 1, len(rouge_types)), dtype=np.int64)
            return RougeCounts(empty, empty[:, 0], empty, np.zeros((0, 1), bool)), identity
        check_references_present(rows, "references")
        documents = encode_documents(list(hypotheses), rows, tokenize=settings.tokenize,
                                     use_stemmer=settings.use_stemmer,
                                     with_sentences="rougeLsum" in rouge_types)
        return counts_of_documents(documents, rouge_types), identity
    if settings.use_stemmer:
        raise ValueError("use_stemmer=True stems words of text: token ids and token lists are "
                         "compared as they are")
    batch = normalize_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id)
    counts = counts_of_batch(batch, rouge_types)

    def to_caller(scores: Any) -> Any:
        return batch.to_caller(mark_unreferenced(batch, scores))

    return counts, to_caller


def statistics_by_type(precision: Any, recall: Any, fscore: Any, rouge_types: tuple[str, ...],
                       to_caller: Any = identity) -> dict[str, RougeStats[Any]]:
    """Per type, the per-document statistics of ``(B, T)`` precisions, recalls, F-measures."""
    be = backends.get_backend(precision)
    documents = be.to_float64(be.full(precision.shape[:1], 1, be.int64, like=precision))
    return {rouge_type: RougeStats(to_caller(precision[:, t]), to_caller(recall[:, t]),
                                   to_caller(fscore[:, t]), to_caller(documents))
            for t, rouge_type in enumerate(rouge_types)}


def type_statistics(hypotheses: Any, references: Any, settings: RougeSettings,
                    pad_id: SupportsIndex | None = None,
                    eos_id: SupportsIndex | None = None) -> RougeStats[Any]:
    """The per-document statistics of ``settings``' ROUGE type."""
    types = (settings.rouge_type,)
    counts, to_caller = rouge_counts(hypotheses, references, types, settings, pad_id, eos_id)
    return statistics_by_type(*best_reference(counts), types, to_caller)[settings.rouge_type]


@overload
def rouge_scores(
    hypotheses: Hypotheses[NumpyArray], references: References[NumpyArray],
    **options: Unpack[RougeScoresOptions],
) -> dict[str, RougeStats[Scores]]: ...


@overload
def rouge_scores(
    hypotheses: Hypotheses[ArrayT], references: References[ArrayT],
    **options: Unpack[RougeScoresOptions],
) -> dict[str, RougeStats[ArrayT]]: ...


def rouge_scores(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[RougeScoresOptions],
) -> dict[str, RougeStats[Any]]:
    """Every ROUGE type of every document, from one tokenising and one counting pass:
    ``{rouge_type: RougeStats}``, each with the documents' ``precision``, ``recall`` and
    ``fmeasure`` ``(B,)`` (rouge-score's ``Score``; its ``score_multi`` where there are
    several references) and ``documents`` (1 each); :func:`rouge_score` of their ``sum()``
    is the corpus score.

    Args:
        hypotheses: one string (a document) per hypothesis, or token ids as
            :func:`bleusuite.sentence_bleu` takes them (padded arrays with ``pad_id`` /
            ``eos_id``, lists of 1-D arrays, token lists), on any backend.
        references: for each hypothesis, a reference string or a list of them (``None``:
            no such reference), or token ids.
        rouge_types: ``rouge1``..``rouge9``, ``rougeL``, ``rougeLsum`` (sentences: the
            lines of each document; text only).
        use_stemmer: NLTK's Porter stemmer on the tokens of more than 3 characters (text
            only), as rouge-score's ``use_stemmer=True``.
        tokenize: ``rouge`` (rouge-score's tokenizer: lowercased, everything outside
            ``[a-z0-9]`` a separator) or another name of :data:`bleusuite.text.TOKENIZERS`.
            Token ids are compared as they are.
        pad_id, eos_id: padding and end of sentence of token ids.

    Raises:
        TypeError, ValueError: malformed input or a bad setting; the message names it.
    """
    checks.keywords(options, SCORES_OPTIONS, "rouge_scores")
    rouge_types = options.get("rouge_types", DEFAULT_TYPES)
    types = check_types(list(rouge_types) if not isinstance(rouge_types, str) else rouge_types)
    settings = RougeSettings(types[0], use_stemmer=options.get("use_stemmer", False),
                             tokenize=options.get("tokenize", "rouge"))
    counts, to_caller = rouge_counts(hypotheses, references, types, settings,
                                     options.get("pad_id"), options.get("eos_id"))
    return statistics_by_type(*best_reference(counts), types, to_caller)


@overload
def sentence_rouge(
    hypotheses: Hypotheses[NumpyArray], references: References[NumpyArray],
    **options: Unpack[RougeOptions],
) -> Scores: ...


@overload
def sentence_rouge(
    hypotheses: Hypotheses[ArrayT], references: References[ArrayT],
    **options: Unpack[RougeOptions],
) -> ArrayT: ...


def sentence_rouge(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[RougeOptions],
) -> Any:
    """ROUGE of every hypothesis: shape (B,), float64 (the caller's array type for token
    ids): rouge-score's ``RougeScorer([rouge_type], use_stemmer).score(reference,
    hypothesis)[rouge_type].<measure>`` (``score_multi`` for several references). Arguments
    as in :func:`rouge_scores`; ``measure`` is ``precision``, ``recall`` or ``fmeasure``.

    >>> sentence_rouge(["The cats sat on mats."], ["the cat sat on the mat"],
    ...                use_stemmer=True).round(4)
    array([0.9091])
    >>> import numpy as np
    >>> sentence_rouge(np.array([[5, 6, 7, 8]]), np.array([[5, 7, 6, 8]]), tokenize=None)
    array([0.75])
    """
    settings = RougeSettings.of_options(options, "sentence_rouge")
    counts, to_caller = rouge_counts(hypotheses, references, (settings.rouge_type,), settings,
                                     options.get("pad_id"), options.get("eos_id"))
    picked = best_reference(counts)[MEASURES.index(settings.measure)]
    return to_caller(picked[:, 0])


@overload
def corpus_rouge(
    hypotheses: Hypotheses[NumpyArray], references: References[NumpyArray],
    **options: Unpack[RougeOptions],
) -> Scores: ...


@overload
def corpus_rouge(
    hypotheses: Hypotheses[ArrayT], references: References[ArrayT],
    **options: Unpack[RougeOptions],
) -> ArrayT: ...


def corpus_rouge(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[RougeOptions],
) -> Any:
    """Corpus ROUGE (0-d float64): the mean of :func:`sentence_rouge` over the documents,
    as pytorch-ignite and torchmetrics report it (rouge-score's ``BootstrapAggregator``
    reports a resampled estimate of it). Same arguments as :func:`sentence_rouge`.

    >>> float(corpus_rouge(["a b c", "a b"], ["a b c", "b a"], rouge_type="rouge1"))
    1.0

    Raises:
        ValueError: for an empty batch.
    """
    checks.keywords(options, OPTIONS, "corpus_rouge")
    scores = sentence_rouge(hypotheses, references, **options)
    if int(scores.shape[0]) == 0:
        raise ValueError("hypotheses: corpus_rouge needs at least one document; got an empty "
                         "batch")
    be = backends.get_backend(scores)
    return be.sum_(scores, axis=0) / int(scores.shape[0])
