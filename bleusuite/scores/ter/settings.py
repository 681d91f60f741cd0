"""TER's settings: sacrebleu's ``TER(...)`` arguments and the command's ``--ter-*`` flags."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, SupportsIndex, TypedDict

from bleusuite import checks

__all__ = ["CALL_OPTIONS", "OPTIONS", "TerCallOptions", "TerOptions", "TerSettings"]


class TerOptions(TypedDict, total=False):
    """TER's keyword arguments, sacrebleu's ``TER(...)`` options (all False by default;
    :func:`bleusuite.sentence_ter` describes each)."""

    normalized: bool
    no_punct: bool
    asian_support: bool
    case_sensitive: bool


class TerCallOptions(TerOptions, total=False):
    """The keyword arguments of :func:`bleusuite.sentence_ter` and the functions that take the
    same: TER's options, and the padding and end-of-sentence ids of token-id arrays."""

    pad_id: SupportsIndex | None
    eos_id: SupportsIndex | None


#: the names of :class:`TerOptions` and of :class:`TerCallOptions`
OPTIONS, CALL_OPTIONS = TerOptions.__optional_keys__, TerCallOptions.__optional_keys__


@dataclass(frozen=True)
class TerSettings:
    """sacrebleu's ``TER(...)`` settings, its defaults (checked once, here): the options of
    its ``tercom`` tokenizer (:class:`bleusuite.text.tercom.TercomTokenizer`).

    >>> TerSettings(normalized=1)
    Traceback (most recent call last):
    ...
    TypeError: normalized must be a bool; got 1
    """

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if not isinstance(value, bool):
                raise TypeError(f"{field.name} must be a bool; got {value!r}")

    @classmethod
    def of_options(cls, options: Mapping[str, Any], function: str,
                   accepted: frozenset[str] = CALL_OPTIONS) -> TerSettings:
        """The settings among a function's keyword arguments ``options`` (``accepted``
        names; ``function``: its name, for the ``TypeError``)."""
        checks.keywords(options, accepted, function)
        get = options.get
        return cls(get("normalized", False), get("no_punct", False),
                   get("asian_support", False), get("case_sensitive", False))

    @property
    def default(self) -> bool:
        """Whether every option is sacrebleu's default (lowercased, whitespace-split)."""
        return self == TerSettings()
