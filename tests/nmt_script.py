"""tensorflow/nmt's ``compute_bleu`` transcribed, and evaluate's 13a tokenisation.

evaluate's ``bleu`` metric scores with ``compute_bleu`` of ``nmt/scripts/bleu.py``
(downloaded from the hub at load time, so it cannot be loaded in CI); how this
transcription was checked against the real script is told in
``tests/scores/test_parity_evaluate.py``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence


def _ngrams(segment: Sequence[object], max_order: int) -> Counter[tuple[object, ...]]:
    return Counter(tuple(segment[i : i + n]) for n in range(1, max_order + 1)
                   for i in range(len(segment) - n + 1))


def nmt_compute_bleu(reference_corpus: list, translation_corpus: list, max_order: int = 4,
                     smooth: bool = False) -> tuple:
    """tensorflow/nmt's ``compute_bleu`` (``nmt/scripts/bleu.py``, master), transcribed:
    ``(bleu, precisions, bp, ratio, translation_length, reference_length)``; raises
    ZeroDivisionError where the script does."""
    matches, possible = [0] * max_order, [0] * max_order
    reference_length = translation_length = 0
    for references, translation in zip(reference_corpus, translation_corpus, strict=False):
        reference_length += min(len(r) for r in references)
        translation_length += len(translation)
        merged: Counter[tuple[object, ...]] = Counter()
        for reference in references:
            merged |= _ngrams(reference, max_order)
        for ngram, count in (_ngrams(translation, max_order) & merged).items():
            matches[len(ngram) - 1] += count
        for order in range(1, max_order + 1):
            if len(translation) - order + 1 > 0:
                possible[order - 1] += len(translation) - order + 1
    pairs = list(zip(matches, possible, strict=True))
    if smooth:  # every order, the first one too
        precisions = [(m + 1.0) / (p + 1.0) for m, p in pairs]
    else:
        precisions = [float(m) / p if p > 0 else 0.0 for m, p in pairs]
    if min(precisions) > 0:
        geo_mean = math.exp(sum((1.0 / max_order) * math.log(p) for p in precisions))
    else:
        geo_mean = 0
    ratio = float(translation_length) / reference_length
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return geo_mean * bp, precisions, bp, ratio, translation_length, reference_length


def tokenize_13a(line: str) -> list[str]:
    """evaluate's ``Tokenizer13a`` (a copy of sacrebleu's, returning ``line.split()``)."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    return Tokenizer13a()(line).split()
