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
