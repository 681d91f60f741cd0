"""Parity with NLTK BLEU (``nltk.translate.bleu_score``), smoothing ``method0``..``method7``.

Sentence level: every method must equal ``nltk.sentence_bleu(refs, hyp, weights,
SmoothingFunction().methodK)`` to 1e-12.  Corpus level: method0-4 equal ``nltk.corpus_bleu``;
method5-7 deliberately differ from NLTK on multi-sentence corpora (NLTK uses only the last
sentence for their extra terms), so they are checked on one-sentence corpora only.
Each test scores its cases in chunks, one chunk per weight vector and array encoding, and
checks the list form (int or str tokens) gives bit-identical scores to the array form
(``parity.check_sentences`` / ``check_corpora``).
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np
import pytest
from backend_fixtures import on_every_backend
from parity import check_corpora, check_corpus, check_sentences
from reference import (
    DEFAULT_WEIGHTS,
    NLTK_METHODS,
    assert_corpus_match,
    assert_scores_match,
    nltk_corpus_bleu,
    nltk_sentence_bleu,
)

import bleusuite

# Weight vectors of several lengths (max_order = len(weights)), some with zeros.
WEIGHTS = [
    None,
    (0.5, 0.5),
    (1 / 3,) * 3,
    (0.1, 0.2, 0.3, 0.2, 0.2),
    (1.0,),
    (0.5, 0.0, 0.5, 0.0),
    (1 / 6,) * 6,
    (0.0, 0.4, 0.0, 0.6),
]


def weight_kwargs(weights, k: int) -> dict:
    """Our keyword arguments for a weight vector; every other chunk also passes the
    (redundant) explicit max_order, to check both spellings."""
    if weights is None:
        return {"max_order": 4} if k % 2 else {}
    return {"weights": weights, "max_order": len(weights)} if k % 2 else {"weights": weights}


def weight_grid(method: str) -> list:
    # NLTK's method6 indexes the trigram precision: it needs max_order >= 3.
    return [w for w in WEIGHTS if method != "method6" or len(w or DEFAULT_WEIGHTS) >= 3]


def nltk_setting(method: str, weights, k: int, corpus: bool = False):
    """Our keyword arguments and NLTK's function for one method and weight vector."""
    reference = nltk_corpus_bleu if corpus else nltk_sentence_bleu
    return (dict(smooth=method, **weight_kwargs(weights, k)),
            partial(reference, weights=weights, method=method))


@pytest.mark.parametrize("method", NLTK_METHODS)
def test_sentence_bleu_matches_nltk(method, make_cases):
    settings = [nltk_setting(method, w, k) for k, w in enumerate(weight_grid(method))]
    cases = make_cases(seed=100 + NLTK_METHODS.index(method), n=2000)
    # NLTK's method6 asserts without a trigram match: those cases are tested separately
    check_sentences(bleusuite.sentence_bleu, cases, settings, unscorable=method == "method6")


@pytest.mark.parametrize("method", NLTK_METHODS[:5])
def test_corpus_bleu_matches_nltk(method, make_cases, split_corpora):
    cases = make_cases(seed=200 + NLTK_METHODS.index(method), n=1600)
    corpora = [*split_corpora(cases, seed=1, max_size=60), cases]  # + the whole batch

    def setting(k: int, corpus: list):
        weights = WEIGHTS[k % len(WEIGHTS)] if len(corpus) < len(cases) else None
        return nltk_setting(method, weights, k, corpus=True)

    check_corpora(bleusuite.corpus_bleu, corpora, setting)


@pytest.mark.parametrize("method", ["method5", "method6", "method7"])
def test_corpus_bleu_single_sentence_matches_nltk(method, make_cases):
    grid = weight_grid(method)
    cases = make_cases(seed=300 + NLTK_METHODS.index(method), n=240)
    for k, case in enumerate(cases):
        weights = grid[k % len(grid)]
        theirs = nltk_sentence_bleu([case], weights, method)[0]
        if math.isnan(theirs):  # method6 without a trigram match
            continue
        assert theirs == nltk_corpus_bleu([case], weights, method)
        kwargs = dict(smooth=method, **weight_kwargs(weights, k))
        check_corpus(bleusuite.corpus_bleu, [case], theirs, k, kwargs)


@pytest.mark.parametrize("method", ["method5", "method7"])
def test_corpus_bleu_of_repeated_sentence_matches_nltk(method, make_cases):
    """On a corpus of copies of one sentence, NLTK's last-sentence 5-gram term equals the
    corpus-sum one, so method5/method7 corpus scores must equal NLTK there too (method7's
    method4 part uses the corpus hypothesis length in both)."""
    cases = make_cases(seed=350 + NLTK_METHODS.index(method), n=60)
    corpora = [[case] * (2 + k % 5) for k, case in enumerate(cases)]
    check_corpora(bleusuite.corpus_bleu, corpora,
                  lambda k, _: nltk_setting(method, WEIGHTS[k % len(WEIGHTS)], k, corpus=True),
                  list_form_every=None)


def test_method6_without_trigram_match_raises(make_cases, encode, to_lists):
    """NLTK's method6 raises AssertionError when the trigram precision is 0 (but returns 0
    without any unigram match); ours raises ValueError."""
    cases = make_cases(seed=400, n=400)
    theirs = nltk_sentence_bleu(cases, None, "method6")
    bad = [c for c, t in zip(cases, theirs, strict=True) if math.isnan(t)]
    good = [c for c, t in zip(cases, theirs, strict=True) if not math.isnan(t)]
    assert len(bad) >= 20
    bad = [([5, 6], [[5, 6]]), ([5, 6, 7], [[7, 6, 5]]), *bad[:20]]
    for k, case in enumerate(bad):
        hyps, refs, enc = encode([case], k)
        with pytest.raises(ValueError):
            on_every_backend(bleusuite.sentence_bleu, hyps, refs, smooth="method6", **enc)
        with pytest.raises(ValueError):
            on_every_backend(bleusuite.corpus_bleu, hyps, refs, smooth="method6", **enc)
        hyp_list, ref_list = to_lists([case])
        with pytest.raises(ValueError):
            bleusuite.sentence_bleu(hyp_list, ref_list, smooth="method6")
    # one bad row spoils the whole batch
    hyps, refs, enc = encode([*good[:10], bad[0], *good[10:20]], 0)
    with pytest.raises(ValueError):
        on_every_backend(bleusuite.sentence_bleu, hyps, refs, smooth="method6", **enc)


# Other accepted array spellings, each checked against NLTK (method1, and method4 whose
# log(len(hyp)) term is sensitive to the sentence length) and against the default array form.
INPUT_FORMS = ["refs-2d", "int32", "eos-only", "no-pad-no-eos", "list-ragged-str"]


@pytest.mark.parametrize("form", INPUT_FORMS)
@pytest.mark.parametrize("method", ["method1", "method4"])
def test_input_forms_match_nltk(form, method, make_cases, to_arrays, to_lists):
    rng = np.random.default_rng(500)
    if form == "refs-2d":
        cases = make_cases(seed=501, n=200, n_refs=1)
        hyps, refs = to_arrays(cases, pad_id=-5, squeeze=True)
        assert refs.ndim == 2
        inputs, enc = (hyps, refs), {"pad_id": -5}
    elif form == "int32":
        cases = [
            ([t % 1000 + 2 for t in h], [[t % 1000 + 2 for t in r] for r in rs])
            for h, rs in make_cases(seed=502, n=200)
        ]
        hyps, refs = to_arrays(cases, pad_id=0, eos_id=1, dtype=np.int32)
        inputs, enc = (hyps, refs), {"pad_id": 0, "eos_id": 1}
    elif form == "eos-only":  # no padding id at all: every row is filled after its eos
        cases = make_cases(seed=503, n=200, n_refs=2)
        hyps, refs = to_arrays(cases, pad_id=None, eos_id=-1)
        inputs, enc = (hyps, refs), {"eos_id": -1}
    elif form == "no-pad-no-eos":  # fixed-length sentences, tiny vocabulary
        hyps = rng.integers(2, 6, size=(200, 7))
        refs = rng.integers(2, 6, size=(200, 3, 7))
        refs[:100, 1:] = hyps[:100, None]  # some exact matches
        cases = [(h, r) for h, r in zip(hyps.tolist(), refs.tolist(), strict=True)]
        inputs, enc = (hyps, refs), {}
    else:  # ragged lists: 1..4 references per sentence, str tokens, empty hypotheses
        cases = make_cases(seed=504, n=200)
        inputs, enc = to_lists(cases, as_str=True), {}
    theirs = nltk_sentence_bleu(cases, None, method)
    ours = on_every_backend(bleusuite.sentence_bleu, *inputs, smooth=method, **enc)
    assert_scores_match(ours, theirs, cases, what=form)
    hyps, refs = to_arrays(cases, pad_id=0)
    assert_scores_match(
        on_every_backend(bleusuite.sentence_bleu, hyps, refs, smooth=method, pad_id=0),
        ours,
        cases,
        tol=0.0,
        what=f"default array form vs {form}",
    )
    assert_corpus_match(
        on_every_backend(bleusuite.corpus_bleu, *inputs, smooth=method, **enc),
        nltk_corpus_bleu(cases, None, method),
        cases,
        what=f"corpus {form}",
    )
