"""Parity with pytorch-ignite's ``Bleu`` (smooth: no_smooth, smooth1, nltk_smooth2, smooth2).

* sentence_bleu  == ignite BLEU of each sentence on its own (1e-12; see
  ``reference.ignite_sentence_bleu`` for why the float64 micro path is used);
* mean(sentence_bleu) == ``Bleu(average="macro")`` over the batch (1e-6: ignite's per-sentence
  path accumulates in float32);
* corpus_bleu == ``Bleu(average="micro")`` after one update with the whole batch (1e-12).

Ignite only has uniform weights, so the n-gram order N varies instead (max_order=N).
"""

from __future__ import annotations

import pytest

pytest.importorskip("ignite", reason="pytorch-ignite is not installed (NumPy-only environment)")

from backend_fixtures import on_every_backend
from reference import (
    IGNITE_SMOOTHS,
    assert_corpus_match,
    assert_scores_match,
    ignite_macro_bleu,
    ignite_micro_bleu,
    ignite_sentence_bleu,
)

import bleusuite

ORDERS = [4, 1, 2, 3, 5, 6]


def chunks(cases: list, n: int) -> list[list]:
    """``cases`` cut into exactly ``n`` consecutive chunks of (nearly) equal size."""
    return [cases[i * len(cases) // n : (i + 1) * len(cases) // n] for i in range(n)]


@pytest.mark.parametrize("smooth", IGNITE_SMOOTHS)
def test_sentence_bleu_matches_ignite(smooth, make_cases, encode, to_lists):
    cases = make_cases(seed=1100 + IGNITE_SMOOTHS.index(smooth), n=1800)
    for k, (order, chunk) in enumerate(zip(ORDERS, chunks(cases, len(ORDERS)), strict=True)):
        theirs = ignite_sentence_bleu(chunk, order, smooth)
        hyps, refs, enc = encode(chunk, k)
        ours = on_every_backend(
            bleusuite.sentence_bleu, hyps, refs, smooth=smooth, max_order=order, **enc
        )
        assert_scores_match(ours, theirs, chunk, what=f"{smooth} N={order} {enc}")

        hyp_list, ref_list = to_lists(chunk, as_str=bool(k % 2))
        ours_list = bleusuite.sentence_bleu(hyp_list, ref_list, smooth=smooth, max_order=order)
        assert_scores_match(
            ours_list, ours, chunk, tol=0.0, what=f"list form vs array form, {smooth} N={order}"
        )


@pytest.mark.parametrize("smooth", IGNITE_SMOOTHS)
def test_sentence_bleu_mean_matches_ignite_macro(smooth, make_cases, encode):
    cases = make_cases(seed=1200 + IGNITE_SMOOTHS.index(smooth), n=600)
    for k, (order, batch) in enumerate(zip(ORDERS[:3], chunks(cases, 3), strict=True)):
        theirs = ignite_macro_bleu(batch, order, smooth)
        hyps, refs, enc = encode(batch, k + 2)
        ours = on_every_backend(
            bleusuite.sentence_bleu, hyps, refs, smooth=smooth, max_order=order, **enc
        )
        assert ours.shape == (len(batch),)
        assert abs(float(ours.mean()) - theirs) <= 1e-6, (
            f"{smooth} N={order}: mean of ours {float(ours.mean())!r} != ignite macro {theirs!r}"
        )


@pytest.mark.parametrize("smooth", IGNITE_SMOOTHS)
def test_corpus_bleu_matches_ignite_micro(smooth, make_cases, encode, to_lists, split_corpora):
    cases = make_cases(seed=1300 + IGNITE_SMOOTHS.index(smooth), n=1800)
    corpora = [*split_corpora(cases, seed=2, max_size=40), cases]
    for k, corpus in enumerate(corpora):
        order = ORDERS[k % len(ORDERS)]
        theirs = ignite_micro_bleu(corpus, order, smooth)
        hyps, refs, enc = encode(corpus, k)
        ours = on_every_backend(
            bleusuite.corpus_bleu, hyps, refs, smooth=smooth, max_order=order, **enc
        )
        assert_corpus_match(ours, theirs, corpus, what=f"corpus #{k} {smooth} N={order} {enc}")
        if k % 4 == 0:
            hyp_list, ref_list = to_lists(corpus, as_str=bool(k % 8))
            ours_list = bleusuite.corpus_bleu(hyp_list, ref_list, smooth=smooth, max_order=order)
            assert_corpus_match(
                ours_list,
                float(ours),
                corpus,
                tol=0.0,
                what=f"list form vs array form, corpus #{k}",
            )
