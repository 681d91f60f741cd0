"""JAX (issue 16): per-sentence BLEU compiled with ``jax.jit`` against NumPy on the CPU, and
against torch-CUDA where JAX and torch see a GPU.

Workload: MT-like batches (:func:`conftest.mt_like`'s recipe: Zipf references over a 50k
vocabulary, row lengths L/2..L with tail padding, the hypothesis a copy of the first
reference with 30% of its tokens replaced), ``smooth="method1"``, ``pad_id=0``. Rows:

- ``numpy``: the baseline, NumPy arrays (compact counting strategy, threads);
- ``jax jit x64`` / ``jax jit x32``: ``jax.jit(partial(sentence_bleu, ...))`` on JAX CPU
  arrays with ``jax_enable_x64`` on / off (fixed-shape strategy), after one compiling call;
- on a GPU: ``jax jit x64 (gpu)`` and ``torch-cuda`` (eager torch on the same batch).

Each call waits for its result (``block_until_ready`` / ``torch.cuda.synchronize``). The
scores of every row are checked against NumPy's (1e-12; 1e-6 relative for float32).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest

import bleusuite
from conftest import mt_like

jax = pytest.importorskip("jax", reason="jax is not installed")
jnp = pytest.importorskip("jax.numpy")

SHAPES = [(64, 128, 1), (256, 256, 1), (256, 256, 4), (1024, 128, 1)]  # rows, length, refs
SETTINGS = {"pad_id": 0, "smooth": "method1"}


def _jax_gpu() -> Any:
    try:
        return jax.devices("gpu")[0]
    except RuntimeError:
        return None


def _check(got: Any, want: np.ndarray) -> None:
    got = np.asarray(got)
    if got.dtype == np.float32:
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-37)
    else:
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def _jitted(hyp: np.ndarray, ref: np.ndarray, x64: bool, device: Any = None
            ) -> Callable[[], Any]:
    fn = jax.jit(partial(bleusuite.sentence_bleu, **SETTINGS))
    with jax.enable_x64(x64):
        jhyp, jref = jax.device_put(hyp, device), jax.device_put(ref, device)

    def call() -> Any:
        with jax.enable_x64(x64):
            return fn(jhyp, jref).block_until_ready()

    return call


IMPLEMENTATIONS = ["numpy", "jax jit x64", "jax jit x32", "jax jit x64 (gpu)", "torch-cuda"]


@pytest.mark.parametrize("impl", IMPLEMENTATIONS)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_jax_jit_vs_numpy(timed, shape, impl):
    rows, length, refs = shape
    hyp, ref = mt_like(rows, length, refs)
    group = f"sentence_bleu jax {rows}x{length} refs={refs}"
    want = bleusuite.sentence_bleu(hyp, ref, **SETTINGS)
    if impl == "numpy":
        timed(group, impl, lambda: bleusuite.sentence_bleu(hyp, ref, **SETTINGS), baseline=True)
        return
    if impl in ("jax jit x64", "jax jit x32"):
        _check(timed(group, impl, _jitted(hyp, ref, impl.endswith("x64"))), want)
        return
    gpu = _jax_gpu()
    if impl == "jax jit x64 (gpu)":
        if gpu is None:
            pytest.skip("jax sees no GPU")
        _check(timed(group, impl, _jitted(hyp, ref, True, gpu)), want)
        return
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    thyp, tref = torch.from_numpy(hyp).cuda(), torch.from_numpy(ref).cuda()

    def torch_call() -> Any:
        scores = bleusuite.sentence_bleu(thyp, tref, **SETTINGS)
        torch.cuda.synchronize()
        return scores.cpu().numpy()

    _check(timed(group, impl, torch_call, reference=True), want)
