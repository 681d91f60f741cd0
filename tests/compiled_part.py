"""bleusuite's compiled part in the tests: :func:`require_compiled` for the tests that use it.

Where it is not built they are skipped, unless ``BLEUSUITE_NATIVE=1`` (set by tox) says it
must be there: then they fail, so that a failed build cannot go unnoticed.
"""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from bleusuite import native


def require_compiled() -> ModuleType:
    """``bleusuite._native``; skips the test where it is not built (fails it where
    ``BLEUSUITE_NATIVE=1``)."""
    if native._native is None:
        if os.environ.get("BLEUSUITE_NATIVE") == "1":
            pytest.fail("BLEUSUITE_NATIVE=1 but bleusuite._native is not built")
        pytest.skip("bleusuite._native is not built (no C compiler at install)")
    return native._native
