"""The ``monkeypatch`` fixture of the tests and the benchmarks, whose changes reach
bleusuite (a pytest plugin: the repository's ``conftest.py`` loads it)."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from bleusuite import environment


def _reload_environment() -> None:
    """Let bleusuite read its variables again (it reads them once); a bad value is left for
    the call under test to raise."""
    with contextlib.suppress(ValueError):
        environment.reload()


def _forget_kept() -> None:
    """Forget what bleusuite keeps between calls (checked settings, traced formulas), so that
    a rule a test replaces (``monkeypatch.setattr``) is the one the next call uses."""
    from bleusuite.backends import trace
    from bleusuite.scores.bleu import settings as bleu_settings
    from bleusuite.scores.chrf import settings as chrf_settings
    from bleusuite.scores.gleu import settings as gleu_settings

    trace._traced.cache_clear()
    for module in (bleu_settings, chrf_settings, gleu_settings):
        module._KEPT.clear()


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
