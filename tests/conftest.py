"""Repository paths and the fixtures every test file can use.

``tests/`` itself is put on ``sys.path`` by ``pythonpath = ["tests"]`` in pyproject.toml
(that is how ``from reference import ...`` works); the repository root is added below so
that ``import bleusuite`` works without installing the package. The parity suite's case
generators live in ``parity.py``; the fixtures below hand them to any test.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from parity import encode, make_cases, split_corpora, to_arrays, to_lists  # noqa: E402


@pytest.fixture
def float64_default():
    """torch's default dtype float64 for the test (torchmetrics counts and scores in the
    default dtype: float64 for exact numbers), restored after it."""
    torch = pytest.importorskip("torch")
    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(before)


@pytest.fixture(name="encode", scope="session")
def _encode_fixture():
    return encode


@pytest.fixture(name="split_corpora", scope="session")
def _split_corpora_fixture():
    return split_corpora


@pytest.fixture(name="make_cases", scope="session")
def _make_cases_fixture():
    return make_cases


@pytest.fixture(name="to_arrays", scope="session")
def _to_arrays_fixture():
    return to_arrays


@pytest.fixture(name="to_lists", scope="session")
def _to_lists_fixture():
    return to_lists
