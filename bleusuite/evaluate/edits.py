"""The number of evaluate's ``wer`` and ``cer`` modules (evaluate 0.4.6's scripts on jiwer
4.0), from bleusuite's alignment counts (:func:`bleusuite.wer_statistics`): the scripts in
``wer/`` and ``cer/`` return :func:`error_rate`.

evaluate's scripts run jiwer on each pair (``process_words(reference, prediction)``,
``process_characters`` for ``cer``) and return the errors summed over the pairs divided by
the reference words (characters) summed: an empty reference is one pair's insertions, and
where every reference is empty they divide by zero. With ``concatenate_texts=True`` they
return jiwer's measure of the two lists, which jiwer 4 also sums over the pairs, with its
edge rule where the references hold no word (the insertions; 0 for empty lists).

>>> error_rate(["this is the prediction", "there is an other sample"],
...            ["this is the reference", "there is another one"])
0.5
>>> round(error_rate(["this is the prediction", "there is an other sample"],
...                  ["this is the reference", "there is another one"], characters=True), 6)
0.341463
>>> error_rate(["a b"], [""], concatenate_texts=True)   # jiwer: the insertions
2.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bleusuite.evaluate import string_features
from bleusuite.scores.wer.formula import edit_measures
from bleusuite.scores.wer.score import wer_statistics

__all__ = ["JIWER_SCRIPT_INFO", "NoReferenceWordsError", "error_rate"]

#: what evaluate's ``MetricInfo`` says of both scripts besides their description
JIWER_SCRIPT_INFO: dict[str, Any] = {
    "citation": "Morris, Maier and Green, 2004. From WER and RIL to MER and WIL: improved "
                "evaluation measures for connected speech recognition.",
    "features": string_features,
    "codebase_urls": ["https://github.com/jitsi/jiwer/"],
    "reference_urls": ["https://en.wikipedia.org/wiki/Word_error_rate"],
}


class NoReferenceWordsError(ValueError, ZeroDivisionError):
    """Every reference is empty: evaluate's scripts divide by zero (``ZeroDivisionError``),
    bleusuite names the argument (a ``ValueError``); either ``except`` catches it."""


def error_rate(predictions: Sequence[str], references: Sequence[str], *,
               characters: bool = False, concatenate_texts: bool = False) -> float:
    """evaluate's ``wer`` (``cer`` with ``characters``) of ``predictions`` against
    ``references``, one reference string per prediction.

    Raises:
        ValueError: the lists differ in length, or hold something other than strings.
        NoReferenceWordsError: every reference is empty, without ``concatenate_texts``.
    """
    for name, texts in (("predictions", predictions), ("references", references)):
        if isinstance(texts, str) or not all(isinstance(text, str) for text in texts):
            raise ValueError(f"{name}: evaluate's {'cer' if characters else 'wer'} takes a "
                             "list of strings, one reference string per prediction")
    if len(predictions) != len(references):
        raise ValueError(f"references: {len(references)} references for "
                         f"{len(predictions)} predictions; give one for each")
    if not predictions:
        if concatenate_texts:
            return 0.0  # jiwer's measures of two empty lists
        raise NoReferenceWordsError("references: no references, so no reference words")
    counts = wer_statistics(list(predictions), list(references), characters=characters)
    total = np.asarray(counts.sum().to_array(), dtype=np.int64)
    if concatenate_texts:
        return float(edit_measures(total)["wer"])
    hits, substitutions, deletions, insertions = (int(x) for x in total)
    reference_words = hits + substitutions + deletions
    if reference_words == 0:
        raise NoReferenceWordsError(
            f"references: every reference is empty (no {'characters' if characters else 'words'}"
            "): the rate divides by zero (evaluate's scripts raise ZeroDivisionError)")
    return (substitutions + deletions + insertions) / reference_words
