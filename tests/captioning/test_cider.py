"""CIDEr-D: bleusuite.sentence_cider / corpus_cider against pycocoevalcap 1.2's Cider."""

from __future__ import annotations

import numpy as np
import pytest
from caption_cases import coco_corpus, sentence

import bleusuite
from bleusuite import cider_document_frequency, corpus_cider, sentence_cider

cider_module = pytest.importorskip("pycocoevalcap.cider.cider")


def pycoco_cider(gts, res):
    score, scores = cider_module.Cider().compute_score(gts, res)
    return float(score), np.asarray(scores, dtype=np.float64)


@pytest.mark.parametrize(("seed", "images"), [(1, 1), (2, 2), (3, 7), (4, 40), (5, 200),
                                              (6, 1000)])
def test_equals_pycocoevalcap(seed, images):
    gts, res = coco_corpus(seed, images)
    want_score, want = pycoco_cider(gts, res)
    hyps = [res[k][0] for k in gts]
    refs = [gts[k] for k in gts]
    got = sentence_cider(hyps, refs)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    assert corpus_cider(hyps, refs) == pytest.approx(want_score, rel=1e-12, abs=1e-12)


def test_one_image_scores_zero():
    assert sentence_cider(["a dog"], [["a dog", "a cat"]]).tolist() == [0.0]


def test_edge_cases_equal_pycocoevalcap():
    gts = {0: ["a a a a a", "a b"], 1: ["x"], 2: ["the cat sat on the mat"], 3: ["b c d e f"]}
    res = {0: ["a a a"], 1: [""], 2: ["the cat sat on the mat"], 3: ["q"]}
    _, want = pycoco_cider(gts, res)
    got = sentence_cider([res[k][0] for k in gts], [gts[k] for k in gts])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_token_ids_on_torch_equal_text():
    torch = pytest.importorskip("torch")
    gts, res = coco_corpus(11, 60)
    hyps = [res[k][0] for k in gts]
    refs = [gts[k] for k in gts]
    vocabulary: dict[str, int] = {}

    def ids(line):
        return [vocabulary.setdefault(w, len(vocabulary) + 10**12) for w in line.split()]

    hyp_ids = [ids(h) for h in hyps]
    ref_ids = [[ids(r) for r in rs] for rs in refs]
    width = max(map(len, hyp_ids)) + 1
    ref_width = max(len(r) for rs in ref_ids for r in rs) + 1
    hyp_tensor = torch.zeros((len(hyps), width), dtype=torch.int64)
    ref_tensor = torch.zeros((len(hyps), 5, ref_width), dtype=torch.int64)
    for b, h in enumerate(hyp_ids):
        hyp_tensor[b, :len(h)] = torch.tensor(h, dtype=torch.int64)
        for r, ref in enumerate(ref_ids[b]):
            ref_tensor[b, r, :len(ref)] = torch.tensor(ref, dtype=torch.int64)
    want = sentence_cider(hyps, refs)
    got = sentence_cider(hyp_tensor, ref_tensor, pad_id=0)
    assert isinstance(got, torch.Tensor)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    # lists of ids, NumPy arrays
    np.testing.assert_allclose(sentence_cider(hyp_ids, ref_ids), want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(sentence_cider(hyp_tensor.numpy(), ref_tensor.numpy(), pad_id=0),
                               want, rtol=1e-12, atol=1e-12)


def test_fixed_document_frequency():
    gts, res = coco_corpus(21, 120)
    hyps = [res[k][0] for k in gts]
    refs = [gts[k] for k in gts]
    # the batch's own references as the corpus: pycocoevalcap's numbers
    own = cider_document_frequency(refs)
    np.testing.assert_allclose(sentence_cider(hyps, refs, document_frequency=own),
                               sentence_cider(hyps, refs), rtol=1e-12, atol=1e-12)
    # a larger corpus: a batch's scores do not depend on how it is split
    train_gts, _ = coco_corpus(22, 500)
    frequency = cider_document_frequency(list(train_gts.values()))
    whole = sentence_cider(hyps, refs, document_frequency=frequency)
    parts = np.concatenate([sentence_cider(hyps[i:i + 7], refs[i:i + 7],
                                           document_frequency=frequency)
                            for i in range(0, len(hyps), 7)])
    np.testing.assert_array_equal(whole, parts)
    assert frequency.documents == 500
    first = int(np.argmax(whole > 0))
    one = sentence_cider(hyps[first:first + 1], refs[first:first + 1],
                         document_frequency=frequency)
    assert one[0] == whole[first] > 0


def test_document_frequency_counts_images_not_references():
    frequency = cider_document_frequency([["a cat", "a cat"], ["a dog"], "a cat sat"])
    assert frequency.counts[("a", "cat")] == 2 and frequency.counts[("a",)] == 3
    ids = cider_document_frequency([[[1, 2], [1, 2]], [[1, 3]]])
    assert ids.counts[(1, 2)] == 1 and ids.counts[(1,)] == 2 and not ids.text


def test_sigma_equals_pycocoevalcap():
    # (pycocoevalcap's Cider(n=...) other than 4 fails: its precook always counts 4-grams)
    gts, res = coco_corpus(31, 50)
    _, want = cider_module.Cider(sigma=3.0).compute_score(gts, res)
    got = sentence_cider([res[k][0] for k in gts], [gts[k] for k in gts], sigma=3.0)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_errors():
    with pytest.raises(ValueError, match="at least one reference"):
        sentence_cider(["a b", "c"], [["a b"], []])
    with pytest.raises(ValueError, match="max_order"):
        sentence_cider(["a"], [["a"]], max_order=0)
    with pytest.raises(ValueError, match="sigma"):
        sentence_cider(["a"], [["a"]], sigma=-1.0)
    frequency = cider_document_frequency([["a b"]])
    with pytest.raises(ValueError, match="text"):
        sentence_cider([[1, 2]], [[[1, 2]]], document_frequency=frequency)
    with pytest.raises(TypeError, match="document_frequency"):
        sentence_cider(["a"], [["a"]], document_frequency={("a",): 1})
    with pytest.raises(ValueError, match="same batch size"):
        sentence_cider(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match="at least one sentence"):
        corpus_cider([], [])


def test_public_names():
    assert bleusuite.sentence_cider is sentence_cider
    assert sentence(__import__("random").Random(0))


def test_keys_numbered_first_give_the_same_scores(monkeypatch):
    # batches whose n-gram keys would not fit beside the sentence and offset bits
    from bleusuite.scores.cider import sorted_orders

    gts, res = coco_corpus(41, 300)
    hyps = [res[k][0] for k in gts]
    refs = [gts[k] for k in gts]
    want = sentence_cider(hyps, refs)
    monkeypatch.setattr(sorted_orders, "VALUE_BITS", 20)
    np.testing.assert_array_equal(sentence_cider(hyps, refs), want)


def test_repeated_and_long_lines_equal_pycocoevalcap():
    # n-grams repeated within a sentence and across images, lines much longer than others
    # (the pruning of n-grams that occur once, the offsets' bits)
    import random

    rng = random.Random(51)
    gts, res = {}, {}
    for image in range(120):
        words = rng.sample(["a", "b", "c", "d"], rng.randint(1, 3))
        refs = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
                for _ in range(rng.randint(1, 5))]
        if image % 17 == 0:
            refs.append(" ".join(rng.choice("abcdefgh") for _ in range(300)))
        gts[image] = refs
        res[image] = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 40)))]
    _, want = pycoco_cider(gts, res)
    got = sentence_cider([res[k][0] for k in gts], [gts[k] for k in gts])
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
