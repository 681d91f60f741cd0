"""Confidence intervals and paired significance tests, resampling summable statistics with
sacrebleu's draws (its seed: :mod:`bleusuite.significance.seeding`, which imports nothing
else, so that the command reads its settings before it loads NumPy)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bleusuite.significance.bootstrap import (
        Confidence,
        bootstrap_scores,
        bootstrap_scores_of_metrics,
        estimate_ci,
    )
    from bleusuite.significance.draws import DrawnResamples
    from bleusuite.significance.paired import (
        PairedResult,
        paired_approximate_randomization,
        paired_bootstrap,
    )

__all__ = ["Confidence", "DrawnResamples", "PairedResult", "bootstrap_scores",
           "bootstrap_scores_of_metrics", "estimate_ci", "paired_approximate_randomization",
           "paired_bootstrap"]

_PAIRED = ("PairedResult", "paired_approximate_randomization", "paired_bootstrap")


def __getattr__(name: str) -> Any:
    """PEP 562: a public name is imported from its module on first access."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = "paired" if name in _PAIRED else "draws" if name == "DrawnResamples" else \
        "bootstrap"
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
