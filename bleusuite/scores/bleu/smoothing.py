"""The smoothing names, the family each belongs to (the library whose numbers it reproduces:
NLTK, pytorch-ignite, sacrebleu, torchmetrics, the tensorflow/nmt script), and what the
families' formulas (each in its ``*_formula`` module) share.
"""

from __future__ import annotations

from typing import Any

from bleusuite import checks
from bleusuite.backends.base import Backend
from bleusuite.scores import rules

__all__ = ["FAMILIES", "NMT_METHODS", "SMOOTHING_NAMES", "TORCHMETRICS_METHODS",
           "check_smooth_value", "extra_orders", "family_of", "gated_score", "signature_item",
           "smooth_value_of", "stack"]

NLTK_METHODS = tuple(f"method{k}" for k in range(8))
IGNITE_METHODS = ("no_smooth", "smooth1", "nltk_smooth2", "smooth2")
SACREBLEU_METHODS = ("none", "floor", "add-k", "exp")
TORCHMETRICS_METHODS = ("torchmetrics_smooth",)
NMT_METHODS = ("nmt_smooth",)

#: family name -> smoothing names of that family
FAMILIES: dict[str, tuple[str, ...]] = {
    "nltk": NLTK_METHODS,
    "ignite": IGNITE_METHODS,
    "sacrebleu": SACREBLEU_METHODS,
    "torchmetrics": TORCHMETRICS_METHODS,
    "nmt": NMT_METHODS,
}
#: every accepted smoothing name
SMOOTHING_NAMES: tuple[str, ...] = tuple(name for names in FAMILIES.values() for name in names)

#: smoothing names whose default ``smooth_value`` can be changed, and that default
SMOOTH_VALUE_DEFAULTS: dict[str, float] = {"method1": 0.1, "floor": 0.1, "add-k": 1.0}

def family_of(smooth: Any) -> str:
    """The family a smoothing name belongs to.

    >>> family_of("method3"), family_of("smooth1"), family_of("exp")
    ('nltk', 'ignite', 'sacrebleu')
    """
    for family, names in FAMILIES.items():
        if smooth in names:
            return family
    raise ValueError(
        f"smooth must be one of {', '.join(SMOOTHING_NAMES)}; got {smooth!r}"
    )


def extra_orders(smooth: str) -> int:
    """Highest order a smoothing method needs beyond the weights (NLTK 5/7 use 5-grams)."""
    return 5 if smooth in ("method5", "method7") else 0


def gated_score(be: Backend, stats: Any, log_sum: Any, valid: Any) -> Any:
    """``brevity penalty * exp(log_sum)`` where ``valid``, else 0: every family's last step."""
    return be.where(valid, rules.brevity_penalty(be, stats.hyp_len, stats.ref_len)
                    * be.exp(log_sum), 0.0)


def stack(be: Backend, columns: list[Any]) -> Any:
    return be.concat([c[..., None] for c in columns], axis=-1)


def smooth_value_of(smooth: str, smooth_value: float | None) -> float:
    """``smooth_value`` as a float, else the method's default (:data:`SMOOTH_VALUE_DEFAULTS`).

    >>> smooth_value_of("add-k", None), smooth_value_of("floor", 0.5)
    (1.0, 0.5)
    """
    return SMOOTH_VALUE_DEFAULTS[smooth] if smooth_value is None else float(smooth_value)


def signature_item(smooth: str, smooth_value: float | None) -> str:
    """``smooth:`` of every signature: sacrebleu's names as sacrebleu writes them, the others
    after their family, and the value where the method takes one.

    >>> signature_item("exp", None), signature_item("floor", None)
    ('exp', 'floor[0.10]')
    >>> signature_item("method1", 0.2), signature_item("smooth1", None)
    ('nltk/method1[0.20]', 'ignite/smooth1')
    """
    family = family_of(smooth)
    item = smooth if family == "sacrebleu" else f"{family}/{smooth}"
    if smooth in SMOOTH_VALUE_DEFAULTS:
        item += f"[{smooth_value_of(smooth, smooth_value):.2f}]"
    return item


def check_smooth_value(smooth: str, smooth_value: Any) -> float | None:
    if smooth_value is None:
        return None
    if smooth not in SMOOTH_VALUE_DEFAULTS:
        raise ValueError(
            f"smooth_value is only used by {', '.join(SMOOTH_VALUE_DEFAULTS)}; "
            f"got smooth_value={smooth_value!r} with smooth={smooth!r}"
        )
    return checks.number(smooth_value, "smooth_value", minimum=0)
