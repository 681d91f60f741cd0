"""Edge cases and input validation of the public API."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from reference import (
    assert_corpus_match,
    assert_scores_match,
    ignite_sentence_bleu,
    nltk_corpus_bleu,
    nltk_sentence_bleu,
    nltk_sentence_gleu,
    sacrebleu_sentence_bleu,
)

import bleusuite

SENTENCE_FNS = [bleusuite.sentence_bleu, bleusuite.sentence_gleu]
CORPUS_FNS = [bleusuite.corpus_bleu, bleusuite.corpus_gleu]
ALL_FNS = SENTENCE_FNS + CORPUS_FNS
BLEU_FNS = [bleusuite.sentence_bleu, bleusuite.corpus_bleu]


def fn_id(fn) -> str:
    return fn.__name__


def small_batch(b: int = 4, r: int = 2, length: int = 6) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    return rng.integers(2, 6, size=(b, length)), rng.integers(2, 6, size=(b, r, length))


# --------------------------------------------------------------------------- empty batch
@pytest.mark.parametrize("fn", SENTENCE_FNS, ids=fn_id)
@pytest.mark.parametrize("refs_shape", [(0, 5), (0, 2, 5)])
def test_empty_batch_sentence_scores_are_empty(fn, refs_shape):
    out = fn(np.zeros((0, 5), dtype=np.int64), np.zeros(refs_shape, dtype=np.int64), pad_id=0)
    assert isinstance(out, np.ndarray) and out.shape == (0,) and out.dtype == np.float64
    out = fn([], [])
    assert isinstance(out, np.ndarray) and out.shape == (0,) and out.dtype == np.float64


@pytest.mark.parametrize("fn", CORPUS_FNS, ids=fn_id)
def test_empty_batch_corpus_score_raises(fn):
    with pytest.raises(ValueError):
        fn(np.zeros((0, 5), dtype=np.int64), np.zeros((0, 2, 5), dtype=np.int64), pad_id=0)
    with pytest.raises(ValueError):
        fn([], [])


# ------------------------------------------------------------------- bad inputs: arrays
@pytest.mark.parametrize("fn", ALL_FNS, ids=fn_id)
def test_float_hypotheses_rejected(fn):
    hyps, refs = small_batch()
    with pytest.raises(TypeError, match="hypotheses"):
        fn(hyps.astype(np.float64), refs)
    with pytest.raises(TypeError, match="references"):
        fn(hyps, refs.astype(np.float32))


@pytest.mark.parametrize("fn", ALL_FNS, ids=fn_id)
def test_batch_size_mismatch_rejected(fn):
    hyps, refs = small_batch(b=4)
    with pytest.raises(ValueError, match=r"hypotheses|references"):
        fn(hyps, refs[:3])
    with pytest.raises(ValueError, match=r"hypotheses|references"):
        fn(hyps.tolist(), refs[:3].tolist())


@pytest.mark.parametrize("fn", ALL_FNS, ids=fn_id)
def test_wrong_array_rank_rejected(fn):
    hyps, refs = small_batch()
    with pytest.raises(ValueError, match="hypotheses"):
        fn(hyps[0], refs)  # 1-D
    with pytest.raises(ValueError, match="hypotheses"):
        fn(hyps[:, None, :], refs)  # 3-D
    with pytest.raises(ValueError, match="references"):
        fn(hyps, refs[:, 0, 0])  # 1-D
    with pytest.raises(ValueError, match="references"):
        fn(hyps, refs[:, :, None, :])  # 4-D


@pytest.mark.parametrize("fn", ALL_FNS, ids=fn_id)
def test_references_of_wrong_depth_rejected(fn):
    # references given as a list of token lists instead of a list of lists of token lists
    with pytest.raises((ValueError, TypeError), match="references"):
        fn([[5, 6, 7], [5, 6]], [[5, 6, 7], [5, 6]])
    with pytest.raises((ValueError, TypeError), match="references"):
        fn([[5, 6, 7], [5, 6]], [[[5, 6, 7]], [5, 6]])  # ragged depth
    with pytest.raises((ValueError, TypeError), match="hypotheses"):
        fn([5, 6, 7], [[[5, 6, 7]]])  # a bare token list as the batch of hypotheses


@pytest.mark.parametrize("fn", ALL_FNS, ids=fn_id)
def test_hypothesis_without_reference_names_row(fn):
    hyps, refs = small_batch(b=5, r=2)
    refs[3] = 0  # every reference of row 3 is padding: row 3 has no reference
    with pytest.raises(ValueError, match=r"\b3\b"):
        fn(hyps, refs, pad_id=0)
    refs[3, 1] = 4  # one present reference is enough
    fn(hyps, refs, pad_id=0)
    with pytest.raises(ValueError, match=r"\b1\b"):
        fn([[5, 6], [5, 6], [7]], [[[5, 6]], [], [[7]]])


# ------------------------------------------------------------------ bad BLEU parameters
@pytest.mark.parametrize("fn", BLEU_FNS, ids=fn_id)
@pytest.mark.parametrize("max_order", [0, -1, 2.5, "4"])
def test_bad_max_order_rejected(fn, max_order):
    hyps, refs = small_batch()
    with pytest.raises((ValueError, TypeError), match="max_order"):
        fn(hyps, refs, max_order=max_order)


@pytest.mark.parametrize("fn", BLEU_FNS, ids=fn_id)
def test_bad_weights_rejected(fn):
    hyps, refs = small_batch()
    with pytest.raises(ValueError, match="weights"):
        fn(hyps, refs, weights=(0.5, 0.5), max_order=4)
    with pytest.raises(ValueError, match="weights"):
        fn(hyps, refs, weights=(0.25,) * 4, max_order=3)
    with pytest.raises(ValueError, match="weights"):
        fn(hyps, refs, weights=(0.5, -0.25, 0.75))


@pytest.mark.parametrize("fn", BLEU_FNS, ids=fn_id)
@pytest.mark.parametrize("smooth", ["method8", "add_k", "nltk_smooth1", "", "Exp"])
def test_unknown_smoothing_rejected(fn, smooth):
    hyps, refs = small_batch()
    with pytest.raises(ValueError, match="smooth"):
        fn(hyps, refs, smooth=smooth)


@pytest.mark.parametrize("fn", BLEU_FNS, ids=fn_id)
@pytest.mark.parametrize("smooth", ["method0", "method1", "method3", "no_smooth", "smooth1"])
def test_effective_order_needs_sacrebleu_smoothing(fn, smooth):
    hyps, refs = small_batch()
    with pytest.raises(ValueError, match="effective_order"):
        fn(hyps, refs, smooth=smooth, effective_order=True)


@pytest.mark.parametrize("fn", [bleusuite.sentence_gleu, bleusuite.corpus_gleu], ids=fn_id)
def test_gleu_min_len_above_max_len_rejected(fn):
    hyps, refs = small_batch()
    with pytest.raises(ValueError, match=r"min_len|max_len"):
        fn(hyps, refs, min_len=3, max_len=2)


# ----------------------------------------------------------------------- semantic edges
def test_identical_sentences_score_one():
    hyps, refs = small_batch(b=6, r=1, length=9)
    refs[:, 0] = hyps
    for fn in (bleusuite.sentence_bleu, bleusuite.sentence_gleu):
        np.testing.assert_array_equal(fn(hyps, refs), np.ones(6))
    for smooth in ("method1", "smooth2", "exp", "floor"):
        np.testing.assert_allclose(
            bleusuite.sentence_bleu(hyps, refs, smooth=smooth), 1.0, rtol=0, atol=1e-15
        )
    assert float(bleusuite.corpus_bleu(hyps, refs)) == pytest.approx(1.0, abs=1e-15)


def test_empty_and_eos_first_hypotheses_score_zero():
    cases = [([], [[5, 6, 7]]), ([], [[5]])]
    hyps = np.array([[0, 0, 0], [9, 5, 6]])  # row 1 starts with the eos id: it is empty
    refs = np.array([[[5, 6, 7]], [[5, 0, 0]]])
    references = [
        ("method1", lambda: nltk_sentence_bleu(cases, None, "method1")),
        ("exp", lambda: sacrebleu_sentence_bleu(cases, "exp")),
    ]
    if importlib.util.find_spec("ignite") is not None:
        references.append(("smooth1", lambda: ignite_sentence_bleu(cases, 4, "smooth1")))
    for smooth, reference in references:
        ref = reference()
        ours = bleusuite.sentence_bleu(hyps, refs, smooth=smooth, pad_id=0, eos_id=9)
        assert_scores_match(ours, ref, cases, what=smooth)
        np.testing.assert_array_equal(ours, 0.0)
    assert_scores_match(
        bleusuite.sentence_gleu(hyps, refs, pad_id=0, eos_id=9),
        nltk_sentence_gleu(cases),
        cases,
        what="gleu",
    )


def test_max_order_without_weights_is_uniform(make_cases, to_arrays):
    cases = make_cases(seed=9, n=200)
    hyps, refs = to_arrays(cases, pad_id=0)
    for order in (1, 2, 3, 5):
        weights = (1 / order,) * order
        assert_scores_match(
            bleusuite.sentence_bleu(hyps, refs, smooth="method1", max_order=order, pad_id=0),
            nltk_sentence_bleu(cases, weights, "method1"),
            cases,
            what=f"max_order={order}",
        )
        assert_corpus_match(
            bleusuite.corpus_bleu(hyps, refs, smooth="method2", max_order=order, pad_id=0),
            nltk_corpus_bleu(cases, weights, "method2"),
            cases,
            what=f"max_order={order}",
        )


def test_huge_ids_are_not_truncated():
    # ids equal modulo 2**32 (or 2**62) must stay distinct tokens
    a, b, c = 7, 7 + 2**32, 7 + 2**62
    cases = [
        ([a, a, a, a], [[b, b, b, b]]),
        ([a, c, a, c], [[c, a, c, a]]),
        ([-a, 2**63 - 2, a], [[-a + 2**32, 2**63 - 2, a]]),
    ]
    hyps, refs = to_arrays_simple(cases)
    assert_scores_match(
        bleusuite.sentence_bleu(hyps, refs, smooth="method1", pad_id=0),
        nltk_sentence_bleu(cases, None, "method1"),
        cases,
        what="huge ids",
    )
    assert_scores_match(
        bleusuite.sentence_gleu(hyps, refs, pad_id=0),
        nltk_sentence_gleu(cases),
        cases,
        what="huge ids gleu",
    )


def to_arrays_simple(cases):
    width = max(len(x) for h, rs in cases for x in [h, *rs])
    hyps = np.zeros((len(cases), width), dtype=np.int64)
    refs = np.zeros((len(cases), max(len(rs) for _, rs in cases), width), dtype=np.int64)
    for i, (h, rs) in enumerate(cases):
        hyps[i, : len(h)] = h
        for j, r in enumerate(rs):
            refs[i, j, : len(r)] = r
    return hyps, refs


def test_non_contiguous_inputs_and_no_mutation():
    rng = np.random.default_rng(11)
    hyps = rng.integers(2, 6, size=(40, 12))
    refs = rng.integers(2, 6, size=(40, 3, 12))
    hyps[:, 8:] = 0
    refs[:, :, 10:] = 0
    h_copy, r_copy = hyps.copy(), refs.copy()
    expect = bleusuite.sentence_bleu(hyps[::2].copy(), refs[::2].copy(), pad_id=0, smooth="method3")
    got = bleusuite.sentence_bleu(hyps[::2], refs[::2], pad_id=0, smooth="method3")
    np.testing.assert_array_equal(got, expect)
    got = bleusuite.sentence_bleu(
        np.asfortranarray(hyps[::2]), np.asfortranarray(refs[::2]), pad_id=0, smooth="method3"
    )
    np.testing.assert_array_equal(got, expect)
    np.testing.assert_array_equal(hyps, h_copy)
    np.testing.assert_array_equal(refs, r_copy)


def test_mixed_hashable_tokens():
    # (Tuples as tokens are rejected by design: they are indistinguishable from one more
    # level of nesting.)
    fs = frozenset({1, 2})
    cases = [
        ([fs, "b", fs, 7], [[fs, "b"], ["b", fs, 7]]),
        (["x", 3, "y", 3, "3"], [["x", 3, 3, "y", "3"]]),
    ]
    hyps, refs = [h for h, _ in cases], [r for _, r in cases]
    assert_scores_match(
        bleusuite.sentence_bleu(hyps, refs, smooth="method1"),
        nltk_sentence_bleu(cases, None, "method1"),
        cases,
        what="bleu",
    )
    assert_scores_match(
        bleusuite.sentence_gleu(hyps, refs), nltk_sentence_gleu(cases), cases, what="gleu"
    )
