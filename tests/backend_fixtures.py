"""The ``pipeline`` fixture: one test, run on every backend that can run here.

Each parameter is a function that turns a NumPy array into the input of one backend:
NumPy itself; torch CPU tensors scored through NumPy views (the default for CPU tensors);
torch CPU tensors through the torch pipeline itself (the code path CUDA tensors take, so it
is checked without a GPU); torch CUDA tensors and CuPy arrays (marked ``gpu``, skipped with
the reason when no GPU is present); JAX arrays with ``jax_enable_x64`` on (``jax-x64``:
int64 / float64, held to 1e-12 like the others) and off (``jax-x32``: int32 / float32, so
scores are compared to 1e-6 relative, see :func:`assert_scores_close`; batches whose ids
int32 cannot hold skip), skipped when jax is not installed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from bleusuite import backends


def _cuda_torch() -> Any:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device: torch-CUDA tests need a GPU")
    return torch


def _cupy() -> Any:
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed (tox -e gpu installs it)")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("no CUDA device: CuPy tests need a GPU")
    except Exception as error:  # no driver, no runtime: no usable device
        pytest.skip(f"no usable CUDA device for CuPy ({type(error).__name__})")
    return cupy


_INT32 = np.iinfo(np.int32)


def jax_converter(x64: bool) -> Callable[[np.ndarray], Any]:
    """NumPy -> JAX array on the default device (call it under ``jax.enable_x64(x64)``);
    without x64, a batch whose ids int32 cannot hold skips the test."""
    import jax.numpy as jnp

    def convert(a: np.ndarray) -> Any:
        if not x64 and a.size and (a.min() < _INT32.min or a.max() > _INT32.max):
            pytest.skip("token ids beyond int32: JAX without x64 cannot hold them")
        return jnp.asarray(a)

    return convert


def assert_scores_close(got: Any, expected: Any, label: str = "") -> None:
    """``got`` (any backend) equals ``expected`` (NumPy) within 1e-12, or within 1e-6
    relative when ``got`` is float32 (JAX without x64); integer arrays exactly."""
    got_numpy = np.asarray(backends.get_backend(got).to_numpy(got))
    assert got_numpy.shape == np.shape(expected), label
    if got_numpy.dtype == np.float32:
        # float32 cannot hold values below 1e-38 (a smoothed score can be 1e-77)
        np.testing.assert_allclose(got_numpy, expected, rtol=1e-6, atol=1e-37, err_msg=label)
    elif got_numpy.dtype.kind in "iu":
        np.testing.assert_array_equal(got_numpy, expected, err_msg=label)
    else:
        np.testing.assert_allclose(got_numpy, expected, rtol=0, atol=1e-12, err_msg=label)


@pytest.fixture(
    params=[
        "numpy",
        "torch-cpu-via-numpy",
        "torch-cpu-native",
        pytest.param("torch-cuda", marks=pytest.mark.gpu),
        pytest.param("cupy", marks=pytest.mark.gpu),
        "jax-x64",
        "jax-x32",
    ]
)
def pipeline(request: Any) -> Iterator[Callable[[np.ndarray], Any]]:
    """A function mapping a NumPy array to the same data on one backend."""
    name = request.param
    if name.startswith("jax"):
        jax = pytest.importorskip("jax", reason="jax is not installed (tox -e jax installs it)")
        x64 = name == "jax-x64"
        with jax.enable_x64(x64):
            yield jax_converter(x64)
        return
    convert = _converter(name)
    with backends.use_numpy_for_torch_cpu(name != "torch-cpu-native"):
        yield convert


def _converter(name: str) -> Callable[[np.ndarray], Any]:
    if name == "numpy":
        return lambda a: a
    if name in ("torch-cpu-via-numpy", "torch-cpu-native"):
        torch = pytest.importorskip("torch")
        return torch.from_numpy
    if name == "torch-cuda":
        torch = _cuda_torch()
        return lambda a: torch.from_numpy(a).cuda()
    cupy = _cupy()
    return cupy.asarray


def _array_converters() -> dict[str, Callable[[np.ndarray], Any]]:
    """Every backend that can run here, as NumPy -> backend converters."""
    converters: dict[str, Callable[[np.ndarray], Any]] = {}
    try:
        import torch
    except ImportError:
        return converters
    converters["torch-cpu"] = torch.from_numpy
    if torch.cuda.is_available():
        converters["torch-cuda"] = lambda a: torch.from_numpy(a).cuda()
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            converters["cupy"] = cupy.asarray
    except Exception:  # not installed, or no device: nothing to run
        pass
    return converters


def _jax_modes() -> list[tuple[str, Callable[[np.ndarray], Any], Any]]:
    """(label, converter, context factory) for JAX with x64 on and off, if installed."""
    try:
        import jax
    except ImportError:
        return []
    return [(f"jax-x{bits}", jax_converter(bits == 64), lambda x64=bits == 64: jax.enable_x64(x64))
            for bits in (64, 32)]


_CONVERTERS: dict[str, Callable[[np.ndarray], Any]] | None = None
#: the parity calls that also run on JAX (x64 and x32): those of at least this many rows
JAX_MIN_ROWS = 100


def on_every_backend(fn: Callable[..., Any], hypotheses: Any, references: Any,
                     **kwargs: Any) -> np.ndarray:
    """``fn(hypotheses, references, **kwargs)`` on NumPy, and again on every other backend
    that runs here (torch CPU through NumPy views and through the torch pipeline itself,
    torch CUDA, CuPy; JAX with x64 on and off for calls of at least ``JAX_MIN_ROWS`` rows):
    every result must equal NumPy's within 1e-12, 1e-6 relative for float32 (or raise the
    same error). Returns the NumPy result, so the parity tests compare every backend with the
    reference library while computing the slow reference only once."""
    global _CONVERTERS
    expected = fn(hypotheses, references, **kwargs)
    if not isinstance(hypotheses, np.ndarray):
        return expected
    # JAX compiles a program per input shape (about a second): it checks the large calls
    # (every sentence-level chunk and every whole corpus), not the many small corpora
    jax_modes = _jax_modes() if len(hypotheses) >= JAX_MIN_ROWS else []
    for label, convert, context in jax_modes:
        with context():
            try:
                got = fn(convert(hypotheses), convert(references), **kwargs)
            except pytest.skip.Exception:  # ids beyond int32 without x64
                continue
            assert_scores_close(got, expected, label)
    if _CONVERTERS is None:
        _CONVERTERS = _array_converters()
    for name, convert in _CONVERTERS.items():
        modes = [True, False] if name == "torch-cpu" else [True]
        for via_numpy in modes:
            with backends.use_numpy_for_torch_cpu(via_numpy):
                got = fn(convert(hypotheses), convert(references), **kwargs)
            got_numpy = backends.get_backend(got).to_numpy(got)
            label = f"{name}{'' if via_numpy else ' (torch pipeline)'}"
            assert got_numpy.shape == np.shape(expected), label
            np.testing.assert_allclose(got_numpy, expected, rtol=0, atol=1e-12, err_msg=label)
    return expected


@contextlib.contextmanager
def no_host_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """torch CPU tensors on the torch pipeline, treated as a device: every backend primitive
    that reads a value back or sizes a result by the data raises."""
    torch = pytest.importorskip("torch")
    from bleusuite.backends.torch import TorchBackend

    monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)

    def host_read(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the fixed-shape path read a value back to the host")

    for name in ("to_int", "to_ints", "to_bool", "to_numpy", "flatnonzero", "repeat",
                 "searchsorted", "bincount", "unique_inverse"):
        monkeypatch.setattr(TorchBackend, name, host_read)
    monkeypatch.setattr(TorchBackend, "reads_are_free", lambda self, a: False)
    with backends.use_numpy_for_torch_cpu(False):
        yield torch
