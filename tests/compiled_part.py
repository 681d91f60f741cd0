"""bleusuite's compiled part in the tests: :func:`require_compiled` for the tests that use it,
and :func:`compiled_on` to run code with it turned on or off.

Where it is not built they are skipped, unless ``BLEUSUITE_NATIVE=1`` (set by tox) says it
must be there: then they fail, so that a failed build cannot go unnoticed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from types import ModuleType

import pytest

from bleusuite import environment, native


def require_compiled() -> ModuleType:
    """``bleusuite._native``; skips the test where it is not built (fails it where
    ``BLEUSUITE_NATIVE=1``)."""
    if native._native is None:
        if os.environ.get("BLEUSUITE_NATIVE") == "1":
            pytest.fail("BLEUSUITE_NATIVE=1 but bleusuite._native is not built")
        pytest.skip("bleusuite._native is not built (no C compiler at install)")
    return native._native


@contextlib.contextmanager
def compiled_on(on: bool) -> Iterator[None]:
    """The compiled part on (``BLEUSUITE_NATIVE=1``) or off (``0``: the general path) while
    the block runs; the variable and bleusuite's reading of it restored after."""
    saved = os.environ.get("BLEUSUITE_NATIVE")
    os.environ["BLEUSUITE_NATIVE"] = "1" if on else "0"
    environment.reload()
    try:
        yield
    finally:
        if saved is None:
            del os.environ["BLEUSUITE_NATIVE"]
        else:
            os.environ["BLEUSUITE_NATIVE"] = saved
        environment.reload()
