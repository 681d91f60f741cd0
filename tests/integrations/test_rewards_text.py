"""The rewards on text and on groups: ``BleuReward(tokenize=...)`` against sacrebleu and
evaluate's ``bleu`` per completion, ``SelfBleuReward`` against sacrebleu per member of each
GRPO group, and verl's ``compute_score`` signature, all to 1e-12."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
import sacrebleu
from nltk.translate.gleu_score import sentence_gleu as nltk_gleu
from nmt_script import nmt_compute_bleu, tokenize_13a

import bleusuite
from bleusuite.rewards import BleuReward, GleuReward, SelfBleuReward
from bleusuite.rewards.verl import VERL_ARGUMENTS, compute_score, compute_score_batch

WORDS = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "The", "Cat", ",", ".", "!",
         "isn't", "(big)", "3.5", "$10", "é", "naïve", "--"]


def sentences(seed: int, count: int, max_words: int = 14) -> list[str]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        words = rng.choice(WORDS, size=int(rng.integers(0, max_words + 1))).tolist()
        out.append(" ".join(words) if rng.random() < 0.7 else "".join(words))
    return out


def columns(seed: int, count: int, most: int = 5) -> tuple[list[str], list[list[str]]]:
    """Completions and 1..``most`` references each, sharing words (like MT output)."""
    rng = np.random.default_rng(seed)
    completions = sentences(seed, count)
    references = []
    for completion in completions:
        refs = []
        for ref in sentences(int(rng.integers(1 << 30)), int(rng.integers(1, most + 1))):
            refs.append(completion[: len(completion) // 2] + ref if rng.random() < 0.6 else ref)
        references.append(refs)
    return completions, references


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize(("smooth", "effective_order"),
                         [("exp", True), ("exp", False), ("floor", True), ("add-k", False),
                          ("none", False)])
def test_text_bleu_reward_equals_sacrebleu(smooth, effective_order, lowercase):
    completions, references = columns(1, 60)
    reward = BleuReward(tokenize="13a", smooth=smooth, effective_order=effective_order,
                        lowercase=lowercase)
    got = reward(prompts=["p"] * 60, completions=completions, reference=references)
    metric = sacrebleu.BLEU(smooth_method=smooth, effective_order=effective_order,
                            lowercase=lowercase)
    for score, completion, refs in zip(got, completions, references, strict=True):
        want = metric.sentence_score(completion, refs).score / 100
        assert abs(score - want) <= 1e-12, (completion, refs)


def test_text_rewards_take_conversations_and_any_tokenizer():
    completions, references = columns(2, 20)
    conversations = [[{"role": "assistant", "content": text}] for text in completions]
    reward = BleuReward(tokenize="intl", reference_column="answer")
    got = reward(completions=conversations, completion_ids=[[1]] * 20, answer=references)
    want = bleusuite.sentence_bleu(completions, references, tokenize="intl", smooth="exp",
                                   effective_order=True)
    assert got == want.tolist()
    gleu = GleuReward(tokenize="13a", max_len=3)(completions=completions, reference=references)
    tokens = sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()
    for score, completion, refs in zip(gleu, completions, references, strict=True):
        want_gleu = nltk_gleu([tokens(r).split() for r in refs], tokens(completion).split(),
                              max_len=3)
        assert abs(score - want_gleu) <= 1e-12


@pytest.mark.parametrize("smooth", [False, True])
def test_text_bleu_reward_equals_evaluate(smooth):
    """BLEUBERI-style: evaluate's bleu on each completion and its up to 5 references.

    evaluate's ``bleu`` is tensorflow/nmt's ``compute_bleu`` on 13a tokens, which it downloads
    at load time; ``nmt_script`` is its transcription (checked against the real script in
    tests/scores/test_parity_evaluate.py). The metric found in the Hugging Face cache may be
    bleusuite's own script, which evaluate caches under the same name."""
    completions, references = columns(3, 40)
    # evaluate divides by 0 where the completion or the shortest reference is empty
    references = [[ref for ref in refs if ref.strip()] for refs in references]
    keep = [i for i, c in enumerate(completions) if c.strip() and references[i]]
    completions = [completions[i] for i in keep]
    references = [references[i] for i in keep]
    reward = BleuReward(tokenize="13a", smooth="nmt_smooth" if smooth else "no_smooth",
                        effective_order=False, ref_length="shortest")
    got = reward(completions=completions, reference=references)
    assert len(got) == len(completions) > 20
    for score, completion, refs in zip(got, completions, references, strict=True):
        want = nmt_compute_bleu([[tokenize_13a(r) for r in refs]], [tokenize_13a(completion)],
                                4, smooth)[0]
        assert abs(score - want) <= 1e-12, (completion, refs)


# ----------------------------------------------------------------------- self-BLEU


def test_self_bleu_reward_equals_one_minus_sacrebleu_per_member():
    completions = sentences(4, 24)
    prompts = [f"prompt {i // 6}" for i in range(24)]  # 4 groups of 6, as TRL lays them out
    completions[7] = completions[6]  # identical members
    got = SelfBleuReward(tokenize="13a")(prompts=prompts, completions=completions)
    for i, score in enumerate(got):
        group = range(6 * (i // 6), 6 * (i // 6) + 6)
        others = [completions[j] for j in group if j != i]
        want = 1.0 - sacrebleu.sentence_bleu(completions[i], others).score / 100
        assert score is not None and abs(score - max(0.0, want)) <= 1e-12


class Words:
    """A word tokenizer (ids from 10; eos 1, pad 0)."""

    eos_token_id = 1
    pad_token_id = 0

    def __init__(self) -> None:
        self.vocabulary: dict[str, int] = {}

    def encode(self, text: str) -> list[int]:
        return [self.vocabulary.setdefault(w, len(self.vocabulary) + 10) for w in text.split()]


def test_self_bleu_reward_on_ids_groups_and_singletons():
    tokenizer = Words()
    texts = sentences(5, 9)
    ids = [[*tokenizer.encode(text), 1, 55] for text in texts]  # eos, then junk
    prompts = [[{"role": "user", "content": "a"}]] * 4 + ["b"] * 4 + ["c"]
    got = SelfBleuReward(tokenizer, smooth="method1", effective_order=False)(
        prompts=prompts, completions=texts, completion_ids=ids)
    plain = [tokenizer.encode(text) for text in texts]
    want = 1.0 - bleusuite.self_bleu([plain[:4], plain[4:8]], smooth="method1")
    assert got[:8] == np.maximum(want.reshape(-1), 0.0).tolist()
    assert got[8] is None  # alone in its group
    blocks = SelfBleuReward(tokenizer, num_generations=3)(completion_ids=ids)
    want = 1.0 - bleusuite.self_bleu([plain[0:3], plain[3:6], plain[6:9]], smooth="exp",
                                     effective_order=True)
    assert blocks == np.maximum(want.reshape(-1), 0.0).tolist()
    torch = pytest.importorskip("torch")
    width = max(map(len, ids))
    padded = torch.tensor([row + [0] * (width - len(row)) for row in ids])
    assert SelfBleuReward(tokenizer, num_generations=3)(completion_ids=padded) == blocks


def test_reward_settings_are_checked():
    with pytest.raises(ValueError, match="num_generations=4: the 6 completions"):
        SelfBleuReward(tokenize="13a", num_generations=4)(completions=["a"] * 6)
    with pytest.raises(ValueError, match="pass prompts"):
        SelfBleuReward(tokenize="13a")(completions=["a", "b"])
    with pytest.raises(ValueError, match="one entry per completion: 2 completions, got 1"):
        SelfBleuReward(tokenize="13a")(prompts=["p"], completions=["a", "b"])
    with pytest.raises(ValueError, match="num_generations must be >= 2; got 1"):
        SelfBleuReward(tokenize="13a", num_generations=1)
    with pytest.raises(ValueError, match="tokenize must be one of"):
        BleuReward(tokenize="moses")
    with pytest.raises(TypeError, match="or pass tokenize='13a'"):
        BleuReward()
    with pytest.raises(ValueError, match="eos_id and pad_id apply to token ids"):
        BleuReward(tokenize="13a", eos_id=2)
    with pytest.raises(ValueError, match="lowercase=True applies to text"):
        BleuReward(Words(), lowercase=True)
    with pytest.raises(ValueError, match="ref_length must be one of"):
        BleuReward(tokenize="13a", ref_length="first")
    with pytest.raises(TypeError, match=r"completions\[1\] must be a string"):
        BleuReward(tokenize="13a")(completions=["a", 3], reference=["a", "b"])
    with pytest.raises(ValueError, match="2 completions and 1 completion_ids"):
        BleuReward(tokenize="13a")(completions=["a", "b"], completion_ids=[[1]],
                                   reference=["a", "b"])
    assert "tokenize='13a'" in repr(BleuReward(tokenize="13a"))
    assert "num_generations=3" in repr(SelfBleuReward(tokenize="13a", num_generations=3))


# ---------------------------------------------------------------------------- verl


def test_verl_compute_score_equals_sacrebleu():
    completions, references = columns(6, 30)
    for completion, refs in zip(completions, references, strict=True):
        # verl's naive reward manager calls it with these keyword arguments
        got = compute_score(data_source="wmt", solution_str=completion, ground_truth=refs,
                            extra_info={"num_turns": None, "rollout_reward_scores": {}})
        want = sacrebleu.sentence_bleu(completion, refs).score / 100
        assert type(got) is float and abs(got - want) <= 1e-12
    batch = compute_score_batch(data_sources=["wmt"] * 30, solution_strs=completions,
                                ground_truths=[np.array(refs) for refs in references],
                                extra_infos=[{}] * 30)
    single = [compute_score("wmt", c, r) for c, r in zip(completions, references, strict=True)]
    assert batch == single


def test_verl_reward_kwargs_and_extra_arguments():
    # verl merges its configuration's reward_kwargs into the call (they take precedence)
    def call_with_kwargs(raw_fn: Any, extra_kwargs: dict[str, Any], *args: Any,
                         **kwargs: Any) -> Any:
        return raw_fn(*args, **{**kwargs, **extra_kwargs})

    evaluate_like = functools.partial(call_with_kwargs, compute_score,
                                      {"smooth": "no_smooth", "effective_order": False,
                                       "ref_length": "shortest"})
    got = evaluate_like(data_source="x", solution_str="The cat sat on the mat.",
                        ground_truth=["The cat sat on a mat.", "A cat sat."], extra_info=None,
                        **dict.fromkeys(VERL_ARGUMENTS[:2]))
    want = bleusuite.sentence_bleu(["The cat sat on the mat."],
                                   [["The cat sat on a mat.", "A cat sat."]], tokenize="13a",
                                   smooth="no_smooth", effective_order=False,
                                   ref_length="shortest")
    assert got == float(want[0])
    with pytest.raises(TypeError, match=r"unexpected keyword argument.*smoothing"):
        compute_score("x", "a", "a", smoothing="exp")
    with pytest.raises(TypeError, match="solution_str must be a string"):
        compute_score("x", None, "a")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"ground_truth\[1\] must be a string"):
        compute_score("x", "a", ["a", 3])
    with pytest.raises(TypeError, match="non-empty list"):
        compute_score("x", "a", [])
    with pytest.raises(ValueError, match="one entry per response; got 2 and 1"):
        compute_score_batch(["x", "x"], ["a", "b"], ["a"])
