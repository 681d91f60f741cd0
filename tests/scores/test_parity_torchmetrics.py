"""Parity with torchmetrics' BLEU (``torchmetrics.functional.text.bleu_score`` and the
``torchmetrics.text.BLEUScore`` metric), checked to 1e-12.

torchmetrics' ``smooth=False`` is ``smooth="no_smooth"``, its ``smooth=True`` is
``smooth="torchmetrics_smooth"``, both with ``ref_length="closest_first"`` (torchmetrics
takes the first listed of equally close references). torchmetrics accumulates its counts
and computes its score in the default dtype, so every test here runs it with
``torch.set_default_dtype(torch.float64)``.

* ids: the parity suite's generated cases (1..4 references, empty hypotheses, references
  equally far from the hypothesis length), as padded arrays on every backend and as token
  lists, against ``bleu_score`` on the space-joined tokens, one sentence at a time and on
  corpora; orders 1..5 and non-uniform weights;
* text: generated lines (punctuation, tabs, repeated spaces, empty lines) with
  ``tokenize="none"`` (torchmetrics splits on whitespace), against ``bleu_score`` and
  ``BLEUScore`` fed in several updates.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from parity import check_corpora, check_sentences

import bleusuite

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")
from torchmetrics.functional.text import bleu_score  # noqa: E402
from torchmetrics.text import BLEUScore  # noqa: E402

#: torchmetrics' ``smooth`` -> the smoothing name with its numbers
SMOOTHS = {False: "no_smooth", True: "torchmetrics_smooth"}
#: (n_gram, weights) pairs: torchmetrics wants one weight per order
GRID = [(4, None), (1, None), (2, [0.7, 0.3]), (3, None), (5, None), (4, [0.1, 0.2, 0.3, 0.4]),
        (2, None), (3, [0.5, 0.0, 0.5])]


#: torchmetrics counts and scores in the default dtype: float64 for exact numbers
pytestmark = pytest.mark.usefixtures("float64_default")


def _line(tokens: list[int]) -> str:
    return " ".join(f"w{t}" for t in tokens)


def torchmetrics_corpus(cases: list, n_gram: int = 4, smooth: bool = False,
                        weights: list[float] | None = None) -> float:
    """``bleu_score`` of the cases as one corpus."""
    preds = [_line(hyp) for hyp, _ in cases]
    target = [[_line(ref) for ref in refs] for _, refs in cases]
    return float(bleu_score(preds, target, n_gram=n_gram, smooth=smooth, weights=weights))


def torchmetrics_sentences(cases: list, n_gram: int = 4, smooth: bool = False,
                           weights: list[float] | None = None) -> np.ndarray:
    """``bleu_score`` of each case on its own."""
    return np.array([torchmetrics_corpus([case], n_gram, smooth, weights) for case in cases])


def setting(smooth: bool, n_gram: int, weights: list[float] | None, reference=torchmetrics_corpus):
    ours = dict(smooth=SMOOTHS[smooth], max_order=n_gram, ref_length="closest_first")
    if weights is not None:
        ours["weights"] = weights
    return ours, partial(reference, n_gram=n_gram, smooth=smooth, weights=weights)


@pytest.mark.parametrize("smooth", [False, True])
def test_sentence_bleu_matches_torchmetrics(smooth, make_cases):
    cases = make_cases(seed=4100 + smooth, n=1600)
    settings_ = [setting(smooth, n, w, torchmetrics_sentences) for n, w in GRID]
    check_sentences(bleusuite.sentence_bleu, cases, settings_)


@pytest.mark.parametrize("smooth", [False, True])
def test_corpus_bleu_matches_torchmetrics(smooth, make_cases, split_corpora):
    cases = make_cases(seed=4200 + smooth, n=1500)
    corpora = [*split_corpora(cases, seed=7, max_size=40), cases]
    check_corpora(bleusuite.corpus_bleu, corpora,
                  lambda k, corpus: setting(smooth, *GRID[k % len(GRID)]) if len(corpus) < len(
                      cases) else setting(smooth, 4, None))


def test_the_generated_cases_tell_the_reference_rules_apart(make_cases):
    """The cases hold sentences whose first closest reference is not the shorter one, so
    the tests above fail with the default rule (``"closest"``)."""
    cases = make_cases(seed=4100, n=1600)
    hyps, refs = [h for h, _ in cases], [r for _, r in cases]
    first = bleusuite.bleu_statistics(hyps, refs, ref_length="closest_first").ref_len
    shorter = bleusuite.bleu_statistics(hyps, refs).ref_len
    assert (first != shorter).sum() >= 20
    ours = bleusuite.sentence_bleu(hyps, refs, smooth="torchmetrics_smooth")
    theirs = torchmetrics_sentences(cases, smooth=True)
    assert np.abs(ours - theirs).max() > 1e-3


def test_torchmetrics_smooth_is_no_existing_name(make_cases):
    """torchmetrics' smooth=True is not ignite's smooth2 (nor NLTK's method2): it scores 0 as
    soon as an order has no match, and does not floor the unigram denominator."""
    cases = make_cases(seed=4300, n=400)
    hyps, refs = [h for h, _ in cases], [r for _, r in cases]
    ours = bleusuite.sentence_bleu(hyps, refs, smooth="torchmetrics_smooth",
                                   ref_length="closest_first")
    for other in ("smooth2", "nltk_smooth2", "method2", "add-k"):
        theirs = bleusuite.sentence_bleu(hyps, refs, smooth=other, ref_length="closest_first")
        assert np.abs(ours - theirs).max() > 1e-3, other


# ------------------------------------------------------------------------------------ text

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog,", "(hello)", "x.", "!", "é", "東京",
         "A", "a-b", "'s", "", "\t", "  "]
LINE = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)


@pytest.mark.filterwarnings("ignore::bleusuite.text.streams.ReferenceStreamsWarning")
@settings(max_examples=200, deadline=None)
@given(data=st.data(), smooth=st.booleans(), order=st.sampled_from(GRID))
def test_text_matches_torchmetrics_bleu_score_and_metric(data, smooth, order):
    n_gram, weights = order
    rows = data.draw(st.integers(1, 6))
    preds = [data.draw(LINE) for _ in range(rows)]
    target = [[data.draw(LINE) for _ in range(data.draw(st.integers(1, 4)))]
              for _ in range(rows)]  # empty references are present, of length 0
    theirs = float(bleu_score(preds, target, n_gram=n_gram, smooth=smooth, weights=weights))
    kwargs = dict(tokenize="none", smooth=SMOOTHS[smooth], max_order=n_gram,
                  ref_length="closest_first")
    if weights is not None:
        kwargs["weights"] = weights
    assert float(bleusuite.corpus_bleu(preds, target, **kwargs)) == pytest.approx(theirs,
                                                                                   abs=1e-12)
    metric = BLEUScore(n_gram=n_gram, smooth=smooth, weights=weights)
    cut = data.draw(st.integers(0, rows))
    metric.update(preds[:cut], target[:cut])
    metric.update(preds[cut:], target[cut:])
    assert float(metric.compute()) == pytest.approx(theirs, abs=1e-12)
    sentences = bleusuite.sentence_bleu(preds, target, **kwargs)
    for pred, refs, score in zip(preds, target, sentences, strict=True):
        expected = float(bleu_score([pred], [refs], n_gram=n_gram, smooth=smooth,
                                    weights=weights))
        assert score == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("smooth", [False, True])
def test_every_front_end_takes_the_reference_rule(smooth, make_cases):
    """``ref_length`` through the statistics, the result object and the Ignite metric."""
    cases = make_cases(seed=4400 + smooth, n=300)
    hyps, refs = [h for h, _ in cases], [r for _, r in cases]
    theirs = torchmetrics_corpus(cases, smooth=smooth)
    name = SMOOTHS[smooth]
    stats = bleusuite.bleu_statistics(hyps, refs, ref_length="closest_first")
    assert float(bleusuite.bleu_score(stats.sum(), smooth=name)) == pytest.approx(theirs,
                                                                                  abs=1e-12)
    result = bleusuite.corpus_bleu_result(hyps, refs, smooth=name, ref_length="closest_first")
    assert result.score == pytest.approx(100 * theirs, abs=1e-10)
    assert "|reflen:closest_first|" in result.signature
    assert result.ref_length == result.to_dict()["ref_length"] == "closest_first"
    assert "reflen" not in bleusuite.corpus_bleu_result(hyps, refs).signature
    pytest.importorskip("ignite")
    from bleusuite.metrics import Bleu

    metric = Bleu(smooth=name, average="micro", ref_length="closest_first")
    metric.update((hyps[:100], refs[:100]))
    metric.update((hyps[100:], refs[100:]))
    assert metric.compute() == pytest.approx(theirs, abs=1e-12)


@pytest.mark.parametrize("bad", ["first", "", None, 1])
def test_a_bad_reference_rule_is_refused_by_name(bad):
    with pytest.raises((TypeError, ValueError), match="ref_length"):
        bleusuite.corpus_bleu([[1, 2]], [[[1, 2]]], ref_length=bad)
    with pytest.raises((TypeError, ValueError), match="ref_length"):
        bleusuite.bleu_statistics([[1, 2]], [[[1, 2]]], ref_length=bad)
