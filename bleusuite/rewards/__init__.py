"""Reward functions for RL fine-tuning, in TRL's ``GRPOTrainer`` calling convention (and
verl's, :mod:`bleusuite.rewards.verl`).

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

Scoring text instead of ids: ``BleuReward(tokenize="13a")`` (no tokenizer needed) scores the
decoded ``completions`` against the reference strings as sacrebleu (or, by option,
evaluate's ``bleu``) does. :class:`SelfBleuReward` is a diversity reward for the
completions of one prompt (``1 -`` their :func:`bleusuite.self_bleu`), and
:mod:`bleusuite.rewards.verl` has BLEU in verl's reward-function signature.
:class:`CiderReward` is CIDEr-D with the training set's document frequencies (captioning),
minus the mean of the other completions of the prompt where asked (self-critical
training); :func:`scst_cider_rewards` is the same on a batch of sampled captions, with the
greedy caption's score as another baseline.

The package: :mod:`~bleusuite.rewards.columns` (what the rewards share: the tokenizer, the
reference column, its cache), :mod:`~bleusuite.rewards.sentence` (:class:`BleuReward`,
:class:`GleuReward`), :mod:`~bleusuite.rewards.group` (:class:`SelfBleuReward`),
:mod:`~bleusuite.rewards.cider` (:class:`CiderReward`),
:mod:`~bleusuite.rewards.verl`.
"""

from bleusuite.rewards.cider import CiderReward
from bleusuite.rewards.columns import DEFAULT_CACHE_SIZE
from bleusuite.rewards.group import SelfBleuReward
from bleusuite.rewards.sentence import BleuReward, GleuReward
from bleusuite.scores.cider.scst import scst_cider_rewards

__all__ = ["DEFAULT_CACHE_SIZE", "BleuReward", "CiderReward", "GleuReward", "SelfBleuReward",
           "scst_cider_rewards"]
