"""Repository paths and the fixtures every test file can use.

``tests/`` itself is put on ``sys.path`` by ``pythonpath = ["tests"]`` in pyproject.toml
(that is how ``from reference import ...`` works); the repository root is added below so
that ``import bleusuite`` works without installing the package. The parity suite's case
generators live in ``parity.py``; the fixtures below hand them to any test.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any

import pytest

_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from parity import encode, make_cases, split_corpora, to_arrays, to_lists  # noqa: E402

from bleusuite import environment  # noqa: E402


def _reload_environment() -> None:
    """Let bleusuite read its variables again (it reads them once); a bad value is left for
    the call under test to raise."""
    with contextlib.suppress(ValueError):
        environment.reload()


def _forget_kept() -> None:
    """Forget what bleusuite keeps between calls (checked settings, traced formulas), so that
    a rule a test replaces (``monkeypatch.setattr``) is the one the next call uses."""
    from bleusuite.scores import rows
    from bleusuite.scores.bleu import settings as bleu_settings
    from bleusuite.scores.chrf import settings as chrf_settings
    from bleusuite.scores.gleu import settings as gleu_settings

    rows._traced.cache_clear()
    for module in (bleu_settings, chrf_settings, gleu_settings):
        module._kept.cache_clear()


class EnvironmentPatch(pytest.MonkeyPatch):
    """pytest's ``monkeypatch`` whose changes reach bleusuite: to the environment, which it
    reads once (:mod:`bleusuite.environment`), and to its functions, whose checked settings
    and traced formulas it keeps (forgotten at each change and undo)."""

    def setattr(self, *args: Any, **kwargs: Any) -> None:
        super().setattr(*args, **kwargs)
        _forget_kept()

    def setenv(self, name: str, value: str, prepend: str | None = None) -> None:
        super().setenv(name, value, prepend)
        _reload_environment()

    def delenv(self, name: str, raising: bool = True) -> None:
        super().delenv(name, raising)
        _reload_environment()

    def undo(self) -> None:
        super().undo()
        _reload_environment()
        _forget_kept()


@pytest.fixture
def monkeypatch():
    """The environment-aware ``monkeypatch`` (:class:`EnvironmentPatch`) for every test."""
    patch = EnvironmentPatch()
    yield patch
    patch.undo()


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
