"""The ``pipeline`` fixture: one test, run on every backend that can run here.

Each parameter is a function that turns a NumPy array into the input of one backend:
NumPy itself; torch CPU tensors scored through NumPy views (the default for CPU tensors);
torch CPU tensors through the torch pipeline itself (the code path CUDA tensors take, so it
is checked without a GPU); torch CUDA tensors and CuPy arrays (marked ``gpu``, skipped with
the reason when no GPU is present).
"""

from __future__ import annotations

from collections.abc import Callable
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


@pytest.fixture(
    params=[
        "numpy",
        "torch-cpu-via-numpy",
        "torch-cpu-native",
        pytest.param("torch-cuda", marks=pytest.mark.gpu),
        pytest.param("cupy", marks=pytest.mark.gpu),
    ]
)
def pipeline(request: Any, monkeypatch: Any) -> Callable[[np.ndarray], Any]:
    """A function mapping a NumPy array to the same data on one backend."""
    name = request.param
    if name == "numpy":
        return lambda a: a
    if name == "torch-cpu-via-numpy":
        torch = pytest.importorskip("torch")
        return torch.from_numpy
    if name == "torch-cpu-native":
        torch = pytest.importorskip("torch")
        monkeypatch.setattr(backends, "TORCH_CPU_VIA_NUMPY", False)
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


_CONVERTERS: dict[str, Callable[[np.ndarray], Any]] | None = None


def on_every_backend(fn: Callable[..., Any], hypotheses: Any, references: Any,
                     **kwargs: Any) -> np.ndarray:
    """``fn(hypotheses, references, **kwargs)`` on NumPy, and again on every other backend
    that runs here (torch CPU through NumPy views and through the torch pipeline itself,
    torch CUDA, CuPy): every result must equal NumPy's within 1e-12 (or raise the same
    error). Returns the NumPy result, so the parity tests compare every backend with the
    reference library while computing the slow reference only once."""
    global _CONVERTERS
    expected = fn(hypotheses, references, **kwargs)
    if not isinstance(hypotheses, np.ndarray):
        return expected
    if _CONVERTERS is None:
        _CONVERTERS = _array_converters()
    for name, convert in _CONVERTERS.items():
        modes = [True, False] if name == "torch-cpu" else [True]
        for via_numpy in modes:
            previous = backends.TORCH_CPU_VIA_NUMPY
            backends.TORCH_CPU_VIA_NUMPY = via_numpy
            try:
                got = fn(convert(hypotheses), convert(references), **kwargs)
            finally:
                backends.TORCH_CPU_VIA_NUMPY = previous
            got_numpy = backends.get_backend(got).to_numpy(got)
            label = f"{name}{'' if via_numpy else ' (torch pipeline)'}"
            assert got_numpy.shape == np.shape(expected), label
            np.testing.assert_allclose(got_numpy, expected, rtol=0, atol=1e-12, err_msg=label)
    return expected
