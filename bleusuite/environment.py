"""The environment variables bleusuite reads, read once (when first needed), not per call:
``BLEUSUITE_NUM_THREADS`` (the CPU pipeline's worker threads, >= 1; unset: every CPU the
process may use), ``BLEUSUITE_COUNTING`` (force a counting strategy, see
:func:`bleusuite.counting.counting_strategy`) and ``BLEUSUITE_NATIVE`` (``0``: the compiled
part off, ``1``: required). A process that changes them later calls :func:`reload`; a bad
value raises a ``ValueError`` naming the variable at every call until it is fixed.

>>> settings = current()
>>> settings.counting in ("auto", "compiled", "compact", "fixed", "triton")
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["COUNTING_STRATEGIES", "Environment", "current", "read", "reload"]

#: the counting strategies ``BLEUSUITE_COUNTING`` can force
COUNTING_STRATEGIES = ("compiled", "compact", "fixed", "triton")


@dataclass(frozen=True)
class Environment:
    """The checked settings of the environment.

    Attributes:
        num_threads: ``BLEUSUITE_NUM_THREADS``, or None where unset.
        counting: ``BLEUSUITE_COUNTING``, lowercased: ``auto`` where unset.
        native: ``BLEUSUITE_NATIVE``: ``"0"``, ``"1"``, or ``""`` where unset.
    """

    num_threads: int | None
    counting: str
    native: str


_current: Environment | None = None


def read(environ: Mapping[str, str]) -> Environment:
    """The settings of an environment mapping, checked.

    >>> read({"BLEUSUITE_COUNTING": " Compact "}).counting, read({}).num_threads is None
    ('compact', True)

    Raises:
        ValueError: a variable holds a value it cannot take (the message names it).
    """
    threads_text = environ.get("BLEUSUITE_NUM_THREADS", "").strip()
    num_threads = None
    if threads_text:
        try:
            num_threads = int(threads_text, 10)
        except ValueError:
            num_threads = 0
        if num_threads < 1:
            raise ValueError("BLEUSUITE_NUM_THREADS (environment variable) must be an integer "
                             f">= 1; got {threads_text!r}")
    counting = environ.get("BLEUSUITE_COUNTING", "").strip().lower() or "auto"
    if counting not in ("auto", *COUNTING_STRATEGIES):
        raise ValueError(
            f"BLEUSUITE_COUNTING must be one of auto, "
            f"{', '.join(COUNTING_STRATEGIES)}; got {counting!r}"
        )
    native = environ.get("BLEUSUITE_NATIVE", "").strip().lower()
    if native not in ("", "0", "1"):
        raise ValueError(f"BLEUSUITE_NATIVE must be 0 or 1 (or unset); got {native!r}")
    return Environment(num_threads, counting, native)


def current() -> Environment:
    """The settings, read at the first call (and after :func:`reload`).

    Raises:
        ValueError: a variable holds a value it cannot take (the message names it).
    """
    global _current
    if _current is None:
        _current = read(os.environ)
    return _current


def reload() -> Environment:
    """Read the variables again (after a change to ``os.environ``), and return them."""
    global _current
    _current = None
    return current()
