"""SCST rewards: bleusuite.rewards.scst_cider_rewards (token-id batches and text) and
CiderReward (TRL's calling convention), against sentence_cider with the same fixed
document frequencies."""

from __future__ import annotations

import numpy as np
import pytest
from caption_cases import coco_corpus, edited

from bleusuite import cider_document_frequency, sentence_cider
from bleusuite.rewards import CiderReward, SelfBleuReward, scst_cider_rewards
from bleusuite.text.ptb import tokenize_captions

K = 3


def _batch(seed: int, images: int):
    """Training references, and a batch: references per image, K samples per image (edits
    of a reference), a greedy caption per image."""
    import random

    train, _ = coco_corpus(seed, 300)
    gts, res = coco_corpus(seed + 1, images)
    rng = random.Random(seed)
    refs = list(gts.values())
    samples = [edited(rng, rng.choice(r)) for r in refs for _ in range(K)]
    greedy = [res[k][0] for k in gts]
    return cider_document_frequency(list(train.values())), refs, samples, greedy


def _ids(lines, vocabulary):
    return [[vocabulary.setdefault(w, len(vocabulary) + 1) for w in line.split()]
            for line in lines]


def _padded(rows, width):
    out = np.zeros((len(rows), width), dtype=np.int64)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return out


def test_mean_baseline_is_the_mean_of_the_other_samples():
    frequency, refs, samples, _ = _batch(1, 40)
    scores = sentence_cider(samples, [r for r in refs for _ in range(K)],
                            document_frequency=frequency).reshape(-1, K)
    want = np.stack([scores[:, k] - np.delete(scores, k, axis=1).mean(axis=1)
                     for k in range(K)], axis=1).reshape(-1)
    got = scst_cider_rewards(samples, refs, frequency, baseline="mean")
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    assert abs(got.reshape(-1, K).sum(axis=1)).max() < 1e-12   # zero-mean per image


def test_greedy_baseline_and_none():
    frequency, refs, samples, greedy = _batch(2, 30)
    scores = sentence_cider(samples, [r for r in refs for _ in range(K)],
                            document_frequency=frequency)
    base = sentence_cider(greedy, refs, document_frequency=frequency)
    got = scst_cider_rewards(samples, refs, frequency, greedy=greedy)
    np.testing.assert_array_equal(got, scores - np.repeat(base, K))
    np.testing.assert_array_equal(scst_cider_rewards(samples, refs, frequency, baseline=None),
                                  scores)


def test_a_batch_does_not_depend_on_its_split():
    frequency, refs, samples, greedy = _batch(3, 24)
    whole = scst_cider_rewards(samples, refs, frequency, greedy=greedy)
    parts = [scst_cider_rewards(samples[i * K:(i + 6) * K], refs[i:i + 6], frequency,
                                greedy=greedy[i:i + 6]) for i in range(0, 24, 6)]
    np.testing.assert_array_equal(whole, np.concatenate(parts))


def test_torch_token_ids_equal_text():
    torch = pytest.importorskip("torch")
    _, refs, samples, greedy = _batch(4, 20)
    train, _ = coco_corpus(4, 300)
    vocabulary: dict[str, int] = {}
    train_ids = [_ids(r, vocabulary) for r in train.values()]
    frequency_ids = cider_document_frequency(train_ids)
    frequency_text = cider_document_frequency(list(train.values()))
    sample_ids = _ids(samples, vocabulary)
    greedy_ids = _ids(greedy, vocabulary)
    ref_ids = [_ids(r, vocabulary) for r in refs]
    width = max(len(row) for rows in (sample_ids, greedy_ids) for row in rows) + 1
    ref_width = max(len(r) for rows in ref_ids for r in rows) + 1
    ref_tensor = torch.from_numpy(np.stack([_padded(rows + [[]] * (5 - len(rows)), ref_width)
                                            for rows in ref_ids]))
    for baseline in ("greedy", "mean"):
        extra = {"greedy": torch.from_numpy(_padded(greedy_ids, width))} \
            if baseline == "greedy" else {}
        got = scst_cider_rewards(torch.from_numpy(_padded(sample_ids, width)), ref_tensor,
                                 frequency_ids, baseline=baseline, pad_id=0,
                                 greedy=extra.get("greedy"))
        assert isinstance(got, torch.Tensor) and got.dtype == torch.float64
        want = scst_cider_rewards(samples, refs, frequency_text, baseline=baseline,
                                  greedy=greedy if baseline == "greedy" else None)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


def test_errors():
    frequency, refs, samples, greedy = _batch(5, 4)
    with pytest.raises(ValueError, match="baseline"):
        scst_cider_rewards(samples, refs, frequency, baseline="max")
    with pytest.raises(ValueError, match="needs greedy"):
        scst_cider_rewards(samples, refs, frequency)
    with pytest.raises(ValueError, match="greedy must hold one caption per image"):
        scst_cider_rewards(samples, refs, frequency, greedy=greedy[:2])
    with pytest.raises(ValueError, match="greedy= is the baseline"):
        scst_cider_rewards(samples, refs, frequency, baseline="mean", greedy=greedy)
    with pytest.raises(ValueError, match="K captions per image"):
        scst_cider_rewards(samples[:-1], refs, frequency, baseline=None)
    with pytest.raises(ValueError, match="at least 2 samples"):
        scst_cider_rewards(samples[:4], refs, frequency, baseline="mean")
    with pytest.raises(TypeError, match="cider_document_frequency"):
        scst_cider_rewards(samples, refs, {("a",): 1}, baseline=None)
    with pytest.raises(TypeError, match="samples"):
        scst_cider_rewards("a man", refs, frequency, baseline=None)


# ----------------------------------------------------------------------- CiderReward (TRL)

RAW_TRAIN = [["A man rides a horse.", "A person on a horse."], ["A cat on a couch."],
             ["A dog in a park.", "Two dogs, running!"], ["Two people on a beach."]]


def test_reward_on_text_is_sentence_cider_of_ptb_tokens():
    frequency = cider_document_frequency([tokenize_captions(r) for r in RAW_TRAIN])
    completions = ["A man on a horse.", "A dog (running) in a park!", "Cat's couch."]
    references = [RAW_TRAIN[0], RAW_TRAIN[2], RAW_TRAIN[1]]
    want = sentence_cider(tokenize_captions(completions),
                          [tokenize_captions(r) for r in references],
                          document_frequency=frequency)
    reward = CiderReward(frequency, reference_column="captions")
    got = reward(prompts=["a", "b", "c"], completions=completions, captions=references)
    assert got == want.tolist()
    # conversational completions: their last message
    chat = [[{"role": "assistant", "content": c}] for c in completions]
    assert reward(completions=chat, captions=references) == got
    # without PTB: whitespace tokens as given
    plain = CiderReward(frequency, reference_column="captions", ptb=False)
    assert plain(completions=completions, captions=references) == sentence_cider(
        completions, references, document_frequency=frequency).tolist()


def test_reward_mean_baseline_by_prompt_and_by_blocks():
    frequency = cider_document_frequency([tokenize_captions(r) for r in RAW_TRAIN])
    completions = ["A man on a horse.", "A horse.", "A man.", "A dog in a park.", "A dog."]
    references = [RAW_TRAIN[0]] * 3 + [RAW_TRAIN[2]] * 2
    scores = np.asarray(CiderReward(frequency)(completions=completions,
                                               reference=references))
    by_prompt = CiderReward(frequency, baseline="mean")(
        prompts=["p"] * 3 + ["q"] * 2, completions=completions, reference=references)
    want = [scores[i] - np.mean(np.delete(scores[:3], i)) for i in range(3)] + \
        [scores[3] - scores[4], scores[4] - scores[3]]
    np.testing.assert_allclose(by_prompt, want, rtol=0, atol=1e-12)
    alone = CiderReward(frequency, baseline="mean")(
        prompts=["p", "p", "q", "r", "r"], completions=completions, reference=references)
    assert alone[2] is None and alone[0] is not None
    blocks = CiderReward(frequency, baseline="mean", num_generations=5)(
        completions=completions, reference=references)
    np.testing.assert_allclose(blocks, scores - (scores.sum() - scores) / 4, atol=1e-12)


def test_reward_on_token_ids():
    class Words:
        eos_token_id = 2

        def __init__(self) -> None:
            self.vocabulary: dict[str, int] = {}

        def encode(self, text: str) -> list[int]:
            return [self.vocabulary.setdefault(w, len(self.vocabulary) + 3)
                    for w in text.split()]

    words = Words()
    frequency = cider_document_frequency([[words.encode(r) for r in refs]
                                          for refs in RAW_TRAIN])
    references = [RAW_TRAIN[0], RAW_TRAIN[2]]
    completion_ids = [[*words.encode("A man on a horse."), 2], [*words.encode("A dog in"), 2, 0]]
    got = CiderReward(frequency, words)(completion_ids=completion_ids, reference=references)
    want = sentence_cider([ids[:ids.index(2)] for ids in completion_ids],
                          [[words.encode(r) for r in refs] for refs in references],
                          document_frequency=frequency)
    assert got == want.tolist()


def test_reward_errors():
    frequency = cider_document_frequency([tokenize_captions(r) for r in RAW_TRAIN])
    with pytest.raises(ValueError, match="baseline"):
        CiderReward(frequency, baseline="greedy")
    with pytest.raises(TypeError, match="cider_document_frequency"):
        CiderReward({("a",): 1})
    with pytest.raises(ValueError, match="token ids"):
        CiderReward(frequency, eos_id=2)
    with pytest.raises(ValueError, match="max_order"):
        CiderReward(frequency, max_order=5)
    with pytest.raises(ValueError, match="prompt"):
        CiderReward(frequency, baseline="mean")(completions=["a b"], reference=["a b"])
    with pytest.raises(ValueError, match="column 'reference'"):
        CiderReward(frequency)(completions=["a b"], answer=["a b"])


def test_self_bleu_groups_unchanged():
    reward = SelfBleuReward(tokenize="13a")
    assert reward.groups(["a", "a", "b"], 3) == [range(0, 2), range(2, 3)]
    with pytest.raises(ValueError, match="SelfBleuReward groups completions by prompt"):
        reward.groups(None, 3)


def test_example_runs(monkeypatch, capsys):
    pytest.importorskip("torch")
    import runpy
    import sys
    from pathlib import Path

    example = Path(__file__).parents[2] / "examples" / "scst_cider.py"
    for baseline in ("greedy", "mean"):
        monkeypatch.setattr(sys, "argv", [str(example), "--steps", "2", "--every", "2",
                                          "--baseline", baseline])
        runpy.run_path(str(example), run_name="__main__")
    assert capsys.readouterr().out.count("greedy CIDEr-D") == 4
