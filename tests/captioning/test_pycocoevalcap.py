"""bleusuite.pycocoevalcap against pycocoevalcap 1.2: Bleu(4), Rouge, Cider (scores, per-image
lists, prints), PTBTokenizer (recorded Java output) and the evaluators."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest
from caption_cases import coco_corpus

from bleusuite import pycocoevalcap as ours

bleu_module = pytest.importorskip("pycocoevalcap.bleu.bleu")
rouge_module = pytest.importorskip("pycocoevalcap.rouge.rouge")
cider_module = pytest.importorskip("pycocoevalcap.cider.cider")

SIZES = [(1, 1), (2, 2), (3, 7), (4, 40), (5, 200), (6, 1000)]


def run(scorer, gts, res, **kwargs):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        score, scores = scorer.compute_score(gts, res, **kwargs)
    return score, scores, out.getvalue()


def assert_same(got, want):
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64),
                               np.asarray(want, dtype=np.float64), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("seed", "images"), SIZES)
def test_bleu(seed, images):
    gts, res = coco_corpus(seed, images)
    score, scores, printed = run(ours.Bleu(4), gts, res)
    want_score, want_scores, want_printed = run(bleu_module.Bleu(4), gts, res)
    assert isinstance(score, list) and isinstance(scores, list) and len(scores) == 4
    assert_same(score, want_score)
    assert_same(scores, want_scores)
    assert printed == want_printed


@pytest.mark.parametrize(("seed", "images"), SIZES)
def test_rouge(seed, images):
    gts, res = coco_corpus(seed, images)
    score, scores, _ = run(ours.Rouge(), gts, res)
    want_score, want_scores, _ = run(rouge_module.Rouge(), gts, res)
    assert isinstance(score, np.floating) and isinstance(scores, np.ndarray)
    assert_same(score, want_score)
    assert_same(scores, want_scores)


@pytest.mark.parametrize(("seed", "images"), SIZES)
def test_cider(seed, images):
    gts, res = coco_corpus(seed, images)
    score, scores, _ = run(ours.Cider(), gts, res)
    want_score, want_scores, _ = run(cider_module.Cider(), gts, res)
    assert_same(score, want_score)
    assert_same(scores, want_scores)


def test_odd_captions():
    # empty captions, double spaces (ROUGE's split(" ") makes empty tokens), repeats,
    # string image ids
    gts = {"a": ["", "a b"], "b": ["x  y z", " lead", "trail "], "c": ["w w w w"],
           "d": ["p q r s t u"]}
    res = {"a": [""], "b": ["x  y"], "c": ["w w"], "d": ["p  q r"]}
    for ours_scorer, theirs in [(ours.Bleu(4), bleu_module.Bleu(4)),
                                (ours.Rouge(), rouge_module.Rouge()),
                                (ours.Cider(), cider_module.Cider())]:
        score, scores, printed = run(ours_scorer, gts, res)
        want_score, want_scores, want_printed = run(theirs, gts, res)
        assert_same(score, want_score)
        assert_same(scores, want_scores)
        assert printed == want_printed


def test_bleu_verbose_levels():
    gts, res = coco_corpus(8, 5)
    for verbose in (0, 1, 2):
        assert (run(ours.Bleu(3), gts, res, verbose=verbose)[2]
                == run(bleu_module.Bleu(3), gts, res, verbose=verbose)[2])


def test_methods():
    assert [s.method() for s in (ours.Bleu(), ours.Rouge(), ours.Cider())] == [
        "Bleu", "Rouge", "CIDEr"]


def test_tokenizer_equals_recorded_java_output():
    records = json.loads((Path(__file__).parent / "data" / "ptb_tokens.json").read_text(
        encoding="utf-8"))["records"]
    captions = {i: [{"caption": r["line"]}] for i, r in enumerate(records)}
    got = ours.PTBTokenizer().tokenize(captions)
    assert [got[i][0] for i in range(len(records))] == [r["tokens"] for r in records]


def test_tokenizer_groups_by_image():
    captions = {5: [{"caption": "A dog."}, {"caption": "Cd ef!"}], 2: [],
                9: [{"caption": "E"}]}
    assert ours.PTBTokenizer().tokenize(captions) == {5: ["a dog", "cd ef"], 9: ["e"]}


def test_evaluators_equal_the_scorers():
    gts, res = coco_corpus(9, 30)
    raw_gts = {k: [c.capitalize() + "." for c in v] for k, v in gts.items()}
    raw_res = {k: [c.upper() + " !" for c in v] for k, v in res.items()}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        scores = ours.evaluate_captions(raw_gts, raw_res)
    printed = out.getvalue()
    assert printed.startswith("tokenization...\nsetting up scorers...\ncomputing Bleu score...")
    assert "CIDEr: " in printed and "ROUGE_L: " in printed
    tokenizer = ours.PTBTokenizer()     # compared with Java's in the tests above
    tokens_gts = tokenizer.tokenize({k: [{"caption": c} for c in v] for k, v in raw_gts.items()})
    tokens_res = tokenizer.tokenize({k: [{"caption": c} for c in v] for k, v in raw_res.items()})
    want_bleu = run(bleu_module.Bleu(4), tokens_gts, tokens_res)[0]
    assert_same([scores[f"Bleu_{k}"] for k in range(1, 5)], want_bleu)
    assert_same(scores["ROUGE_L"], run(rouge_module.Rouge(), tokens_gts, tokens_res)[0])
    assert_same(scores["CIDEr"], run(cider_module.Cider(), tokens_gts, tokens_res)[0])

    class Coco:
        def __init__(self, table):
            self.imgToAnns = {k: [{"caption": c} for c in v] for k, v in table.items()}

        def getImgIds(self):
            return list(self.imgToAnns)

    evaluator = ours.COCOEvalCap(Coco(raw_gts), Coco(raw_res))
    with contextlib.redirect_stdout(io.StringIO()):
        evaluator.evaluate()
    assert evaluator.eval == pytest.approx(scores, rel=1e-15)
    first = next(iter(gts))
    assert set(evaluator.imgToEval[first]) == {"image_id", *scores}
    assert len(evaluator.evalImgs) == len(gts)


def test_errors():
    with pytest.raises(ValueError, match="same image ids"):
        ours.Cider().compute_score({1: ["a"]}, {2: ["a"]})
    with pytest.raises(ValueError, match="one caption"):
        ours.Bleu().compute_score({1: ["a"]}, {1: ["a", "b"]})
    with pytest.raises(ValueError, match="non-empty list"):
        ours.Rouge().compute_score({1: []}, {1: ["a"]})
    with pytest.raises(TypeError, match="dictionaries"):
        ours.Rouge().compute_score([["a"]], [["a"]])
    with pytest.raises(TypeError, match="caption"):
        ours.PTBTokenizer().tokenize({1: ["a plain string"]})
    with pytest.raises(ValueError, match="n must be"):
        ours.Bleu(0)
