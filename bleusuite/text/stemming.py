"""ROUGE's stemmer: NLTK's Porter stemmer (``PorterStemmer().stem``) on the tokens longer
than three characters, as rouge-score and torchmetrics apply it, each distinct token once;
the compiled part's copy of its rules where built, else NLTK itself.

>>> porter_stems(["running", "generalizations", "skies"])
['run', 'gener', 'sky']
>>> ids = np.array([0, 1, 2, 3])        # "the cats sat cat"
>>> stemmed_ids(ids, ["the", "cats", "sat", "cat"]).tolist()    # "cats" -> "cat"
[0, 1, 2, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bleusuite import native

__all__ = ["MIN_STEMMED_LENGTH", "porter_stems", "stemmed_ids"]

#: rouge-score and torchmetrics stem only the tokens longer than 3 characters
MIN_STEMMED_LENGTH = 4


def porter_stems(words: list[str]) -> list[str]:
    """``[PorterStemmer().stem(word) for word in words]`` (NLTK's, lowercasing included).

    Raises:
        ImportError: neither the compiled part nor NLTK is installed.
    """
    compiled = native.module()
    if compiled is not None:
        stems: list[str] = compiled.porter_stem(words)
        return stems
    try:
        from nltk.stem import porter
    except ImportError:
        raise ImportError(
            "use_stemmer=True needs bleusuite's compiled part or NLTK (pip install nltk)"
        ) from None
    stemmer = porter.PorterStemmer()
    return [stemmer.stem(word) for word in words]


def stemmed_ids(ids: np.ndarray, vocabulary: Sequence[Any]) -> np.ndarray:
    """Token ids renumbered so that two are equal where their tokens (``vocabulary[i]`` is
    id ``i``) are equal once those of more than three characters are stemmed."""
    final = list(vocabulary)
    long = [i for i, token in enumerate(final)
            if isinstance(token, str) and len(token) >= MIN_STEMMED_LENGTH]
    if not long:
        return ids
    for i, stem in zip(long, porter_stems([final[i] for i in long]), strict=True):
        final[i] = stem
    index: dict[Any, int] = {}
    table = np.fromiter((index.setdefault(token, len(index)) for token in final),
                        dtype=np.int64, count=len(final))
    return table[ids]
