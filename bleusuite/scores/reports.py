"""What the result objects of every metric share: the signature's form, and the
statistics brought to the host.

A result object (:class:`bleusuite.BleuResult`, :class:`bleusuite.GleuResult`,
:class:`bleusuite.ChrfResult`) holds a corpus score with everything that explains it, and a
sacrebleu-style signature: every setting that changes the number, ``key:value`` joined by
``|``, ending with bleusuite's version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from bleusuite import backends
from bleusuite.version import VERSION

if TYPE_CHECKING:
    from bleusuite.inputs.batch import Batch

__all__ = ["GIVEN_TOKENS", "host", "num_refs", "signature_of", "version_field"]

#: ``tok:`` of the signature when the caller gives tokens (ids or token lists)
GIVEN_TOKENS = "given"


def version_field() -> str:
    """``bleusuite-<version>``: the last field of every signature."""
    return f"bleusuite-{VERSION}"


def signature_of(items: dict[str, Any]) -> str:
    """``key:value|...`` of the items that are not None, in their order.

    >>> signature_of({"nrefs": 1, "case": "mixed", "w": None})
    'nrefs:1|case:mixed'
    """
    return "|".join(f"{key}:{value}" for key, value in items.items() if value is not None)


def host(a: Any) -> np.ndarray:
    """A statistics array as NumPy (statistics are a few numbers: one small transfer)."""
    if isinstance(a, np.ndarray):
        return a
    return np.asarray(backends.get_backend(a).to_numpy(a))


def num_refs(batch: Batch) -> str:
    """``nrefs:`` of a batch: its number of references per hypothesis, or ``var``."""
    counts = np.unique(host(batch.backend.sum_(batch.backend.to_int64(batch.ref_present),
                                               axis=1)))
    return str(int(counts[0])) if len(counts) == 1 else "var"
