"""BLEU within groups: ``pairwise_sentence_bleu`` (B, N, M) and ``self_bleu`` (B, G).

Every cell is held to 1e-12 against the real reference libraries (NLTK's ``sentence_bleu``
per pair, sacrebleu's ``sentence_score`` per pair) and against ``bleusuite.sentence_bleu``
of the explicit pairs for every smoothing name, on seeded groups made like real samples
(members are edits of one sentence, with empty and identical members), 1..32 members,
lengths 0..512; in every input form, on every backend, on the fixed-shape path, on torch
``meta`` tensors and under ``torch.compile(fullgraph=True)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from backend_fixtures import assert_scores_close, no_host_reads
from cases import Group, make_groups, padded
from reference import (
    NLTK_METHODS,
    SACRE_SMOOTHS,
    assert_scores_match,
    nltk_sentence_bleu,
    sacrebleu_sentence_bleu,
)

import bleusuite
from bleusuite import backends

Case = tuple[list[int], list[list[int]]]


def pair_cases(candidates: list[Group], others: list[Group]) -> list[Case]:
    return [(c, [o]) for cs, os_ in zip(candidates, others, strict=True) for c in cs for o in os_]


def self_cases(groups: list[Group]) -> list[Case]:
    return [(g[i], [g[j] for j in range(len(g)) if j != i]) for g in groups for i in range(len(g))]


def explicit(cases: list[Case], **kwargs: Any) -> np.ndarray:
    """``sentence_bleu`` of the explicit pairs (the list path: its own normalisation)."""
    return bleusuite.sentence_bleu([h for h, _ in cases], [r for _, r in cases], **kwargs)


SETTINGS = [{"smooth": name} for name in bleusuite.SMOOTHING_NAMES if name != "method6"] + [
    {"smooth": "exp", "effective_order": True},
    {"smooth": "floor", "smooth_value": 0.3, "effective_order": True},
    {"smooth": "method1", "weights": (0.5, 0.3, 0.2)},
    {"smooth": "method7", "max_order": 3},
    {"smooth": "nmt_smooth", "max_order": 6},
]


# ------------------------------------------------------------- against sentence_bleu


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: "-".join(map(str, s.values())))
def test_pairwise_equals_sentence_bleu_of_every_pair(setting):
    candidates = make_groups(1, 3, 5, 30)
    others = make_groups(2, 3, 4, 30)
    got = bleusuite.pairwise_sentence_bleu(padded(candidates), padded(others), pad_id=0,
                                           **setting)
    assert got.shape == (3, 5, 4) and got.dtype == np.float64
    cases = pair_cases(candidates, others)
    assert_scores_match(got.reshape(-1), explicit(cases, **setting), cases, what=str(setting))


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: "-".join(map(str, s.values())))
def test_self_bleu_equals_sentence_bleu_of_each_member(setting):
    groups = make_groups(3, 4, 6, 30)
    got = bleusuite.self_bleu(padded(groups), pad_id=0, **setting)
    assert got.shape == (4, 6)
    cases = self_cases(groups)
    assert_scores_match(got.reshape(-1), explicit(cases, **setting), cases, what=str(setting))


@pytest.mark.parametrize(("members", "max_len"), [(1, 512), (2, 300), (8, 60), (32, 20)])
def test_group_sizes_and_lengths(members, max_len):
    """1..32 members, lengths 0..512: the matrix and self-BLEU (G >= 2) of a literal loop of
    sentence_bleu calls, one per cell."""
    groups = make_groups(members, 2, members, max_len, vocab=6)
    array = padded(groups)
    matrix = bleusuite.pairwise_sentence_bleu(array, array, pad_id=0, smooth="method3")
    for b, group in enumerate(groups):
        for i in range(0, members, max(1, members // 4)):
            for j in range(members):
                want = bleusuite.sentence_bleu([group[i]], [[group[j]]], smooth="method3")
                assert abs(matrix[b, i, j] - want[0]) <= 1e-12, (b, i, j)
    if members >= 2:
        got = bleusuite.self_bleu(array, pad_id=0, smooth="exp", effective_order=True)
        cases = self_cases(groups)
        assert_scores_match(got.reshape(-1), explicit(cases, smooth="exp", effective_order=True),
                            cases)


@pytest.mark.parametrize("ref_length", ["closest", "closest_first", "shortest"])
def test_self_bleu_reference_length_rules(ref_length):
    groups = make_groups(4, 5, 5, 25, empty=0.2)
    got = bleusuite.self_bleu(groups, smooth="torchmetrics_smooth", ref_length=ref_length)
    cases = self_cases(groups)
    assert_scores_match(got.reshape(-1), explicit(cases, smooth="torchmetrics_smooth",
                                                  ref_length=ref_length), cases)


# ------------------------------------------------------------- against NLTK, sacrebleu


@pytest.mark.parametrize("method", [m for m in NLTK_METHODS if m != "method6"])
def test_pairwise_and_self_bleu_equal_nltk(method):
    candidates, others = make_groups(5, 2, 3, 40), make_groups(6, 2, 4, 40)
    long = make_groups(7, 1, 3, 512, vocab=40)
    for cands, oths in ((candidates, others), (long, long)):
        got = bleusuite.pairwise_sentence_bleu(cands, oths, smooth=method)
        cases = pair_cases(cands, oths)
        assert_scores_match(got.reshape(-1), nltk_sentence_bleu(cases, method=method), cases,
                            what=method)
    got = bleusuite.self_bleu(others, smooth=method)
    cases = self_cases(others)
    assert_scores_match(got.reshape(-1), nltk_sentence_bleu(cases, method=method), cases)


def test_method6_equals_nltk_or_raises_as_nltk_fails():
    similar = make_groups(8, 2, 3, 40, vocab=30, empty=0, copies=0.5)
    cases = pair_cases(similar, similar)
    want = nltk_sentence_bleu(cases, method="method6")
    assert not np.isnan(want).any()
    got = bleusuite.pairwise_sentence_bleu(similar, similar, smooth="method6")
    assert_scores_match(got.reshape(-1), want, cases)
    unrelated = [[[1, 2, 3, 4], [1, 9, 8, 7]]]
    assert np.isnan(nltk_sentence_bleu(pair_cases(unrelated, unrelated), method="method6")).any()
    with pytest.raises(ValueError, match="method6"):
        bleusuite.pairwise_sentence_bleu(unrelated, unrelated, smooth="method6")


@pytest.mark.parametrize("smooth", SACRE_SMOOTHS)
@pytest.mark.parametrize("effective_order", [False, True])
def test_pairwise_and_self_bleu_equal_sacrebleu(smooth, effective_order):
    groups = make_groups(9, 2, 32, 24)  # 32 members: 2 x 32 x 32 pairs
    got = bleusuite.pairwise_sentence_bleu(groups, groups, smooth=smooth,
                                           effective_order=effective_order)
    cases = pair_cases(groups, groups)
    want = sacrebleu_sentence_bleu(cases, smooth=smooth, effective_order=effective_order)
    assert_scores_match(got.reshape(-1), want, cases, what=smooth)
    small = make_groups(10, 3, 5, 60)
    got = bleusuite.self_bleu(small, smooth=smooth, effective_order=effective_order)
    cases = self_cases(small)
    want = sacrebleu_sentence_bleu(cases, smooth=smooth, effective_order=effective_order)
    assert_scores_match(got.reshape(-1), want, cases, what=smooth)


def test_text_equals_sacrebleu():
    import sacrebleu

    group = [["The cat sat on the mat.", "A cat sat on the mat!", "", "The cat sat on the mat."],
             ["Hello, world.", "hello world", "Goodbye, world.", "HELLO, WORLD."]]
    matrix = bleusuite.pairwise_sentence_bleu(group, group, tokenize="13a", smooth="exp",
                                              effective_order=True, lowercase=True)
    selfb = bleusuite.self_bleu(group, tokenize="13a", smooth="exp", effective_order=True,
                                lowercase=True)
    for b, members in enumerate(group):
        for i, hyp in enumerate(members):
            for j, ref in enumerate(members):
                want = sacrebleu.sentence_bleu(hyp, [ref], lowercase=True).score / 100
                assert abs(matrix[b, i, j] - want) <= 1e-12
            rest = [ref for j, ref in enumerate(members) if j != i]
            want = sacrebleu.sentence_bleu(hyp, rest, lowercase=True).score / 100
            assert abs(selfb[b, i] - want) <= 1e-12


# ----------------------------------------------------------------------- input forms


def test_every_input_form_gives_the_same_numbers():
    candidates, others = make_groups(11, 3, 4, 20), make_groups(12, 3, 2, 25)
    want = bleusuite.pairwise_sentence_bleu(padded(candidates), padded(others), pad_id=0,
                                            smooth="method1")
    forms = {
        "lists": (candidates, others, {}),
        "left padding and eos": (padded(candidates, left=True, eos=99, pad=-1),
                                 padded(others, eos=99, pad=-1), {"pad_id": -1, "eos_id": 99}),
        "ragged arrays": ([[np.array(s, dtype=np.int64) for s in g] for g in candidates],
                          [[np.array(s, dtype=np.int32) for s in g] for g in others], {}),
        "groups as (K, L) arrays": (list(padded(candidates)), list(padded(others)),
                                    {"pad_id": 0}),
        "array and lists": (padded(candidates), others, {"pad_id": 0}),
        "string tokens": ([[[f"w{t}" for t in s] for s in g] for g in candidates],
                          [[[f"w{t}" for t in s] for s in g] for g in others], {}),
        "text": ([[" ".join(f"w{t}" for t in s) for s in g] for g in candidates],
                 [[" ".join(f"w{t}" for t in s) for s in g] for g in others],
                 {"tokenize": "none"}),
    }
    for name, (cands, oths, kwargs) in forms.items():
        got = bleusuite.pairwise_sentence_bleu(cands, oths, smooth="method1", **kwargs)
        np.testing.assert_array_equal(got, want, err_msg=name)
    want_self = bleusuite.self_bleu(padded(others), pad_id=0)
    for name, (_, oths, kwargs) in forms.items():
        np.testing.assert_array_equal(bleusuite.self_bleu(oths, **kwargs), want_self, name)


def test_empty_batches_and_groups():
    assert bleusuite.pairwise_sentence_bleu([], []).shape == (0, 0, 0)
    got = bleusuite.pairwise_sentence_bleu(np.zeros((2, 0, 3), np.int64),
                                           np.ones((2, 3, 3), np.int64))
    assert got.shape == (2, 0, 3)
    empty = bleusuite.pairwise_sentence_bleu([[[], [1, 2]]], [[[], [1, 2]]], smooth="exp")
    want = explicit(pair_cases([[[], [1, 2]]], [[[], [1, 2]]]), smooth="exp")
    np.testing.assert_array_equal(empty.reshape(-1), want)


def test_bad_input_names_the_argument():
    group = padded(make_groups(13, 2, 3, 5))
    with pytest.raises(ValueError, match="at least 2 members"):
        bleusuite.self_bleu(group[:, :1])
    with pytest.raises(ValueError, match="candidates and others must have the same batch size"):
        bleusuite.pairwise_sentence_bleu(group, group[:1])
    with pytest.raises(ValueError, match=r"others: every group must have as many members; "
                       r"others\[0\] has 2 and others\[1\] has 1"):
        bleusuite.pairwise_sentence_bleu([[[1]], [[2]]], [[[1], [2]], [[3]]])
    with pytest.raises(ValueError, match="candidates must be a 3-D array"):
        bleusuite.pairwise_sentence_bleu(group[0], group)
    with pytest.raises(TypeError, match=r"candidates\[0\] must be a list of sentences"):
        bleusuite.pairwise_sentence_bleu(["a b"], [["a b"]], tokenize="13a")
    with pytest.raises(TypeError, match=r"group\[0\]\[1\] must be a string when tokenize="):
        bleusuite.self_bleu([["a b", 3]], tokenize="13a")
    with pytest.raises(TypeError, match=r"group\[0\]\[0\] must be a sequence of tokens, not a "
                       "string"):
        bleusuite.self_bleu([["a b", "c"]])
    with pytest.raises(TypeError, match="tokenize= scores text"):
        bleusuite.self_bleu(group, tokenize="13a")
    with pytest.raises(ValueError, match="lowercase=True applies to text"):
        bleusuite.self_bleu(group, lowercase=True)
    with pytest.raises(ValueError, match="pad_id and eos_id apply to token ids"):
        bleusuite.self_bleu([["a", "b"]], tokenize="13a", pad_id=0)
    with pytest.raises(TypeError, match="must be an array of integer token ids"):
        bleusuite.self_bleu(group.astype(np.float32))
    with pytest.raises(TypeError, match="same array library"):
        torch = pytest.importorskip("torch")
        bleusuite.pairwise_sentence_bleu(group, torch.from_numpy(group))
    with pytest.raises(ValueError, match="ref_length must be one of"):
        bleusuite.self_bleu(group, ref_length="longest")


# -------------------------------------------------------------------------- backends


def test_every_backend_and_the_fixed_path(pipeline, monkeypatch):
    candidates, others = make_groups(14, 2, 3, 16), make_groups(15, 2, 4, 16)
    cand, oth = padded(candidates), padded(others)
    want_matrix = bleusuite.pairwise_sentence_bleu(cand, oth, pad_id=0, smooth="method3")
    want_self = bleusuite.self_bleu(oth, pad_id=0, smooth="exp", effective_order=True)
    # JAX always counts with fixed shapes: once is enough there
    strategies = ["auto"] if backends.backend_name(pipeline(np.zeros(1))) == "jax" else [
        "auto", "fixed", "compact"]
    for strategy in strategies:
        monkeypatch.setenv("BLEUSUITE_COUNTING", strategy)
        got = bleusuite.pairwise_sentence_bleu(pipeline(cand), pipeline(oth), pad_id=0,
                                               smooth="method3")
        assert_scores_close(got, want_matrix, strategy)
        got = bleusuite.self_bleu(pipeline(oth), pad_id=0, smooth="exp", effective_order=True)
        assert_scores_close(got, want_self, strategy)


def test_device_path_reads_nothing_back(monkeypatch):
    group = padded(make_groups(16, 3, 4, 12))
    want = (bleusuite.pairwise_sentence_bleu(group, group, pad_id=0, smooth="method1"),
            bleusuite.self_bleu(group, pad_id=0, smooth="method1"))
    with no_host_reads(monkeypatch) as torch:
        tensor = torch.from_numpy(group)
        got = (bleusuite.pairwise_sentence_bleu(tensor, tensor, pad_id=0, smooth="method1"),
               bleusuite.self_bleu(tensor, pad_id=0, smooth="method1"))
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g.numpy(), w, rtol=0, atol=1e-12)  # torch's log and exp


def test_meta_tensors_give_meta_results():
    torch = pytest.importorskip("torch")
    cand = torch.empty((3, 2, 7), dtype=torch.int64, device="meta")
    group = torch.empty((3, 5, 9), dtype=torch.int64, device="meta")
    matrix = bleusuite.pairwise_sentence_bleu(cand, group, pad_id=0, eos_id=2)
    selfb = bleusuite.self_bleu(group, pad_id=0, smooth="exp", effective_order=True)
    assert matrix.device.type == selfb.device.type == "meta"
    assert tuple(matrix.shape) == (3, 2, 5) and tuple(selfb.shape) == (3, 5)


def test_compiles_without_graph_breaks(monkeypatch):
    torch = pytest.importorskip("torch")
    torch._dynamo.reset()
    monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)
    group = padded(make_groups(17, 2, 4, 10))

    def scores(g: Any) -> tuple[Any, Any]:
        return (bleusuite.pairwise_sentence_bleu(g, g, pad_id=0, smooth="method2"),
                bleusuite.self_bleu(g, pad_id=0, smooth="method2"))

    with backends.use_numpy_for_torch_cpu(False):
        tensor = torch.from_numpy(group)
        compiled = torch.compile(scores, fullgraph=True, backend="eager")
        for got, want in zip(compiled(tensor), scores(tensor), strict=True):
            torch.testing.assert_close(got, want, rtol=0, atol=0)
