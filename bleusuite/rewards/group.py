"""A diversity reward for the groups of GRPO: one minus the self-BLEU of each completion
against the other completions of the same prompt."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from bleusuite import checks
from bleusuite.array_types import DeviceArray, Hypotheses
from bleusuite.rewards.columns import (
    FROM_TOKENIZER,
    BleuRewardSettings,
    Encoder,
    TokenizedReward,
)
from bleusuite.scores.bleu.pairwise import self_bleu

__all__ = ["SelfBleuReward", "completion_groups"]


class SelfBleuReward(BleuRewardSettings, TokenizedReward):
    """``1 - self-BLEU`` of each completion within its group, as a GRPO diversity reward.

    Each completion is scored against the other completions of its group as references
    (:func:`bleusuite.self_bleu`): 1 for one that shares no n-gram with the rest, 0 for an
    exact repeat (clamped at 0). Add it to a task reward (TRL's ``reward_weights``) to keep
    the samples of a prompt apart. A group is a run of consecutive completions with the same
    prompt, or (``num_generations=G``) a block of ``G``; a completion alone in its group gets
    ``None``, which TRL leaves out of its sums.

    Args:
        tokenizer: the policy's tokenizer, to encode ``completions`` when no
            ``completion_ids`` are passed; not used with ``tokenize``.
        num_generations: the group size (consecutive blocks), or None: group by prompt.
        max_order, smooth, smooth_value, effective_order: as :class:`BleuReward` (by
            default sacrebleu's sentence BLEU, ``"exp"`` with the effective order).
        eos_id, pad_id: as :class:`BleuReward` (the completion ids are cut at the
            tokenizer's eos).
        tokenize, lowercase, ref_length: as :class:`BleuReward`.
        name: the name TRL logs the reward under.

    >>> reward = SelfBleuReward(tokenize="13a")
    >>> rewards = reward(prompts=["p1", "p1", "p1", "p2", "p2"],
    ...                  completions=["the cat sat", "the cat sat", "a dog ran off",
    ...                               "one two", "three four"])
    >>> [round(r, 4) for r in rewards]
    [0.0, 0.0, 1.0, 1.0, 1.0]
    """

    def __init__(
        self,
        tokenizer: Encoder | None = None,
        *,
        num_generations: int | None = None,
        max_order: int = 4,
        smooth: str = "exp",
        smooth_value: float | None = None,
        effective_order: bool = True,
        eos_id: int | str | None = FROM_TOKENIZER,
        pad_id: int | str | None = None,
        name: str = "self_bleu_diversity",
        tokenize: str | None = None,
        lowercase: bool = False,
        ref_length: str = "closest",
    ) -> None:
        self._keep_bleu_settings(max_order, smooth, smooth_value, effective_order, ref_length)
        self.num_generations = (None if num_generations is None else
                                checks.integer(num_generations, "num_generations", minimum=2))
        super().__init__(tokenizer, eos_id, pad_id, name, tokenize, lowercase)

    def groups(self, prompts: Sequence[Any] | None, count: int) -> list[range]:
        """The completions of each group, as ranges of positions."""
        return completion_groups(prompts, count, self.num_generations, type(self).__name__)

    def __call__(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] | None = None,
        completion_ids: Hypotheses[DeviceArray] | None = None,
        **kwargs: Any,
    ) -> list[float | None]:
        """One reward per completion (None for a completion alone in its group)."""
        hypotheses: Any = self.hypotheses(completions, completion_ids)
        sentences = list(hypotheses)  # the rows of a padded array, or the list itself
        groups = self.groups(prompts, len(sentences))
        rewards: list[float | None] = [None] * len(sentences)
        sizes = sorted({len(group) for group in groups} - {1})
        for size in sizes:  # one call for each group size (one, in a GRPO step)
            chosen = [group for group in groups if len(group) == size]
            scores = self_bleu(
                [[sentences[i] for i in group] for group in chosen], max_order=self.max_order,
                smooth=self.smooth, smooth_value=self.smooth_value,
                effective_order=self.effective_order, eos_id=self.eos_id, pad_id=self.pad_id,
                tokenize=self.tokenize, lowercase=self.lowercase, ref_length=self.ref_length)
            for group, row in zip(chosen, scores.tolist(), strict=True):
                for i, value in zip(group, row, strict=True):
                    rewards[i] = max(0.0, 1.0 - value)  # BLEU 1 can round a hair above
        return rewards

    def __repr__(self) -> str:
        text = "" if self.tokenize is None else f", tokenize={self.tokenize!r}"
        return (f"{type(self).__name__}(num_generations={self.num_generations}, "
                f"eos_id={self.eos_id}, pad_id={self.pad_id}{self._settings()}{text})")


def completion_groups(prompts: Sequence[Any] | None, count: int,
                      num_generations: int | None, reward: str) -> list[range]:
    """The groups of a GRPO call's ``count`` completions, as ranges of positions: blocks of
    ``num_generations``, or (None) runs of consecutive completions of the same prompt.
    ``reward``: the reward's name, for the errors."""
    if num_generations is not None:
        size = num_generations
        if count % size:
            raise ValueError(f"num_generations={size}: the {count} completions do not "
                             "make whole groups")
        return [range(start, start + size) for start in range(0, count, size)]
    if prompts is None:
        raise ValueError(f"{reward} groups completions by prompt: pass prompts (TRL "
                         "does) or set num_generations=")
    if isinstance(prompts, str) or not isinstance(prompts, Sequence):
        raise TypeError(f"prompts must be a list (one prompt per completion); got "
                        f"{type(prompts).__name__}")
    if len(prompts) != count:
        raise ValueError(f"prompts must have one entry per completion: {count} "
                         f"completions, got {len(prompts)} prompts")
    runs, start = [], 0
    for _, run in itertools.groupby(range(count), key=prompts.__getitem__):
        size = len(list(run))
        runs.append(range(start, start + size))
        start += size
    return runs
