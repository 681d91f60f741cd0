"""Ragged and mixed inputs: lists of 1-D arrays, and padded arrays beside token lists.

Every form must give the numbers of the plain list form (itself checked against NLTK,
pytorch-ignite and sacrebleu by the parity suite), on every backend, and come back as the
caller's array type.
"""

from __future__ import annotations

import numpy as np
import pytest
from backend_fixtures import assert_scores_close

import bleusuite
from bleusuite import backends
from bleusuite.inputs import pack_sentences

SMOOTHS = ("no_smooth", "method1", "exp", "floor")


def _ragged(cases, pipeline):
    hyps = [pipeline(np.array(h, dtype=np.int64)) for h, _ in cases]
    refs = [[pipeline(np.array(r, dtype=np.int64)) for r in rs] for _, rs in cases]
    return hyps, refs


def _numpy(be_result) -> np.ndarray:
    return backends.get_backend(be_result).to_numpy(be_result)


def _check_type(result, like) -> None:
    assert backends.backend_name(result) == backends.backend_name(like)
    if hasattr(like, "device"):
        assert result.device == like.device


def _one_seed_on_jax(request: pytest.FixtureRequest, seed: int) -> None:
    """On JAX the first seed only (each new shape is traced and compiled again, seconds a
    case): NumPy and torch run every seed."""
    if seed and str(request.node.callspec.params.get("pipeline", "")).startswith("jax"):
        pytest.skip("JAX runs the first seed (NumPy and torch run every seed)")


@pytest.mark.parametrize("seed", range(4))
def test_ragged_arrays_equal_the_list_form(pipeline, make_cases, to_lists, seed, request):
    _one_seed_on_jax(request, seed)
    cases = make_cases(seed, 60, max_len=12, max_refs=3)
    hyps, refs = _ragged(cases, pipeline)
    list_hyps, list_refs = to_lists(cases)
    for smooth in SMOOTHS:
        got = bleusuite.sentence_bleu(hyps, refs, smooth=smooth)
        _check_type(got, hyps[0])
        expected = bleusuite.sentence_bleu(list_hyps, list_refs, smooth=smooth)
        assert_scores_close(got, expected)
        got = bleusuite.corpus_bleu(hyps, refs, smooth=smooth)
        expected = bleusuite.corpus_bleu(list_hyps, list_refs, smooth=smooth)
        assert_scores_close(got, expected)
    assert_scores_close(bleusuite.sentence_gleu(hyps, refs),
                        bleusuite.sentence_gleu(list_hyps, list_refs))
    stats = bleusuite.bleu_statistics(hyps, refs)
    expected_stats = bleusuite.bleu_statistics(list_hyps, list_refs)
    np.testing.assert_array_equal(_numpy(stats.sum().to_array()), expected_stats.sum().to_array())


@pytest.mark.parametrize("seed", range(3))
def test_padded_arrays_beside_ragged_lists_equal_padded_arrays(
    pipeline, make_cases, to_arrays, to_lists, seed, request
):
    _one_seed_on_jax(request, seed)
    cases = make_cases(10 + seed, 50, max_len=10, max_refs=3)
    hyp_arr, ref_arr = to_arrays(cases, seed=seed, pad_id=0, layout="right")
    list_hyps, list_refs = to_lists(cases)
    ragged_hyps, ragged_refs = _ragged(cases, pipeline)
    expected = bleusuite.sentence_bleu(hyp_arr, ref_arr, pad_id=0, smooth="method1")
    forms = {
        "padded hyps, token-list refs": (pipeline(hyp_arr), list_refs),
        "padded hyps, ragged array refs": (pipeline(hyp_arr), ragged_refs),
        "token-list hyps, padded refs": (list_hyps, pipeline(ref_arr)),
        "ragged hyps, padded refs": (ragged_hyps, pipeline(ref_arr)),
        "ragged hyps, token-list refs": (ragged_hyps, list_refs),
    }
    for form, (hyps, refs) in forms.items():
        got = bleusuite.sentence_bleu(hyps, refs, pad_id=0, smooth="method1")
        assert_scores_close(got, expected, form)
        got = bleusuite.corpus_gleu(hyps, refs, pad_id=0)
        assert_scores_close(got, bleusuite.corpus_gleu(hyp_arr, ref_arr, pad_id=0), form)


def test_one_array_per_row_is_one_reference_each(pipeline, make_cases, to_lists):
    cases = make_cases(21, 40, max_len=10, n_refs=1)
    hyps = [pipeline(np.array(h, dtype=np.int64)) for h, _ in cases]
    refs = [pipeline(np.array(rs[0], dtype=np.int64)) for _, rs in cases]
    expected = bleusuite.sentence_bleu(*to_lists(cases), smooth="exp", effective_order=True)
    got = bleusuite.sentence_bleu(hyps, refs, smooth="exp", effective_order=True)
    assert_scores_close(got, expected)


def test_pad_and_eos_apply_inside_ragged_sentences(pipeline):
    hyps = [pipeline(np.array([5, 6, 0, 7, 8, 1, 9])), pipeline(np.array([5, 6, 7, 8]))]
    refs = [[pipeline(np.array([5, 6, 7, 8, 1, 1])), pipeline(np.array([0, 0]))],
            [pipeline(np.array([5, 6, 7, 8, 9]))]]
    got = bleusuite.sentence_bleu(hyps, refs, pad_id=0, eos_id=1, smooth="method1")
    expected = bleusuite.sentence_bleu([[5, 6, 7, 8], [5, 6, 7, 8]],
                                       [[[5, 6, 7, 8]], [[5, 6, 7, 8, 9]]], smooth="method1")
    assert_scores_close(got, expected)
    assert _numpy(got)[0] == 1.0  # the all-padding reference is absent, not an empty one


def test_empty_and_huge_id_sentences(pipeline):
    big = 2**63 - 5
    hyps = [pipeline(np.array([], dtype=np.int64)), pipeline(np.array([big, -big, 7, 8]))]
    refs = [[pipeline(np.array([3, 4]))], [pipeline(np.array([big, -big, 7, 8]))]]
    got = _numpy(bleusuite.sentence_bleu(hyps, refs, smooth="method1"))
    expected = bleusuite.sentence_bleu([[], [big, -big, 7, 8]], [[[3, 4]], [[big, -big, 7, 8]]],
                                       smooth="method1")
    np.testing.assert_array_equal(got, expected)
    assert got.tolist() == [0.0, 1.0]


def test_an_empty_float_tensor_is_an_empty_sentence():
    torch = pytest.importorskip("torch")
    got = bleusuite.sentence_bleu([torch.tensor([]), torch.tensor([4, 5])],
                                  [torch.tensor([4, 5]), torch.tensor([4, 5])], max_order=2)
    assert got.tolist() == [0.0, 1.0]


def test_an_empty_batch_of_ragged_arrays():
    hyps: list = []
    assert bleusuite.sentence_bleu(hyps, np.zeros((0, 3), dtype=np.int64)).shape == (0,)


def test_narrow_integer_dtypes_and_numpy_string_arrays():
    hyps = [np.array([5, 6, 7], dtype=np.int8), np.array([5], dtype=np.uint16)]
    refs = [[np.array([5, 6, 7], dtype=np.int32)], [np.array([5, 6], dtype=np.int8)]]
    expected = bleusuite.sentence_bleu([[5, 6, 7], [5]], [[[5, 6, 7]], [[5, 6]]],
                                       smooth="method1")
    np.testing.assert_array_equal(bleusuite.sentence_bleu(hyps, refs, smooth="method1"), expected)
    # NumPy arrays of strings are tokens, read by the list path as before
    words = [np.array(["a", "b", "c"])]
    assert bleusuite.sentence_bleu(words, [[np.array(["a", "b", "c"])]], max_order=3)[0] == 1.0


#: every NumPy integer dtype, in the machine's byte order and in the other one
_INTEGER_DTYPES = [np.dtype(code).newbyteorder(order)
                   for code in ("i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8")
                   for order in ("=", "S")]


@pytest.mark.parametrize("compiled", [False, True], ids=["general", "compiled"])
@pytest.mark.parametrize("dtype", _INTEGER_DTYPES, ids=lambda d: d.str)
def test_integer_arrays_of_any_byte_order_mixed_with_native_ones(dtype, compiled):
    """Integer arrays are token ids whatever their width, sign and byte order, beside int64
    ones on both sides (uint64 beside int64 used to concatenate to float64 on the general
    path: "got dtype float64 (did you pass logits...)")."""
    from compiled_part import compiled_on, require_compiled

    if compiled:
        require_compiled()
    hyps = [np.array([5, 6, 7, 8], dtype=dtype), np.array([5, 9], dtype=np.int64),
            np.array([100, 101, 102], dtype=dtype)]
    refs = [[np.array([5, 6, 7, 9], dtype=np.int64), np.array([5, 6], dtype=dtype)],
            [np.array([5, 9, 9], dtype=dtype)], [np.array([100, 101, 102], dtype=np.int64)]]
    lists = [[int(t) for t in h] for h in hyps], [[[int(t) for t in r] for r in rs]
                                                  for rs in refs]
    expected = bleusuite.sentence_bleu(*lists, smooth="method1")
    with compiled_on(compiled):
        got = bleusuite.sentence_bleu(hyps, refs, smooth="method1")
        corpus = bleusuite.corpus_bleu(hyps, refs)
    np.testing.assert_array_equal(got, expected)
    assert float(corpus) == float(bleusuite.corpus_bleu(*lists))


def test_uint64_ids_above_int64_are_refused_in_either_byte_order():
    for dtype in (np.dtype(np.uint64), np.dtype(np.uint64).newbyteorder("S")):
        huge = np.array([2**63 + 1], dtype=dtype)
        with pytest.raises(ValueError, match=r"above 2\*\*63 - 1"):
            bleusuite.sentence_bleu(np.array([huge.tolist()], dtype=dtype),
                                    np.array([[1]], dtype=np.int64))


def test_pack_sentences():
    tokens, lengths = pack_sentences([[4, 5], [], [6]], like=np.zeros(1))
    assert tokens.tolist() == [[4, 5], [0, 0], [6, 0]]
    assert lengths.tolist() == [2, 0, 1]
    tokens, lengths = pack_sentences([], like=np.zeros(1))
    assert tokens.shape == (0, 0) and lengths.shape == (0,)


def test_errors_name_the_argument():
    torch = pytest.importorskip("torch")
    t = torch.tensor
    with pytest.raises(TypeError, match=r"hypotheses\[1\] is a list.*all as arrays"):
        bleusuite.sentence_bleu([t([1, 2]), [1, 2]], [[[1, 2]], [[1, 2]]])
    with pytest.raises(ValueError, match=r"hypotheses\[0\] must be a 1-D array.*\(1, 2\)"):
        bleusuite.sentence_bleu([t([[1, 2]])], [t([1, 2])])
    with pytest.raises(TypeError, match=r"hypotheses\[0\].*integer token ids.*float32"):
        bleusuite.sentence_bleu([t([1.0, 2.0])], [t([1, 2])])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] must hold int token ids.*str"):
        bleusuite.sentence_bleu([t([1, 2])], [[[1, 2], ["a", "b"]]])
    with pytest.raises(ValueError, match="same batch size; got 2 hypotheses and 1 entries"):
        bleusuite.sentence_bleu([t([1]), t([2])], [[[1]]])
    with pytest.raises(ValueError, match=r"references\[0\] is on meta.*same device"):
        bleusuite.sentence_bleu([t([1, 2])], [t([1, 2], device="meta")])
    with pytest.raises(ValueError, match=r"references: hypothesis 0 has no reference"):
        bleusuite.sentence_bleu([t([1, 2])], [[t([0, 0])]], pad_id=0)
    with pytest.raises(ValueError, match=r"wrap a single reference in a list"):
        bleusuite.sentence_bleu([t([1, 2])], [[1, 2]])
    with pytest.raises(TypeError, match="same array library"):
        bleusuite.sentence_bleu(t([[1, 2]]), [np.array([1, 2])])
    with pytest.raises(TypeError, match="pad_id must be an int"):
        bleusuite.sentence_bleu([t([1, 2])], [t([1, 2])], pad_id="<pad>")


def test_ignite_metric_takes_ragged_tensors(make_cases, to_arrays):
    torch = pytest.importorskip("torch")
    pytest.importorskip("ignite")
    from bleusuite.metrics import Bleu, Gleu

    cases = make_cases(31, 30, max_len=10, max_refs=2)
    hyp_arr, ref_arr = to_arrays(cases, seed=3, pad_id=0)
    for metric_type in (Bleu, Gleu):
        padded = metric_type(average="micro", pad_id=0)
        padded.update((torch.from_numpy(hyp_arr), torch.from_numpy(ref_arr)))
        ragged = metric_type(average="micro", pad_id=0)
        ragged.update((
            [torch.tensor(h) for h, _ in cases],
            [[torch.tensor(r) for r in rs] for _, rs in cases],
        ))
        mixed = metric_type(average="micro", pad_id=0)
        mixed.update((torch.from_numpy(hyp_arr), [rs for _, rs in cases]))
        assert ragged.compute() == pytest.approx(padded.compute(), abs=1e-12)
        assert mixed.compute() == pytest.approx(padded.compute(), abs=1e-12)


def test_losses_take_ragged_id_references():
    torch = pytest.importorskip("torch")
    from bleusuite.losses import BleuLoss, soft_bleu, soft_gleu

    torch.manual_seed(0)
    probs = torch.softmax(torch.randn(3, 6, 12), dim=-1)
    refs = [[4, 5, 6, 7], [8, 9], [3, 4, 5, 6, 7, 8]]
    padded = torch.tensor([r + [0] * (6 - len(r)) for r in refs])
    for pad_id, eos_id in ((0, None), (None, 1), (0, 1)):
        filled = padded if pad_id is not None else torch.where(padded == 0, 1, padded)
        expected = soft_bleu(probs, filled, pad_id=pad_id, eos_id=eos_id)
        for ragged in ([torch.tensor(r) for r in refs], [[r] for r in refs],
                       [[torch.tensor(r)] for r in refs]):
            got = soft_bleu(probs, ragged, pad_id=pad_id, eos_id=eos_id)
            torch.testing.assert_close(got, expected, rtol=0, atol=1e-12)
        torch.testing.assert_close(soft_gleu(probs, [[r] for r in refs], pad_id=0),
                                   soft_gleu(probs, padded, pad_id=0), rtol=0, atol=1e-12)
    loss = BleuLoss(pad_id=0)(probs.requires_grad_(), [torch.tensor(r) for r in refs])
    loss.backward()
    with pytest.raises(ValueError, match="need pad_id or eos_id"):
        soft_bleu(probs, [torch.tensor(r) for r in refs])
    with pytest.raises(ValueError, match=r"same number of references.*\[1, 2\]"):
        soft_bleu(probs, [[r] for r in refs[:2]] + [[refs[2], refs[0]]], pad_id=0)
