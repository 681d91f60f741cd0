"""chrF and chrF++ against sacrebleu's ``CHRF`` (``sentence_chrf`` / ``corpus_chrf``) on
generated text: every setting, several and absent references, empty and odd lines; the
statistics, the result object and the resampled (float32) arithmetic.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleusuite
from bleusuite.scores.chrf.entry import METRIC
from bleusuite.scores.chrf.formula import chrf_scores
from bleusuite.scores.chrf.score import chrf_statistics_of_texts
from bleusuite.scores.chrf.settings import ChrfSettings
from bleusuite.scores.chrf.text_statistics import chrf_statistics

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import CHRF  # noqa: E402

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog,", "(hello)", "x.", "!", "é", "東京", "...",
         "A", "Ünïcode", "a-b", "'s", "\u00a0", "", "x\ty"]
LINE = st.lists(st.sampled_from(WORDS), max_size=14).map(" ".join)
SETTINGS = st.fixed_dictionaries({
    "char_order": st.integers(0, 7), "word_order": st.integers(0, 3),
    "beta": st.one_of(st.integers(0, 4), st.sampled_from([0.5, 1.5, 2.0, 0.25])),
    "lowercase": st.booleans(), "whitespace": st.booleans(), "eps_smoothing": st.booleans(),
}).filter(lambda s: s["char_order"] + s["word_order"] > 0)


@settings(max_examples=250, deadline=None)
@given(data=st.data(), options=SETTINGS)
def test_corpus_and_sentence_scores_are_sacrebleus(data, options):
    rows = data.draw(st.integers(1, 6))
    streams = data.draw(st.integers(1, 3))
    hyps = [data.draw(LINE) for _ in range(rows)]
    refs = [[data.draw(st.one_of(LINE, st.none())) if r else data.draw(LINE)
             for _ in range(rows)] for r in range(streams)]  # the first stream always there
    metric = CHRF(**options)
    theirs = metric.corpus_score(hyps, refs).score / 100
    per_hypothesis = [list(r) for r in zip(*refs, strict=True)]
    ours = float(bleusuite.corpus_chrf(hyps, per_hypothesis, **options))
    assert ours == pytest.approx(theirs, abs=1e-12)
    sentences = bleusuite.sentence_chrf(hyps, per_hypothesis, **options)
    for hyp, sentence_refs, score in zip(hyps, per_hypothesis, sentences, strict=True):
        expected = metric.sentence_score(hyp, [r for r in sentence_refs if r is not None])
        assert score == pytest.approx(expected.score / 100, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), word_order=st.integers(0, 2), eps_smoothing=st.booleans())
def test_statistics_are_sacrebleus_to_the_count(data, word_order, eps_smoothing):
    rows = data.draw(st.integers(1, 5))
    hyps = [data.draw(LINE) for _ in range(rows)]
    refs = [[data.draw(LINE) for _ in range(rows)] for _ in range(2)]
    metric = CHRF(word_order=word_order, eps_smoothing=eps_smoothing)
    theirs = metric._extract_corpus_statistics(hyps, refs)
    ours = chrf_statistics(hyps, [list(r) for r in zip(*refs, strict=True)],
                           ChrfSettings(word_order=word_order, eps_smoothing=eps_smoothing)
                           ).to_array()
    assert ours.tolist() == [list(row) for row in theirs]
    # the formula's digits, on the corpus and on float32 sums (sacrebleu's resamples)
    total = np.sum(theirs, axis=0)
    assert float(chrf_scores(ours.sum(axis=0), eps_smoothing=eps_smoothing)) == \
        metric._compute_score_from_stats(total.tolist()).score
    resampled = metric._compute_score_from_stats(np.asarray(theirs, np.float32).sum(0)).score
    ours32 = METRIC.scores(ours.sum(axis=0, keepdims=True),
                           METRIC.settings(word_order=word_order, eps_smoothing=eps_smoothing),
                           resampled=True)
    # the type NumPy gives an array of sacrebleu's score (a float32 scalar, or a Python
    # float where its formula takes a branch of Python constants) and its value (with eps
    # smoothing, sacrebleu adds Python epsilons in float64 until the first float32 term,
    # then in float32: the last float32 digit may differ there, docs/cli.md)
    assert ours32.dtype == np.array([resampled]).dtype
    if not eps_smoothing:
        assert ours32[0] == resampled


@pytest.mark.parametrize("beta", [0, 0.0, 0.5, 1.5, 2.0, np.float64(2.25), np.int64(3)])
def test_beta_zero_and_fractions_are_sacrebleus(beta):
    """beta 0 (precision alone) and a fraction, as sacrebleu computes and names them
    (``chrF0``, ``chrF1.5``), in every function and the result object (issue 35, item 4)."""
    hyps = ["The cat sat on the mat.", "a dog ran", "xyz", ""]
    refs = [["The cat sat on a mat.", "A cat sat."], ["a dog ran home"], ["abc"], ["q"]]
    streams = [[r[0] for r in refs], [r[1] if len(r) > 1 else None for r in refs]]
    for word_order in (0, 2):
        metric = CHRF(beta=beta, word_order=word_order)
        theirs = metric.corpus_score(hyps, streams)
        assert float(bleusuite.corpus_chrf(hyps, refs, beta=beta, word_order=word_order)) == \
            pytest.approx(theirs.score / 100, abs=1e-12)
        result = bleusuite.corpus_chrf_result(hyps, refs, beta=beta, word_order=word_order)
        assert result.format(signature=False) == str(theirs) and result.name == theirs.name
        sentences = bleusuite.sentence_chrf(hyps, refs, beta=beta, word_order=word_order)
        expected = [metric.sentence_score(h, r).score / 100
                    for h, r in zip(hyps, refs, strict=True)]
        assert sentences.tolist() == pytest.approx(expected, abs=1e-12)
        stats = chrf_statistics_of_texts(hyps, refs, word_order=word_order)
        assert float(bleusuite.chrf_score(stats.sum(), beta=beta)) == \
            pytest.approx(theirs.score / 100, abs=1e-12)


def test_the_result_object_prints_sacrebleus_line():
    hyps = ["The cat sat on the mat.", "It rained all day!"]
    refs = [["The cat sat on a mat.", "It was raining."], ["Rain all day", None]]
    streams = [list(r) for r in zip(*refs, strict=True)]
    for word_order in (0, 2):
        ours = bleusuite.corpus_chrf_result(hyps, refs, word_order=word_order)
        theirs = sacrebleu.corpus_chrf(hyps, streams, word_order=word_order)
        assert ours.format(signature=False) == str(theirs)
        assert ours.score == theirs.score  # sacrebleu's .score, 0-100, to the bit
        metric = CHRF(word_order=word_order)
        metric.corpus_score(hyps, streams)
        assert ours.signature.rsplit("|", 1)[0] == \
            metric.get_signature().format().rsplit("|", 1)[0].replace("nrefs:var", "nrefs:var")
        assert json.loads(json.dumps(ours.to_dict()))["name"] == theirs.name


def test_statistics_sum_and_score_from_statistics():
    stats = chrf_statistics(["a b c", "d e"], [["a b c"], ["d f"]])
    assert len(stats) == 2
    assert float(bleusuite.chrf_score(stats[:1].sum())) == 1.0
    assert (stats[:1] + stats[1:]).to_array().shape == (1, 18)
    assert bleusuite.ChrfStats.from_array(stats.to_array()).matches.tolist() == \
        stats.matches.tolist()
    np.testing.assert_allclose(bleusuite.chrf_score(stats),
                               bleusuite.sentence_chrf(["a b c", "d e"], ["a b c", "d f"]))


@pytest.mark.parametrize(("call", "error", "fragment"), [
    (lambda: bleusuite.sentence_chrf("a b", ["a b"]), TypeError, "hypotheses"),
    (lambda: bleusuite.sentence_chrf(["a b"], ["a b", "c"]), ValueError, "same batch size"),
    (lambda: bleusuite.sentence_chrf(["a"], [[3]]), TypeError, r"references\[0\]\[0\]"),
    (lambda: bleusuite.sentence_chrf(["a"], ["a"], char_order=0, word_order=0), ValueError,
     "char_order and word_order"),
    (lambda: bleusuite.sentence_chrf(["a"], ["a"], beta=-1), ValueError, "beta"),
    (lambda: bleusuite.sentence_chrf(["a"], ["a"], beta="2"), TypeError, "beta"),
    (lambda: bleusuite.sentence_chrf(["a"], ["a"], lowercase=1), TypeError, "lowercase"),
    (lambda: bleusuite.corpus_chrf([], []), ValueError, "at least one sentence"),
    (lambda: bleusuite.chrf_score([1, 2, 3]), TypeError, "ChrfStats"),
])
def test_bad_input_names_the_argument(call, error, fragment):
    with pytest.raises(error, match=fragment):
        call()


def test_the_paired_tests_take_chrf_statistics():
    """The paired tests score chrF statistics with chrF (the registry), float32 on
    resamples, as sacrebleu's --paired-bs."""
    from bleusuite.significance import paired_bootstrap

    refs = [["the cat sat on the mat"], ["a dog ran home"], ["it is late"]]
    base = chrf_statistics(["the cat sat", "a dog ran", "it is"], refs)
    better = chrf_statistics(["the cat sat on the mat", "a dog ran home", "it is late"], refs)
    results = paired_bootstrap(base, [better], n_resamples=50)
    assert results[0].score < results[1].score == 100.0
