"""TER of text or token ids: the public functions, and scores from statistics (0-1 scale,
sacrebleu's ``TER`` scores divided by 100; lower is better).

>>> hyps = ["the cat sat on the mat", "a dog ran"]
>>> refs = [["on the mat the cat sat"], ["a dog ran home", "the dog ran"]]
>>> sentence_ter(hyps, refs).round(4).tolist()   # sacrebleu.sentence_ter(...).score / 100
[0.1667, 0.2857]
>>> round(float(corpus_ter(hyps, refs)), 4)
0.2105
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from bleusuite.inputs import scoring_batch
from bleusuite.inputs.checks import check_references_present, is_text
from bleusuite.inputs.normalize import text_rows
from bleusuite.scores.ter.formula import ter_scores
from bleusuite.scores.ter.settings import TerSettings
from bleusuite.scores.ter.statistics import (
    TerStats,
    ter_statistics_of_batch,
    ter_statistics_of_texts,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.array_types import ArrayT, Hypotheses, NumpyArray, References, Scores
    from bleusuite.inputs.batch import Batch
    from bleusuite.scores.ter.settings import TerCallOptions

__all__ = ["corpus_ter", "sentence_ter", "ter_score", "ter_statistics"]


def ter_score(stats: TerStats[Any]) -> Any:
    """TER from statistics (0-1): one score per entry of ``stats``; ``stats.sum()`` gives
    the corpus score.

    >>> float(ter_score(ter_statistics(["a b c"], [["a c"]]).sum()))
    0.5
    """
    if not isinstance(stats, TerStats):
        raise TypeError(f"stats must be a TerStats; got {type(stats).__name__}")
    scores = ter_scores(stats) / 100.0
    return scores if scores.ndim else np.float64(scores)[()]


def statistics_and_batch(
    hypotheses: Any, references: Any, settings: TerSettings, options: Mapping[str, Any],
    corpus: str | None = None,
) -> tuple[TerStats[np.ndarray], Batch | None]:
    """The statistics of text or token ids (then with their normalised batch);
    ``options``: the caller's keyword arguments (:class:`TerCallOptions`)."""
    pad_id, eos_id = options.get("pad_id"), options.get("eos_id")
    if is_text(hypotheses, allow_empty=True):
        if pad_id is not None or eos_id is not None:
            raise ValueError("pad_id and eos_id apply to token ids; the hypotheses are strings")
        rows: list[list[str | None]] = [list(refs) for refs in text_rows(hypotheses,
                                                                          references)]
        check_references_present(rows, "references")  # every metric's rule and message
        if corpus is not None and not rows:
            raise ValueError(f"hypotheses: {corpus} needs at least one sentence; got an empty "
                             "batch")
        return ter_statistics_of_texts(list(hypotheses), rows, settings), None
    if settings.normalized or settings.no_punct or settings.asian_support:
        raise ValueError("normalized, no_punct and asian_support apply to text (tercom's "
                         "tokenizer); token ids and token lists are compared as they are")
    batch = scoring_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id, tokenize=None,
                          lowercase=False, corpus=corpus)
    return ter_statistics_of_batch(batch), batch


def to_caller(batch: Batch | None, scores: np.ndarray) -> Any:
    """Scores computed on the host, in the caller's array type and device."""
    if batch is None:
        return scores
    if batch.pairs is None:  # a device's (or JAX's) batch: back there
        return batch.to_caller(batch.backend.asarray(scores, like=batch.hyp))
    return batch.to_caller(scores)


def ter_statistics(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[TerCallOptions],
) -> TerStats[np.ndarray]:
    """Per-sentence TER statistics (NumPy): the fewest edits against any reference and the
    references' average length; arguments as in :func:`sentence_ter`.

    >>> stats = ter_statistics(["a b c d"], [["c d a b"]])
    >>> stats.edits.tolist(), stats.ref_length.tolist()
    ([1], [4.0])
    """
    settings = TerSettings.of_options(options, "ter_statistics")
    return statistics_and_batch(hypotheses, references, settings, options)[0]


@overload
def sentence_ter(
    hypotheses: Hypotheses[NumpyArray], references: References[NumpyArray],
    **options: Unpack[TerCallOptions],
) -> Scores: ...


@overload
def sentence_ter(
    hypotheses: Hypotheses[ArrayT], references: References[ArrayT],
    **options: Unpack[TerCallOptions],
) -> ArrayT: ...


def sentence_ter(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[TerCallOptions],
) -> Any:
    """TER of every hypothesis against its own references: shape (B,), float64, 0-1 (or
    more: TER counts edits, and a hypothesis can need more than its reference has words).

    Each equals ``sacrebleu.sentence_ter(hypothesis, references, ...).score / 100`` with the
    same options: the fewest edits (block shifts, insertions, deletions, substitutions, as
    tercom counts them) against any reference, over the references' average length.

    Args:
        hypotheses: one string per sentence; or token ids / token lists in any form
            :func:`bleusuite.sentence_bleu` takes (compared as they are, no tokenizer).
        references: for each hypothesis, a reference string or a list of them (``None``
            entries are no reference); or token ids / token lists.
        normalized: tercom's normalisation (XML entities, punctuation split off; with
            ``asian_support`` CJK characters split).
        no_punct: remove punctuation (with ``asian_support``, CJK punctuation too).
        asian_support: the CJK rules of ``normalized`` and ``no_punct``.
        case_sensitive: do not lowercase.
        pad_id, eos_id: padding and end-of-sentence ids of token-id arrays.

    TER runs on the host: device arrays (CUDA, CuPy, JAX) are copied there and the scores
    come back on the caller's device (not under ``jax.jit``).

    >>> import numpy as np
    >>> sentence_ter(np.array([[1, 2, 3, 4, 0]]), np.array([[3, 4, 1, 2, 5]]), pad_id=0)
    array([0.4])
    """
    settings = TerSettings.of_options(options, "sentence_ter")
    stats, batch = statistics_and_batch(hypotheses, references, settings, options)
    return to_caller(batch, ter_scores(stats) / 100.0)


@overload
def corpus_ter(
    hypotheses: Hypotheses[NumpyArray], references: References[NumpyArray],
    **options: Unpack[TerCallOptions],
) -> Scores: ...


@overload
def corpus_ter(
    hypotheses: Hypotheses[ArrayT], references: References[ArrayT],
    **options: Unpack[TerCallOptions],
) -> ArrayT: ...


def corpus_ter(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[TerCallOptions],
) -> Any:
    """Corpus TER (0-d float64, 0-1): the edits of all sentences over the sum of their
    references' average lengths, as ``sacrebleu.corpus_ter(hypotheses, reference_streams,
    ...).score / 100`` (``list(zip(*streams))`` gives the references per hypothesis). Same
    arguments as :func:`sentence_ter`.

    sacrebleu sums the average reference lengths as floats in sentence order, bleusuite
    exactly: with 3, 5... references a corpus score can differ in the last bits.

    Raises:
        ValueError: for an empty batch.
    """
    settings = TerSettings.of_options(options, "corpus_ter")
    stats, batch = statistics_and_batch(hypotheses, references, settings, options,
                                        corpus="corpus_ter")
    return to_caller(batch, np.asarray(ter_scores(stats.sum()) / 100.0))
