"""ROUGE of token ids on every backend (NumPy, torch CPU through NumPy and natively, CUDA,
CuPy, JAX with and without x64): rouge-score's arithmetic on the token lists, from a plain
Python reference (so that this file runs where rouge-score is not installed: the NumPy-only
environment, which counts with the fixed-shape strategy, and the JAX one); the fixed-shape
LCS reads nothing back to the host (``meta`` tensors, no synchronisation and CUDA-graph
replay on a GPU).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from backend_fixtures import assert_scores_close

import bleusuite
from bleusuite.scores.rouge.settings import MEASURES


def _score(matches: int, hyp_total: int, ref_total: int) -> dict[str, float]:
    """rouge-score's Score: precision, recall and F-measure."""
    precision = matches / max(hyp_total, 1)
    recall = matches / max(ref_total, 1)
    fmeasure = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return {"precision": precision, "recall": recall, "fmeasure": fmeasure}


def _lcs(a: list[int], b: list[int]) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        previous, row = row, [0]
        for j, y in enumerate(b, start=1):
            row.append(previous[j - 1] + 1 if x == y else max(previous[j], row[j - 1]))
    return row[-1]


def _reference_score(hyp: list[int], ref: list[int], rouge_type: str) -> dict[str, float]:
    if rouge_type == "rougeL":
        return _score(_lcs(ref, hyp), len(hyp), len(ref))
    n = int(rouge_type[5:])
    hyp_grams = Counter(tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1))
    ref_grams = Counter(tuple(ref[i : i + n]) for i in range(len(ref) - n + 1))
    return _score(sum((hyp_grams & ref_grams).values()), sum(hyp_grams.values()),
                  sum(ref_grams.values()))


def _id_batch(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Token ids (B, L) and (B, 2, L) padded with 0; some second references absent."""
    rng = np.random.default_rng(seed)
    rows, width = 14, 18
    lengths = rng.integers(0, width + 1, size=(rows, 3))
    tokens = rng.integers(1, 7, size=(rows, 3, width))
    tokens[np.arange(width) >= lengths[..., None]] = 0
    tokens[::3, 2] = 0  # no second reference
    tokens[:, 1][lengths[:, 1] == 0, 0] = 9  # every first reference has a token
    return tokens[:, 0].copy(), tokens[:, 1:].copy()


def _expected_ids(hyp: np.ndarray, refs: np.ndarray, rouge_type: str, measure: str) -> list:
    """rouge-score's ``score_multi`` rule: the reference with the best F-measure."""
    out = []
    for row, row_refs in zip(hyp.tolist(), refs.tolist(), strict=True):
        h = [t for t in row if t]
        scores = [_reference_score(h, [t for t in r if t], rouge_type) for r in row_refs
                  if any(r)]
        best = scores[int(np.argmax([s["fmeasure"] for s in scores]))]
        out.append(best[measure])
    return out


def test_token_ids_on_every_backend(pipeline):
    """Padded ids on NumPy, torch (CPU through NumPy, CPU natively: the fixed-shape LCS;
    CUDA), CuPy and JAX: rouge-score's numbers of the token lists, every measure of rouge1,
    rouge2 and rougeL from one call (one compiled program on JAX; ``sentence_rouge`` on
    JAX: :func:`test_jax_under_jit`)."""
    hyp, refs = _id_batch(7)
    types = ("rouge1", "rouge2", "rougeL")
    scores = bleusuite.rouge_scores(pipeline(hyp), pipeline(refs), rouge_types=types,
                                    tokenize=None, pad_id=0)
    for rouge_type in types:
        for measure in MEASURES:
            assert_scores_close(getattr(scores[rouge_type], measure),
                                np.array(_expected_ids(hyp, refs, rouge_type, measure)),
                                f"{rouge_type} {measure}")


def test_the_fixed_shape_lcs_on_numpy(monkeypatch):
    """``BLEUSUITE_COUNTING=fixed``: the GPU program on NumPy arrays, the same numbers."""
    hyp, refs = _id_batch(11)
    expected = np.array(_expected_ids(hyp, refs, "rougeL", "fmeasure"))
    monkeypatch.setenv("BLEUSUITE_COUNTING", "fixed")
    got = bleusuite.sentence_rouge(hyp, refs, tokenize=None, pad_id=0)
    assert_scores_close(got, expected)


def test_token_lists_and_ragged_ids():
    hyps = [["a", "b", "c", "d"], ["x"]]
    refs = [[["a", "c", "b", "d"], ["d"]], [["y", "x"]]]
    got = bleusuite.sentence_rouge(hyps, refs, rouge_type="rougeL", tokenize=None)
    np.testing.assert_allclose(got, [0.75, 2 / 3], rtol=0, atol=1e-15)
    ragged = bleusuite.sentence_rouge([np.array([1, 2, 3, 4]), np.array([9])],
                                      [[np.array([1, 3, 2, 4])], [np.array([8, 9])]],
                                      tokenize=None)
    np.testing.assert_allclose(ragged, got, rtol=0, atol=1e-15)


def test_jax_under_jit():
    jax = pytest.importorskip("jax")
    hyp, refs = _id_batch(3)
    expected = np.array(_expected_ids(hyp, refs, "rougeL", "recall"))
    with jax.enable_x64(True):
        run = jax.jit(lambda h, r: bleusuite.sentence_rouge(h, r, measure="recall",
                                                            tokenize=None, pad_id=0))
        got = run(jax.numpy.asarray(hyp), jax.numpy.asarray(refs))
        assert_scores_close(got, expected)


# ------------------------------------------------------------------ devices: no host read

def test_meta_tensors_give_the_shape_without_a_value():
    """torch ``meta`` tensors have no values: the fixed-shape program reads none."""
    torch = pytest.importorskip("torch")
    hyp = torch.empty((4, 10), dtype=torch.int64, device="meta")
    refs = torch.empty((4, 2, 10), dtype=torch.int64, device="meta")
    for rouge_type in ("rouge2", "rougeL"):
        out = bleusuite.sentence_rouge(hyp, refs, tokenize=None, pad_id=0, rouge_type=rouge_type)
        assert out.shape == (4,) and out.device.type == "meta"


def _torch_cuda():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device: torch-CUDA tests need a GPU")
    return torch


@pytest.mark.gpu
@pytest.mark.parametrize("rouge_type", ["rouge2", "rougeL"])
def test_cuda_call_does_not_synchronise_and_equals_numpy(rouge_type, monkeypatch):
    torch = _torch_cuda()
    monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)
    hyp, refs = _id_batch(5)
    tensors = [torch.from_numpy(a).cuda() for a in (hyp, refs)]

    def score(h, r):
        return bleusuite.sentence_rouge(h, r, rouge_type=rouge_type, tokenize=None, pad_id=0)

    score(*tensors)  # warm-up: imports, allocator, kernel caches
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        got = score(*tensors)
    finally:
        torch.cuda.set_sync_debug_mode("default")
    np.testing.assert_allclose(got.cpu().numpy(), score(hyp, refs), rtol=0, atol=1e-12)


@pytest.mark.gpu
def test_cuda_graph_replay_equals_eager():
    torch = _torch_cuda()
    tensors = [torch.from_numpy(a).cuda() for a in _id_batch(6)]

    def score(h, r):
        return bleusuite.sentence_rouge(h, r, rouge_type="rougeL", tokenize=None, pad_id=0)

    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        score(*tensors)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = score(*tensors)
    replayed = _id_batch(8)
    for tensor, array in zip(tensors, replayed, strict=True):
        tensor.copy_(torch.from_numpy(array))
    graph.replay()
    torch.cuda.synchronize()
    np.testing.assert_allclose(out.cpu().numpy(), score(*replayed), rtol=0, atol=1e-12)
