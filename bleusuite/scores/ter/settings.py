"""TER's settings: sacrebleu's ``TER(...)`` arguments and the command's ``--ter-*`` flags."""

from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["TerSettings"]


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

    @property
    def default(self) -> bool:
        """Whether every option is sacrebleu's default (lowercased, whitespace-split)."""
        return self == TerSettings()
