"""The core benchmark (issue 2): per-sentence BLEU and GLEU of 256 x 1024 token ids
(vocabulary 50k, one reference), bleusuite NumPy against NLTK looped over the batch.

Run with ``tox -e bench`` or ``pytest benchmarks/bench_core.py``; scores are checked equal.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import bleusuite
from conftest import zipf_batch

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
nltk_gleu = pytest.importorskip("nltk.translate.gleu_score")

HYP, REF = zipf_batch(256, 1024)
HYP_LISTS = HYP.tolist()
REF_LISTS = [[r] for r in REF[:, 0].tolist()]


def test_sentence_bleu_nltk(timed):
    smoothing = nltk_bleu.SmoothingFunction().method1
    scores = timed(
        "sentence BLEU 256x1024", "nltk sentence_bleu loop",
        lambda: [nltk_bleu.sentence_bleu(r, h, smoothing_function=smoothing)
                 for h, r in zip(HYP_LISTS, REF_LISTS, strict=True)],
        rounds=3, baseline=True,
    )
    ours = bleusuite.sentence_bleu(HYP, REF, smooth="method1")
    np.testing.assert_allclose(ours, scores, rtol=0, atol=1e-12)


def test_sentence_bleu_bleusuite_numpy(timed):
    timed("sentence BLEU 256x1024", "bleusuite numpy",
          lambda: bleusuite.sentence_bleu(HYP, REF, smooth="method1"), rounds=20)


def test_corpus_bleu_nltk(timed):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        score = timed("corpus BLEU 256x1024", "nltk corpus_bleu",
                      lambda: nltk_bleu.corpus_bleu(REF_LISTS, HYP_LISTS), rounds=3,
                      baseline=True)
    assert abs(float(bleusuite.corpus_bleu(HYP, REF, smooth="method0")) - score) <= 1e-12


def test_corpus_bleu_bleusuite_numpy(timed):
    timed("corpus BLEU 256x1024", "bleusuite numpy",
          lambda: bleusuite.corpus_bleu(HYP, REF, smooth="method0"), rounds=20)


def test_sentence_gleu_nltk(timed):
    scores = timed(
        "sentence GLEU 256x1024", "nltk sentence_gleu loop",
        lambda: [nltk_gleu.sentence_gleu(r, h) for h, r in zip(HYP_LISTS, REF_LISTS, strict=True)],
        rounds=3, baseline=True,
    )
    np.testing.assert_allclose(bleusuite.sentence_gleu(HYP, REF), scores, rtol=0, atol=1e-12)


def test_sentence_gleu_bleusuite_numpy(timed):
    timed("sentence GLEU 256x1024", "bleusuite numpy",
          lambda: bleusuite.sentence_gleu(HYP, REF), rounds=20)
