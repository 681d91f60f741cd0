"""Sentence BLEU and GLEU of each completion against its references, as GRPO rewards."""

from __future__ import annotations

from typing import Any

from bleusuite import checks
from bleusuite.array_types import DeviceArray
from bleusuite.rewards.columns import (
    DEFAULT_CACHE_SIZE,
    FROM_TOKENIZER,
    BleuRewardSettings,
    Encoder,
    ReferenceReward,
)
from bleusuite.scores.bleu.score import sentence_bleu
from bleusuite.scores.gleu.score import sentence_gleu

__all__ = ["BleuReward", "GleuReward"]


class BleuReward(BleuRewardSettings, ReferenceReward):
    """Sentence BLEU of each completion against its references, as a GRPO reward.

    Args:
        tokenizer: the policy's tokenizer (anything with ``encode(text)``); references are
            encoded with ``add_special_tokens=False`` where ``encode`` takes it. Not used
            (and may be None) with ``tokenize``.
        reference_column: the dataset column with each example's reference(s).
        max_order: highest n-gram order.
        smooth: any name of :data:`bleusuite.SMOOTHING_NAMES`; default ``"exp"``.
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
        tokenize: score the decoded ``completions`` (strings, or the last message of a
            conversation) as text, tokenised by this sacrebleu tokenizer (``"13a"``, ...);
            ``completion_ids`` and the tokenizer are then not used. Default None: token ids.
        lowercase: with ``tokenize``, lowercase everything first.
        ref_length: the reference length of the brevity penalty, as in
            :func:`bleusuite.sentence_bleu` (``"shortest"``: evaluate's ``bleu``).

    Calling it returns ``sentence_bleu(completion_ids, references, ...)`` (with ``tokenize``,
    of ``completions``) as a list of floats, bit for bit. With ``tokenize="13a"`` the defaults
    give sacrebleu's ``sentence_bleu(...).score / 100``; ``smooth="no_smooth",
    effective_order=False, ref_length="shortest"`` gives evaluate's ``bleu`` per completion
    (BLEUBERI's reward; see :func:`bleusuite.evaluate.as_evaluate_13a` for a ``"-\\n"`` end).

    >>> reward = BleuReward(tokenize="13a", smooth="no_smooth", effective_order=False,
    ...                     ref_length="shortest")          # evaluate's bleu, per completion
    >>> reward(completions=["The cat sat on the mat."],
    ...        reference=[["The cat sat on a mat.", "A cat sat."]])
    [0.488923022434901]

    Raises:
        TypeError, ValueError: bad settings here; at call time, a missing column or
            malformed ids, references or completions, or ``completions`` and
            ``completion_ids`` of different lengths (the message names them).
    """

    def __init__(
        self,
        tokenizer: Encoder | None = None,
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
        tokenize: str | None = None,
        lowercase: bool = False,
        ref_length: str = "closest",
    ) -> None:
        self._keep_bleu_settings(max_order, smooth, smooth_value, effective_order, ref_length)
        super().__init__(tokenizer, reference_column, eos_id, pad_id, name, cache_size,
                         tokenize, lowercase)

    def score(self, hypotheses: Any, references: list[list[Any]]) -> DeviceArray:
        return sentence_bleu(
            hypotheses, references, max_order=self.max_order, smooth=self.smooth,
            smooth_value=self.smooth_value, effective_order=self.effective_order,
            eos_id=self.eos_id, pad_id=self.pad_id, tokenize=self.tokenize,
            lowercase=self.lowercase, ref_length=self.ref_length,
        )


class GleuReward(ReferenceReward):
    """Sentence GLEU (NLTK's) of each completion against its references, as a GRPO reward.

    GLEU needs no smoothing (nonzero as soon as one n-gram matches). Arguments as
    :class:`BleuReward` (``tokenize`` scores text as well).

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
        tokenizer: Encoder | None = None,
        reference_column: str = "reference",
        *,
        min_len: int = 1,
        max_len: int = 4,
        eos_id: int | str | None = FROM_TOKENIZER,
        pad_id: int | str | None = None,
        name: str = "gleu_reward",
        cache_size: int | None = DEFAULT_CACHE_SIZE,
        tokenize: str | None = None,
        lowercase: bool = False,
    ) -> None:
        self.min_len, self.max_len = checks.gleu_orders(min_len, max_len)
        super().__init__(tokenizer, reference_column, eos_id, pad_id, name, cache_size,
                         tokenize, lowercase)

    def score(self, hypotheses: Any, references: list[list[Any]]) -> DeviceArray:
        return sentence_gleu(hypotheses, references, min_len=self.min_len,
                             max_len=self.max_len, eos_id=self.eos_id, pad_id=self.pad_id,
                             tokenize=self.tokenize, lowercase=self.lowercase)

    def _settings(self) -> str:
        return f", min_len={self.min_len}, max_len={self.max_len}"
