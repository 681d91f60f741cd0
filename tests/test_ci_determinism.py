"""CI tries the same cases every run: the repository's ``conftest.py`` loads a derandomised
Hypothesis profile (``ci``) before any test module builds its ``@settings``, and fails a
test whose own settings would draw at random; ``BLEUSUITE_HYPOTHESIS_PROFILE=explore``
is the optional run that explores."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")

_ROOT = Path(__file__).resolve().parents[1]
_PROFILE = "BLEUSUITE_HYPOTHESIS_PROFILE"


def test_the_default_profile_is_derandomised():
    if os.environ.get(_PROFILE, "ci") != "ci":
        pytest.skip(f"{_PROFILE} selects another profile")
    assert hypothesis.settings.default.derandomize
    assert hypothesis.settings.default.database is None


_PROBE = '''
from hypothesis import given, settings, strategies as st


@settings(max_examples=3, derandomize=False)
@given(st.integers())
def test_draws_at_random(x):
    pass


@settings(max_examples=3, deadline=None)
@given(st.integers())
def test_inherits_the_profile(x):
    pass
'''


@pytest.mark.parametrize("profile", ["ci", "explore"])
def test_a_random_setting_fails_under_the_ci_profile(tmp_path, profile):
    """The check of conftest.py, on a test file with one setting that bypasses the
    profile (``derandomize=False``) and one that inherits it."""
    shutil.copy(_ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_probe.py").write_text(textwrap.dedent(_PROBE), encoding="utf-8")
    env = {**os.environ, _PROFILE: profile,
           "PYTHONPATH": os.pathsep.join([str(_ROOT), str(_ROOT / "tests")])}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         "-p", "no:xdist", "test_probe.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    if profile == "ci":
        assert run.returncode == 1, run.stdout + run.stderr
        assert "1 passed, 1 error" in run.stdout, run.stdout
        assert "test_draws_at_random: its Hypothesis settings are not derandomised" in \
            run.stdout
    else:
        assert run.returncode == 0, run.stdout + run.stderr
