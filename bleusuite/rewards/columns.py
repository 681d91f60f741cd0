"""What the rewards share: the policy's tokenizer, the references read from a dataset column
(tokenised once, kept in a bounded cache), and the completions given as ids or as text."""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Sequence, Sized
from typing import Any, Protocol

from bleusuite import checks
from bleusuite.array_types import DeviceArray, Hypotheses
from bleusuite.scores import rules
from bleusuite.scores.bleu.settings import BleuSettings
from bleusuite.text import TOKENIZERS

__all__ = [
    "DEFAULT_CACHE_SIZE",
    "FROM_TOKENIZER",
    "BleuRewardSettings",
    "Encoder",
    "ReferenceReward",
    "TokenizedReward",
    "check_completion_ids",
    "completion_texts",
]

#: ``eos_id`` (default) / ``pad_id``: read the tokenizer's ``eos_token_id`` / ``pad_token_id``
FROM_TOKENIZER = "from_tokenizer"
#: references whose token ids a reward keeps between calls (``cache_size=``) by default
DEFAULT_CACHE_SIZE = 8192
#: the keyword arguments TRL passes that are not dataset columns
_TRAINER_ARGUMENTS = ("trainer_state", "log_extra", "log_metric", "environments")


class BleuRewardSettings:
    """The BLEU settings of a reward (:class:`~bleusuite.rewards.BleuReward`,
    :class:`~bleusuite.rewards.SelfBleuReward`), checked and kept."""

    max_order: int
    smooth: str
    smooth_value: float | None
    effective_order: bool
    ref_length: str

    def _keep_bleu_settings(self, max_order: int, smooth: str, smooth_value: float | None,
                            effective_order: bool, ref_length: str) -> None:
        BleuSettings.of(max_order=max_order, smooth=smooth, smooth_value=smooth_value,
                        effective_order=effective_order)  # checks
        self.ref_length = rules.check_ref_length(ref_length)
        self.max_order = max_order
        self.smooth = smooth
        self.smooth_value = smooth_value
        self.effective_order = effective_order

    def _settings(self) -> str:
        length = "" if self.ref_length == "closest" else f", ref_length={self.ref_length!r}"
        return (f", max_order={self.max_order}, smooth={self.smooth!r}, "
                f"effective_order={self.effective_order}{length}")


class Encoder(Protocol):
    """What a reward needs of a tokenizer: ``encode(text)`` to token ids."""

    def encode(self, text: str) -> Any: ...


def _special(tokenizer: Any, value: int | str | None, attribute: str, argname: str) -> int | None:
    if value == FROM_TOKENIZER:
        found = getattr(tokenizer, attribute, None)
        return None if found is None else int(found)
    return checks.token_id(value, argname, or_else=FROM_TOKENIZER)


def _length(value: Any) -> int | None:
    """The number of entries of a list or the rows of an array; None where it has none."""
    if not isinstance(value, Sized):
        return None
    try:
        return len(value)
    except TypeError:  # a 0-d array
        return None


def _check_counts(completions: Any, completion_ids: Any) -> None:
    count, texts_count = _length(completion_ids), _length(completions)
    if count is not None and texts_count is not None and count != texts_count:
        raise ValueError("completions and completion_ids must have one entry per completion; "
                         f"got {texts_count} completions and {count} completion_ids")


def _not_a_list(completions: Any) -> TypeError:
    return TypeError("completions must be a list (one entry per completion); got "
                     f"{type(completions).__name__}")


def check_completion_ids(completion_ids: Any) -> None:
    """The rows of ``completion_ids`` given as a list (an array is checked by the core)."""
    if not isinstance(completion_ids, list | tuple):
        return
    for row, ids in enumerate(completion_ids):
        if isinstance(ids, str | bytes) or not (
            isinstance(ids, Sequence) or getattr(ids, "ndim", None) == 1
        ):
            raise TypeError(
                f"completion_ids[{row}] must be a list of token ids (or a 1-D array); got "
                f"{type(ids).__name__}"
            )


def completion_texts(completions: Any) -> list[str]:
    """The text of each completion: a string, or (TRL's conversational form) a list of
    messages, whose last ``content`` is the completion.

    >>> from bleusuite.rewards.columns import completion_texts
    >>> completion_texts(["a b", [{"role": "assistant", "content": "c d"}]])
    ['a b', 'c d']
    """
    if completions is None:
        raise ValueError("the reward needs completions (or completion_ids)")
    if isinstance(completions, str | bytes) or not isinstance(completions, Sequence):
        raise _not_a_list(completions)
    texts = []
    for row, completion in enumerate(completions):
        if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
            completion = completion[-1].get("content")
        if not isinstance(completion, str):
            raise TypeError(
                f"completions[{row}] must be a string (or a list of messages whose last "
                f"'content' is one); got {type(completion).__name__}"
            )
        texts.append(completion)
    return texts


class TokenizedReward:
    """Completions as token ids (``completion_ids``, or ``completions`` encoded with the
    policy's tokenizer) or, with ``tokenize``, as text; the settings every reward shares."""

    #: TRL logs each reward under ``__name__``
    __name__: str

    def __init__(self, tokenizer: Encoder | None, eos_id: int | str | None,
                 pad_id: int | str | None, name: str, tokenize: str | None,
                 lowercase: bool) -> None:
        if tokenize is not None and tokenize not in TOKENIZERS:
            raise ValueError(f"tokenize must be one of {', '.join(TOKENIZERS)} (or None: score "
                             f"the completions' token ids); got {tokenize!r}")
        if not isinstance(lowercase, bool):
            raise TypeError(f"lowercase must be a bool; got {lowercase!r}")
        if lowercase and tokenize is None:
            raise ValueError("lowercase=True applies to text: give tokenize= too")
        if tokenize is None and not callable(getattr(tokenizer, "encode", None)):
            raise TypeError(
                f"tokenizer must have an encode(text) method; got {type(tokenizer).__name__} "
                "(or pass tokenize='13a' to score the completions as text)"
            )
        if not isinstance(name, str) or not name:
            raise TypeError(f"name must be a non-empty str; got {name!r}")
        self.tokenizer = tokenizer
        self.tokenize = tokenize
        self.lowercase = lowercase
        if tokenize is None:
            self.eos_id = _special(tokenizer, eos_id, "eos_token_id", "eos_id")
            self.pad_id = _special(tokenizer, pad_id, "pad_token_id", "pad_id")
        else:
            if eos_id not in (None, FROM_TOKENIZER) or pad_id not in (None, FROM_TOKENIZER):
                raise ValueError("eos_id and pad_id apply to token ids; with tokenize= the "
                                 "completions are scored as text")
            self.eos_id = self.pad_id = None
        self.__name__ = name

    def _tokenize(self, text: str) -> list[int]:
        tokenizer: Any = self.tokenizer
        try:
            encoded = tokenizer.encode(text, add_special_tokens=False)
        except TypeError:  # an encode() without that option
            encoded = tokenizer.encode(text)
        return [int(i) for i in getattr(encoded, "ids", encoded)]  # tokenizers' Encoding

    def hypotheses(
        self, completions: Sequence[Any] | None, completion_ids: Hypotheses[DeviceArray] | None
    ) -> Hypotheses[DeviceArray]:
        """The completions to score: their text with ``tokenize``; else ``completion_ids``,
        or ``completions`` encoded (not cached: samples rarely repeat)."""
        if self.tokenize is not None:
            texts = completion_texts(completions)
            _check_counts(texts, completion_ids)
            return texts
        if isinstance(completions, str | bytes):
            raise _not_a_list(completions)
        if completion_ids is not None:
            _check_counts(completions, completion_ids)
            check_completion_ids(completion_ids)
            return completion_ids
        if completions is None:
            raise ValueError("the reward needs completion_ids (or completions to encode)")
        if not isinstance(completions, Sequence):
            raise _not_a_list(completions)
        for row, text in enumerate(completions):
            if isinstance(text, list | dict):
                raise TypeError(
                    "completions are conversational (not strings): pass completion_ids, as "
                    "GRPOTrainer does, or tokenize= to score their text"
                )
            if not isinstance(text, str):
                raise TypeError(
                    f"completions[{row}] must be a string; got {type(text).__name__}"
                )
        return [self._tokenize(text) for text in completions]

    def _settings(self) -> str:
        return ""


class ReferenceReward(TokenizedReward):
    """The shared part of the rewards against references: the references of each completion
    read from a dataset column, tokenised once (token ids) or kept as text (``tokenize``)."""

    def __init__(self, tokenizer: Encoder | None, reference_column: str,
                 eos_id: int | str | None, pad_id: int | str | None, name: str,
                 cache_size: int | None, tokenize: str | None = None,
                 lowercase: bool = False) -> None:
        super().__init__(tokenizer, eos_id, pad_id, name, tokenize, lowercase)
        if not isinstance(reference_column, str):
            raise TypeError(f"reference_column must be a str; got {reference_column!r}")
        self.reference_column = reference_column
        self.cache_size = (None if cache_size is None
                           else checks.integer(cache_size, "cache_size", minimum=0))
        # reference -> token ids, least recently used first
        self._cache: OrderedDict[str, list[int]] = OrderedDict()

    def encode(self, text: str) -> list[int]:
        """The token ids of a reference, from the cache of the ``cache_size`` most recently
        used references where it is there (no special tokens added where possible)."""
        ids = self._cache.get(text)
        if ids is not None:
            self._cache.move_to_end(text)
            return ids
        ids = self._tokenize(text)
        if self.cache_size != 0:
            self._cache[text] = ids
            if self.cache_size is not None and len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return ids

    def reference_texts(self, kwargs: dict[str, Any], count: int) -> list[list[str]]:
        """The column's references of each completion, checked, as lists of strings."""
        if self.reference_column not in kwargs:
            columns = sorted(k for k in kwargs if k not in _TRAINER_ARGUMENTS)
            raise ValueError(
                f"the reward reads references from the dataset column "
                f"{self.reference_column!r}, which was not passed; columns passed: {columns} "
                "(set reference_column=)"
            )
        name = self.reference_column
        column = kwargs[name]
        if isinstance(column, str) or not isinstance(column, Sequence):
            raise TypeError(
                f"{name} must be a list with one reference (or list of references) per "
                f"completion; got {type(column).__name__}"
            )
        if len(column) != count:
            raise ValueError(
                f"{name} must hold one reference (or list of references) per completion: "
                f"{count} completions, got {len(column)}"
            )
        rows = []
        for row, value in enumerate(column):
            texts = [value] if isinstance(value, str) else value
            if not isinstance(texts, Sequence):
                raise TypeError(
                    f"{name}[{row}] must be a string or a list of strings; got "
                    f"{type(value).__name__}"
                )
            if not texts:
                raise ValueError(
                    f"{name}[{row}] is an empty list: every completion needs at least one "
                    "reference"
                )
            for position, text in enumerate(texts):
                if not isinstance(text, str):
                    raise TypeError(
                        f"{name}[{row}][{position}] must be a string; got {type(text).__name__}"
                    )
            rows.append(list(texts))
        return rows

    def references(self, kwargs: dict[str, Any], count: int) -> list[list[Any]]:
        """The column's references of each completion: as text with ``tokenize``, else as
        token ids (NLTK form), each distinct reference encoded once a call."""
        rows = self.reference_texts(kwargs, count)
        if self.tokenize is not None:
            return rows
        encoded = {text: self.encode(text)
                   for text in dict.fromkeys(itertools.chain.from_iterable(rows))}
        return [[encoded[text] for text in texts] for texts in rows]

    def score(self, hypotheses: Any, references: list[list[Any]]) -> DeviceArray:
        raise NotImplementedError

    def __call__(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] | None = None,
        completion_ids: Hypotheses[DeviceArray] | None = None,
        **kwargs: Any,
    ) -> list[float]:
        """One reward per completion: ``kwargs`` holds the dataset columns (TRL's call)."""
        hypotheses = self.hypotheses(completions, completion_ids)
        references = self.references(kwargs, len(hypotheses))
        scores = self.score(hypotheses, references)
        result: list[float] = scores.tolist()
        return result

    def __repr__(self) -> str:
        text = "" if self.tokenize is None else f", tokenize={self.tokenize!r}"
        return (f"{type(self).__name__}(reference_column={self.reference_column!r}, "
                f"eos_id={self.eos_id}, pad_id={self.pad_id}{self._settings()}{text}, "
                f"cache_size={self.cache_size})")
