"""Parity with sacrebleu's BLEU (smooth: none, floor, add-k, exp; smooth_value; effective_order).

The reference is ``sacrebleu.metrics.BLEU(tokenize="none", ...)`` on the space-joined token
ids, divided by 100.  Corpus tests use ragged reference counts: sacrebleu drops ``None``
entries of a reference stream (an empty string would instead be a present, empty reference).
"""

from __future__ import annotations

import itertools
from functools import partial

import pytest
from parity import check_corpora, check_sentences
from reference import (
    SACRE_SMOOTHS,
    sacrebleu_corpus_bleu,
    sacrebleu_sentence_bleu,
)

import bleusuite

SMOOTH_VALUES = {
    "none": [None],
    "exp": [None],
    "floor": [None, 0.01, 0.5],
    "add-k": [None, 0.5, 2.0],
}
ORDERS = [4, 1, 2, 3, 6]


def configs(smooth: str) -> list[dict]:
    """(smooth_value, effective_order, max_order) combinations for one smoothing method."""
    return [
        dict(smooth_value=v, effective_order=e, max_order=n)
        for v, e, n in itertools.product(SMOOTH_VALUES[smooth], (False, True), ORDERS)
    ]


def sacre_setting(smooth: str, cfg: dict, reference=sacrebleu_sentence_bleu):
    """Our keyword arguments and sacrebleu's function for one smoothing and configuration."""
    return dict(smooth=smooth, **cfg), partial(reference, smooth=smooth, **cfg)


@pytest.mark.parametrize("smooth", SACRE_SMOOTHS)
def test_sentence_bleu_matches_sacrebleu(smooth, make_cases):
    settings = [sacre_setting(smooth, cfg) for cfg in configs(smooth)]
    cases = make_cases(seed=2100 + SACRE_SMOOTHS.index(smooth), n=2400)
    check_sentences(bleusuite.sentence_bleu, cases, settings)


@pytest.mark.parametrize("smooth", SACRE_SMOOTHS)
def test_corpus_bleu_matches_sacrebleu(smooth, make_cases, split_corpora):
    grid = configs(smooth)
    seed = 2200 + SACRE_SMOOTHS.index(smooth)
    cases = make_cases(seed=seed, n=1800)  # 1..4 references per sentence
    equal_refs = make_cases(seed=seed + 50, n=300, n_refs=3)
    corpora = [
        *split_corpora(cases, seed=3, max_size=60),
        *split_corpora(equal_refs, seed=4, max_size=60),
        cases,
    ]

    def setting(k: int, corpus: list):
        cfg = grid[k % len(grid)] if len(corpus) < len(cases) else {}
        return sacre_setting(smooth, cfg, sacrebleu_corpus_bleu)

    check_corpora(bleusuite.corpus_bleu, corpora, setting)
