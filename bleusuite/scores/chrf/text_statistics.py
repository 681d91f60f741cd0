"""chrF's statistics of text, as sacrebleu's ``CHRF`` extracts them.

For each character n-gram order 1..C and word n-gram order 1..W: the hypothesis n-grams,
the reference n-grams and their matches (``min`` of the two counts, summed over the
hypothesis' n-grams), from the reference whose sentence-level chrF is best (the first on
ties):

* characters: each line without its whitespace (``whitespace=True`` keeps it), lowercased
  with ``lowercase=True``; words (chrF++): the whitespace-separated words with one
  punctuation character split off the end, or else the start, of each word of two or more
  characters (:func:`bleusuite.text.tokenizers.split_punctuation`);
* a hypothesis n-gram count is 0 for an order where the reference has no n-gram.

The text takes the library's one route (:func:`bleusuite.inputs.text_batch`, whose
tokenizers include characters and chrF++'s words) and counting kernel; the best reference is
chosen against a backend (:func:`statistics_from_counts`), traced for small batches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bleusuite import backends
from bleusuite.backends.base import Backend
from bleusuite.counting import count_matches
from bleusuite.inputs import text_batch
from bleusuite.scores.chrf.formula import formula
from bleusuite.scores.chrf.settings import ChrfSettings
from bleusuite.scores.chrf.statistics import ChrfStats
from bleusuite.scores.statistics import ngram_totals
from bleusuite.text.tokenizers import CHRF_CHARACTERS, CHRF_CHARACTERS_WHITESPACE, CHRF_WORDS

__all__ = ["ChrfCounts", "chrf_counts", "chrf_statistics", "statistics_from_counts"]

#: the counts of a batch: present (B, R); then for characters and for words, the
#: hypothesis lengths (B,), reference lengths (B, R) and matches per reference (B, R, O)
ChrfCounts = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                   np.ndarray]


def chrf_counts(hypotheses: Sequence[str], references: Sequence[Any],
                settings: ChrfSettings, require_references: bool = True) -> ChrfCounts:
    """The counts chrF's statistics come from (:data:`ChrfCounts`), of hypothesis strings
    against their references (a string or a list of them per hypothesis; ``None``: no such
    reference). A hypothesis without any raises, as for every metric
    (``require_references=False``: its counts are 0, for a caller that checks itself)."""
    sides: list[list[Any] | None] = []
    present = None
    for tokenizer, orders in (
            (CHRF_CHARACTERS_WHITESPACE if settings.whitespace else CHRF_CHARACTERS,
             settings.char_order),
            (CHRF_WORDS, settings.word_order)):
        if orders == 0:
            sides.append(None)
            continue
        batch = text_batch(hypotheses, references, tokenize=tokenizer,
                           lowercase=settings.lowercase,
                           require_references=require_references)[0]
        present = batch.ref_present
        counts = count_matches(batch, orders, per_reference=True).per_reference
        sides.append([batch.hyp_len, batch.ref_len, counts])
    assert present is not None
    rows, refs = present.shape
    empty = [np.zeros(rows, np.int64), np.zeros((rows, refs), np.int64),
             np.zeros((rows, refs, 0), np.int64)]
    char, word = (empty if side is None else side for side in sides)
    return present, char[0], char[1], char[2], word[0], word[1], word[2]


def statistics_from_counts(be: Backend, present: Any, char_hyp_len: Any, char_ref_len: Any,
                           char_matches: Any, word_hyp_len: Any, word_ref_len: Any,
                           word_matches: Any, settings: ChrfSettings) -> ChrfStats[Any]:
    """chrF's statistics ``(B, O)`` from the counts of a batch (:data:`ChrfCounts`): each
    hypothesis's against each reference, and those of the reference whose sentence-level
    chrF is best (the first on ties; none present: all 0)."""
    parts = []
    for hyp_len, ref_len, matches, orders in (
            (char_hyp_len, char_ref_len, char_matches, settings.char_order),
            (word_hyp_len, word_ref_len, word_matches, settings.word_order)):
        if orders == 0:
            continue
        ref_counts = ngram_totals(be, ref_len, 1, orders)  # (B, R, O)
        hyp_counts = be.where(ref_counts > 0, ngram_totals(be, hyp_len, 1, orders)[:, None, :], 0)
        parts.append((hyp_counts, ref_counts, matches))
    hyp, ref, match = (parts[0][k] if len(parts) == 1 else
                       be.concat([parts[0][k], parts[1][k]], axis=-1) for k in range(3))
    quality = be.where(present, formula(be, hyp, ref, match, settings.beta,
                                        settings.eps_smoothing), -np.inf)
    best = be.argmax(quality, axis=1)
    chosen = be.arange(int(present.shape[1]), like=best)[None, :] == best[:, None]  # (B, R)

    def pick(counts: Any) -> Any:
        return be.sum_(be.where(chosen[..., None], counts, 0), axis=1)

    return ChrfStats(pick(hyp), pick(ref), pick(match))


def scores_from_counts(be: Backend, *counts: Any) -> Any:
    """Sentence chrF scores (0-100) from the arguments of :func:`statistics_from_counts`."""
    stats, settings = statistics_from_counts(be, *counts), counts[-1]
    return formula(be, stats.hyp_counts, stats.ref_counts, stats.matches, settings.beta,
                   settings.eps_smoothing)


def chrf_statistics(hypotheses: Sequence[str], references: Sequence[Any],
                    settings: ChrfSettings | None = None) -> ChrfStats[np.ndarray]:
    """Per-sentence chrF statistics of hypotheses against their references (for each
    hypothesis a reference string or a list of them; ``None``: no such reference), each
    sentence's from its best reference (see the module's description).

    >>> stats = chrf_statistics(["ab c"], [["abc", "x"]], ChrfSettings(char_order=2))
    >>> stats.hyp_counts.tolist(), stats.ref_counts.tolist(), stats.matches.tolist()
    ([[3, 2]], [[3, 2]], [[3, 2]])
    """
    settings = settings or ChrfSettings()
    counts = chrf_counts(hypotheses, references, settings)
    stats: ChrfStats[np.ndarray] = statistics_from_counts(backends.get_backend(), *counts,
                                                          settings)
    return stats
