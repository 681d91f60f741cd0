"""sacrebleu's seed for resampling: its default, and ``SACREBLEU_SEED``.

Kept apart from :mod:`bleusuite.significance.bootstrap` (which needs NumPy) so that the
command line can read its settings without importing NumPy.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["DEFAULT_SEED", "seed_from_environment"]

#: sacrebleu's default seed (its ``SACREBLEU_SEED``)
DEFAULT_SEED = 12345


def seed_from_environment(environ: Mapping[str, str] | None = None) -> int | None:
    """The seed sacrebleu uses: ``SACREBLEU_SEED`` (``'none'``: unseeded), default 12345.

    >>> seed_from_environment({}), seed_from_environment({"SACREBLEU_SEED": "None"})
    (12345, None)

    Raises:
        ValueError: ``SACREBLEU_SEED`` is neither an integer >= 0 nor ``none`` (NumPy's
            generators take no negative seed; the message names the variable).
    """
    value = (os.environ if environ is None else environ).get("SACREBLEU_SEED", str(DEFAULT_SEED))
    if value.lower() == "none":
        return None
    try:
        seed = int(value)
    except ValueError:
        seed = -1
    if seed < 0:
        raise ValueError("SACREBLEU_SEED (environment variable) must be an integer >= 0 or "
                         f"'none'; got {value!r}")
    return seed
