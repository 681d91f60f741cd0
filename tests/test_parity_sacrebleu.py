"""Parity with sacrebleu's BLEU (smooth: none, floor, add-k, exp; smooth_value; effective_order).

The reference is ``sacrebleu.metrics.BLEU(tokenize="none", ...)`` on the space-joined token
ids, divided by 100.  Corpus tests use ragged reference counts: sacrebleu drops ``None``
entries of a reference stream (an empty string would instead be a present, empty reference).
"""

from __future__ import annotations

import itertools

import pytest
from backend_fixtures import on_every_backend
from reference import (
    SACRE_SMOOTHS,
    assert_corpus_match,
    assert_scores_match,
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


def chunks(cases: list, n: int) -> list[list]:
    """``cases`` cut into exactly ``n`` consecutive chunks of (nearly) equal size."""
    return [cases[i * len(cases) // n : (i + 1) * len(cases) // n] for i in range(n)]


@pytest.mark.parametrize("smooth", SACRE_SMOOTHS)
def test_sentence_bleu_matches_sacrebleu(smooth, make_cases, encode, to_lists):
    grid = configs(smooth)
    cases = make_cases(seed=2100 + SACRE_SMOOTHS.index(smooth), n=2400)
    for k, (cfg, chunk) in enumerate(zip(grid, chunks(cases, len(grid)), strict=True)):
        theirs = sacrebleu_sentence_bleu(chunk, smooth, **cfg)
        hyps, refs, enc = encode(chunk, k)
        ours = on_every_backend(bleusuite.sentence_bleu, hyps, refs, smooth=smooth, **cfg, **enc)
        assert_scores_match(ours, theirs, chunk, what=f"{smooth} {cfg} {enc}")

        hyp_list, ref_list = to_lists(chunk, as_str=bool(k % 2))
        ours_list = bleusuite.sentence_bleu(hyp_list, ref_list, smooth=smooth, **cfg)
        assert_scores_match(
            ours_list, ours, chunk, tol=0.0, what=f"list form vs array form, {smooth} {cfg}"
        )


@pytest.mark.parametrize("smooth", SACRE_SMOOTHS)
def test_corpus_bleu_matches_sacrebleu(smooth, make_cases, encode, to_lists, split_corpora):
    grid = configs(smooth)
    seed = 2200 + SACRE_SMOOTHS.index(smooth)
    cases = make_cases(seed=seed, n=1800)  # 1..4 references per sentence
    equal_refs = make_cases(seed=seed + 50, n=300, n_refs=3)
    corpora = [
        *split_corpora(cases, seed=3, max_size=60),
        *split_corpora(equal_refs, seed=4, max_size=60),
        cases,
    ]
    for k, corpus in enumerate(corpora):
        cfg = grid[k % len(grid)] if len(corpus) < len(cases) else {}
        theirs = sacrebleu_corpus_bleu(corpus, smooth, **cfg)
        hyps, refs, enc = encode(corpus, k)
        ours = on_every_backend(bleusuite.corpus_bleu, hyps, refs, smooth=smooth, **cfg, **enc)
        assert_corpus_match(ours, theirs, corpus, what=f"corpus #{k} {smooth} {cfg} {enc}")
        if k % 4 == 0:
            hyp_list, ref_list = to_lists(corpus, as_str=bool(k % 8))
            ours_list = bleusuite.corpus_bleu(hyp_list, ref_list, smooth=smooth, **cfg)
            assert_corpus_match(
                ours_list,
                float(ours),
                corpus,
                tol=0.0,
                what=f"list form vs array form, corpus #{k}",
            )
