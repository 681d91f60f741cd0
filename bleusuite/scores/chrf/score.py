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

from collections.abc import Sequence
from typing import Any

import numpy as np

from bleusuite import checks
from bleusuite.scores.chrf.counts import chrf_statistics
from bleusuite.scores.chrf.formula import chrf_scores
from bleusuite.scores.chrf.statistics import BETA, CHAR_ORDER, WORD_ORDER, ChrfStats
from bleusuite.text.pairs import check_texts

__all__ = ["chrf_score", "chrf_statistics_of_texts", "corpus_chrf", "sentence_chrf"]


def chrf_score(stats: ChrfStats[Any], *, beta: float = BETA, eps_smoothing: bool = False) -> Any:
    """chrF from statistics (0-1): one score per entry of ``stats``; ``stats.sum()`` gives the
    corpus score. ``beta`` and ``eps_smoothing`` are those the statistics were made with.

    >>> from bleusuite.scores.chrf.counts import chrf_statistics
    >>> float(chrf_score(chrf_statistics(["abc"], [["abc"]]).sum()))
    1.0
    """
    if not isinstance(stats, ChrfStats):
        raise TypeError(f"stats must be a ChrfStats; got {type(stats).__name__}")
    beta = checks.beta(beta)
    scores = chrf_scores(stats, beta, eps_smoothing) / 100.0
    return scores if scores.ndim else np.float64(scores)[()]


def chrf_statistics_of_texts(
    hypotheses: Sequence[str],
    references: Sequence[str | Sequence[str | None]],
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: float = BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> ChrfStats[np.ndarray]:
    """Per-sentence chrF statistics of hypothesis strings, each against its references (a
    string or a list of strings; ``None``: no such reference), checked as the scoring
    functions check text.

    Raises:
        TypeError, ValueError: malformed text, or a bad setting; the message names it.
    """
    rows = check_texts(hypotheses, references)
    if char_order != 0:
        char_order = checks.order(char_order, "char_order")
    if word_order != 0:
        word_order = checks.order(word_order, "word_order")
    if char_order + word_order == 0:
        raise ValueError("char_order and word_order: at least one order is needed; got 0 and 0")
    for name, value in (("lowercase", lowercase), ("whitespace", whitespace),
                        ("eps_smoothing", eps_smoothing)):
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be a bool; got {value!r}")
    beta = checks.beta(beta)
    return chrf_statistics(list(hypotheses), rows, char_order=char_order,
                           word_order=word_order, beta=beta, lowercase=lowercase,
                           whitespace=whitespace, eps_smoothing=eps_smoothing)


def sentence_chrf(
    hypotheses: Sequence[str],
    references: Sequence[str | Sequence[str | None]],
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: float = BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> np.ndarray:
    """chrF of every hypothesis against its own references: shape (B,), float64, 0-1.

    Each equals ``sacrebleu.sentence_chrf(hypothesis, references, ...).score / 100`` with
    the same settings (sacrebleu's defaults: character order 6, word order 0 (2 for
    chrF++), beta 2, no lowercasing, whitespace removed, its effective-order averaging; see
    :mod:`bleusuite.scores.chrf.counts`).

    Args:
        hypotheses: one string per sentence.
        references: for each hypothesis, a reference string or a list of them (``None``
            entries are no reference); its statistics come from the best one.
        char_order, word_order: the character and word n-gram orders.
        beta: recall counts ``beta`` times as much as precision.
        lowercase: compare lowercased text.
        whitespace: keep whitespace in the character n-grams.
        eps_smoothing: sacrebleu's ``eps_smoothing`` (chrF++.py's averaging).
    """
    stats = chrf_statistics_of_texts(
        hypotheses, references, char_order=char_order, word_order=word_order, beta=beta,
        lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps_smoothing)
    result: np.ndarray = chrf_scores(stats, beta, eps_smoothing) / 100.0
    return result


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[str | Sequence[str | None]],
    *,
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: float = BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> np.ndarray:
    """Corpus chrF (0-d float64, 0-1): the statistics of all sentences summed, then scored,
    as ``sacrebleu.corpus_chrf(hypotheses, reference_streams, ...).score / 100`` (whose
    references are streams: ``list(zip(*streams))`` gives them per hypothesis).

    Same arguments as :func:`sentence_chrf`.

    Raises:
        ValueError: for an empty batch (a corpus score needs at least one sentence).
    """
    stats = chrf_statistics_of_texts(
        hypotheses, references, char_order=char_order, word_order=word_order, beta=beta,
        lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps_smoothing)
    if len(stats) == 0:
        raise ValueError("hypotheses: corpus_chrf needs at least one sentence; got an empty "
                         "batch")
    result: np.ndarray = np.asarray(chrf_scores(stats.sum(), beta, eps_smoothing) / 100.0)
    return result
