"""Every accepted input form (arrays with padding, ragged arrays, token lists, text) becomes
one :class:`Batch`, with the checks that name the caller's arguments. The names are imported
on first access (PEP 562): a module that needs only the batch loads no normalisation.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bleusuite.inputs.batch import Batch, RaggedPairs, mark_unreferenced
    from bleusuite.inputs.lists import text_batch
    from bleusuite.inputs.normalize import (
        normalize_batch,
        scoring_batch,
        streams_batch,
        text_rows,
    )
    from bleusuite.inputs.ragged import pack_sentences

_HOMES = {
    **dict.fromkeys(("Batch", "RaggedPairs", "mark_unreferenced"), "batch"),
    **dict.fromkeys(("normalize_batch", "scoring_batch", "streams_batch", "text_rows"),
                    "normalize"),
    "text_batch": "lists",
    "pack_sentences": "ragged",
}
__all__ = ["Batch", "RaggedPairs", "mark_unreferenced", "normalize_batch", "pack_sentences",
           "scoring_batch", "streams_batch", "text_batch", "text_rows"]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
