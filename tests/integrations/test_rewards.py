"""GRPO reward functions: the same numbers as sentence_bleu / sentence_gleu, and a real run.

The end-to-end test runs TRL's GRPOTrainer (``tox -e rl`` installs trl, transformers,
accelerate and datasets; elsewhere it is skipped with the reason) on a tiny Llama built
from a config and a character tokenizer built in memory: nothing is downloaded.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

import bleusuite
from bleusuite.rewards import BleuReward, GleuReward

ROOT = Path(__file__).resolve().parents[2]


class CountingTokenizer:
    """A word tokenizer with ``encode`` only, counting its calls."""

    eos_token_id = 1
    pad_token_id = 0

    def __init__(self) -> None:
        self.vocabulary: dict[str, int] = {}
        self.calls = 0

    def encode(self, text: str) -> list[int]:
        self.calls += 1
        return [self.vocabulary.setdefault(w, len(self.vocabulary) + 10) for w in text.split()]


def _batch(seed: int, tokenizer: CountingTokenizer, size: int = 24):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(12)]
    references = [" ".join(rng.choice(words, size=int(rng.integers(1, 9)))) for _ in range(4)]
    column = [references[i % 4] for i in range(size)]  # GRPO repeats each example's columns
    completions = []
    for ref in column:
        ids = tokenizer.encode(ref)
        keep = [t for t in ids if rng.random() > 0.3]
        completions.append(keep + [1] + [int(t) for t in rng.integers(10, 30, size=2)])
    return completions, column


@pytest.mark.parametrize("seed", range(3))
def test_bleu_reward_equals_sentence_bleu_on_the_same_ids(seed):
    tokenizer = CountingTokenizer()
    completion_ids, column = _batch(seed, tokenizer)
    reward = BleuReward(tokenizer, "solution")
    calls_before = tokenizer.calls
    got = reward(prompts=["p"] * len(column), completions=["c"] * len(column),
                 completion_ids=completion_ids, solution=column, trainer_state=None)
    assert type(got) is list and all(type(r) is float for r in got)
    references = [[tokenizer.encode(ref)] for ref in column]
    expected = bleusuite.sentence_bleu(completion_ids, references, smooth="exp",
                                       effective_order=True, eos_id=1)
    assert got == expected.tolist()
    # each distinct reference was encoded once, and not again on the next call
    assert tokenizer.calls - calls_before == 4 + len(column)
    calls_before = tokenizer.calls
    reward(completion_ids=completion_ids, solution=column)
    assert tokenizer.calls == calls_before


def test_gleu_reward_and_several_references():
    tokenizer = CountingTokenizer()
    completion_ids, column = _batch(5, tokenizer)
    several = [[ref, "w1 w2 w3"] for ref in column]
    got = GleuReward(tokenizer, max_len=3)(completion_ids=completion_ids, reference=several)
    references = [[tokenizer.encode(r) for r in refs] for refs in several]
    expected = bleusuite.sentence_gleu(completion_ids, references, max_len=3, eos_id=1)
    assert got == expected.tolist()


def test_tensor_completion_ids_are_scored_on_their_device():
    torch = pytest.importorskip("torch")
    tokenizer = CountingTokenizer()
    completion_ids, column = _batch(7, tokenizer)
    reward = BleuReward(tokenizer, smooth="method1", effective_order=False)
    expected = reward(completion_ids=completion_ids, reference=column)
    ragged = [torch.tensor(ids) for ids in completion_ids]
    assert reward(completion_ids=ragged, reference=column) == expected
    width = max(map(len, completion_ids))
    padded = torch.tensor([ids + [0] * (width - len(ids)) for ids in completion_ids])
    assert reward(completion_ids=padded, reference=column) == expected  # padding after eos
    left = BleuReward(tokenizer, smooth="method1", effective_order=False, pad_id="from_tokenizer")
    left_padded = torch.tensor([[0] * (width - len(ids)) + ids for ids in completion_ids])
    assert left.pad_id == 0
    assert left(completion_ids=left_padded, reference=column) == expected


def test_text_completions_without_ids_are_encoded():
    tokenizer = CountingTokenizer()
    reward = BleuReward(tokenizer, max_order=2, eos_id=None)
    assert reward(completions=["w1 w2 w3"], reference=["w1 w2 w3"]) == pytest.approx([1.0])


def test_reward_errors_name_the_problem():
    tokenizer = CountingTokenizer()
    reward = BleuReward(tokenizer, "answer")
    with pytest.raises(ValueError, match=r"column 'answer', which was not passed; columns "
                       r"passed: \['reference'\]"):
        reward(completion_ids=[[10]], reference=["w1"], trainer_state=None)
    with pytest.raises(ValueError, match=r"one reference .* per completion: 2 completions, got 1"):
        reward(completion_ids=[[10], [11]], answer=["w1"])
    with pytest.raises(TypeError, match=r"answer\[0\] must be a string or a list of strings"):
        reward(completion_ids=[[10]], answer=[3])
    with pytest.raises(TypeError, match="conversational"):
        reward(completions=[[{"role": "assistant", "content": "w1"}]], answer=["w1"])
    with pytest.raises(TypeError, match="encode"):
        BleuReward(object())
    with pytest.raises(ValueError, match="effective_order=True is sacrebleu's option"):
        BleuReward(tokenizer, smooth="method1")
    with pytest.raises(TypeError, match="eos_id must be an int"):
        BleuReward(tokenizer, eos_id="</s>")
    assert BleuReward(tokenizer).__name__ == "bleu_reward"
    assert "reference_column='reference'" in repr(GleuReward(tokenizer))


def test_the_reference_cache_is_bounded_and_least_recently_used_goes_first():
    """Issue 24, item 5: the cache held every distinct reference for the life of the reward
    (16,000 references: 47.5 MiB). It now holds at most ``cache_size``, dropping the least
    recently used; the rewards are the same whatever the bound."""
    tokenizer = CountingTokenizer()
    unbounded = BleuReward(tokenizer, cache_size=None)
    bounded = BleuReward(tokenizer, cache_size=3)
    assert BleuReward(tokenizer).cache_size == 8192
    seen = []
    for seed in range(6):  # 4 distinct references a batch, new ones each time
        completion_ids, column = _batch(seed, tokenizer)
        column = [f"{ref} s{seed}" for ref in column]
        expected = unbounded(completion_ids=completion_ids, reference=column)
        calls = tokenizer.calls
        assert bounded(completion_ids=completion_ids, reference=column) == expected
        # a bound below the batch's distinct references still encodes each one once per call
        assert tokenizer.calls - calls == 4
        assert len(bounded._cache) <= 3
        seen.extend(dict.fromkeys(column))
    assert list(bounded._cache) == seen[-3:]  # the 3 most recent, oldest first
    assert len(unbounded._cache) == len(seen) == 24
    # a hit moves a reference to the end: it outlives references added after it
    bounded.encode(seen[-3])
    bounded.encode("w1 new")
    assert list(bounded._cache) == [seen[-1], seen[-3], "w1 new"]
    calls = tokenizer.calls
    bounded.encode(seen[-3])
    assert tokenizer.calls == calls
    # cache_size=0 keeps nothing, and still gives the same numbers
    uncached = GleuReward(tokenizer, cache_size=0)
    completion_ids, column = _batch(9, tokenizer)
    assert uncached(completion_ids=completion_ids, reference=column) == GleuReward(tokenizer)(
        completion_ids=completion_ids, reference=column)
    assert len(uncached._cache) == 0
    for bad, error in ((-1, ValueError), (2.5, TypeError), ("all", TypeError)):
        with pytest.raises(error, match="cache_size"):
            BleuReward(tokenizer, cache_size=bad)


def test_completions_are_not_cached():
    """Sampled completions are new each step: encoding them must not push references out."""
    tokenizer = CountingTokenizer()
    reward = BleuReward(tokenizer, max_order=2, eos_id=None, cache_size=2)
    reward(completions=["w1 w2", "w3 w4"], reference=["w1 w2", "w1 w2"])
    assert list(reward._cache) == ["w1 w2"]


def test_bad_references_and_completions_name_the_argument():
    """Issue 24, item 9: None among references named the wrong type (``list``); completions
    and completion_ids of different lengths were scored silently (1 reward for 2)."""
    reward = BleuReward(CountingTokenizer(), "answer")
    with pytest.raises(TypeError, match=r"^answer\[0\]\[1\] must be a string; got NoneType"):
        reward(completion_ids=[[10]], answer=[["w1 w2", None]])
    with pytest.raises(TypeError, match=r"^answer\[1\] must be a string or a list of strings; "
                       r"got NoneType"):
        reward(completion_ids=[[10], [11]], answer=["w1", None])
    with pytest.raises(TypeError, match=r"^answer must be a list with one reference .* per "
                       r"completion; got NoneType"):
        reward(completion_ids=[[10]], answer=None)
    with pytest.raises(ValueError, match=r"^answer\[0\] is an empty list"):
        reward(completion_ids=[[10]], answer=[[]])
    with pytest.raises(ValueError, match=r"^completions and completion_ids must have one entry "
                       r"per completion; got 2 completions and 1 completion_ids"):
        reward(completions=["w1", "w2"], completion_ids=[[10]], answer=["w1"])
    with pytest.raises(ValueError, match="got 1 completions and 2 completion_ids"):
        reward(completions=["w1"], completion_ids=[[10], [11]], answer=["w1", "w1"])
    with pytest.raises(TypeError, match=r"^completion_ids\[1\] must be a list of token ids "
                       r"\(or a 1-D array\); got NoneType"):
        reward(completion_ids=[[10], None], answer=["w1", "w1"])
    with pytest.raises(TypeError, match=r"^completion_ids\[0\] must be a list of token ids "
                       r"\(or a 1-D array\); got str"):
        reward(completion_ids=["w1"], answer=["w1"])
    with pytest.raises(TypeError, match=r"^completions\[1\] must be a string; got NoneType"):
        reward(completions=["w1", None], answer=["w1", "w1"])
    with pytest.raises(TypeError, match=r"^completions must be a list"):
        reward(completions="w1", answer=["w1"])


def _example_module():
    spec = importlib.util.spec_from_file_location("grpo_bleu_reward",
                                                  ROOT / "examples" / "grpo_bleu_reward.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_grpo_trainer_runs_with_the_bleu_reward(tmp_path):
    """Two GRPO steps of the example; every reward the trainer got is sentence_bleu's."""
    pytest.importorskip("trl", reason="the RL test environment (tox -e rl) installs trl")
    example = _example_module()
    tokenizer = example.build_tokenizer()
    reward = BleuReward(tokenizer, reference_column="reference")
    seen: list[tuple[list[list[int]], list[str], list[float]]] = []

    def bleu(**kwargs):
        rewards = reward(**kwargs)
        seen.append((kwargs["completion_ids"], kwargs["reference"], rewards))
        return rewards

    trainer = example.train(2, str(tmp_path), reward_funcs=[bleu])
    assert trainer.state.global_step == 2 and len(seen) >= 2
    for completion_ids, column, rewards in seen:
        references = [[tokenizer.encode(ref, add_special_tokens=False)] for ref in column]
        expected = bleusuite.sentence_bleu(completion_ids, references, smooth="exp",
                                           effective_order=True,
                                           eos_id=tokenizer.eos_token_id)
        assert rewards == expected.tolist()
        assert all(0.0 <= r <= 1.0 + 1e-12 for r in rewards)
    logged = [entry for entry in trainer.state.log_history if "rewards/bleu/mean" in entry]
    assert len(logged) == 2
    means = [float(np.mean(rewards)) for _, _, rewards in seen]
    assert logged[0]["rewards/bleu/mean"] == pytest.approx(means[0], abs=1e-6)
    json.dumps(trainer.state.log_history)
