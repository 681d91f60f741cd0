"""The fixed-shape counting strategy (``bleusuite/counting/fixed.py``, the GPU path).

What needs no GPU is proven here on the CPU: exact counts (against a brute-force Counter,
the compact pipeline and the compiled kernel), no host read anywhere in a call (every
reading primitive raises), torch ``meta`` tensors, and ``torch.compile(fullgraph=True)``
without graph breaks. What needs CUDA (``set_sync_debug_mode``, CUDA-graph replay, CuPy)
is marked ``gpu``.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
import pytest
from backend_fixtures import no_host_reads
from cases import VOCABULARIES, as_arrays, brute_force, random_batch

import bleusuite
from bleusuite import backends, native
from bleusuite.counting import count_matches, counting_strategy
from bleusuite.inputs import normalize_batch


def _counts(strategy: str, hyp: Any, ref: Any, max_order: int, monkeypatch: Any,
            **kwargs: Any) -> tuple[np.ndarray, np.ndarray]:
    monkeypatch.setenv("BLEUSUITE_COUNTING", strategy)
    batch = normalize_batch(hyp, ref, **kwargs)
    counts = count_matches(batch, max_order, per_reference=True)
    be = backends.get_backend(counts.clipped)
    return be.to_numpy(counts.clipped), be.to_numpy(counts.per_reference)


@pytest.mark.parametrize("vocab_name", list(VOCABULARIES))
@pytest.mark.parametrize("max_order", [1, 4, 9, 40])
def test_fixed_counts_match_brute_force(vocab_name, max_order, pipeline, monkeypatch):
    """Every vocabulary kind (small, 50k, wide, the whole int64 range) and orders that fit
    one packed key (1, 4, 9) or need the order-by-order fallback (40)."""
    rng = np.random.default_rng(zlib.crc32(f"fixed{vocab_name}{max_order}".encode()))
    vocab = VOCABULARIES[vocab_name]
    hyps, refs = random_batch(rng, 30, vocab, 12, 3)
    pad = int(vocab.min()) - 1 if vocab.min() > -(2**63) + 1 else int(vocab.max()) + 1
    hyp, ref = as_arrays(hyps, refs, pad)
    clipped, per_ref = _counts("fixed", pipeline(hyp), pipeline(ref), max_order, monkeypatch,
                               pad_id=pad)
    want_clipped, want_per_ref = brute_force(hyps, refs, max_order)
    np.testing.assert_array_equal(clipped, want_clipped)
    np.testing.assert_array_equal(per_ref[:, : want_per_ref.shape[1]], want_per_ref)


@pytest.mark.parametrize("seed", range(6))
def test_strategies_agree_on_random_batches(seed, pipeline, monkeypatch):
    """Left and right padding, eos, 1-4 references, repeated n-grams, both key paths; the
    compact pipeline and the compiled kernel (where it is built) give the same counts."""
    rng = np.random.default_rng(seed)
    rows, width, num_refs = int(rng.integers(1, 9)), int(rng.integers(1, 40)), int(
        rng.integers(1, 5))
    vocab = int(rng.choice([3, 8, 1000]))
    hyp = rng.integers(1, vocab + 1, (rows, width))
    ref = rng.integers(1, vocab + 1, (rows, num_refs, width))
    ref[:, 0, 0] = 1
    # padding (0) on either side, an eos (2) somewhere
    hyp[:, : int(rng.integers(0, width))] *= rng.random((rows, 1)) < 0.3
    hyp[:, int(rng.integers(0, width)) :] *= rng.random((rows, 1)) < 0.7
    others = ["compact", *(["compiled"] if native.compiled() else [])]
    for max_order in (4, int(rng.integers(5, 70))):
        fixed = _counts("fixed", pipeline(hyp), pipeline(ref), max_order, monkeypatch,
                        pad_id=0, eos_id=2)
        for other in others:
            counts = _counts(other, pipeline(hyp), pipeline(ref), max_order, monkeypatch,
                             pad_id=0, eos_id=2)
            np.testing.assert_array_equal(fixed[0], counts[0], err_msg=other)
            np.testing.assert_array_equal(fixed[1], counts[1], err_msg=other)


def test_fixed_long_sentences_take_the_fallback(monkeypatch):
    """Orders 1..12 on 300-token rows: 12 ids of 9 bits do not fit one key."""
    rng = np.random.default_rng(3)
    hyp = rng.integers(0, 400, size=(3, 300))
    ref = hyp.copy()
    ref[:, ::37] = 999
    compact = _counts("compact", hyp, ref, 12, monkeypatch)
    fixed = _counts("fixed", hyp, ref, 12, monkeypatch)
    np.testing.assert_array_equal(fixed[0], compact[0])
    if native.compiled():
        np.testing.assert_array_equal(fixed[0], _counts("compiled", hyp, ref, 12, monkeypatch)[0])
    assert fixed[0][:, -1].min() > 0  # long n-grams do match


def test_strategy_setting(monkeypatch):
    be = backends.get_backend(np.zeros(1))
    monkeypatch.setenv("BLEUSUITE_COUNTING", "compact")
    assert counting_strategy(be, np.zeros(1)) == "compact"
    monkeypatch.setenv("BLEUSUITE_COUNTING", " Fixed ")
    assert counting_strategy(be, np.zeros(1)) == "fixed"
    monkeypatch.setenv("BLEUSUITE_COUNTING", "Compiled")
    if native.compiled():
        assert counting_strategy(be, np.zeros(1)) == "compiled"
    else:
        with pytest.raises(ImportError, match="BLEUSUITE_COUNTING=compiled"):
            counting_strategy(be, np.zeros(1))
    monkeypatch.setenv("BLEUSUITE_COUNTING", "hashed")
    with pytest.raises(ValueError,
                       match="BLEUSUITE_COUNTING must be one of auto, compiled, compact, fixed"):
        bleusuite.sentence_bleu(np.array([[1, 2]]), np.array([[1, 2]]))


def test_devices_default_to_fixed(monkeypatch):
    torch = pytest.importorskip("torch")
    monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)
    be = backends.get_backend(torch.zeros(1))
    assert counting_strategy(be, torch.zeros(1, device="meta")) == "fixed"
    assert counting_strategy(be, torch.zeros(1)) == "fixed"  # the torch pipeline on CPU


# ------------------------------------------------------------------ no host read, meta


SCORERS = {
    "sentence_bleu": lambda h, r: bleusuite.sentence_bleu(h, r, pad_id=0, eos_id=3),
    "corpus_bleu": lambda h, r: bleusuite.corpus_bleu(h, r, pad_id=0, smooth="exp"),
    "sentence_gleu": lambda h, r: bleusuite.sentence_gleu(h, r, pad_id=0),
    "corpus_gleu": lambda h, r: bleusuite.corpus_gleu(h, r, pad_id=0, eos_id=3),
    "bleu_statistics": lambda h, r: bleusuite.bleu_statistics(h, r, pad_id=0).matches,
    "gleu_statistics": lambda h, r: bleusuite.gleu_statistics(h, r, pad_id=0).totals,
    "high order (fallback)": lambda h, r: bleusuite.sentence_bleu(h, r, max_order=30),
    "method6": lambda h, r: bleusuite.sentence_bleu(h, r, smooth="method6"),
}
SHAPES = {"sentence_bleu": (6,), "corpus_bleu": (), "sentence_gleu": (6,), "corpus_gleu": (),
          "bleu_statistics": (6, 4), "gleu_statistics": (6,), "high order (fallback)": (6,),
          "method6": (6,)}


@pytest.fixture
def device_torch(monkeypatch):
    """torch CPU tensors on the torch pipeline, treated as a device (no value may be read):
    every backend primitive that reads a value or sizes a result by the data raises."""
    with no_host_reads(monkeypatch) as torch:
        yield torch


def _mt_like(rows: int = 6, width: int = 20, refs: int = 2, seed: int = 0):
    rng = np.random.default_rng(seed)
    ref = rng.integers(4, 60, (rows, refs, width))
    hyp = ref[:, 0].copy()
    hyp[rng.random(hyp.shape) < 0.3] = 7
    hyp[:, -3:] = 0  # padding
    return hyp, ref


@pytest.mark.parametrize("name", list(SCORERS))
def test_a_call_reads_nothing_back(name, device_torch):
    hyp, ref = _mt_like()
    got = SCORERS[name](device_torch.from_numpy(hyp), device_torch.from_numpy(ref))
    assert tuple(got.shape) == SHAPES[name]


@pytest.mark.parametrize("name", [n for n in SCORERS if n != "method6"])  # NumPy raises there
def test_device_path_equals_numpy(name, device_torch, monkeypatch):
    hyp, ref = _mt_like(seed=1)
    got = SCORERS[name](device_torch.from_numpy(hyp), device_torch.from_numpy(ref))
    monkeypatch.undo()
    want = SCORERS[name](hyp, ref)
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("name", list(SCORERS))
def test_meta_tensors_give_meta_results(name):
    """No data anywhere: every shape must follow from the input shapes."""
    torch = pytest.importorskip("torch")
    hyp = torch.empty((6, 20), dtype=torch.int64, device="meta")
    ref = torch.empty((6, 2, 20), dtype=torch.int64, device="meta")
    got = SCORERS[name](hyp, ref)
    assert got.device.type == "meta"
    assert tuple(got.shape) == SHAPES[name]


def test_rows_without_reference_are_nan_on_devices(device_torch):
    """Raising would need a host read on a device: those rows score NaN instead (and a
    corpus holding one), the other rows are unchanged."""
    torch = device_torch
    hyp, ref = _mt_like()
    ref[2] = 0  # every reference of row 2 is padding
    scores = bleusuite.sentence_bleu(torch.from_numpy(hyp), torch.from_numpy(ref), pad_id=0)
    assert torch.isnan(scores[2]) and not torch.isnan(scores[[0, 1, 3, 4, 5]]).any()
    gleu = bleusuite.sentence_gleu(torch.from_numpy(hyp), torch.from_numpy(ref), pad_id=0)
    assert torch.isnan(gleu[2]) and not torch.isnan(gleu[:2]).any()
    assert torch.isnan(bleusuite.corpus_bleu(torch.from_numpy(hyp), torch.from_numpy(ref),
                                             pad_id=0))
    with pytest.raises(ValueError, match="hypothesis 2 has no reference"):
        bleusuite.sentence_bleu(hyp, ref, pad_id=0)  # NumPy raises at once


def test_method6_unscorable_rows_are_nan_on_devices(device_torch):
    hyp = np.array([[1, 2, 3, 4, 5], [1, 9, 2, 9, 3]])
    ref = np.array([[1, 2, 3, 4, 6], [1, 2, 3, 4, 6]])
    got = bleusuite.sentence_bleu(device_torch.from_numpy(hyp), device_torch.from_numpy(ref),
                                  smooth="method6")
    assert not device_torch.isnan(got[0]) and device_torch.isnan(got[1])
    with pytest.raises(ValueError, match="method6"):
        bleusuite.sentence_bleu(hyp, ref, smooth="method6")


# ------------------------------------------------------------------------ torch.compile


@pytest.mark.parametrize("compiler", ["eager", "aot_eager"])
def test_compiles_without_graph_breaks(compiler, monkeypatch):
    """``fullgraph=True`` fails on any graph break (a host read, a data-dependent shape,
    an untraceable call): the whole call, inputs to scores, is one graph."""
    torch = pytest.importorskip("torch")
    torch._dynamo.reset()
    monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)  # CPU tensors, default settings

    def reward(hyp: Any, ref: Any) -> Any:
        stats = bleusuite.bleu_statistics(hyp, ref, pad_id=0, eos_id=3)
        return (bleusuite.sentence_bleu(hyp, ref, pad_id=0, eos_id=3, smooth="method1"),
                bleusuite.sentence_gleu(hyp, ref, pad_id=0), stats.matches)

    hyp, ref = _mt_like(seed=4)
    hyp_t, ref_t = torch.from_numpy(hyp), torch.from_numpy(ref)
    compiled = torch.compile(reward, fullgraph=True, backend=compiler)
    for got, want in zip(compiled(hyp_t, ref_t), reward(hyp_t, ref_t), strict=True):
        torch.testing.assert_close(got, want, rtol=0, atol=0)


# ---------------------------------------------------------------------------- with a GPU


def _cuda(torch: Any) -> None:
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device: torch-CUDA tests need a GPU")


@pytest.mark.gpu
def test_cuda_call_does_not_synchronise(monkeypatch):
    torch = pytest.importorskip("torch")
    _cuda(torch)
    monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)
    hyp, ref = _mt_like(rows=64, width=128)
    hyp_t, ref_t = torch.from_numpy(hyp).cuda(), torch.from_numpy(ref).cuda()
    for name, scorer in SCORERS.items():
        if name == "method6":
            continue
        scorer(hyp_t, ref_t)  # warm-up: imports, allocator, kernel caches
        torch.cuda.synchronize()
        torch.cuda.set_sync_debug_mode("error")
        try:
            scorer(hyp_t, ref_t)
        finally:
            torch.cuda.set_sync_debug_mode("default")


@pytest.mark.gpu
def test_cuda_graph_replay_equals_eager():
    """A captured call replayed on new inputs gives eager's scores on them, bit for bit.

    Against NumPy the scores agree to the library's 1e-12 (the counts are the same; CUDA's
    ``exp`` and ``log`` are not the CPU's, so the last bit can differ)."""
    torch = pytest.importorskip("torch")
    _cuda(torch)
    hyp, ref = _mt_like(rows=32, width=64)
    hyp_t, ref_t = torch.from_numpy(hyp).cuda(), torch.from_numpy(ref).cuda()
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        bleusuite.sentence_bleu(hyp_t, ref_t, pad_id=0)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = bleusuite.sentence_bleu(hyp_t, ref_t, pad_id=0)
    hyp2, ref2 = _mt_like(rows=32, width=64, seed=9)
    hyp_t.copy_(torch.from_numpy(hyp2))
    ref_t.copy_(torch.from_numpy(ref2))
    graph.replay()
    eager = bleusuite.sentence_bleu(hyp_t, ref_t, pad_id=0)
    torch.testing.assert_close(out, eager, rtol=0, atol=0)
    np.testing.assert_allclose(out.cpu().numpy(), bleusuite.sentence_bleu(hyp2, ref2, pad_id=0),
                               rtol=0, atol=1e-12)
    assert not np.allclose(out.cpu().numpy(), bleusuite.sentence_bleu(hyp, ref, pad_id=0),
                           rtol=0, atol=1e-12)  # the replay read the new inputs


@pytest.mark.gpu
def test_cuda_reduce_overhead_compile_equals_eager():
    torch = pytest.importorskip("torch")
    _cuda(torch)
    torch._dynamo.reset()
    hyp, ref = _mt_like(rows=32, width=64)
    hyp_t, ref_t = torch.from_numpy(hyp).cuda(), torch.from_numpy(ref).cuda()
    compiled = torch.compile(lambda h, r: bleusuite.sentence_bleu(h, r, pad_id=0),
                             mode="reduce-overhead", fullgraph=True)
    for _ in range(3):  # record, then replay
        got = compiled(hyp_t, ref_t)
    want = bleusuite.sentence_bleu(hyp, ref, pad_id=0)
    # the compiled kernels' exp and log may round the last bit unlike eager's or NumPy's
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=0, atol=1e-12)
