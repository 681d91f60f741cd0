"""Tests of bleusuite.losses: parity with the exact metrics on one-hot inputs, gradients,
numerical safety, argument validation, reductions and memory."""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

import numpy as np  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from ignite.metrics.nlp import Bleu  # noqa: E402
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu  # noqa: E402
from torch.nn.functional import one_hot  # noqa: E402

import bleusuite as core  # noqa: E402
from bleusuite.losses import BleuLoss, GleuLoss, soft_bleu, soft_gleu  # noqa: E402

PAD, EOS = 0, 1  # the generated cases use 0 as pad, 1 as eos and 2.. as words
REPO = Path(__file__).resolve().parents[2]



# ---------------------------------------------------------------------------------------
# exact references: a Counter implementation of ignite's "no_smooth" BLEU, plus the real
# pytorch-ignite and NLTK where they are cheap enough to call
# ---------------------------------------------------------------------------------------


def strip(seq: Sequence[int], eos_id: int | None = EOS, pad_id: int | None = PAD) -> list[int]:
    """The sentence: tokens before the first eos, pads removed."""
    out = []
    for token in seq:
        if eos_id is not None and token == eos_id:
            break
        if pad_id is not None and token == pad_id:
            continue
        out.append(int(token))
    return out


def ngrams(seq: list[int], n: int) -> Counter[tuple[int, ...]]:
    return Counter(tuple(seq[i : i + n]) for i in range(len(seq) - n + 1))


def bleu_statistics(hyp: list[int], refs: list[list[int]], max_order: int):
    matches, totals = [], []
    for n in range(1, max_order + 1):
        best: Counter[tuple[int, ...]] = Counter()
        for ref in refs:
            best |= ngrams(ref, n)
        matches.append(sum((ngrams(hyp, n) & best).values()))
        totals.append(max(0, len(hyp) - n + 1))
    closest = min((len(r) for r in refs), key=lambda length: (abs(length - len(hyp)), length))
    return matches, totals, len(hyp), closest


def exact_bleu(matches, totals, hyp_len, ref_len, weights=None) -> float:
    """ignite's _brevity_penalty_smoothing with smooth="no_smooth", in float64."""
    weights = weights or [1.0 / len(matches)] * len(matches)
    if any(m == 0 and w > 0 for m, w in zip(matches, weights, strict=True)) or hyp_len == 0:
        return 0.0
    bp = 1.0 if hyp_len >= ref_len else math.exp(1 - ref_len / hyp_len)
    return bp * math.exp(
        math.fsum(
            w * math.log(m / max(1, t)) for m, t, w in zip(matches, totals, weights, strict=True)
        )
    )


def exact_sentence_bleu(hyps, refs, max_order=4, weights=None, eos_id=EOS, pad_id=PAD):
    out = []
    for hyp, sentence_refs in zip(hyps, refs, strict=True):
        stats = bleu_statistics(
            strip(hyp, eos_id, pad_id), [strip(r, eos_id, pad_id) for r in sentence_refs], max_order
        )
        out.append(exact_bleu(*stats, weights=weights))
    return np.array(out)


def exact_corpus_bleu(hyps, refs, max_order=4, eos_id=EOS, pad_id=PAD) -> float:
    sums = [np.zeros(max_order), np.zeros(max_order), 0, 0]
    for hyp, sentence_refs in zip(hyps, refs, strict=True):
        stats = bleu_statistics(
            strip(hyp, eos_id, pad_id), [strip(r, eos_id, pad_id) for r in sentence_refs], max_order
        )
        for i, value in enumerate(stats):
            sums[i] = sums[i] + np.asarray(value)
    return exact_bleu(list(sums[0]), list(sums[1]), sums[2], sums[3])


def nltk_gleu(hyps, refs, min_len=1, max_len=4, eos_id=EOS, pad_id=PAD, corpus=False):
    hyp_lists = [strip(h, eos_id, pad_id) for h in hyps]
    ref_lists = [[strip(r, eos_id, pad_id) for r in rs] for rs in refs]
    if corpus:
        return corpus_gleu(ref_lists, hyp_lists, min_len=min_len, max_len=max_len)
    return np.array(
        [
            sentence_gleu(r, h, min_len=min_len, max_len=max_len)
            for r, h in zip(ref_lists, hyp_lists, strict=True)
        ]
    )


def ignite_bleu(hyps, refs, average="macro", eos_id=EOS, pad_id=PAD) -> np.ndarray:
    """The real pytorch-ignite (it counts in float32, hence the 1e-6 tolerance)."""
    hyp_lists = [strip(h, eos_id, pad_id) for h in hyps]
    ref_lists = [[strip(r, eos_id, pad_id) for r in rs] for rs in refs]
    if average == "micro":
        metric = Bleu(ngram=4, smooth="no_smooth", average="micro")
        metric.update((hyp_lists, ref_lists))
        return np.array(float(metric.compute()))
    scores = []
    for hyp, sentence_refs in zip(hyp_lists, ref_lists, strict=True):
        metric = Bleu(ngram=4, smooth="no_smooth", average="macro")
        metric.update(([hyp], [sentence_refs]))
        scores.append(float(metric.compute()))
    return np.array(scores)


# ---------------------------------------------------------------------------------------
# generated cases
# ---------------------------------------------------------------------------------------


def random_sentence(rng: np.random.Generator, length: int, words: int, *, mid_pads: bool):
    """Words 2..words+1, possibly ended by eos followed by junk, or padded at the end."""
    tokens = rng.integers(2, 2 + words, size=length)
    cut = int(rng.integers(0, length + 1))
    if cut < length:
        if rng.random() < 0.6:
            tokens[cut] = EOS  # junk (words, eos, pad) after the eos is ignored
            tokens[cut + 1 :] = rng.integers(0, 2 + words, size=length - cut - 1)
        else:
            tokens[cut:] = PAD
    if mid_pads:  # pads inside the sentence are removed by the exact metric
        tokens[rng.random(length) < 0.15] = PAD
    return tokens


def random_batch(rng, batch, length, num_refs, words, *, mid_pads=True, ref_length=None):
    hyps = np.stack([random_sentence(rng, length, words, mid_pads=False) for _ in range(batch)])
    refs = np.stack(
        [
            np.stack(
                [
                    random_sentence(rng, ref_length or length, words, mid_pads=mid_pads)
                    for _ in range(num_refs)
                ]
            )
            for _ in range(batch)
        ]
    )
    # make some hypotheses copies of (a part of) a reference so that high orders match
    for b in range(0, batch, 3):
        n = min(length, refs.shape[2])
        hyps[b, :n] = np.where(refs[b, 0, :n] == PAD, 2, refs[b, 0, :n])
    return hyps, refs


def onehot(ids: np.ndarray, vocab: int, dtype=torch.float64) -> torch.Tensor:
    return one_hot(torch.from_numpy(ids).long(), vocab).to(dtype)


# ---------------------------------------------------------------------------------------
# parity with the exact metrics
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_refs", [1, 2, 3])
@pytest.mark.parametrize("words", [2, 4, 30])
def test_one_hot_bleu_matches_exact_sentence_bleu(num_refs, words):
    rng = np.random.default_rng(100 * num_refs + words)
    hyps, refs = random_batch(rng, 40, 12, num_refs, words, ref_length=11)
    vocab = words + 2
    expected = exact_sentence_bleu(hyps, refs)
    got = soft_bleu(onehot(hyps, vocab), torch.from_numpy(refs), eos_id=EOS, pad_id=PAD)
    assert got.dtype == torch.float64 and got.shape == (40,)
    np.testing.assert_allclose(got.numpy(), expected, rtol=0, atol=1e-12)
    assert (expected > 0).sum() >= 5  # the cases are not all trivial zeros
    refs_2d = torch.from_numpy(refs[:, 0])  # (B, T) references are one reference each
    np.testing.assert_allclose(
        soft_bleu(onehot(hyps, vocab), refs_2d, eos_id=EOS, pad_id=PAD).numpy(),
        exact_sentence_bleu(hyps, refs[:, :1]),
        rtol=0,
        atol=1e-12,
    )


def test_one_hot_bleu_matches_real_ignite():
    rng = np.random.default_rng(7)
    hyps, refs = random_batch(rng, 60, 10, 2, 3)
    got = soft_bleu(onehot(hyps, 5), torch.from_numpy(refs), eos_id=EOS, pad_id=PAD)
    np.testing.assert_allclose(got.numpy(), ignite_bleu(hyps, refs), rtol=0, atol=1e-6)
    corpus = soft_bleu(onehot(hyps, 5), torch.from_numpy(refs), eos_id=EOS, pad_id=PAD, corpus=True)
    assert corpus.shape == ()
    np.testing.assert_allclose(corpus.item(), ignite_bleu(hyps, refs, "micro"), atol=1e-6)
    np.testing.assert_allclose(corpus.item(), exact_corpus_bleu(hyps, refs), atol=1e-12)


@pytest.mark.parametrize(("num_refs", "words"), [(1, 2), (2, 3), (3, 3), (4, 30)])
def test_one_hot_scores_match_bleusuite_core(num_refs, words):
    rng = np.random.default_rng(11 * num_refs + words)
    hyps, refs = random_batch(rng, 50, 12, num_refs, words)
    for sentence_refs in refs:  # the core rejects a sentence whose references are all empty
        if not any(strip(r) for r in sentence_refs):
            sentence_refs[0, 0] = 2
    hyp_probs, ref_ids = onehot(hyps, words + 2), torch.from_numpy(refs)
    ids = {"eos_id": EOS, "pad_id": PAD}
    hyps64, refs64 = hyps.astype(np.int64), refs.astype(np.int64)
    assert core is not None
    pairs = [
        (
            soft_bleu(hyp_probs, ref_ids, **ids),
            core.sentence_bleu(hyps64, refs64, max_order=4, smooth="no_smooth", **ids),
        ),
        (
            soft_bleu(hyp_probs, ref_ids, max_order=3, weights=[0.5, 0.3, 0.2], **ids),
            core.sentence_bleu(hyps64, refs64, max_order=3, weights=[0.5, 0.3, 0.2], **ids),
        ),
        (
            soft_bleu(hyp_probs, ref_ids, corpus=True, **ids),
            core.corpus_bleu(hyps64, refs64, smooth="no_smooth", **ids),
        ),
        (
            soft_gleu(hyp_probs, ref_ids, **ids),
            core.sentence_gleu(hyps64, refs64, min_len=1, max_len=4, **ids),
        ),
        (
            soft_gleu(hyp_probs, ref_ids, min_len=2, max_len=3, corpus=True, **ids),
            core.corpus_gleu(hyps64, refs64, min_len=2, max_len=3, **ids),
        ),
    ]
    for got, expected in pairs:
        np.testing.assert_allclose(got.numpy(), np.asarray(expected), rtol=0, atol=1e-6)


@pytest.mark.parametrize(("min_len", "max_len"), [(1, 4), (1, 1), (2, 3), (3, 5)])
@pytest.mark.parametrize("num_refs", [1, 3])
def test_one_hot_gleu_matches_nltk(min_len, max_len, num_refs):
    rng = np.random.default_rng(10 * min_len + max_len + num_refs)
    hyps, refs = random_batch(rng, 40, 10, num_refs, 3, ref_length=12)
    got = soft_gleu(
        onehot(hyps, 5),
        torch.from_numpy(refs),
        min_len=min_len,
        max_len=max_len,
        eos_id=EOS,
        pad_id=PAD,
    )
    expected = nltk_gleu(hyps, refs, min_len, max_len)
    np.testing.assert_allclose(got.numpy(), expected, rtol=0, atol=1e-12)
    corpus = soft_gleu(
        onehot(hyps, 5),
        torch.from_numpy(refs),
        min_len=min_len,
        max_len=max_len,
        eos_id=EOS,
        pad_id=PAD,
        corpus=True,
    )
    np.testing.assert_allclose(
        corpus.item(), nltk_gleu(hyps, refs, min_len, max_len, corpus=True), rtol=0, atol=1e-12
    )


def test_gleu_corpus_skips_empty_references_like_nltk():
    # hypothesis empty, first reference empty (n_all == 0: skipped), second one not
    hyps = np.array([[EOS, 2, 2], [2, 3, 4]])
    refs = np.array([[[EOS, 0, 0], [2, 3, EOS]], [[2, 3, 4], [2, 3, 4]]])
    got = soft_gleu(onehot(hyps, 5), torch.from_numpy(refs), eos_id=EOS, pad_id=PAD, corpus=True)
    expected = nltk_gleu(hyps, refs, corpus=True)
    assert expected == pytest.approx(6 / 9)
    assert got.item() == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("max_order", [1, 2, 3, 5])
def test_other_orders_and_weights(max_order):
    rng = np.random.default_rng(max_order)
    hyps, refs = random_batch(rng, 30, 9, 2, 3)
    hyp_probs, ref_ids = onehot(hyps, 5), torch.from_numpy(refs)
    got = soft_bleu(hyp_probs, ref_ids, max_order=max_order, eos_id=EOS, pad_id=PAD)
    np.testing.assert_allclose(
        got.numpy(), exact_sentence_bleu(hyps, refs, max_order), rtol=0, atol=1e-12
    )
    weights = list(np.linspace(1.0, 2.0, max_order) / max_order)
    got = soft_bleu(
        hyp_probs, ref_ids, max_order=max_order, weights=weights, eos_id=EOS, pad_id=PAD
    )
    np.testing.assert_allclose(
        got.numpy(), exact_sentence_bleu(hyps, refs, max_order, weights), rtol=0, atol=1e-12
    )


def test_distribution_references_equal_id_references():
    rng = np.random.default_rng(3)
    hyps, refs = random_batch(rng, 30, 10, 2, 3, mid_pads=False)
    hyp_probs = onehot(hyps, 5)
    for fn in (soft_bleu, soft_gleu):
        by_ids = fn(hyp_probs, torch.from_numpy(refs), eos_id=EOS, pad_id=PAD)
        by_dist = fn(hyp_probs, onehot(refs, 5), eos_id=EOS, pad_id=PAD)
        torch.testing.assert_close(by_dist, by_ids, rtol=0, atol=1e-12)
        one_ref = fn(hyp_probs, onehot(refs[:, 0], 5), eos_id=EOS, pad_id=PAD)  # (B, T, V)
        torch.testing.assert_close(
            one_ref, fn(hyp_probs, torch.from_numpy(refs[:, :1]), eos_id=EOS, pad_id=PAD)
        )


def test_without_eos_and_pad_ids():
    rng = np.random.default_rng(5)
    hyps = rng.integers(0, 4, size=(20, 8))
    refs = rng.integers(0, 4, size=(20, 2, 8))
    got = soft_bleu(onehot(hyps, 4), torch.from_numpy(refs))
    np.testing.assert_allclose(
        got.numpy(), exact_sentence_bleu(hyps, refs, eos_id=None, pad_id=None), atol=1e-12
    )
    got = soft_gleu(onehot(hyps, 4), torch.from_numpy(refs))
    np.testing.assert_allclose(
        got.numpy(), nltk_gleu(hyps, refs, eos_id=None, pad_id=None), atol=1e-12
    )


def test_negative_pad_id_only_applies_to_id_references():
    refs = torch.tensor([[4, -100, 5, 6, -100, -100]])
    hyp = one_hot(torch.tensor([[4, 5, 6, 3, 3, 3]]), 8).double()
    gleu = soft_gleu(hyp, refs, pad_id=-100)
    expected = sentence_gleu([[4, 5, 6]], [4, 5, 6, 3, 3, 3])
    assert gleu.item() == pytest.approx(expected, abs=1e-12)
    with pytest.raises(ValueError, match="references contains token id -100"):
        soft_gleu(hyp, refs)


@settings(max_examples=60, deadline=None)
@given(
    hyp=st.lists(st.integers(0, 4), min_size=1, max_size=9),
    refs=st.lists(st.lists(st.integers(0, 4), min_size=1, max_size=9), min_size=1, max_size=3),
)
def test_property_one_hot_parity(hyp, refs):
    """Any token lists (eos = 1 and pad = 0 anywhere in the references)."""
    length = max(len(hyp), *(len(r) for r in refs))
    hyp_ids = np.array(hyp + [PAD] * (length - len(hyp)))
    if PAD in hyp:  # pads inside a soft hypothesis split n-grams (documented), so end it there
        hyp_ids[hyp.index(PAD)] = EOS
    ref_ids = np.array([r + [PAD] * (length - len(r)) for r in refs])
    hyp_probs, ref_tensor = onehot(hyp_ids[None], 5), torch.from_numpy(ref_ids[None])
    bleu = soft_bleu(hyp_probs, ref_tensor, eos_id=EOS, pad_id=PAD)
    assert bleu.item() == pytest.approx(exact_sentence_bleu([hyp_ids], [ref_ids])[0], abs=1e-12)
    gleu = soft_gleu(hyp_probs, ref_tensor, eos_id=EOS, pad_id=PAD)
    assert gleu.item() == pytest.approx(nltk_gleu([hyp_ids], [ref_ids])[0], abs=1e-12)


def test_zero_matches_and_empty_hypothesis_give_exact_zero():
    refs = torch.tensor([[2, 3, 4, 5, 6], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6]])
    hyps = torch.tensor([[7, 7, 7, 7, 7], [EOS, 2, 3, 4, 5], [2, 3, 7, 4, 5]])  # no 3-gram
    hyp_probs = one_hot(hyps, 8).double()
    assert soft_bleu(hyp_probs, refs, eos_id=EOS).tolist() == [0.0, 0.0, 0.0]
    assert soft_gleu(hyp_probs, refs, eos_id=EOS)[:2].tolist() == [0.0, 0.0]
    # a softened zero-match hypothesis has a small but positive, smooth score
    soft = (5.0 * hyp_probs).softmax(-1)
    assert (soft_bleu(soft, refs, eos_id=EOS) > 0).all()


# ---------------------------------------------------------------------------------------
# gradients
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("corpus", [False, True])
@pytest.mark.parametrize("loss_cls", [BleuLoss, GleuLoss])
def test_gradcheck_id_references(loss_cls, corpus):
    torch.manual_seed(0)
    logits = torch.randn(2, 6, 7, dtype=torch.float64, requires_grad=True)
    refs = torch.tensor([[[2, 3, 4, 2, 3, EOS], [5, 6, 2, 3, PAD, PAD]], [[4, 4, 5, 6, 2, 3]] * 2])
    kwargs = {"max_order": 3} if loss_cls is BleuLoss else {"max_len": 3}
    loss = loss_cls(eos_id=EOS, pad_id=PAD, corpus=corpus, reduction="sum", **kwargs)
    assert torch.autograd.gradcheck(lambda x: loss(x.softmax(-1), refs), (logits,))


@pytest.mark.parametrize("fn", [soft_bleu, soft_gleu])
def test_gradcheck_distribution_references(fn):
    torch.manual_seed(1)
    logits = torch.randn(2, 5, 6, dtype=torch.float64, requires_grad=True)
    ref_logits = 2 * torch.randn(2, 2, 4, 6, dtype=torch.float64)
    ref_logits = ref_logits.requires_grad_()
    assert torch.autograd.gradcheck(
        lambda x, y: fn(x.softmax(-1), y.softmax(-1), eos_id=EOS), (logits, ref_logits)
    )


def adversarial_inputs(dtype):
    batch, length, vocab = 3, 6, 9
    refs = torch.tensor(
        [[2, 3, 4, 5, EOS, PAD], [2, 2, 2, 2, 2, 2], [EOS, PAD, PAD, PAD, PAD, PAD]]
    )
    eos_first = one_hot(torch.full((batch, length), EOS), vocab).to(dtype)  # empty hypotheses
    eos_at_0 = one_hot(torch.tensor([[EOS, 2, 3, 4, 5, 6]] * batch), vocab).to(dtype)
    uniform = torch.full((batch, length, vocab), 1.0 / vocab, dtype=dtype)
    no_match = one_hot(torch.full((batch, length), 8), vocab).to(dtype)
    perfect = one_hot(torch.tensor([[2, 3, 4, 5, EOS, PAD], [2] * 6, [EOS] * 6]), vocab).to(dtype)
    peaked = 300.0 * torch.randn(batch, length, vocab, generator=torch.Generator().manual_seed(0))
    peaked = peaked.to(dtype).softmax(-1)  # underflows to exact zeros in float32
    cases = {
        "eos_first": eos_first,
        "eos_at_0": eos_at_0,
        "uniform": uniform,
        "no_match": no_match,
        "perfect": perfect,
        "peaked": peaked,
    }
    return cases, refs


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("corpus", [False, True])
def test_gradients_are_finite_on_adversarial_inputs(dtype, corpus):
    cases, refs = adversarial_inputs(dtype)
    for name, probs in cases.items():
        for loss in (
            BleuLoss(eos_id=EOS, pad_id=PAD, corpus=corpus),
            GleuLoss(eos_id=EOS, pad_id=PAD, corpus=corpus),
        ):
            for references in (refs, one_hot(refs, probs.shape[-1]).to(dtype).requires_grad_()):
                hyp = probs.clone().requires_grad_()
                value = loss(hyp, references)
                value.backward()
                assert torch.isfinite(value), (name, loss)
                assert hyp.grad is not None and torch.isfinite(hyp.grad).all(), (name, loss)
                if references.is_floating_point():
                    assert torch.isfinite(references.grad).all(), (name, loss)


def test_gradient_increases_score_of_a_soft_copy():
    torch.manual_seed(0)
    refs = torch.randint(2, 50, (4, 8))
    logits = torch.zeros(4, 8, 50, requires_grad=True)
    optimizer = torch.optim.Adam([logits], lr=0.3)
    first = None
    for _ in range(60):
        optimizer.zero_grad()
        loss = GleuLoss(max_len=2)(logits.softmax(-1), refs)
        loss.backward()
        optimizer.step()
        first = loss.item() if first is None else first
    assert loss.item() < first - 1.0


# ---------------------------------------------------------------------------------------
# losses, reductions, dtype and device
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("loss_cls", [BleuLoss, GleuLoss])
def test_loss_reductions(loss_cls):
    torch.manual_seed(2)
    probs = torch.randn(3, 5, 10).softmax(-1)
    refs = torch.randint(2, 10, (3, 5))
    score_fn = soft_bleu if loss_cls is BleuLoss else soft_gleu
    expected = -torch.log(score_fn(probs, refs) + 1e-3)
    none = loss_cls(eps=1e-3, reduction="none")(probs, refs)
    torch.testing.assert_close(none, expected)
    torch.testing.assert_close(loss_cls(eps=1e-3, reduction="sum")(probs, refs), expected.sum())
    torch.testing.assert_close(loss_cls(eps=1e-3)(probs, refs), expected.mean())
    corpus = loss_cls(corpus=True, reduction="none")(probs, refs)
    assert corpus.shape == ()
    torch.testing.assert_close(corpus, -torch.log(score_fn(probs, refs, corpus=True) + 1e-8))
    assert "reduction" in repr(loss_cls())


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_output_follows_input_dtype(dtype):
    probs = torch.rand(2, 4, 6, dtype=dtype).softmax(-1)
    refs = torch.randint(0, 6, (2, 4))
    assert soft_bleu(probs, refs).dtype == dtype
    assert soft_gleu(probs, refs.unsqueeze(1).repeat(1, 2, 1), corpus=True).dtype == dtype
    assert soft_bleu(probs, torch.rand(2, 4, 6).softmax(-1)).dtype == dtype  # refs are cast


def test_float32_one_hot_is_close_to_exact():
    rng = np.random.default_rng(9)
    hyps, refs = random_batch(rng, 30, 12, 2, 3)
    got = soft_bleu(onehot(hyps, 5, torch.float32), torch.from_numpy(refs), eos_id=EOS, pad_id=PAD)
    np.testing.assert_allclose(got.numpy(), exact_sentence_bleu(hyps, refs), atol=1e-6)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_tensors_stay_on_device():  # pragma: no cover - no GPU on CI
    probs = torch.rand(2, 5, 7, device="cuda").softmax(-1).requires_grad_()
    refs = torch.randint(2, 7, (2, 2, 5), device="cuda")
    for loss in (BleuLoss(eos_id=EOS), GleuLoss(eos_id=EOS, corpus=True)):
        value = loss(probs, refs)
        assert value.device.type == "cuda"
        value.backward()
    cpu = soft_bleu(probs.detach().cpu().double(), refs.cpu(), eos_id=EOS)
    torch.testing.assert_close(soft_bleu(probs.double(), refs, eos_id=EOS).cpu(), cpu)


def test_memory_never_materialises_t_by_t_by_v():
    """Every tensor made in forward and backward is at most as large as hyp_probs."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class LargestOutput(TorchDispatchMode):
        largest = 0

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            for tensor in out if isinstance(out, (tuple, list)) else (out,):
                if isinstance(tensor, torch.Tensor):
                    LargestOutput.largest = max(LargestOutput.largest, tensor.numel())
            return out

    batch, length, vocab = 2, 12, 3000
    probs = torch.rand(batch, length, vocab).softmax(-1).requires_grad_()
    refs = torch.randint(0, vocab, (batch, 3, length))
    with LargestOutput():
        (BleuLoss(eos_id=EOS)(probs, refs) + GleuLoss(eos_id=EOS)(probs, refs)).backward()
    assert LargestOutput.largest <= batch * length * vocab


# ---------------------------------------------------------------------------------------
# argument validation
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"hyp_probs": [[0.5, 0.5]]}, TypeError, "hyp_probs"),
        ({"hyp_probs": torch.ones(2, 4, 6, dtype=torch.long)}, TypeError, "hyp_probs"),
        ({"hyp_probs": torch.ones(4, 6)}, ValueError, "hyp_probs"),
        ({"references": "ab"}, TypeError, "references"),
        ({"references": [[1, 2]]}, ValueError, "pad_id or eos_id"),  # ragged: needs a filler
        ({"references": torch.ones(3, 4, dtype=torch.long)}, ValueError, "batch size"),
        ({"references": torch.ones(2, dtype=torch.long)}, ValueError, "references"),
        ({"references": torch.ones(2, 1, 1, 4, dtype=torch.long)}, ValueError, "references"),
        ({"references": torch.ones(2, 4, 5)}, ValueError, "vocab = 6"),
        ({"references": torch.ones(2, 4, dtype=torch.bool)}, TypeError, "references"),
        ({"references": torch.ones(2, 0, 4, dtype=torch.long)}, ValueError, "R = 0"),
        ({"references": torch.full((2, 4), 6)}, ValueError, "token id 6"),
        ({"eos_id": 6}, ValueError, "eos_id"),
        ({"eos_id": 1.0}, TypeError, "eos_id"),
        ({"pad_id": "0"}, TypeError, "pad_id"),
    ],
)
@pytest.mark.parametrize("fn", [soft_bleu, soft_gleu])
def test_bad_inputs_name_the_argument(fn, kwargs, error, match):
    call = {
        "hyp_probs": torch.full((2, 4, 6), 1 / 6),
        "references": torch.ones(2, 4, dtype=torch.long),
    }
    call.update(kwargs)
    with pytest.raises(error, match=match):
        fn(call.pop("hyp_probs"), call.pop("references"), **call)


@pytest.mark.parametrize(
    ("fn", "kwargs", "error", "match"),
    [
        (soft_bleu, {"max_order": 0}, ValueError, "max_order"),
        (soft_bleu, {"max_order": 2.0}, TypeError, "max_order"),
        (soft_bleu, {"weights": [0.5, 0.5]}, ValueError, "weights"),
        (soft_bleu, {"weights": [0.5, 0.5, -0.5, 0.5]}, ValueError, "weights"),
        (soft_bleu, {"weights": 0.25}, TypeError, "weights"),
        (soft_gleu, {"min_len": 3, "max_len": 2}, ValueError, "min_len"),
        (soft_gleu, {"min_len": 0}, ValueError, "min_len"),
        (soft_gleu, {"max_len": 0}, ValueError, "max_len"),
    ],
)
def test_bad_orders_name_the_argument(fn, kwargs, error, match):
    with pytest.raises(error, match=match):
        fn(torch.full((2, 4, 6), 1 / 6), torch.ones(2, 4, dtype=torch.long), **kwargs)


@pytest.mark.parametrize(
    ("cls", "kwargs", "match"),
    [
        (BleuLoss, {"reduction": "avg"}, "reduction"),
        (GleuLoss, {"reduction": None}, "reduction"),
        (BleuLoss, {"eps": 0.0}, "eps"),
        (GleuLoss, {"eps": -1}, "eps"),
        (BleuLoss, {"max_order": 0}, "max_order"),
        (BleuLoss, {"weights": [1.0]}, "weights"),
        (GleuLoss, {"min_len": 2, "max_len": 1}, "min_len"),
    ],
)
def test_bad_loss_arguments_name_the_argument(cls, kwargs, match):
    with pytest.raises(ValueError, match=match):
        cls(**kwargs)


# ---------------------------------------------------------------------------------------
# docs and example
# ---------------------------------------------------------------------------------------


def test_token_copy_example_quick(tmp_path):
    out = tmp_path / "copy.png"
    completed = subprocess.run(
        [sys.executable, str(REPO / "examples" / "token_copy.py"), "--quick", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "| gleu | 10 | 50 |" in completed.stdout and "| bleu | 10 | 50 |" in completed.stdout
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in completed.stdout
    else:
        assert out.read_bytes().startswith(b"\x89PNG")
