"""chrF and chrF++ of text: the public functions, and scores from statistics (0-1 scale,
sacrebleu's ``CHRF`` scores divided by 100).

>>> hyps = ["the cat sat on the mat", "a dog ran"]
>>> refs = [["the cat sat on a mat"], ["a dog ran home", "the dog ran"]]
>>> sentence_chrf(hyps, refs).round(4).tolist()   # sacrebleu.sentence_chrf(...).score / 100
[0.7208, 0.5644]
>>> round(float(corpus_chrf(hyps, refs, word_order=2)), 4)    # chrF++
0.6785
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from bleusuite import backends, checks
from bleusuite.backends import trace
from bleusuite.scores.chrf.formula import chrf_scores
from bleusuite.scores.chrf.settings import ChrfSettings
from bleusuite.scores.chrf.statistics import BETA, ChrfStats
from bleusuite.scores.chrf.text_statistics import (
    chrf_counts,
    chrf_statistics,
    scores_from_counts,
    statistics_from_counts,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.scores.chrf.settings import ChrfOptions

__all__ = ["chrf_score", "chrf_statistics_of_texts", "corpus_chrf", "corpus_statistics_of",
           "sentence_chrf", "sentence_scores"]


def chrf_score(stats: ChrfStats[Any], *, beta: float = BETA, eps_smoothing: bool = False) -> Any:
    """chrF from statistics (0-1): one score per entry of ``stats``; ``stats.sum()`` gives the
    corpus score. ``beta`` and ``eps_smoothing`` are those the statistics were made with.

    >>> from bleusuite.scores.chrf.text_statistics import chrf_statistics
    >>> float(chrf_score(chrf_statistics(["abc"], [["abc"]]).sum()))
    1.0
    """
    if not isinstance(stats, ChrfStats):
        raise TypeError(f"stats must be a ChrfStats; got {type(stats).__name__}")
    beta = checks.beta(beta)
    scores = chrf_scores(stats, beta, eps_smoothing) / 100.0
    return scores if scores.ndim else np.float64(scores)[()]


def chrf_statistics_of_texts(
    hypotheses: Sequence[str], references: Sequence[str | Sequence[str | None]],
    **options: Unpack[ChrfOptions],
) -> ChrfStats[np.ndarray]:
    """Per-sentence chrF statistics of hypothesis strings, each against its references (a
    string or a list of strings; ``None``: no such reference).

    Raises:
        TypeError, ValueError: malformed text, or a bad setting; the message names it.
    """
    settings = ChrfSettings.of_options(options, "chrf_statistics_of_texts")
    return chrf_statistics(hypotheses, references, settings)


def sentence_scores(hypotheses: Sequence[str], references: Sequence[Any],
                    settings: ChrfSettings) -> np.ndarray:
    """Sentence chrF scores (0-100) of text, small batches by the traced formulas."""
    counts = chrf_counts(hypotheses, references, settings)
    scores = trace.by_rows(scores_from_counts, (settings,), counts)
    if scores is not None:
        return scores
    stats = statistics_from_counts(backends.get_backend(), *counts, settings)
    return chrf_scores(stats, settings.beta, settings.eps_smoothing)


def corpus_statistics_of(hypotheses: Sequence[str], references: Sequence[Any],
                         options: Mapping[str, Any],
                         function: str) -> tuple[ChrfSettings, ChrfStats[np.ndarray]]:
    """The settings of ``function``'s keyword arguments ``options`` and the summed
    statistics of a corpus (an empty one raises ``ValueError``)."""
    settings = ChrfSettings.of_options(options, function)
    stats = chrf_statistics(hypotheses, references, settings)
    if len(stats) == 0:
        raise ValueError(f"hypotheses: {function} needs at least one sentence; got an empty "
                         "batch")
    return settings, stats.sum()


def sentence_chrf(
    hypotheses: Sequence[str], references: Sequence[str | Sequence[str | None]],
    **options: Unpack[ChrfOptions],
) -> np.ndarray:
    """chrF of every hypothesis against its own references: shape (B,), float64, 0-1, each
    ``sacrebleu.sentence_chrf(hypothesis, references, ...).score / 100`` with the same
    settings (sacrebleu's defaults: character order 6, word order 0 (2 for chrF++), beta 2,
    no lowercasing, whitespace removed; see :mod:`bleusuite.scores.chrf.text_statistics`).

    Args:
        hypotheses: one string per sentence.
        references: for each hypothesis, a reference string or a list of them (``None``
            entries are no reference; each hypothesis needs one); its statistics come from
            the best one.
        char_order, word_order: the character and word n-gram orders.
        beta: recall counts ``beta`` times as much as precision.
        lowercase: compare lowercased text.
        whitespace: keep whitespace in the character n-grams.
        eps_smoothing: sacrebleu's ``eps_smoothing`` (chrF++.py's averaging).

    Raises:
        ValueError: a hypothesis without reference, as for every metric; a bad setting.
        TypeError: text that is not one string per hypothesis (the element is named).
    """
    settings = ChrfSettings.of_options(options, "sentence_chrf")
    result: np.ndarray = sentence_scores(hypotheses, references, settings) / 100.0
    return result


def corpus_chrf(
    hypotheses: Sequence[str], references: Sequence[str | Sequence[str | None]],
    **options: Unpack[ChrfOptions],
) -> np.ndarray:
    """Corpus chrF (0-d float64, 0-1): the statistics of all sentences summed, then scored,
    as ``sacrebleu.corpus_chrf(hypotheses, reference_streams, ...).score / 100``
    (``list(zip(*streams))`` gives the references per hypothesis). Same arguments as
    :func:`sentence_chrf`.

    Raises:
        ValueError: for an empty batch (a corpus score needs at least one sentence).
    """
    settings, stats = corpus_statistics_of(hypotheses, references, options, "corpus_chrf")
    result: np.ndarray = np.asarray(chrf_scores(stats, settings.beta, settings.eps_smoothing)
                                    / 100.0)
    return result
