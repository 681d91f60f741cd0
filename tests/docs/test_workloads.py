"""The benchmark batches of ``tests/workloads.py``: shapes, padding, determinism, and the
BLEU range that makes them MT-like."""

from __future__ import annotations

import numpy as np
import pytest
from workloads import PAD_ID, mt_like_batch, wmt_sample_batch

import bleusuite


def _lengths(tokens: np.ndarray) -> np.ndarray:
    return (tokens != PAD_ID).sum(axis=-1)


def _right_padded(tokens: np.ndarray) -> bool:
    """Every row is words then padding only."""
    length = tokens.shape[-1]
    return bool(((tokens != PAD_ID) == (np.arange(length) < _lengths(tokens)[..., None])).all())


@pytest.mark.parametrize("refs", [1, 4])
def test_mt_like_batches_look_like_machine_translation(refs):
    hyp, ref = mt_like_batch(64, 200, refs=refs, seed=5)
    assert hyp.shape == (64, 200) and ref.shape == (64, refs, 200)
    assert hyp.dtype == ref.dtype == np.int64
    assert _right_padded(hyp) and _right_padded(ref)
    # sources of 100 - 200 words; paraphrased references lose a few to deletions
    assert (_lengths(ref) >= (100 if refs == 1 else 80)).all() and (_lengths(hyp) > 0).all()
    assert ref.max() < 50_000
    scores = bleusuite.sentence_bleu(hyp, ref, pad_id=PAD_ID, smooth="method1")
    # the spread machine translation has: no row near 0 or 1, the middle around 0.3
    assert scores.min() > 0.08 and scores.max() < 0.85
    assert 0.2 < np.median(scores) < 0.5


def test_mt_like_batches_are_seeded():
    first = mt_like_batch(8, 50, refs=2, seed=3)
    again = mt_like_batch(8, 50, refs=2, seed=3)
    other = mt_like_batch(8, 50, refs=2, seed=4)
    np.testing.assert_array_equal(first[0], again[0])
    np.testing.assert_array_equal(first[1], again[1])
    assert not np.array_equal(first[0], other[0])


def test_mt_like_edit_rate_sets_the_score():
    close = mt_like_batch(32, 300, hyp_edit_rate=(0.02, 0.05), seed=1)
    far = mt_like_batch(32, 300, hyp_edit_rate=(0.6, 0.7), seed=1)
    close_bleu = bleusuite.corpus_bleu(*close, pad_id=PAD_ID)
    far_bleu = bleusuite.corpus_bleu(*far, pad_id=PAD_ID)
    assert close_bleu > 0.8 > 0.3 > far_bleu


def test_wmt_sample_rows_are_consecutive_sentences():
    sentences, sentence_refs = wmt_sample_batch(100, 1)  # one sentence a row, cut to 1
    hyp, ref = wmt_sample_batch(3, 1024)
    assert hyp.shape == (3, 1024) and ref.shape == (3, 1, 1024)
    assert _right_padded(hyp) and _right_padded(ref)
    assert (_lengths(hyp) > 800).all() and (_lengths(hyp) <= 1024).all()
    assert (_lengths(ref) <= 1024).all()
    # row b starts with sentence b
    np.testing.assert_array_equal(hyp[:, 0], sentences[:3, 0])
    np.testing.assert_array_equal(ref[:, 0, 0], sentence_refs[:3, 0, 0])
    # the sample's quality (multi-bleu.perl: 23.17 on the 100 sentences, SOURCE.txt)
    whole = bleusuite.corpus_bleu(*wmt_sample_batch(100, 80), pad_id=PAD_ID)
    assert 0.2 < whole < 0.3


@pytest.mark.parametrize(("args", "kwargs"), [
    ((-1, 10), {}), ((2, 0), {}), ((2, 10), {"refs": 0}), ((2, 10), {"vocab": 2}),
])
def test_mt_like_arguments_are_checked(args, kwargs):
    with pytest.raises(ValueError, match="mt_like_batch"):
        mt_like_batch(*args, **kwargs)
    with pytest.raises(ValueError, match="wmt_sample_batch"):
        wmt_sample_batch(2, 0)
