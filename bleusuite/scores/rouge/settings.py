"""ROUGE's settings (:class:`RougeSettings`), checked where they are made, and the names of
its types and measures.

>>> RougeSettings("rouge2", use_stemmer=True).order
2
>>> RougeSettings("rouge0")
Traceback (most recent call last):
...
ValueError: rouge_type must be one of rouge1, ..., rouge9, rougeL, rougeLsum; got 'rouge0'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, SupportsIndex, TypedDict

from bleusuite import checks
from bleusuite.text.tokenizers import TOKENIZERS

__all__ = ["DEFAULT_TYPES", "MEASURES", "OPTIONS", "ROUGE_TYPES", "SCORES_OPTIONS",
           "RougeOptions", "RougeReading", "RougeScoresOptions", "RougeSettings", "check_types",
           "type_order"]

#: rouge-score's types: n-grams of order 1..9, the LCS (rougeL) and the summary-level LCS
#: over newline-separated sentences (rougeLsum)
ROUGE_TYPES = (*(f"rouge{n}" for n in range(1, 10)), "rougeL", "rougeLsum")
#: the types evaluate's ``rouge`` and torchmetrics' ``ROUGEScore`` compute by default
DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
#: the fields of rouge-score's ``Score``
MEASURES = ("precision", "recall", "fmeasure")


def type_order(rouge_type: str) -> int | None:
    """The n-gram order of ``rougeN``; None for ``rougeL`` and ``rougeLsum``.

    >>> type_order("rouge4"), type_order("rougeLsum")
    (4, None)
    """
    return None if rouge_type.startswith("rougeL") else int(rouge_type[5:])


def _check_type(value: Any, argname: str) -> str:
    if not isinstance(value, str) or value not in ROUGE_TYPES:
        raise ValueError(f"{argname} must be one of rouge1, ..., rouge9, rougeL, rougeLsum; "
                         f"got {value!r}")
    return value


def check_types(values: Any, argname: str = "rouge_types") -> tuple[str, ...]:
    """A non-empty list of distinct ROUGE types (a single name is one type).

    >>> check_types("rougeL"), check_types(["rouge1", "rougeLsum"])
    (('rougeL',), ('rouge1', 'rougeLsum'))
    """
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, Sequence) or not values:
        raise ValueError(f"{argname} must be a non-empty list of ROUGE types (rouge1, ..., "
                         f"rouge9, rougeL, rougeLsum); got {values!r}")
    types = tuple(_check_type(value, f"{argname}[{k}]") for k, value in enumerate(values))
    if len(set(types)) != len(types):
        raise ValueError(f"{argname}: each type once; got {list(types)}")
    return types


class RougeReading(TypedDict, total=False):
    """How ROUGE reads its inputs (:func:`bleusuite.rouge_scores` describes each)."""

    use_stemmer: bool
    tokenize: str | None
    pad_id: SupportsIndex | None
    eos_id: SupportsIndex | None


class RougeOptions(RougeReading, total=False):
    """The keyword arguments of :func:`bleusuite.sentence_rouge` and its corpus forms: the
    type and measure, and how the inputs are read (:class:`RougeReading`)."""

    rouge_type: str
    measure: str


class RougeScoresOptions(RougeReading, total=False):
    """The keyword arguments of :func:`bleusuite.rouge_scores`: ``rouge_types``
    (:data:`DEFAULT_TYPES`) and how the inputs are read (:class:`RougeReading`)."""

    rouge_types: Sequence[str]


#: the names of :class:`RougeOptions` and of :class:`RougeScoresOptions`
OPTIONS, SCORES_OPTIONS = RougeOptions.__optional_keys__, RougeScoresOptions.__optional_keys__


@dataclass(frozen=True)
class RougeSettings:
    """The settings of a ROUGE score (:func:`bleusuite.sentence_rouge`, its result object
    and its registry entry), with rouge-score's defaults.

    Attributes:
        rouge_type, measure, use_stemmer, tokenize: as the keyword arguments of
            :func:`bleusuite.sentence_rouge` (``tokenize`` None: token ids).

    Raises:
        TypeError, ValueError: a bad setting; the message names it.
    """

    rouge_type: str = "rougeL"
    measure: str = "fmeasure"
    use_stemmer: bool = False
    tokenize: str | None = "rouge"

    def __post_init__(self) -> None:
        _check_type(self.rouge_type, "rouge_type")
        if not isinstance(self.measure, str) or self.measure not in MEASURES:
            raise ValueError(f"measure must be one of {', '.join(MEASURES)}; got "
                             f"{self.measure!r}")
        checks.boolean(self.use_stemmer, "use_stemmer")
        if self.tokenize is not None and (not isinstance(self.tokenize, str)
                                          or self.tokenize not in TOKENIZERS):
            raise ValueError(f"tokenize must be one of {', '.join(TOKENIZERS)} or None (token "
                             f"ids); got {self.tokenize!r}")

    @classmethod
    def of_options(cls, options: Mapping[str, Any], function: str) -> RougeSettings:
        """The settings among a function's keyword arguments ``options``
        (:class:`RougeOptions`; ``function``: its name, for the ``TypeError``)."""
        checks.keywords(options, OPTIONS, function)
        get = options.get
        return cls(get("rouge_type", "rougeL"), get("measure", "fmeasure"),
                   get("use_stemmer", False), get("tokenize", "rouge"))

    @property
    def order(self) -> int | None:
        """The n-gram order of ``rougeN``; None for the LCS types."""
        return type_order(self.rouge_type)
