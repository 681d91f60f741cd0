"""BLEU's settings: one type for every front end (:class:`BleuSettings`), checked once and
kept by their keyword arguments (a repeated call pays for no check). The defaults are the
library's; the command and the sacrebleu API start from :data:`SACREBLEU_DEFAULTS`.

>>> settings = BleuSettings.of(smooth="method1")
>>> settings.max_order, settings.family, settings.stats_order
(4, 'nltk', 4)
>>> BleuSettings.of(smooth="method1") is settings
True
>>> text = BleuSettings.of(tokenize="13a")
>>> text.smooth, BleuSettings.of(tokenize="13a", sentence=True).effective_order
('exp', True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from bleusuite import checks
from bleusuite.array_types import TokenOptions
from bleusuite.scores import rules
from bleusuite.scores.bleu import smoothing
from bleusuite.scores.settings_cache import SettingsCache
from bleusuite.text.tokenizers import check_tokenizer_name

__all__ = ["CALL_OPTIONS", "GROUP_OPTIONS", "OPTIONS", "SACREBLEU_DEFAULTS", "BleuCallOptions",
           "BleuGroupOptions", "BleuOptions", "BleuSettings"]

#: the settings sacrebleu's BLEU starts from (the command, the sacrebleu API, Ray's text)
SACREBLEU_DEFAULTS: dict[str, Any] = {"tokenize": "13a", "smooth": "exp"}


class BleuOptions(TypedDict, total=False):
    """BLEU's settings as keyword arguments (described at :func:`bleusuite.sentence_bleu`),
    for every function that takes them; a type checker checks them (PEP 692), and at run
    time an unknown name raises ``TypeError``."""

    max_order: int | None
    weights: Sequence[float] | None
    smooth: str | None
    smooth_value: float | None
    effective_order: bool | None


class BleuCallOptions(BleuOptions, TokenOptions, total=False):
    """The keyword arguments of :func:`bleusuite.sentence_bleu` and the functions that take
    the same."""

    ref_length: str


class BleuGroupOptions(BleuOptions, TokenOptions, total=False):
    """The keyword arguments of :func:`bleusuite.pairwise_sentence_bleu`."""


#: the names of :class:`BleuOptions`, :class:`BleuCallOptions` and :class:`BleuGroupOptions`
OPTIONS, CALL_OPTIONS, GROUP_OPTIONS = (BleuOptions.__optional_keys__,
                                        BleuCallOptions.__optional_keys__,
                                        BleuGroupOptions.__optional_keys__)


@dataclass(frozen=True)
class BleuSettings:
    """Everything that changes a BLEU score, checked.

    Attributes:
        max_order, weights, smooth, smooth_value, effective_order, ref_length, tokenize,
            lowercase: as the keyword arguments of :func:`bleusuite.sentence_bleu` (checked,
            ``max_order`` resolved; ``weights`` None: uniform).
    """

    max_order: int = 4
    weights: tuple[float, ...] | None = None
    smooth: str = "no_smooth"
    smooth_value: float | None = None
    effective_order: bool = False
    ref_length: str = "closest"
    tokenize: str | None = None
    lowercase: bool = False
    family: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.smooth, bool):  # torchmetrics' BLEUScore(smooth=True) spelling
            raise ValueError(
                f"smooth takes a smoothing name, not {self.smooth}: torchmetrics' "
                "smooth=True is smooth='torchmetrics_smooth', its smooth=False is "
                "smooth='no_smooth'"
            )
        object.__setattr__(self, "family", smoothing.family_of(self.smooth))
        checks.order(self.max_order, "max_order")
        if self.weights is not None and len(self.weights) != self.max_order:
            raise ValueError(
                f"weights has {len(self.weights)} entries but max_order is {self.max_order}; "
                "give one weight per order"
            )
        checks.boolean(self.effective_order, "effective_order")
        if self.effective_order and self.family != "sacrebleu":
            raise ValueError(
                "effective_order=True is sacrebleu's option: use it with smooth='none', "
                f"'floor', 'add-k' or 'exp' (got smooth={self.smooth!r})"
            )
        if self.effective_order and self.weights is not None:
            raise ValueError("effective_order=True averages uniformly: do not pass weights")
        object.__setattr__(self, "smooth_value",
                           smoothing.check_smooth_value(self.smooth, self.smooth_value))
        rules.check_ref_length(self.ref_length)
        if self.tokenize is not None:
            check_tokenizer_name(self.tokenize)
        checks.boolean(self.lowercase, "lowercase")

    @classmethod
    def of(cls, *, max_order: Any = None, weights: Any = None, smooth: Any = None,
           smooth_value: Any = None, effective_order: Any = None, ref_length: Any = "closest",
           tokenize: Any = None, lowercase: Any = False, sentence: bool = False) -> BleuSettings:
        """The settings of a scoring call's keyword arguments (checked, and kept: the same
        arguments give the same object), with :func:`bleusuite.sentence_bleu`'s defaults
        (``sentence``: a sentence score's).

        Raises:
            TypeError, ValueError: a setting it cannot take; the message names it.
        """
        # a list of weights is kept as the tuple it equals (an array's are not kept)
        given = tuple(weights) if type(weights) in (list, tuple) else weights
        return _KEPT.get(max_order, given, smooth, smooth_value, effective_order, ref_length,
                         tokenize, lowercase, sentence)

    @classmethod
    def of_options(cls, options: Mapping[str, Any], sentence: bool = False,
                   text_defaults: bool = True) -> BleuSettings:
        """:meth:`of` the settings among a function's keyword arguments ``options``; without
        ``text_defaults`` (groups, prefixes) text takes the defaults of tokens."""
        get = options.get
        weights: Any = get("weights")
        given = tuple(weights) if type(weights) in (list, tuple) else weights  # as in of()
        tokenize, lowercase = ((get("tokenize"), get("lowercase", False)) if text_defaults
                               else (None, False))
        return _KEPT.get(get("max_order"), given, get("smooth"), get("smooth_value"),
                         get("effective_order"), get("ref_length", "closest"), tokenize,
                         lowercase, sentence)

    @property
    def stats_order(self) -> int:
        """The orders the statistics must hold (NLTK's method5 and method7 read 5-grams)."""
        return max(self.max_order, smoothing.extra_orders(self.smooth))

    @property
    def uniform_weights(self) -> tuple[float, ...] | None:
        """The weights the formula takes (None: sacrebleu's own uniform mean of the logs)."""
        if self.weights is not None:
            return self.weights
        if self.family == "sacrebleu":
            return None
        return tuple([1 / self.max_order] * self.max_order)


def _settings(max_order: Any, weights: Any, smooth: Any, smooth_value: Any,
              effective_order: Any, ref_length: Any, tokenize: Any, lowercase: Any,
              sentence: bool) -> BleuSettings:
    if smooth is None:
        smooth = "no_smooth" if tokenize is None else "exp"
    if effective_order is None:
        effective_order = sentence and tokenize is not None and smooth in smoothing.FAMILIES[
            "sacrebleu"]
    if weights is None:
        order = checks.order(4 if max_order is None else max_order, "max_order")
        resolved = None
    else:
        given = None if max_order is None else checks.order(max_order, "max_order")
        resolved = checks.weights(weights, given)
        order = checks.order(len(resolved), "len(weights)")
    return BleuSettings(order, resolved, smooth, smooth_value, effective_order, ref_length,
                        tokenize, lowercase)


#: the settings of the calls so far, by their keyword arguments
_KEPT: SettingsCache[BleuSettings] = SettingsCache(_settings, maxsize=256)
