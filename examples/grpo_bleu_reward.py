"""GRPO with a BLEU reward: TRL's ``GRPOTrainer`` and :class:`bleusuite.rewards.BleuReward`.

A smoke test of the wiring, not a demonstration of learning. A tiny causal LM (one layer,
16-wide, randomly initialised from a config: nothing is downloaded) is prompted to copy a
few words after ``copy:``; the reward is the sentence BLEU (sacrebleu's ``exp`` smoothing,
effective order) of each completion's token ids against the ``reference`` column, tokenised
once by the same character-level tokenizer; ``completion_ids`` come from the trainer. What
it shows is that ``GRPOTrainer`` calls the reward with its completions and the dataset's
columns, gets one float per completion and logs them (``rewards/bleu_reward/mean``).

The model does not learn to copy: it is far too small and the run far too short. Over the
default 30 steps the mean reward barely moves (0.041 at the first step, 0.058 at the last,
in the run reported in issue 24). To see the reward drive learning, start from a
pretrained model and train for many more steps; only ``build_tokenizer`` / ``build_model``
change (``AutoTokenizer``, ``AutoModelForCausalLM``), and the reward line stays as it is.

    pip install trl==1.16.0 transformers accelerate datasets   # see requirements/rl.txt
    python examples/grpo_bleu_reward.py                  # 30 steps, a minute on a CPU
    python examples/grpo_bleu_reward.py --steps 2        # a few seconds
"""

from __future__ import annotations

import argparse
import tempfile
from typing import Any

import torch
from datasets import Dataset
from tokenizers import Tokenizer, decoders, models, pre_tokenizers
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
from trl import GRPOConfig, GRPOTrainer

from bleusuite.rewards import BleuReward

CHARACTERS = "abcdefghijklmnopqrstuvwxyz :"
WORDS = ["the cat", "a dog", "sun", "red hat", "big map", "top", "old car", "we go"]


def build_tokenizer() -> PreTrainedTokenizerFast:
    """A character-level tokenizer built in memory (ids 0-2: pad, eos, unk)."""
    vocabulary = {"<pad>": 0, "<eos>": 1, "<unk>": 2}
    vocabulary.update({c: i + 3 for i, c in enumerate(CHARACTERS)})
    backend = Tokenizer(models.WordLevel(vocabulary, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Split("", behavior="isolated")
    backend.decoder = decoders.Fuse()
    return PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>",
                                   eos_token="<eos>", unk_token="<unk>")


def build_model(vocab_size: int, seed: int = 0) -> LlamaForCausalLM:
    """A one-layer Llama with 16-wide hidden states, randomly initialised."""
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=vocab_size, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
        num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=64,
        pad_token_id=0, eos_token_id=1, bos_token_id=1,
    )
    return LlamaForCausalLM(config)


def build_dataset() -> Dataset:
    return Dataset.from_dict({
        "prompt": [f"copy: {words}" for words in WORDS],
        "reference": WORDS,
    })


def train(steps: int, output_dir: str, reward_funcs: list[Any] | None = None) -> GRPOTrainer:
    """Run GRPO for ``steps`` steps; the BLEU reward unless ``reward_funcs`` is given."""
    tokenizer = build_tokenizer()
    reward = BleuReward(tokenizer, reference_column="reference")  # eos_id: the tokenizer's
    args = GRPOConfig(
        output_dir=output_dir, max_steps=steps, per_device_train_batch_size=8,
        num_generations=4, max_completion_length=8, learning_rate=3e-3, logging_steps=1,
        report_to=[], save_strategy="no", use_cpu=not torch.cuda.is_available(), seed=0,
    )
    trainer = GRPOTrainer(
        model=build_model(len(tokenizer)), reward_funcs=reward_funcs or [reward], args=args,
        train_dataset=build_dataset(), processing_class=tokenizer,
    )
    trainer.train()
    return trainer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30)
    steps = parser.parse_args().steps
    with tempfile.TemporaryDirectory() as output_dir:
        trainer = train(steps, output_dir)
    rewards = [entry["reward"] for entry in trainer.state.log_history if "reward" in entry]
    print(f"mean BLEU reward: first step {rewards[0]:.3f}, last step {rewards[-1]:.3f} "
          "(a smoke test of the reward's wiring: a model this small does not learn to copy)")


if __name__ == "__main__":
    main()
