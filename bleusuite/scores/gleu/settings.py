"""GLEU's settings: one type for every front end (:class:`GleuSettings`), checked once.

>>> settings = GleuSettings.of(min_len=2)
>>> settings.min_len, settings.max_len, settings.tokenize
(2, 4, None)
>>> GleuSettings.of(min_len=2) is settings
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bleusuite import checks
from bleusuite.array_types import TokenOptions
from bleusuite.scores.settings_cache import SettingsCache
from bleusuite.text.tokenizers import check_tokenizer_name

__all__ = ["CALL_OPTIONS", "GleuCallOptions", "GleuSettings"]


class GleuCallOptions(TokenOptions, total=False):
    """The keyword arguments of :func:`bleusuite.sentence_gleu` and the functions that take
    the same."""

    min_len: int
    max_len: int


#: the names of :class:`GleuCallOptions`
CALL_OPTIONS = GleuCallOptions.__optional_keys__


@dataclass(frozen=True)
class GleuSettings:
    """Everything that changes a GLEU score (NLTK's ``gleu_score``), checked.

    Attributes:
        min_len, max_len, tokenize, lowercase: as the keyword arguments of
            :func:`bleusuite.sentence_gleu`.
    """

    tokenize: str | None = None
    lowercase: bool = False
    min_len: int = 1
    max_len: int = 4

    def __post_init__(self) -> None:
        checks.gleu_orders(self.min_len, self.max_len)
        if self.tokenize is not None:
            check_tokenizer_name(self.tokenize)
        checks.boolean(self.lowercase, "lowercase")

    @classmethod
    def of(cls, *, min_len: Any = 1, max_len: Any = 4, tokenize: Any = None,
           lowercase: Any = False) -> GleuSettings:
        """The settings of a scoring call's keyword arguments (checked, and kept).

        Raises:
            TypeError, ValueError: a setting it cannot take; the message names it.
        """
        return _KEPT.get(tokenize, lowercase, min_len, max_len)

    @classmethod
    def of_options(cls, options: Mapping[str, Any]) -> GleuSettings:
        """:meth:`of` the settings among a function's keyword arguments ``options``."""
        get = options.get
        return _KEPT.get(get("tokenize"), get("lowercase", False), get("min_len", 1),
                         get("max_len", 4))


#: the settings of the calls so far, by their keyword arguments
_KEPT: SettingsCache[GleuSettings] = SettingsCache(GleuSettings, maxsize=64)
