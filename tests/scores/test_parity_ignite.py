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

from functools import partial

from backend_fixtures import on_every_backend
from parity import check_corpora, check_sentences, chunks
from reference import (
    IGNITE_SMOOTHS,
    ignite_macro_bleu,
    ignite_micro_bleu,
    ignite_sentence_bleu,
)

import bleusuite

ORDERS = [4, 1, 2, 3, 5, 6]


def ignite_setting(smooth: str, order: int, reference=ignite_sentence_bleu):
    """Our keyword arguments and ignite's function for one smoothing and n-gram order."""
    return dict(smooth=smooth, max_order=order), partial(reference, ngram=order, smooth=smooth)


@pytest.mark.parametrize("smooth", IGNITE_SMOOTHS)
def test_sentence_bleu_matches_ignite(smooth, make_cases):
    cases = make_cases(seed=1100 + IGNITE_SMOOTHS.index(smooth), n=1800)
    settings = [ignite_setting(smooth, order) for order in ORDERS]
    check_sentences(bleusuite.sentence_bleu, cases, settings)


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
def test_corpus_bleu_matches_ignite_micro(smooth, make_cases, split_corpora):
    cases = make_cases(seed=1300 + IGNITE_SMOOTHS.index(smooth), n=1800)
    corpora = [*split_corpora(cases, seed=2, max_size=40), cases]
    check_corpora(
        bleusuite.corpus_bleu, corpora,
        lambda k, _: ignite_setting(smooth, ORDERS[k % len(ORDERS)], ignite_micro_bleu),
    )
