"""The differentiable scores :func:`soft_bleu` and :func:`soft_gleu`: the soft counts of
:mod:`bleusuite.losses.counts` through the exact scores' rules (:mod:`bleusuite.scores.rules`),
on the torch backend, inside the autograd graph."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from torch import Tensor

from bleusuite import checks
from bleusuite.backends.torch import backend as _torch
from bleusuite.losses.counts import ngram_orders, unigram_matches
from bleusuite.scores import rules

__all__ = ["soft_bleu", "soft_gleu"]


def _safe_ratio(numerator: Tensor, denominator: Tensor) -> Tensor:
    """numerator / denominator, exactly 0 where the denominator is 0, finite gradients."""
    floor = torch.finfo(denominator.dtype).eps
    ratio = numerator / denominator.clamp(min=floor)
    return torch.where(denominator > 0, ratio, torch.zeros_like(ratio))


def _bleu_from_statistics(
    matches: Tensor, totals: Tensor, hyp_length: Tensor, ref_length: Tensor, weights: Tensor
) -> Tensor:
    """BLEU = bp * exp(sum_n w_n log p_n), p_n = matches_n / max(1, totals_n) (paper eq. 9)."""
    finfo = torch.finfo(matches.dtype)
    precision = matches / totals.clamp(min=1.0)
    # log is evaluated at >= tiny so that 1/p never overflows; exact zeros are handled below
    log_precision = torch.log(precision.clamp(min=finfo.tiny))
    # the brevity penalty's log, min(0, 1 - r/c); c is floored at eps so that r/c^2 in the
    # gradient stays finite (an empty hypothesis scores 0 below)
    log_bp = rules.log_brevity_penalty(_torch, hyp_length.clamp(min=finfo.eps), ref_length)
    score = torch.exp(log_bp + (log_precision * weights).sum(dim=-1))
    # As ignite's "no_smooth": exactly 0 when an order (with a positive weight) has no match,
    # or when the hypothesis is empty. For soft inputs matches are never exactly 0.
    zero = (hyp_length <= 0) | ((matches <= 0) & (weights > 0)).any(dim=-1)
    return torch.where(zero, torch.zeros_like(score), score)


def soft_bleu(
    hyp_probs: Tensor,
    references: Tensor | Sequence[Any],
    *,
    max_order: int = 4,
    weights: Sequence[float] | Tensor | None = None,
    eos_id: int | None = None,
    pad_id: int | None = None,
    corpus: bool = False,
) -> Tensor:
    """Differentiable BLEU of token distributions against references.

    Args:
        hyp_probs: ``(B, T, V)`` floating tensor of token distributions (softmax or
            Gumbel-softmax output; not checked to sum to 1).
        references: token ids ``(B, Tr)`` / ``(B, R, Tr)``, or distributions ``(B, Tr, V)`` /
            ``(B, R, Tr, V)`` (also differentiable); or, with ``pad_id`` or ``eos_id``,
            ragged ids: a list of 1-D tensors or token lists (or of lists of them, ``R`` each).
        max_order: largest n-gram order N (>= 1).
        weights: N non-negative weights of ``log p_n``; uniform ``1/N`` by default.
        eos_id: end-of-sentence id: a sentence ends before its first eos (for distributions
            the soft length mask ``prod_{i<=t} (1 - p_i(eos))``).
        pad_id: padding id, removed from id references; in distributions a position is
            weighted by ``1 - p(pad)`` (n-grams across a pad are dropped). A ``pad_id``
            outside ``[0, V)`` (e.g. -100) only applies to id references.
        corpus: ``False``: one score per sentence, ``(B,)``. ``True``: minibatch BLEU, shape
            ``()``, of the statistics summed over the batch (paper, appendix A).

    Returns:
        BLEU with the dtype and device of ``hyp_probs``; for one-hot inputs pytorch-ignite's
        BLEU with ``smooth="no_smooth"`` (``average="macro"``, or ``"micro"`` with
        ``corpus=True``), 0 when an order has no match.

    Example:
        >>> import torch
        >>> from bleusuite.losses import soft_bleu
        >>> ref = torch.tensor([[3, 1, 4, 1, 5, 9, 2, 6]])
        >>> hyp = torch.nn.functional.one_hot(ref, 10).double()
        >>> soft_bleu(hyp, ref)
        tensor([1.], dtype=torch.float64)
        >>> logits = (4.0 * hyp).requires_grad_()
        >>> score = soft_bleu(logits.softmax(-1), ref)
        >>> round(score.item(), 3)
        0.692
        >>> score.sum().backward()
        >>> bool(torch.isfinite(logits.grad).all())
        True
    """
    max_order = checks.order(max_order, "max_order")
    unigrams = unigram_matches(hyp_probs, references, eos_id, pad_id)
    like = unigrams.hyp_mask
    weight_tensor = torch.tensor(
        [1.0 / max_order] * max_order if weights is None else checks.weights(weights, max_order),
        dtype=like.dtype, device=like.device)

    matches, totals = [], []
    for stats in ngram_orders(unigrams, max_order):
        best_ref_count = stats.ref_count.amax(dim=1)
        clipped = stats.first * torch.minimum(stats.hyp_count, best_ref_count)
        matches.append(clipped.sum(dim=-1))
        totals.append(stats.hyp_total)
    match_counts = torch.stack(matches, dim=-1)  # (B, N)
    ngram_counts = torch.stack(totals, dim=-1)
    hyp_length = unigrams.hyp_mask.sum(dim=-1)
    ref_length = rules.closest_ref_len(
        _torch, hyp_length, unigrams.ref_mask.sum(dim=-1), far=torch.inf
    )
    if corpus:
        return _bleu_from_statistics(match_counts.sum(0), ngram_counts.sum(0), hyp_length.sum(),
                                     ref_length.sum(), weight_tensor)
    return _bleu_from_statistics(match_counts, ngram_counts, hyp_length, ref_length, weight_tensor)


def soft_gleu(
    hyp_probs: Tensor,
    references: Tensor | Sequence[Any],
    *,
    min_len: int = 1,
    max_len: int = 4,
    eos_id: int | None = None,
    pad_id: int | None = None,
    corpus: bool = False,
) -> Tensor:
    """Differentiable GLEU (Wu et al., 2016) of token distributions against references.

    The n-grams of orders ``min_len..max_len`` are pooled; the score is ``tp / n_all``
    (clipped matches / ``max(hyp n-grams, ref n-grams)``) of the best reference.

    Args:
        hyp_probs: ``(B, T, V)`` floating tensor of token distributions.
        references: ids ``(B, Tr)`` / ``(B, R, Tr)`` or distributions ``(B, Tr, V)`` /
            ``(B, R, Tr, V)``; see :func:`soft_bleu`.
        min_len: smallest n-gram order (>= 1).
        max_len: largest n-gram order (>= ``min_len``).
        eos_id: end-of-sentence id; see :func:`soft_bleu`.
        pad_id: padding id; see :func:`soft_bleu`.
        corpus: ``False``: scores of shape ``(B,)``. ``True``: ``sum tp / sum n_all`` over
            the batch (NLTK's ``corpus_gleu``; paper eq. 7), shape ``()``.

    Returns:
        GLEU with the dtype and device of ``hyp_probs``; for one-hot inputs it equals
        NLTK's ``sentence_gleu`` / ``corpus_gleu``.

    Example:
        >>> import torch
        >>> from bleusuite.losses import soft_gleu
        >>> ref = torch.tensor([[5, 6, 7, 8, 2, 0, 0]])          # eos = 2, pad = 0
        >>> hyp = torch.nn.functional.one_hot(torch.tensor([[5, 6, 7, 9, 2, 0, 0]]), 10)
        >>> soft_gleu(hyp.double(), ref, eos_id=2, pad_id=0)  # 3+2+1 of 4+3+2+1 n-grams
        tensor([0.6000], dtype=torch.float64)
    """
    min_len, max_len = checks.gleu_orders(min_len, max_len)
    unigrams = unigram_matches(hyp_probs, references, eos_id, pad_id)

    tp_terms, hyp_terms, ref_terms = [], [], []
    for stats in ngram_orders(unigrams, max_len):
        if stats.order >= min_len:
            counts = torch.minimum(stats.hyp_count[:, None, :], stats.ref_count)
            tp_terms.append((stats.first[:, None, :] * counts).sum(dim=-1))  # (B, R)
            hyp_terms.append(stats.hyp_total)
            ref_terms.append(stats.ref_total)
    true_positives = torch.stack(tp_terms).sum(dim=0)
    hyp_total = torch.stack(hyp_terms).sum(dim=0)
    ref_total = torch.stack(ref_terms).sum(dim=0)
    n_all = torch.maximum(hyp_total[:, None], ref_total)  # (B, R)
    # best reference: highest ratio among those with n_all > 0, first on ties
    floor = torch.finfo(n_all.dtype).eps
    best = rules.best_reference(
        _torch, true_positives.detach(), n_all.detach(), n_all > 0, floor=floor
    )
    tp_best = true_positives.gather(1, best).squeeze(1)
    n_all_best = n_all.gather(1, best).squeeze(1)
    if corpus:
        return _safe_ratio(tp_best.sum(), n_all_best.sum())
    return _safe_ratio(tp_best, n_all_best)
