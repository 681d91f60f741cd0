"""Reward functions for RL fine-tuning, in TRL's ``GRPOTrainer`` calling convention.

``GRPOTrainer(reward_funcs=[BleuReward(tokenizer)])`` calls the reward with keyword
arguments: ``prompts``, ``completions``, ``completion_ids`` (one list of token ids per
completion, its eos included) and every dataset column (one value per completion), and
wants one float per completion back. :class:`BleuReward` and :class:`GleuReward` read the
references from a dataset column (a string, or a list of strings, per example), tokenise
each distinct reference of a call once with the policy's tokenizer (anything with
``encode``), then score the completion ids with :func:`bleusuite.sentence_bleu` /
:func:`bleusuite.sentence_gleu`: on the completion ids' device where they are tensors,
through NumPy where they are lists.

The token ids of the most recently used references are kept between calls, so the examples
of a small dataset are tokenised once for the whole run: at most ``cache_size`` references
(default :data:`DEFAULT_CACHE_SIZE`, 8192), the least recently used dropped first. Memory
is then bounded whatever the size of the dataset (the ids of a 100-token reference take
about 4 KiB as a list of Python ints: some 33 MiB for a full default cache).
``cache_size=None`` keeps every reference (only for datasets whose references fit in
memory); ``cache_size=0`` keeps none. The rewards do not depend on it.

Default smoothing: ``exp`` with the effective order (sacrebleu's ``sentence_bleu``), not the
functions' ``no_smooth``: a reward must tell a near miss from nonsense, and unsmoothed
sentence BLEU is 0 for most short or early completions (no 4-gram match), which leaves
GRPO's group advantages all zero.

>>> from bleusuite.rewards import BleuReward
>>> class Words:                                   # any tokenizer with encode()
...     vocabulary = {"the": 5, "cat": 6, "sat": 7, "down": 8}
...     eos_token_id = 2
...     def encode(self, text):
...         return [self.vocabulary[word] for word in text.split()]
>>> reward = BleuReward(Words(), reference_column="reference")
>>> rewards = reward(completions=["the cat sat", "the cat"],
...                  completion_ids=[[5, 6, 7, 2], [5, 6, 2]],    # eos (2) included, as TRL
...                  reference=["the cat sat down", "the cat sat down"])
>>> [round(r, 4) for r in rewards]
[0.7165, 0.3679]
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence, Sized
from typing import TYPE_CHECKING, Any, Protocol

from bleusuite import checks
from bleusuite.scores.bleu.score import BleuConfig, sentence_bleu
from bleusuite.scores.gleu.score import sentence_gleu

if TYPE_CHECKING:
    from bleusuite.array_types import DeviceArray, Hypotheses

__all__ = ["DEFAULT_CACHE_SIZE", "BleuReward", "GleuReward"]

#: ``eos_id`` (default) / ``pad_id``: read the tokenizer's ``eos_token_id`` / ``pad_token_id``
FROM_TOKENIZER = "from_tokenizer"
#: references whose token ids a reward keeps between calls (``cache_size=``) by default
DEFAULT_CACHE_SIZE = 8192


class Encoder(Protocol):
    """What a reward needs of a tokenizer: ``encode(text)`` to token ids."""

    def encode(self, text: str) -> Any: ...


def _special(tokenizer: Any, value: int | str | None, attribute: str, argname: str) -> int | None:
    if value == FROM_TOKENIZER:
        found = getattr(tokenizer, attribute, None)
        return None if found is None else int(found)
    return checks.token_id(value, argname, or_else=FROM_TOKENIZER)


def _cache_size(value: Any) -> int | None:
    return None if value is None else checks.integer(value, "cache_size", minimum=0)


def _length(value: Any) -> int | None:
    """The number of entries of a list or the rows of an array; None where it has none."""
    if not isinstance(value, Sized):
        return None
    try:
        return len(value)
    except TypeError:  # a 0-d array
        return None


def _check_completion_ids(completion_ids: Any) -> None:
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


class _Reward:
    """The shared part: references from a column, tokenised once, scored per completion."""

    #: TRL logs each reward under ``__name__``
    __name__: str

    def __init__(
        self,
        tokenizer: Encoder,
        reference_column: str,
        eos_id: int | str | None,
        pad_id: int | str | None,
        name: str,
        cache_size: int | None,
    ) -> None:
        if not callable(getattr(tokenizer, "encode", None)):
            raise TypeError(
                f"tokenizer must have an encode(text) method; got {type(tokenizer).__name__}"
            )
        if not isinstance(reference_column, str):
            raise TypeError(f"reference_column must be a str; got {reference_column!r}")
        if not isinstance(name, str) or not name:
            raise TypeError(f"name must be a non-empty str; got {name!r}")
        self.tokenizer = tokenizer
        self.reference_column = reference_column
        self.eos_id = _special(tokenizer, eos_id, "eos_token_id", "eos_id")
        self.pad_id = _special(tokenizer, pad_id, "pad_token_id", "pad_id")
        self.__name__ = name
        self.cache_size = _cache_size(cache_size)
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

    def _tokenize(self, text: str) -> list[int]:
        try:
            encoded = self.tokenizer.encode(text, add_special_tokens=False)  # type: ignore[call-arg]
        except TypeError:  # an encode() without that option
            encoded = self.tokenizer.encode(text)
        return [int(i) for i in getattr(encoded, "ids", encoded)]  # tokenizers' Encoding

    def references(self, kwargs: dict[str, Any], count: int) -> list[list[list[int]]]:
        """The column's references of each completion, as token ids (NLTK form)."""
        if self.reference_column not in kwargs:
            columns = sorted(k for k in kwargs if k not in ("trainer_state", "log_extra",
                                                             "log_metric", "environments"))
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
        # each distinct reference is encoded once a call, whatever the cache keeps
        encoded: dict[str, list[int]] = {}
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
                if text not in encoded:
                    encoded[text] = self.encode(text)
            rows.append([encoded[text] for text in texts])
        return rows

    def hypotheses(
        self, completions: Sequence[Any] | None, completion_ids: Hypotheses[DeviceArray] | None
    ) -> Hypotheses[DeviceArray]:
        """The completions to score: ``completion_ids``, else ``completions`` encoded (not
        cached: samples rarely repeat)."""
        if isinstance(completions, str | bytes):
            raise TypeError(
                "completions must be a list (one entry per completion); got "
                f"{type(completions).__name__}"
            )
        if completion_ids is not None:
            count, texts = _length(completion_ids), _length(completions)
            if count is not None and texts is not None and count != texts:
                raise ValueError(
                    "completions and completion_ids must have one entry per completion; got "
                    f"{texts} completions and {count} completion_ids"
                )
            _check_completion_ids(completion_ids)
            return completion_ids
        if completions is None:
            raise ValueError("the reward needs completion_ids (or completions to encode)")
        if not isinstance(completions, Sequence):
            raise TypeError(
                "completions must be a list (one entry per completion); got "
                f"{type(completions).__name__}"
            )
        for row, text in enumerate(completions):
            if isinstance(text, list | dict):
                raise TypeError(
                    "completions are conversational (not strings): pass completion_ids, as "
                    "GRPOTrainer does"
                )
            if not isinstance(text, str):
                raise TypeError(
                    f"completions[{row}] must be a string; got {type(text).__name__}"
                )
        return [self._tokenize(text) for text in completions]

    def score(
        self, hypotheses: Hypotheses[DeviceArray], references: list[list[list[int]]]
    ) -> DeviceArray:
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
        return (f"{type(self).__name__}(reference_column={self.reference_column!r}, "
                f"eos_id={self.eos_id}, pad_id={self.pad_id}{self._settings()}, "
                f"cache_size={self.cache_size})")

    def _settings(self) -> str:
        return ""


class BleuReward(_Reward):
    """Sentence BLEU of each completion against its references, as a GRPO reward.

    Args:
        tokenizer: the policy's tokenizer (anything with ``encode(text)``); references are
            encoded with ``add_special_tokens=False`` where ``encode`` takes it.
        reference_column: the dataset column with each example's reference(s).
        max_order: highest n-gram order.
        smooth: any name of :data:`bleusuite.SMOOTHING_NAMES`; default ``"exp"`` (see the
            module's docstring).
        smooth_value: as in :func:`bleusuite.sentence_bleu`.
        effective_order: sacrebleu's effective order (default True, with ``"exp"``).
        eos_id: the token that ends a completion (it and what follows are ignored); by
            default the tokenizer's ``eos_token_id``.
        pad_id: a token that is never part of a sentence, for ``completion_ids`` given as a
            left-padded array (TRL's are unpadded lists; right padding follows the eos);
            ``"from_tokenizer"`` reads the tokenizer's ``pad_token_id``. Default None.
        name: the name TRL logs the reward under.
        cache_size: how many references' token ids are kept between calls, the least
            recently used dropped first (default :data:`DEFAULT_CACHE_SIZE`); None keeps
            every one, 0 none. The numbers do not depend on it.

    Calling it returns ``sentence_bleu(completion_ids, references, ...)`` as a list of
    floats: the same numbers, bit for bit.

    Raises:
        TypeError, ValueError: bad settings here; at call time, a missing column or
            malformed ids, references or completions, or ``completions`` and
            ``completion_ids`` of different lengths (the message names them).
    """

    def __init__(
        self,
        tokenizer: Encoder,
        reference_column: str = "reference",
        *,
        max_order: int = 4,
        smooth: str = "exp",
        smooth_value: float | None = None,
        effective_order: bool = True,
        eos_id: int | str | None = FROM_TOKENIZER,
        pad_id: int | str | None = None,
        name: str = "bleu_reward",
        cache_size: int | None = DEFAULT_CACHE_SIZE,
    ) -> None:
        BleuConfig.make(max_order, None, smooth, smooth_value, effective_order)  # checks
        super().__init__(tokenizer, reference_column, eos_id, pad_id, name, cache_size)
        self.max_order = max_order
        self.smooth = smooth
        self.smooth_value = smooth_value
        self.effective_order = effective_order

    def score(
        self, hypotheses: Hypotheses[DeviceArray], references: list[list[list[int]]]
    ) -> DeviceArray:
        return sentence_bleu(
            hypotheses, references, max_order=self.max_order, smooth=self.smooth,
            smooth_value=self.smooth_value, effective_order=self.effective_order,
            eos_id=self.eos_id, pad_id=self.pad_id,
        )

    def _settings(self) -> str:
        return (f", max_order={self.max_order}, smooth={self.smooth!r}, "
                f"effective_order={self.effective_order}")


class GleuReward(_Reward):
    """Sentence GLEU (NLTK's) of each completion against its references, as a GRPO reward.

    GLEU needs no smoothing: it is the n-gram F-measure-like ``matches / max(hyp n-grams,
    ref n-grams)`` over orders ``min_len``..``max_len``, nonzero as soon as one n-gram
    matches. Arguments as :class:`BleuReward`.

    >>> class Chars:
    ...     eos_token_id = 0
    ...     def encode(self, text):
    ...         return [ord(c) for c in text]
    >>> GleuReward(Chars(), "answer", max_len=2)(completion_ids=[[97, 98, 99, 0, 5]],
    ...                                          answer=[["abd", "xbc"]])
    [0.6]
    """

    def __init__(
        self,
        tokenizer: Encoder,
        reference_column: str = "reference",
        *,
        min_len: int = 1,
        max_len: int = 4,
        eos_id: int | str | None = FROM_TOKENIZER,
        pad_id: int | str | None = None,
        name: str = "gleu_reward",
        cache_size: int | None = DEFAULT_CACHE_SIZE,
    ) -> None:
        self.min_len, self.max_len = checks.gleu_orders(min_len, max_len)
        super().__init__(tokenizer, reference_column, eos_id, pad_id, name, cache_size)

    def score(
        self, hypotheses: Hypotheses[DeviceArray], references: list[list[list[int]]]
    ) -> DeviceArray:
        return sentence_gleu(hypotheses, references, min_len=self.min_len,
                             max_len=self.max_len, eos_id=self.eos_id, pad_id=self.pad_id)

    def _settings(self) -> str:
        return f", min_len={self.min_len}, max_len={self.max_len}"
