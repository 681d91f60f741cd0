"""Parity with NLTK GLEU (``nltk.translate.gleu_score.sentence_gleu`` / ``corpus_gleu``)."""

from __future__ import annotations

from functools import partial

import pytest
from backend_fixtures import on_every_backend
from parity import check_corpora, check_sentences
from reference import (
    assert_corpus_match,
    assert_scores_match,
    nltk_corpus_gleu,
    nltk_sentence_gleu,
)

import bleusuite

# (min_len, max_len); the generated sentences are often shorter than min_len.
ORDERS = [(1, 4), (1, 1), (2, 2), (1, 2), (2, 4), (3, 5), (4, 4), (1, 6)]


def gleu_setting(min_len: int, max_len: int, reference=nltk_sentence_gleu):
    """Our keyword arguments and NLTK's function for one range of orders."""
    return (dict(min_len=min_len, max_len=max_len),
            partial(reference, min_len=min_len, max_len=max_len))


@pytest.mark.parametrize(("min_len", "max_len"), ORDERS)
def test_sentence_gleu_matches_nltk(min_len, max_len, make_cases):
    cases = make_cases(seed=3100 + ORDERS.index((min_len, max_len)), n=1200)
    check_sentences(bleusuite.sentence_gleu, cases, [gleu_setting(min_len, max_len)] * 3,
                    first_encoding=min_len)


@pytest.mark.parametrize(("min_len", "max_len"), ORDERS)
def test_corpus_gleu_matches_nltk(min_len, max_len, make_cases, split_corpora):
    cases = make_cases(seed=3200 + ORDERS.index((min_len, max_len)), n=1200)
    corpora = [*split_corpora(cases, seed=5, max_size=50), cases]
    check_corpora(bleusuite.corpus_gleu, corpora,
                  lambda k, _: gleu_setting(min_len, max_len, nltk_corpus_gleu))


# Sentence 0 scores 1/2 against either reference, but with different statistics:
# (tp, n_all) = (1, 2) against [5, 8] and (2, 4) against [5, 6, 8, 9].  NLTK keeps the first
# reference reaching the best ratio, and the choice changes the corpus sums.
TIE_CASES = [
    [([5, 6], [[5, 8], [5, 6, 8, 9]]), ([7, 7, 7], [[7, 7, 7]])],  # corpus 4/5
    [([5, 6], [[5, 6, 8, 9], [5, 8]]), ([7, 7, 7], [[7, 7, 7]])],  # corpus 5/7
    [([5, 6], [[9, 9, 9], [5, 8], [5, 6, 8, 9]]), ([4], [[3]])],
    # a reference with no n-gram of the orders, and hypothesis too short: skipped by NLTK
    [([5], [[5]]), ([5, 6, 7, 8], [[5, 6, 7, 8]])],
]


@pytest.mark.parametrize("corpus", TIE_CASES)
@pytest.mark.parametrize(("min_len", "max_len"), [(1, 1), (2, 2), (1, 4)])
def test_corpus_gleu_reference_choice_on_ties(corpus, min_len, max_len, encode, to_lists):
    theirs = nltk_corpus_gleu(corpus, min_len, max_len)
    hyps, refs, enc = encode(corpus, 0)
    assert_corpus_match(
        on_every_backend(
            bleusuite.corpus_gleu, hyps, refs, min_len=min_len, max_len=max_len, **enc
        ),
        theirs,
        corpus,
        what="array form",
    )
    assert_corpus_match(
        bleusuite.corpus_gleu(*to_lists(corpus), min_len=min_len, max_len=max_len),
        theirs,
        corpus,
        what="list form",
    )
    assert_scores_match(
        on_every_backend(
            bleusuite.sentence_gleu, hyps, refs, min_len=min_len, max_len=max_len, **enc
        ),
        nltk_sentence_gleu(corpus, min_len, max_len),
        corpus,
        what="sentence",
    )
