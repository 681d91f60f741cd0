"""chrF's settings: one type for every front end (:class:`ChrfSettings`), checked once.

>>> settings = ChrfSettings.of(word_order=2)
>>> settings.char_order, settings.word_order, settings.beta, settings.orders
(6, 2, 2, 8)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from bleusuite import checks
from bleusuite.scores.chrf.statistics import BETA, CHAR_ORDER, WORD_ORDER
from bleusuite.scores.settings_cache import SettingsCache

__all__ = ["OPTIONS", "ChrfOptions", "ChrfSettings"]


class ChrfOptions(TypedDict, total=False):
    """chrF's keyword arguments (:func:`bleusuite.sentence_chrf` describes each)."""

    char_order: int
    word_order: int
    beta: float
    lowercase: bool
    whitespace: bool
    eps_smoothing: bool


#: the names of :class:`ChrfOptions`
OPTIONS = ChrfOptions.__optional_keys__


@dataclass(frozen=True)
class ChrfSettings:
    """sacrebleu's ``CHRF(...)`` settings, checked.

    Attributes:
        char_order, word_order, beta, lowercase, whitespace, eps_smoothing: as the keyword
            arguments of :func:`bleusuite.sentence_chrf` (an order of 0: none; not both).
    """

    char_order: int = CHAR_ORDER
    word_order: int = WORD_ORDER
    beta: float = BETA
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    def __post_init__(self) -> None:
        for name in ("char_order", "word_order"):
            value = getattr(self, name)
            if value != 0 or isinstance(value, bool):
                checks.order(value, name)
        if self.char_order + self.word_order == 0:
            raise ValueError("char_order and word_order: at least one order is needed; got 0 "
                             "and 0")
        object.__setattr__(self, "beta", checks.beta(self.beta))
        for name in ("lowercase", "whitespace", "eps_smoothing"):
            checks.boolean(getattr(self, name), name)

    @property
    def orders(self) -> int:
        """The orders of the statistics: the character orders, then the word orders."""
        return self.char_order + self.word_order

    @classmethod
    def of(cls, *, char_order: Any = CHAR_ORDER, word_order: Any = WORD_ORDER,
           beta: Any = BETA, lowercase: Any = False, whitespace: Any = False,
           eps_smoothing: Any = False) -> ChrfSettings:
        """The settings of a scoring call's keyword arguments (checked, and kept).

        Raises:
            TypeError, ValueError: a setting it cannot take; the message names it.
        """
        return _KEPT.get(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)

    @classmethod
    def of_options(cls, options: Mapping[str, Any], function: str) -> ChrfSettings:
        """:meth:`of` a function's keyword arguments ``options`` (:class:`ChrfOptions`;
        ``function``: its name, for the ``TypeError`` of a name it does not take)."""
        checks.keywords(options, OPTIONS, function)
        return cls.of(**options)


#: the settings of the calls so far, by their keyword arguments
_KEPT: SettingsCache[ChrfSettings] = SettingsCache(ChrfSettings, maxsize=64)
