"""What a type checker infers for the public functions: checked by mypy (``tox -e type``
runs ``mypy``, whose ``files`` include this folder), never executed.

Each ``assert_type`` fails the type check when the inferred type differs, ``Any``
included (an untyped result does not pass), so a lost overload or an ``Any`` creeping
back into a signature fails ``tox -e type``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jax
    import jax.numpy as jnp
    import numpy as np
    import numpy.typing as npt
    import torch
    from typing_extensions import assert_type

    import bleusuite
    from bleusuite import (
        BleuResult,
        BleuStats,
        GleuResult,
        GleuStats,
        RougeResult,
        RougeStats,
        TerResult,
        TerStats,
    )
    from bleusuite.array_types import Scores
    from bleusuite.losses import BleuLoss, soft_bleu, soft_gleu
    from bleusuite.rewards import BleuReward, GleuReward

    Counts = npt.NDArray[np.int64]


def numpy_arrays(
    hyp: npt.NDArray[np.int64], refs: npt.NDArray[np.int32], rows: list[npt.NDArray[np.int64]]
) -> None:
    """NumPy in, NumPy float64 out; statistics hold NumPy int64 arrays."""
    assert_type(bleusuite.sentence_bleu(hyp, refs, pad_id=0), Scores)
    assert_type(bleusuite.corpus_bleu(hyp, refs, smooth="exp"), Scores)
    assert_type(bleusuite.sentence_gleu(hyp, refs, eos_id=np.int64(2)), Scores)
    assert_type(bleusuite.corpus_gleu(hyp, refs), Scores)
    assert_type(bleusuite.sentence_bleu(rows, [rows]), Scores)  # ragged
    stats = bleusuite.bleu_statistics(hyp, refs)
    assert_type(stats, BleuStats[Counts])
    assert_type(stats.matches, Counts)
    assert_type(stats.sum(), BleuStats[Counts])
    assert_type(bleusuite.bleu_score(stats), Scores)
    assert_type(bleusuite.bleu_score(stats.sum()), Scores)
    gleu = bleusuite.gleu_statistics(hyp, refs)
    assert_type(gleu, GleuStats[Counts])
    assert_type(bleusuite.gleu_score(gleu[1:] + gleu[:1]), Scores)
    assert_type(bleusuite.corpus_bleu_result(hyp, refs), BleuResult)
    assert_type(bleusuite.corpus_gleu_result(hyp, refs), GleuResult)


def python_lists() -> None:
    """Token lists and text give NumPy too."""
    assert_type(bleusuite.sentence_bleu([[1, 2, 3]], [[[1, 2, 3], [1, 2]]]), Scores)
    assert_type(bleusuite.corpus_bleu([["a", "b"]], [[["a", "b"]]]), Scores)
    assert_type(bleusuite.sentence_gleu(["a b"], ["a b"], tokenize="13a"), Scores)
    assert_type(bleusuite.corpus_gleu(["a b"], [["a b", "a c"]], tokenize="13a"), Scores)
    assert_type(bleusuite.bleu_statistics([[1, 2]], [[[1, 2]]]), BleuStats[Counts])
    assert_type(bleusuite.sentence_rouge(["a b"], [["a b", "a"]], use_stemmer=True), Scores)
    assert_type(bleusuite.corpus_rouge(["a b"], ["a b"], rouge_type="rouge2"), Scores)
    rouge = bleusuite.rouge_scores(["a b"], ["a b"])
    assert_type(rouge, dict[str, RougeStats[Scores]])
    assert_type(bleusuite.rouge_score(rouge["rougeL"].sum()), Scores)
    assert_type(bleusuite.corpus_rouge_result(["a b"], ["a b"]), RougeResult)


def torch_tensors(hyp: torch.Tensor, refs: torch.Tensor, rows: list[torch.Tensor]) -> None:
    """torch in (padded, ragged, or on one side only), torch out."""
    assert_type(bleusuite.sentence_bleu(hyp, refs), torch.Tensor)
    assert_type(bleusuite.corpus_bleu(hyp, refs), torch.Tensor)
    assert_type(bleusuite.sentence_gleu(hyp, refs), torch.Tensor)
    assert_type(bleusuite.corpus_gleu(hyp, refs), torch.Tensor)
    assert_type(bleusuite.sentence_bleu(rows, [rows]), torch.Tensor)  # ragged
    assert_type(bleusuite.sentence_bleu([[5, 6, 7]], refs), torch.Tensor)
    stats = bleusuite.bleu_statistics(hyp, refs, max_order=2)
    assert_type(stats, BleuStats[torch.Tensor])
    assert_type(bleusuite.bleu_score(stats.sum()), torch.Tensor)
    assert_type(BleuStats.from_array(stats.to_array()), BleuStats[torch.Tensor])
    assert_type(bleusuite.gleu_score(bleusuite.gleu_statistics(hyp, refs)), torch.Tensor)
    assert_type(bleusuite.sentence_rouge(hyp, refs, tokenize=None), torch.Tensor)
    rouge = bleusuite.rouge_scores(hyp, refs, rouge_types=["rouge1"], tokenize=None)
    assert_type(bleusuite.rouge_score(rouge["rouge1"]), torch.Tensor)


def jax_arrays(hyp: jax.Array) -> None:
    """Any other array library's type comes back as itself (JAX where it is installed)."""
    assert_type(bleusuite.sentence_bleu(hyp, jnp.asarray(hyp)), jax.Array)
    assert_type(bleusuite.corpus_gleu(hyp, hyp), jax.Array)


def ter(hyp: npt.NDArray[np.int64], refs: npt.NDArray[np.int32], tensor: torch.Tensor) -> None:
    """TER: text and NumPy give NumPy, a tensor a tensor; its statistics are NumPy's."""
    assert_type(bleusuite.sentence_ter(["a b"], ["a c"], normalized=True), Scores)
    assert_type(bleusuite.corpus_ter(hyp, refs, pad_id=0), Scores)
    assert_type(bleusuite.sentence_ter(tensor, tensor), torch.Tensor)
    stats = bleusuite.ter_statistics(["a b"], [["a c", "b"]])
    assert_type(stats, TerStats[np.ndarray])
    assert_type(bleusuite.corpus_ter_result(["a b"], ["a c"]), TerResult)


def losses_and_rewards(probs: torch.Tensor, refs: torch.Tensor) -> None:
    """The losses take and give tensors; the rewards give one float per completion."""
    assert_type(soft_bleu(probs, refs), torch.Tensor)
    assert_type(soft_gleu(probs, [[[1, 2]]], pad_id=0), torch.Tensor)
    assert_type(BleuLoss()(probs, refs), torch.Tensor)
    reward = BleuReward(tokenizer=_Words())
    assert_type(reward(completion_ids=[[5, 6]], reference=["a b"]), list[float])
    assert_type(GleuReward(_Words())(completion_ids=refs, reference=["a b"]), list[float])


class _Words:
    def encode(self, text: str) -> list[int]:
        return [len(word) for word in text.split()]
