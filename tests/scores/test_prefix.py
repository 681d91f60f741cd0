"""BLEU of every prefix (``prefix_sentence_bleu``): entry [b, t-1] is ``sentence_bleu`` of
the first t tokens, held to 1e-12 against NLTK's and sacrebleu's ``sentence_bleu`` of each
prefix and against ``bleusuite.sentence_bleu`` of each prefix for every smoothing name;
past the end of a hypothesis, its full score. The running counts are checked in every
input form, on every backend, on the fixed-shape path (no host read), on torch ``meta``
tensors, under ``torch.compile(fullgraph=True)``, and on the order-by-order sort that
narrower integers take.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from backend_fixtures import assert_scores_close, no_host_reads
from compiled_part import require_compiled
from hypothesis import given, settings
from hypothesis import strategies as st
from parity import make_cases, to_arrays
from reference import (
    NLTK_METHODS,
    SACRE_SMOOTHS,
    assert_scores_match,
    nltk_sentence_bleu,
    sacrebleu_sentence_bleu,
)

import bleusuite
from bleusuite import backends
from bleusuite.counting.prefix import prefix_matches
from bleusuite.inputs import normalize_batch

Case = tuple[list[int], list[list[int]]]


def prefixes(cases: list[Case]) -> tuple[list[Case], list[tuple[int, int]]]:
    """Every prefix of every hypothesis as its own case, and its (row, t - 1) entry."""
    out, where = [], []
    for row, (hyp, refs) in enumerate(cases):
        for t in range(1, len(hyp) + 1):
            out.append((hyp[:t], refs))
            where.append((row, t - 1))
    return out, where


def check(got: np.ndarray, cases: list[Case], want: np.ndarray, what: str = "") -> None:
    """``got`` (B, L) holds ``want`` (one score per prefix of :func:`prefixes`), and past
    each hypothesis' end its last score (the empty hypothesis': its own score)."""
    assert got.shape[0] == len(cases), what
    assert got.shape[1] >= max([len(h) for h, _ in cases] + [0]), what  # an array's width
    split, where = prefixes(cases)
    rows = np.array([row for row, _ in where], dtype=np.int64)
    cols = np.array([col for _, col in where], dtype=np.int64)
    assert_scores_match(got[rows, cols], want, split, what=what)
    for row, (hyp, _) in enumerate(cases):
        tail = got[row, len(hyp):]
        if not tail.size:
            continue
        last = got[row, len(hyp) - 1] if hyp else got[row, 0]  # empty: one score throughout
        np.testing.assert_array_equal(tail, np.broadcast_to(last, tail.shape), err_msg=what)


def explicit(cases: list[Case], **kwargs: Any) -> np.ndarray:
    return bleusuite.sentence_bleu([h for h, _ in cases], [r for _, r in cases], **kwargs)


SETTINGS = [{"smooth": name} for name in bleusuite.SMOOTHING_NAMES if name != "method6"] + [
    {"smooth": "exp", "effective_order": True},
    {"smooth": "add-k", "smooth_value": 2.0, "effective_order": True},
    {"smooth": "method1", "weights": (0.4, 0.3, 0.2, 0.1, 0.0)},
    {"smooth": "method5", "max_order": 2},
    {"smooth": "torchmetrics_smooth", "ref_length": "closest_first"},
    {"smooth": "nmt_smooth", "ref_length": "shortest"},
    {"smooth": "no_smooth", "ref_length": "shortest", "max_order": 6},
]


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: "-".join(map(str, s.values())))
def test_every_prefix_equals_sentence_bleu(setting):
    cases = make_cases(21, 40, max_len=30)
    hyp, refs = to_arrays(cases, 21, pad_id=0, eos_id=1)
    got = bleusuite.prefix_sentence_bleu(hyp, refs, pad_id=0, eos_id=1, **setting)
    split, _ = prefixes(cases)
    check(got, cases, explicit(split, **setting), str(setting))


@pytest.mark.parametrize("method", [m for m in NLTK_METHODS if m != "method6"])
def test_every_prefix_equals_nltk(method):
    cases = make_cases(22, 24, max_len=24)
    got = bleusuite.prefix_sentence_bleu([h for h, _ in cases], [r for _, r in cases],
                                         smooth=method)
    split, _ = prefixes(cases)
    check(got, cases, nltk_sentence_bleu(split, method=method), method)


@pytest.mark.parametrize("smooth", SACRE_SMOOTHS)
@pytest.mark.parametrize("effective_order", [False, True])
def test_every_prefix_equals_sacrebleu(smooth, effective_order):
    cases = make_cases(23, 24, max_len=24)
    got = bleusuite.prefix_sentence_bleu([h for h, _ in cases], [r for _, r in cases],
                                         smooth=smooth, effective_order=effective_order)
    split, _ = prefixes(cases)
    want = sacrebleu_sentence_bleu(split, smooth=smooth, effective_order=effective_order)
    check(got, cases, want, smooth)


def test_long_and_repetitive_hypotheses():
    """512 tokens, a hypothesis that repeats a short pattern (n-grams far above their clip)
    and one of three tokens, against NLTK and sacrebleu at every prefix."""
    rng = np.random.default_rng(24)
    pattern = [5, 6, 7, 5, 6]
    cases: list[Case] = [
        ((pattern * 103)[:512], [[5, 6, 7, 5, 6, 9] * 4, [6, 7, 5, 6, 7] * 20]),
        (rng.integers(1, 4, 512).tolist(), [rng.integers(1, 4, 300).tolist(),
                                            rng.integers(1, 4, 512).tolist()]),
        (rng.integers(1, 60, 200).tolist(), [rng.integers(1, 60, 512).tolist()]),
    ]
    hyp, refs = to_arrays(cases, 24, pad_id=0)
    split, _ = prefixes(cases)
    got = bleusuite.prefix_sentence_bleu(hyp, refs, pad_id=0, smooth="method1")
    check(got, cases, nltk_sentence_bleu(split, method="method1"), "nltk")
    got = bleusuite.prefix_sentence_bleu(hyp, refs, pad_id=0, smooth="exp",
                                         effective_order=True)
    check(got, cases, sacrebleu_sentence_bleu(split, smooth="exp", effective_order=True),
          "sacrebleu")


def test_method6_raises_as_a_loop_would_and_is_nan_on_devices(monkeypatch):
    hyp, ref = np.array([[1, 2, 3, 4, 5]]), np.array([[1, 2, 3, 4, 6]])
    assert np.isnan(nltk_sentence_bleu([([1], [[1, 2, 3, 4, 6]])], method="method6")).all()
    with pytest.raises(ValueError, match="method6"):
        bleusuite.prefix_sentence_bleu(hyp, ref, smooth="method6")
    with no_host_reads(monkeypatch) as torch:
        got = bleusuite.prefix_sentence_bleu(torch.from_numpy(hyp), torch.from_numpy(ref),
                                             smooth="method6").numpy()
    cases: list[Case] = [([1, 2, 3, 4, 5][:t], [[1, 2, 3, 4, 6]]) for t in range(1, 6)]
    want = nltk_sentence_bleu(cases, method="method6")
    np.testing.assert_array_equal(np.isnan(got[0]), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_allclose(got[0][ok], want[ok], rtol=0, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 4), max_size=14),
       st.lists(st.lists(st.integers(1, 4), max_size=14), min_size=1, max_size=3))
def test_running_counts_are_those_of_each_prefix(hyp, refs):
    """The clipped counts of every prefix (orders 1..5), against bleu_statistics of the
    prefix, and the scores against NLTK."""
    batch = normalize_batch([hyp], [refs])
    counts = prefix_matches(batch, 5)[0]
    for t in range(1, len(hyp) + 1):
        want = bleusuite.bleu_statistics([hyp[:t]], [refs], max_order=5).matches[0]
        np.testing.assert_array_equal(counts[t - 1], want)
    cases: list[Case] = [(hyp, refs)]
    got = bleusuite.prefix_sentence_bleu([hyp], [refs], smooth="method3")
    check(got, cases, nltk_sentence_bleu(prefixes(cases)[0], method="method3"))


# ----------------------------------------------------------------------- input forms


def test_every_input_form_gives_the_same_numbers():
    cases = make_cases(25, 12, max_len=15)
    hyps, refs = [h for h, _ in cases], [r for _, r in cases]
    want = bleusuite.prefix_sentence_bleu(hyps, refs, smooth="method2")
    right = to_arrays(cases, 25, pad_id=0, eos_id=1)
    left = to_arrays(cases, 25, pad_id=0, layout="left")
    forms = {
        "right padding and eos": (*right, {"pad_id": 0, "eos_id": 1}),
        "left padding": (*left, {"pad_id": 0}),
        "ragged arrays": ([np.array(h, dtype=np.int64) for h in hyps], refs, {}),
        "string tokens": ([[f"w{t}" for t in h] for h in hyps],
                          [[[f"w{t}" for t in r] for r in rs] for rs in refs], {}),
        "text": ([" ".join(f"w{t}" for t in h) for h in hyps],
                 [[" ".join(f"w{t}" for t in r) for r in rs] for rs in refs],
                 {"tokenize": "none"}),
    }
    for name, (h, r, kwargs) in forms.items():
        got = bleusuite.prefix_sentence_bleu(h, r, smooth="method2", **kwargs)
        width = want.shape[1]
        np.testing.assert_array_equal(got[:, :width], want, err_msg=name)
        # wider padded inputs: the full score goes on to the end
        np.testing.assert_array_equal(got[:, width:], np.repeat(want[:, -1:], got.shape[1]
                                                                - width, axis=1), name)


def test_empty_batches_hypotheses_and_references():
    assert bleusuite.prefix_sentence_bleu([], []).shape == (0, 0)
    cases: list[Case] = [([], [[1, 2]]), ([1, 2], [[]]), ([], [[]]), ([3], [[3]])]
    got = bleusuite.prefix_sentence_bleu([h for h, _ in cases], [r for _, r in cases],
                                         smooth="exp")
    want = explicit(cases, smooth="exp")  # the empty hypotheses: all through the row
    np.testing.assert_array_equal(got, [[want[0]] * 2, [0.0, want[1]], [want[2]] * 2,
                                        [want[3]] * 2])
    with pytest.raises(ValueError, match="hypothesis 0 has no reference"):
        bleusuite.prefix_sentence_bleu(np.array([[1, 2]]), np.array([[0, 0]]), pad_id=0)
    with pytest.raises(ValueError, match="smooth must be one of"):
        bleusuite.prefix_sentence_bleu([[1]], [[[1]]], smooth="method9")


# -------------------------------------------------------------------------- backends


def small_cases(seed: int, count: int, max_len: int) -> list[Case]:
    """Cases of small ids (JAX without x64 holds them), 1..3 references, empty ones too."""
    rng = np.random.default_rng(seed)
    words = lambda: rng.integers(2, 7, int(rng.integers(0, max_len + 1))).tolist()  # noqa: E731
    return [(words(), [words() or [3] for _ in range(int(rng.integers(1, 4)))])
            for _ in range(count)]


def test_every_backend_and_the_fixed_path(pipeline, monkeypatch):
    cases = small_cases(26, 10, 20)
    hyp, refs = to_arrays(cases, 26, pad_id=0)
    want = bleusuite.prefix_sentence_bleu(hyp, refs, pad_id=0, smooth="method4")
    # prefixes are always counted with fixed shapes (BLEUSUITE_COUNTING changes nothing, and
    # JAX always counts so): the setting is checked to change nothing
    strategies = ["auto"] if backends.backend_name(pipeline(np.zeros(1))) == "jax" else [
        "auto", "fixed"]
    for strategy in strategies:
        monkeypatch.setenv("BLEUSUITE_COUNTING", strategy)
        got = bleusuite.prefix_sentence_bleu(pipeline(hyp), pipeline(refs), pad_id=0,
                                             smooth="method4")
        assert_scores_close(got, want, strategy)


def test_device_path_reads_nothing_back(monkeypatch):
    cases = make_cases(27, 10, max_len=20)
    hyp, refs = to_arrays(cases, 27, pad_id=0, eos_id=1)
    want = bleusuite.prefix_sentence_bleu(hyp, refs, pad_id=0, eos_id=1, smooth="exp")
    with no_host_reads(monkeypatch) as torch:
        got = bleusuite.prefix_sentence_bleu(torch.from_numpy(hyp), torch.from_numpy(refs),
                                             pad_id=0, eos_id=1, smooth="exp")
    np.testing.assert_allclose(got.numpy(), want, rtol=0, atol=1e-12)


def test_meta_tensors_give_meta_results():
    torch = pytest.importorskip("torch")
    hyp = torch.empty((4, 11), dtype=torch.int64, device="meta")
    refs = torch.empty((4, 3, 9), dtype=torch.int64, device="meta")
    got = bleusuite.prefix_sentence_bleu(hyp, refs, pad_id=0, eos_id=1, smooth="method7")
    assert got.device.type == "meta" and tuple(got.shape) == (4, 11)


def test_compiles_without_graph_breaks(monkeypatch):
    torch = pytest.importorskip("torch")
    torch._dynamo.reset()
    monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)
    hyp, refs = to_arrays(make_cases(28, 6, max_len=12), 28, pad_id=0)

    def scores(h: Any, r: Any) -> Any:
        return bleusuite.prefix_sentence_bleu(h, r, pad_id=0, smooth="method1")

    with backends.use_numpy_for_torch_cpu(False):
        h, r = torch.from_numpy(hyp), torch.from_numpy(refs)
        got = torch.compile(scores, fullgraph=True, backend="eager")(h, r)
        torch.testing.assert_close(got, scores(h, r), rtol=0, atol=0)


def test_narrow_keys_take_the_stable_sort(monkeypatch):
    """Token values too far apart to pack beside a position (the int64 extremes), and key
    widths where two ids and a position do not fit (as with JAX's int32): the stable sort
    with indices gives the same counts."""
    cases = make_cases(29, 12, max_len=40)
    huge = [([t * 2**57 - 2**62 for t in h], [[t * 2**57 - 2**62 for t in r] for r in rs])
            for h, rs in cases]
    batch = normalize_batch([h for h, _ in cases], [r for _, r in cases])
    want = prefix_matches(batch, 4)  # the kernel's where the compiled part is built
    monkeypatch.setenv("BLEUSUITE_COUNTING", "fixed")  # the fixed-shape path from here on
    np.testing.assert_array_equal(prefix_matches(batch, 4), want)
    wide = normalize_batch([h for h, _ in huge], [r for _, r in huge])
    np.testing.assert_array_equal(prefix_matches(wide, 4), want)
    numpy_backend = backends.get_backend(np.zeros(1))
    monkeypatch.setattr(numpy_backend, "key_bits", 20)
    np.testing.assert_array_equal(prefix_matches(batch, 4), want)
    monkeypatch.setattr(numpy_backend, "key_bits", 8)
    with pytest.raises(ValueError, match="too large for 10-bit integers"):
        prefix_matches(batch, 4)


@pytest.mark.parametrize("seed", range(4))
def test_the_kernel_and_the_fixed_path_count_alike(seed, monkeypatch):
    """The compiled kernel's prefixes (its counting pass) equal the fixed-shape pipeline's
    on generated rows: 1-4 references, empty hypotheses and references, repeated n-grams,
    orders 1-9, wide token ids, and prefix widths wider than every hypothesis."""
    require_compiled()
    from bleusuite.counting import kernel
    from bleusuite.inputs.batch import RaggedPairs

    cases = make_cases(100 + seed, 40, max_len=30)
    if seed % 2:
        cases = [([t + 2**40 for t in h], [[t + 2**40 for t in r] for r in rs])
                 for h, rs in cases]
    batch = normalize_batch([h for h, _ in cases], [r for _, r in cases])
    for order in (1, 4, 9):
        got = prefix_matches(batch, order)
        with monkeypatch.context() as patch:
            patch.setenv("BLEUSUITE_COUNTING", "fixed")
            want = prefix_matches(batch, order)
        np.testing.assert_array_equal(got, want)
        padded = batch.padded()
        pairs = RaggedPairs.from_padded(padded.hyp, padded.hyp_len, padded.refs,
                                        padded.ref_len)
        width = padded.hyp.shape[1]
        wider = kernel.count_prefixes(pairs, order, width + 3, workers=2)
        np.testing.assert_array_equal(wider[:, :width], want)
        np.testing.assert_array_equal(wider[:, -1], want[:, -1])


def test_the_kernel_refuses_a_narrow_prefix_buffer():
    require_compiled()
    from bleusuite import native

    module = native.module()
    ids = np.array([1, 2, 3, 1, 2], dtype=np.int64)
    one = np.zeros(1, dtype=np.int64)
    args = (ids, one, np.array([3]), ids, np.array([[0]]), np.array([[5]]),
            np.zeros((1, 4), dtype=np.int64), None, 0, 1)
    with pytest.raises(ValueError, match=r"prefix: its width \(2\) is below the longest "
                                          r"hypothesis \(3 tokens\)"):
        module.count_matches(*args, np.zeros((1, 2, 4), dtype=np.int64))
    with pytest.raises(ValueError, match="prefix: axis 2 has 3 entries where 4 are needed"):
        module.count_matches(*args, np.zeros((1, 3, 3), dtype=np.int64))
    with pytest.raises(TypeError, match="prefix must be a C-contiguous writable int64"):
        module.count_matches(*args, np.zeros((1, 3, 4), dtype=np.int64)[:, ::-1])
    prefix = np.full((1, 5, 4), 7, dtype=np.int64)
    module.count_matches(*args, prefix)
    assert prefix[0].tolist() == [[1, 0, 0, 0], [2, 1, 0, 0], [3, 2, 1, 0], [3, 2, 1, 0],
                                  [3, 2, 1, 0]]
