"""Reward functions for RL fine-tuning, in TRL's ``GRPOTrainer`` calling convention (and
verl's, :mod:`bleusuite.rewards.verl`); the recipe, the reference cache (``cache_size``,
default :data:`DEFAULT_CACHE_SIZE`) and the choice of smoothing are in ``docs/rl-reward.md``.

``GRPOTrainer`` calls a reward with ``prompts``, ``completions``, ``completion_ids`` and
every dataset column as keyword arguments, and wants one float per completion back.
:class:`BleuReward` and :class:`GleuReward` score the completion ids against the references
of a dataset column, each distinct reference tokenised once with the policy's tokenizer
(default smoothing: ``exp`` with the effective order, sacrebleu's sentence BLEU, so that a
near miss scores above nonsense).

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

``BleuReward(tokenize="13a")`` scores the decoded ``completions`` as text instead.
:class:`SelfBleuReward` is a diversity reward (``1 -`` :func:`bleusuite.self_bleu` within a
prompt's group), :class:`CiderReward` CIDEr-D for captioning (with the self-critical
baselines of :func:`scst_cider_rewards`). The modules: :mod:`~bleusuite.rewards.columns`
(what the rewards share), :mod:`~bleusuite.rewards.sentence`,
:mod:`~bleusuite.rewards.group`, :mod:`~bleusuite.rewards.cider`,
:mod:`~bleusuite.rewards.verl`.
"""

from bleusuite.rewards.cider import CiderReward
from bleusuite.rewards.columns import DEFAULT_CACHE_SIZE
from bleusuite.rewards.group import SelfBleuReward
from bleusuite.rewards.sentence import BleuReward, GleuReward
from bleusuite.scores.cider.scst import scst_cider_rewards

__all__ = ["DEFAULT_CACHE_SIZE", "BleuReward", "CiderReward", "GleuReward", "SelfBleuReward",
           "scst_cider_rewards"]
