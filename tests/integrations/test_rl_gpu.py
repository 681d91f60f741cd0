"""The group matrices and the prefix scores on CUDA (marked ``gpu``: skipped without a
device): no host synchronisation in a call (``torch.cuda.set_sync_debug_mode("error")``),
CUDA-graph capture and replay, and the same numbers as NumPy. Without a GPU the same
fixed-shape path is proven on the CPU in test_pairwise.py and test_prefix.py (no host read,
``meta`` tensors, ``torch.compile(fullgraph=True)``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from cases import make_groups, padded

import bleusuite


def _torch_cuda() -> Any:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device: torch-CUDA tests need a GPU")
    return torch


def _inputs(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A (4, 8, 48) group, and (32, 48) hypotheses with (32, 2, 48) references."""
    group = padded(make_groups(seed, 4, 8, 40, vocab=30, empty=0.0), width=48)
    hyp = group.reshape(32, 48)
    refs = np.stack([np.roll(hyp, 1, axis=0), np.roll(hyp, 2, axis=0)], axis=1)
    return group, hyp, refs


SCORERS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "pairwise_sentence_bleu": lambda g, h, r: bleusuite.pairwise_sentence_bleu(
        g, g, pad_id=0, smooth="exp", effective_order=True),
    "self_bleu": lambda g, h, r: bleusuite.self_bleu(g, pad_id=0, smooth="method1"),
    "prefix_sentence_bleu": lambda g, h, r: bleusuite.prefix_sentence_bleu(
        h, r, pad_id=0, smooth="method3"),
    "prefix_sentence_bleu (torchmetrics)": lambda g, h, r: bleusuite.prefix_sentence_bleu(
        h, r, pad_id=0, smooth="torchmetrics_smooth", ref_length="closest_first"),
}


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(SCORERS))
def test_cuda_call_does_not_synchronise_and_equals_numpy(name, monkeypatch):
    torch = _torch_cuda()
    monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)
    arrays = _inputs(1)
    tensors = [torch.from_numpy(a).cuda() for a in arrays]
    scorer = SCORERS[name]
    scorer(*tensors)  # warm-up: imports, allocator, kernel caches
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        got = scorer(*tensors)
    finally:
        torch.cuda.set_sync_debug_mode("default")
    np.testing.assert_allclose(got.cpu().numpy(), scorer(*arrays), rtol=0, atol=1e-12)


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(SCORERS))
def test_cuda_graph_replay_equals_eager(name):
    torch = _torch_cuda()
    scorer = SCORERS[name]
    tensors = [torch.from_numpy(a).cuda() for a in _inputs(2)]
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        scorer(*tensors)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = scorer(*tensors)
    replayed = _inputs(3)
    for tensor, array in zip(tensors, replayed, strict=True):
        tensor.copy_(torch.from_numpy(array))
    graph.replay()
    torch.cuda.synchronize()
    np.testing.assert_allclose(out.cpu().numpy(), scorer(*replayed), rtol=0, atol=1e-12)
