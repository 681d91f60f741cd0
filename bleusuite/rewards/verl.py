"""BLEU rewards in verl's calling convention (``custom_reward_function``; see
``docs/rl-reward.md``): :func:`compute_score` (one decoded response against its
``ground_truth``, a string or a list of them) and :func:`compute_score_batch` (verl's
``batch`` reward manager). By default sacrebleu's sentence BLEU on the ``13a`` tokens,
/ 100; ``smooth="no_smooth", effective_order=False, ref_length="shortest"`` gives
evaluate's ``bleu``. ``data_source`` and ``extra_info`` are not used.

>>> from bleusuite.rewards.verl import compute_score, compute_score_batch
>>> compute_score("wmt", "The cat sat on the mat.", "The cat sat on a mat.")
0.4889230224349009
>>> scores = compute_score_batch(["wmt", "wmt"], ["a b c d", "x y"], ["a b c e", ["y", "x y z"]])
>>> [round(score, 4) for score in scores]
[0.5946, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bleusuite.scores.bleu.score import sentence_bleu

__all__ = ["VERL_ARGUMENTS", "compute_score", "compute_score_batch"]

#: keyword arguments some verl reward managers pass that a BLEU reward does not use
VERL_ARGUMENTS = ("reward_router_address", "reward_model_tokenizer", "sandbox_fusion_url",
                  "concurrent_semaphore", "memory_limit_mb")


def _references(ground_truth: Any, name: str) -> list[str]:
    """The reference strings of one ground truth: a string, or a list (or array) of them."""
    if isinstance(ground_truth, str):
        return [ground_truth]
    values = ground_truth.tolist() if hasattr(ground_truth, "tolist") else ground_truth
    if not isinstance(values, Sequence) or isinstance(values, bytes) or not values:
        raise TypeError(f"{name} must be a reference string or a non-empty list of them; got "
                        f"{type(ground_truth).__name__}")
    for position, value in enumerate(values):
        if not isinstance(value, str):
            raise TypeError(f"{name}[{position}] must be a string; got {type(value).__name__}")
    return list(values)


def compute_score_batch(
    data_sources: Sequence[Any],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[Any] | None = None,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    max_order: int = 4,
    smooth: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = True,
    ref_length: str = "closest",
    **verl_arguments: Any,
) -> list[float]:
    """BLEU of each decoded response against its ground truth, in one call (verl's
    ``batch`` reward manager). Settings as :func:`bleusuite.sentence_bleu` (by default
    sacrebleu's sentence BLEU on the ``13a`` tokens, on the 0-1 scale).

    Raises:
        TypeError, ValueError: malformed responses or ground truths (the message names
            them), or an unknown setting.
    """
    unknown = sorted(set(verl_arguments) - set(VERL_ARGUMENTS))
    if unknown:
        raise TypeError(f"unexpected keyword argument(s) {', '.join(unknown)}; the settings are "
                        "tokenize, lowercase, max_order, smooth, smooth_value, "
                        "effective_order, ref_length")
    if isinstance(solution_strs, str) or not isinstance(solution_strs, Sequence):
        raise TypeError(f"solution_strs must be a list of strings; got "
                        f"{type(solution_strs).__name__}")
    if len(ground_truths) != len(solution_strs):
        raise ValueError(f"solution_strs and ground_truths must have one entry per response; "
                         f"got {len(solution_strs)} and {len(ground_truths)}")
    references = [_references(truth, f"ground_truths[{row}]")
                  for row, truth in enumerate(ground_truths)]
    scores = sentence_bleu(list(solution_strs), references, tokenize=tokenize,
                           lowercase=lowercase, max_order=max_order, smooth=smooth,
                           smooth_value=smooth_value, effective_order=effective_order,
                           ref_length=ref_length)
    result: list[float] = scores.tolist()
    return result


def compute_score(
    data_source: Any,
    solution_str: str,
    ground_truth: str | Sequence[str],
    extra_info: dict[str, Any] | None = None,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    max_order: int = 4,
    smooth: str = "exp",
    smooth_value: float | None = None,
    effective_order: bool = True,
    ref_length: str = "closest",
    **verl_arguments: Any,
) -> float:
    """BLEU of one decoded response against its ground truth: verl's reward-function
    signature (``compute_score(data_source, solution_str, ground_truth, extra_info)``, the
    settings as keyword arguments, verl's ``reward_kwargs``). Settings as
    :func:`compute_score_batch`.

    Raises:
        TypeError, ValueError: a response that is not a string, a malformed ground truth,
            or an unknown setting.
    """
    if not isinstance(solution_str, str):
        raise TypeError(f"solution_str must be a string; got {type(solution_str).__name__}")
    return compute_score_batch(
        [data_source], [solution_str], [_references(ground_truth, "ground_truth")],
        tokenize=tokenize, lowercase=lowercase, max_order=max_order, smooth=smooth,
        smooth_value=smooth_value, effective_order=effective_order, ref_length=ref_length,
        **verl_arguments)[0]
