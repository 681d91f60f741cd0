"""Dispatch by input type, dtypes, devices, and agreement between backends."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from backend_fixtures import assert_scores_close

import bleusuite
from bleusuite import backends

SMOOTHINGS = ["method1", "method3", "method4", "smooth1", "smooth2", "exp", "add-k", "none"]


def _batch(seed: int = 0, batch: int = 64, length: int = 30, refs: int = 3, vocab: int = 6):
    rng = np.random.default_rng(seed)
    hyp = rng.integers(1, vocab, size=(batch, length))
    ref = rng.integers(1, vocab, size=(batch, refs, length))
    hyp[:, rng.integers(5, length) :] = 0  # right padding
    ref[rng.random((batch, refs)) < 0.2] = 0  # absent references
    ref[:, 0, 0] = 1  # every row keeps a present reference
    return hyp, ref


def test_backend_names_and_lookup():
    assert backends.BACKEND_NAMES == ("numpy", "torch", "cupy", "jax")
    assert backends.backend_name(np.zeros(2)) == "numpy"
    assert backends.get_backend(np.zeros(2)).name == "numpy"
    assert backends.get_backend([1, 2], None).name == "numpy"
    assert "numpy" in backends.available_backends()


def test_lookup_imports_no_optional_array_library():
    code = (
        "import sys, numpy as np, bleusuite;"
        "bleusuite.sentence_bleu(np.array([[1, 2, 3]]), np.array([[1, 2, 3]]));"
        "bleusuite.corpus_gleu([[1, 2]], [[[1, 2]]]);"
        "assert not {'torch', 'cupy', 'jax'} & set(sys.modules), sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("smooth", SMOOTHINGS)
def test_every_backend_agrees_with_numpy(pipeline, smooth):
    hyp, ref = _batch()
    kwargs = {"pad_id": 0, "smooth": smooth, "effective_order": smooth in ("exp", "none")}
    expected = bleusuite.sentence_bleu(hyp, ref, **kwargs)
    got = bleusuite.sentence_bleu(pipeline(hyp), pipeline(ref), **kwargs)
    be = backends.get_backend(got)
    assert be.name == backends.get_backend(pipeline(hyp)).name
    assert_scores_close(got, expected)
    corpus = bleusuite.corpus_bleu(pipeline(hyp), pipeline(ref), **kwargs)
    assert_scores_close(corpus, bleusuite.corpus_bleu(hyp, ref, **kwargs))
    gleu = bleusuite.sentence_gleu(pipeline(hyp), pipeline(ref), pad_id=0)
    assert_scores_close(gleu, bleusuite.sentence_gleu(hyp, ref, pad_id=0))


def test_statistics_come_back_on_the_input_backend(pipeline):
    hyp, ref = _batch(seed=1)
    stats = bleusuite.bleu_statistics(pipeline(hyp), pipeline(ref), pad_id=0)
    be = backends.get_backend(stats.matches)
    assert be.name == backends.get_backend(pipeline(hyp)).name
    expected = bleusuite.bleu_statistics(hyp, ref, pad_id=0)
    np.testing.assert_array_equal(be.to_numpy(stats.matches), expected.matches)
    np.testing.assert_array_equal(be.to_numpy(stats.sum().to_array()), expected.sum().to_array())


def test_mixing_array_libraries_is_a_type_error():
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match="same array library"):
        bleusuite.sentence_bleu(np.array([[1, 2]]), torch.tensor([[1, 2]]))
    with pytest.raises(TypeError, match="same array library"):
        bleusuite.sentence_bleu([torch.tensor([1, 2])], [np.array([1, 2])])


def test_tensors_on_different_devices_are_a_value_error():
    torch = pytest.importorskip("torch")
    with pytest.raises(ValueError, match="same device"):
        bleusuite.sentence_bleu(torch.tensor([[1, 2]]), torch.tensor([[1, 2]], device="meta"))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8"])
def test_integer_dtypes_give_the_same_scores(dtype):
    torch = pytest.importorskip("torch")
    hyp, ref = _batch(seed=2, vocab=100)
    expected = bleusuite.sentence_bleu(hyp, ref, pad_id=0, smooth="method1")
    for convert in (lambda a: a.astype(dtype), lambda a: torch.from_numpy(a.astype(dtype))):
        got = bleusuite.sentence_bleu(convert(hyp), convert(ref), pad_id=0, smooth="method1")
        np.testing.assert_allclose(np.asarray(got), expected, rtol=0, atol=1e-12)


def test_non_contiguous_tensors_and_slices(pipeline):
    hyp, ref = _batch(seed=3)
    wide_hyp = np.repeat(hyp, 2, axis=1)  # every other column is the original
    wide_ref = np.repeat(ref, 2, axis=2)
    expected = bleusuite.sentence_bleu(hyp[::2], ref[::2], pad_id=0, smooth="method1")
    got = bleusuite.sentence_bleu(pipeline(wide_hyp)[::2, ::2], pipeline(wide_ref)[::2, :, ::2],
                                  pad_id=0, smooth="method1")
    assert_scores_close(got, expected)


def test_float_tensors_are_a_type_error_even_with_grad():
    torch = pytest.importorskip("torch")
    logits = torch.zeros((2, 3), requires_grad=True)
    with pytest.raises(TypeError, match="hypotheses must be an array of integer token ids"):
        bleusuite.sentence_bleu(logits, torch.zeros((2, 3), dtype=torch.int64))
    with pytest.raises(TypeError, match="references"):
        bleusuite.sentence_bleu(torch.zeros((2, 3), dtype=torch.int64), logits)


def test_huge_ids_on_torch(pipeline):
    hyp, ref = _batch(seed=4)
    shift = np.int64(2**40 + 3)
    huge_hyp = np.where(hyp > 0, hyp * shift, -(2**62))
    huge_ref = np.where(ref > 0, ref * shift, -(2**62))
    expected = bleusuite.sentence_bleu(hyp, ref, pad_id=0, smooth="method3")
    got = bleusuite.sentence_bleu(pipeline(huge_hyp), pipeline(huge_ref), pad_id=-(2**62),
                                  smooth="method3")
    assert_scores_close(got, expected)


def test_torch_results_are_float64_tensors_on_the_input_device():
    torch = pytest.importorskip("torch")
    hyp, ref = _batch(seed=5)
    for via_numpy in (True, False):
        with backends.use_numpy_for_torch_cpu(via_numpy):
            scores = bleusuite.sentence_bleu(torch.from_numpy(hyp), torch.from_numpy(ref),
                                             pad_id=0)
            corpus = bleusuite.corpus_gleu(torch.from_numpy(hyp), torch.from_numpy(ref),
                                           pad_id=0)
        assert isinstance(scores, torch.Tensor) and scores.dtype == torch.float64
        assert scores.device.type == "cpu" and scores.shape == (hyp.shape[0],)
        assert isinstance(corpus, torch.Tensor) and corpus.shape == ()


# ------------------------------------------------ scoring CPU tensors through NumPy, scoped


def test_torch_kernels_for_a_block_only():
    torch = pytest.importorskip("torch")
    from bleusuite.backends.torch import TorchBackend

    tensor = torch.zeros((2, 3), dtype=torch.int64)
    hyp, ref = _batch(seed=6)
    via_numpy = bleusuite.sentence_bleu(torch.from_numpy(hyp), torch.from_numpy(ref), pad_id=0)
    assert TorchBackend().host_view(tensor) is not None
    with pytest.raises(KeyError), backends.use_numpy_for_torch_cpu(False):
        assert TorchBackend().host_view(tensor) is None  # the torch pipeline itself
        on_torch = bleusuite.sentence_bleu(torch.from_numpy(hyp), torch.from_numpy(ref),
                                           pad_id=0)
        raise KeyError("leaving the block by an exception restores the setting too")
    assert TorchBackend().host_view(tensor) is not None
    assert torch.equal(on_torch, via_numpy)


def test_the_setting_belongs_to_one_thread():
    import threading

    both_inside = threading.Barrier(2, timeout=10)
    seen: dict[bool, bool] = {}

    def run(enabled: bool) -> None:
        with backends.use_numpy_for_torch_cpu(enabled):
            both_inside.wait()  # the two blocks overlap in time
            seen[enabled] = backends.torch_cpu_via_numpy()
            both_inside.wait()

    threads = [threading.Thread(target=run, args=(enabled,)) for enabled in (False, True)]
    with backends.use_numpy_for_torch_cpu(False):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not backends.torch_cpu_via_numpy()
    assert seen == {False: False, True: True}
    assert backends.torch_cpu_via_numpy()


def test_the_setting_belongs_to_one_asyncio_task():
    import asyncio

    async def run(enabled: bool) -> bool:
        with backends.use_numpy_for_torch_cpu(enabled):
            await asyncio.sleep(0)  # the other task enters its block meanwhile
            return backends.torch_cpu_via_numpy()

    async def both() -> list[bool]:
        return list(await asyncio.gather(run(False), run(True)))

    assert asyncio.run(both()) == [False, True]


def test_the_backends_know_no_domain_type():
    """Statistics and batches register themselves as containers of arrays (JAX pytrees)
    from their own modules; the backends import nothing of the layers above them."""
    import ast
    from pathlib import Path

    folder = Path(backends.__file__).parent
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("bleusuite.") or node.module.startswith(
                    "bleusuite.backends"), (path.name, node.module)
    import bleusuite

    bleusuite.bleu_statistics  # noqa: B018 - registers BleuStats on import
    assert bleusuite.BleuStats in [cls for cls, _ in backends.containers()]


@pytest.mark.parametrize("value", [0, None, "no"])
def test_the_setting_is_a_bool(value):
    with pytest.raises(TypeError, match="enabled"), backends.use_numpy_for_torch_cpu(value):
        pass
