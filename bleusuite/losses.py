"""Differentiable BLEU and GLEU scores and losses (Casas et al., 2018).

The hypothesis is a batch of token *distributions* ``hyp_probs`` of shape ``(B, T, V)``
(softmax or Gumbel-softmax outputs); the references are token ids ``(B, T)`` /
``(B, R, T)`` or distributions ``(B, T, V)`` / ``(B, R, T, V)``. Every step of the
n-gram counting is written with products and sums of probabilities, so the scores are
differentiable with respect to ``hyp_probs`` (and to reference distributions):

1. Length masks: ``mask[t] = prod_{i <= t} (1 - p_i(eos))`` (paper, eq. 2), times
   ``1 - p_t(pad)`` when ``pad_id`` is a vocabulary entry.
2. The 1-gram match matrix of the hypothesis against each reference,
   ``M[b, i, j] = <hyp_i, ref_j> * mask_i * mask_j``: a column gather for id
   references, a batched matmul for distributions. Never ``B x T x T x V``.
3. n-gram match matrices: products along the diagonals of the 1-gram matrix (eq. 6),
   built one order at a time, ``M_n[i, j] = M_{n-1}[i, j] * M_1[i + n - 1, j + n - 1]``.
4. Clipped counts with the paper's validity mask. ``first[i] = prod_{i' < i} (1 - S_n[i', i])``
   (``S_n`` = the hypothesis matched against itself) is 1 when hypothesis n-gram ``i`` is
   its first occurrence; ``count[i] = sum_{i' >= i} S_n[i, i']`` is how often it occurs
   from there on (all of its occurrences, for a first one) and
   ``ref_count[i] = sum_j M_n[i, j]`` how often it occurs in the reference. The clipped
   match count is ``sum_i first[i] * min(count[i], max_r ref_count_r[i])``. For one-hot
   inputs this is exactly ``sum_g min(count_hyp(g), max_r count_ref_r(g))`` and equals the
   paper's figure-1 construction (min of the two count-weighted match matrices), without
   needing the reference's own match matrix.
5. BLEU: ``bp * exp(sum_n w_n log p_n)`` with the brevity penalty inside the graph;
   GLEU: ``tp / max(hyp_total, ref_total)`` with the best reference.

With strictly one-hot inputs the scores equal pytorch-ignite's sentence BLEU with
``smooth="no_smooth"`` and NLTK's ``sentence_gleu`` (to rounding). ``corpus=True``
sums the statistics over the batch before the final division and exponentiation
(paper, appendix A), like ignite's ``average="micro"`` and NLTK's ``corpus_gleu``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

try:
    import torch
    from torch import Tensor, nn
except ImportError as _error:
    raise ImportError(
        f"bleusuite.losses needs torch ({_error}); install it with pip install "
        "'bleusuite[torch]'"
    ) from _error

from bleusuite import checks

__all__ = ["BleuLoss", "GleuLoss", "soft_bleu", "soft_gleu"]

Reduction = Literal["mean", "sum", "none"]
_REDUCTIONS = ("mean", "sum", "none")


# ---------------------------------------------------------------------------------------
# input validation
# ---------------------------------------------------------------------------------------


def _check_int(name: str, value: object, minimum: int) -> int:
    return checks.integer(value, name, minimum=minimum)


def _check_token_id(name: str, value: object) -> int | None:
    return checks.token_id(value, name)


def _check_hyp_probs(hyp_probs: object) -> Tensor:
    if not isinstance(hyp_probs, Tensor):
        raise TypeError(f"hyp_probs must be a torch.Tensor, got {type(hyp_probs).__name__}")
    if not hyp_probs.is_floating_point():
        raise TypeError(
            f"hyp_probs must be a floating point tensor of probabilities, got {hyp_probs.dtype}"
        )
    if hyp_probs.ndim != 3:
        raise ValueError(
            f"hyp_probs must have shape (batch, length, vocab), got shape {tuple(hyp_probs.shape)}"
        )
    if hyp_probs.shape[2] == 0:
        raise ValueError("hyp_probs must have a non-empty vocabulary dimension, got V = 0")
    return hyp_probs


def _check_eos(eos_id: int | None, vocab_size: int) -> int | None:
    eos_id = _check_token_id("eos_id", eos_id)
    if eos_id is not None and not 0 <= eos_id < vocab_size:
        raise ValueError(
            f"eos_id must be a vocabulary index in [0, {vocab_size}) (its probability ends the "
            f"sentence), got {eos_id}"
        )
    return eos_id


def _check_reduction(reduction: object) -> Reduction:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"reduction must be one of {_REDUCTIONS}, got {reduction!r}")
    return reduction  # type: ignore[return-value]


def _check_eps(eps: object) -> float:
    return checks.number(eps, "eps", positive=True)


def _bleu_weights(weights: Sequence[float] | Tensor | None, max_order: int, like: Tensor) -> Tensor:
    if weights is None:
        return torch.full((max_order,), 1.0 / max_order, dtype=like.dtype, device=like.device)
    if isinstance(weights, (str, bytes)) or not isinstance(weights, (Sequence, Tensor)):
        raise TypeError(f"weights must be a sequence of floats, got {type(weights).__name__}")
    result = torch.as_tensor(weights, dtype=like.dtype)  # checked before it goes to the device
    if result.shape != (max_order,):
        raise ValueError(
            f"weights must hold max_order={max_order} values, got shape {tuple(result.shape)}"
        )
    if not bool(torch.isfinite(result).all()) or bool((result < 0).any()):
        raise ValueError(f"weights must be finite and non-negative, got {result.tolist()}")
    return result.to(like.device)


# ---------------------------------------------------------------------------------------
# 1-gram match matrices
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Unigrams:
    hyp_mask: Tensor  # (B, T)        soft "still inside the sentence" weight per position
    ref_mask: Tensor  # (B, R, Tr)
    self_match: Tensor  # (B, T, T)   hypothesis against itself, diagonal = hyp_mask
    cross_match: Tensor  # (B, R, T, Tr) hypothesis against each reference


def _special_columns(eos_id: int | None, pad_id: int | None, vocab_size: int) -> list[int]:
    """Vocabulary columns read for the length mask: eos first, then pad if it is an entry."""
    columns = [] if eos_id is None else [eos_id]
    if pad_id is not None and pad_id != eos_id and 0 <= pad_id < vocab_size:
        columns.append(pad_id)
    return columns


def _length_mask(special_probs: Tensor, eos_id: int | None) -> Tensor:
    """Paper eq. 2: ``prod_{i <= t} (1 - p_i(eos))``, times ``1 - p_t(pad)``.

    ``special_probs`` (..., T, k) holds the probabilities of :func:`_special_columns`.
    """
    keep = 1.0 - special_probs
    mask = torch.ones(keep.shape[:-1], dtype=keep.dtype, device=keep.device)
    has_eos = eos_id is not None
    if has_eos:
        mask = torch.cumprod(keep[..., 0], dim=-1)
    if keep.shape[-1] > int(has_eos):
        mask = mask * keep[..., -1]
    return mask


class _GatherAndSelfInner(torch.autograd.Function):
    """``(x.gather(2, index), x @ x^T)`` per batch, differentiable in ``x``.

    One function for both so that the backward builds a single ``(B, T, V)`` gradient: one
    matmul ``(dG + dG^T) @ x`` (not two), into which the gathered gradient is scattered
    (no separate zero-filled buffer and sum).
    """

    @staticmethod
    def forward(ctx: Any, x: Tensor, index: Tensor) -> tuple[Tensor, Tensor]:
        ctx.save_for_backward(x, index)
        return torch.gather(x, 2, index), torch.bmm(x, x.transpose(1, 2))

    @staticmethod
    def backward(ctx: Any, grad_gathered: Tensor, grad_gram: Tensor) -> tuple[Tensor, None]:
        x, index = ctx.saved_tensors
        grad = torch.bmm(grad_gram + grad_gram.transpose(1, 2), x)
        return grad.scatter_add_(2, index, grad_gathered), None


def _compact_id_references(
    refs: Tensor, eos_id: int | None, pad_id: int | None, vocab_size: int
) -> tuple[Tensor, Tensor]:
    """Cut id references at their first eos, drop pad ids, left-align the rest.

    Returns the ids (0 where masked, so that they are safe gather indices) and a 0/1 mask.
    """
    valid = torch.ones_like(refs, dtype=torch.bool)
    if pad_id is not None:
        valid = valid & (refs != pad_id)
    if eos_id is not None:
        valid = valid & (torch.cumsum(refs == eos_id, dim=-1) == 0)
    if eos_id is not None or pad_id is not None:
        # a stable sort of the "invalid" flags moves the kept tokens to the front in order,
        # so a pad in the middle of a reference joins its neighbours, as in the exact metric
        order = torch.argsort((~valid).to(torch.int8), dim=-1, stable=True)
        refs = torch.gather(refs, -1, order)
        lengths = valid.sum(dim=-1, keepdim=True)
        positions = torch.arange(refs.shape[-1], device=refs.device)
        valid = positions < lengths
    out_of_range = valid & ((refs < 0) | (refs >= vocab_size))
    # One host sync: an out-of-range gather index is a hard device assert on CUDA.
    if bool(out_of_range.any()):
        bad = refs[out_of_range][0].item()
        raise ValueError(
            f"references contains token id {bad}, outside the vocabulary [0, {vocab_size}) "
            "of hyp_probs (only eos_id/pad_id may lie outside it)"
        )
    return torch.where(valid, refs, torch.zeros_like(refs)), valid


def _pack_id_references(
    references: Sequence[Any], like: Tensor, eos_id: int | None, pad_id: int | None
) -> Tensor:
    """Ragged id references (lists of 1-D tensors or token lists) as one ``(B, R, L)`` tensor.

    A row is one 1-D tensor (one reference) or a list of references (NLTK's form); every row
    needs the same number of references. Past each reference's end the tensor holds
    ``pad_id`` (or, without one, ``eos_id``), which the loss then ignores.
    """
    from bleusuite.inputs import pack_sentences

    fill = pad_id if pad_id is not None else eos_id
    if fill is None:
        raise ValueError(
            "references given as a list (ragged) need pad_id or eos_id: the packed "
            "references are filled with it past each reference's end"
        )
    sentences: list[Any] = []
    counts = set()
    for row, refs in enumerate(references):
        if isinstance(refs, Tensor):
            refs = [refs]
        elif not isinstance(refs, Sequence) or isinstance(refs, str | bytes) or (
            len(refs) and not isinstance(refs[0], Tensor | Sequence)
        ):
            raise TypeError(
                f"references[{row}] must be a 1-D tensor (one reference) or a list of "
                "references (tensors or token lists)"
            )
        counts.add(len(refs))
        sentences.extend(refs)
    if len(counts) > 1:
        raise ValueError(
            "references must give every sentence the same number of references for the "
            f"losses; got {sorted(counts)}"
        )
    tokens, lengths = pack_sentences(sentences, like=like, argname="references")
    width = max(int(tokens.shape[1]), 1)
    positions = torch.arange(width, device=like.device)
    tokens = torch.nn.functional.pad(tokens, (0, width - tokens.shape[1]))
    tokens = torch.where(positions < lengths[:, None], tokens, torch.full_like(tokens, fill))
    return tokens.reshape(len(references), counts.pop() if counts else 1, width)


def _unigram_matches(
    hyp_probs: Tensor, references: object, eos_id: int | None, pad_id: int | None
) -> _Unigrams:
    batch, length, vocab_size = hyp_probs.shape
    if isinstance(references, list | tuple):
        references = _pack_id_references(references, hyp_probs, eos_id, pad_id)
    if not isinstance(references, Tensor):
        raise TypeError(f"references must be a torch.Tensor, got {type(references).__name__}")
    if references.device != hyp_probs.device:
        raise ValueError(
            f"references is on {references.device} but hyp_probs is on {hyp_probs.device}"
        )
    if references.shape[:1] != (batch,):
        raise ValueError(
            f"references must have the batch size of hyp_probs ({batch}), "
            f"got shape {tuple(references.shape)}"
        )

    if references.dtype == torch.bool or references.is_complex():
        raise TypeError(
            f"references must be integer token ids or floating point distributions, "
            f"got {references.dtype}"
        )
    columns = _special_columns(eos_id, pad_id, vocab_size)
    flat: Tensor  # (B, T, R * Tr): <hyp_i, ref_j> before masking
    if references.is_floating_point():
        if references.ndim == 3:
            references = references.unsqueeze(1)
        if references.ndim != 4 or references.shape[-1] != vocab_size:
            raise ValueError(
                "distribution references must have shape (batch, length, vocab) or "
                f"(batch, refs, length, vocab) with vocab = {vocab_size}, "
                f"got shape {tuple(references.shape)}"
            )
        references = references.to(hyp_probs.dtype)
        num_refs, ref_length = references.shape[1], references.shape[2]
        ref_mask = _length_mask(references[..., columns], eos_id)
        index = torch.tensor(columns, dtype=torch.long, device=hyp_probs.device)
        index = index.expand(batch, length, len(columns))
        hyp_special, gram = _GatherAndSelfInner.apply(hyp_probs, index)
        flat = torch.bmm(hyp_probs, references.reshape(batch, -1, vocab_size).transpose(1, 2))
    else:
        if references.ndim == 2:
            references = references.unsqueeze(1)
        if references.ndim != 3:
            raise ValueError(
                "id references must have shape (batch, length) or (batch, refs, length), "
                f"got shape {tuple(references.shape)}"
            )
        num_refs, ref_length = references.shape[1], references.shape[2]
        ids, valid = _compact_id_references(references.long(), eos_id, pad_id, vocab_size)
        ref_mask = valid.to(hyp_probs.dtype)
        # M[b, i, (r, j)] = hyp_probs[b, i, ref[b, r, j]], and the eos / pad columns: a gather
        # of columns, never a (B, T, T, V) product.
        special = torch.tensor(columns, dtype=ids.dtype, device=ids.device)
        index = torch.cat([ids.reshape(batch, -1), special.expand(batch, len(columns))], dim=1)
        index = index[:, None, :].expand(batch, length, -1)
        gathered, gram = _GatherAndSelfInner.apply(hyp_probs, index)
        flat, hyp_special = gathered.split([num_refs * ref_length, len(columns)], dim=2)
    if num_refs == 0:
        raise ValueError("references must hold at least one reference per sentence, got R = 0")

    hyp_mask = _length_mask(hyp_special, eos_id)
    cross = flat.reshape(batch, length, num_refs, ref_length).permute(0, 2, 1, 3)
    cross = cross * hyp_mask[:, None, :, None] * ref_mask[:, :, None, :]

    eye = torch.eye(length, dtype=hyp_probs.dtype, device=hyp_probs.device)
    # An n-gram always matches itself: the diagonal is the position's mask, not |p|^2,
    # so that the self-count of an n-gram is its own weight plus its soft repetitions.
    self_match = gram * (hyp_mask[:, :, None] * hyp_mask[:, None, :]) * (1.0 - eye)
    self_match = self_match + torch.diag_embed(hyp_mask)
    return _Unigrams(hyp_mask, ref_mask, self_match, cross)


# ---------------------------------------------------------------------------------------
# n-gram statistics
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _OrderStats:
    order: int
    first: Tensor  # (B, Tn)   1 where hypothesis n-gram i is its first occurrence
    hyp_count: Tensor  # (B, Tn)  occurrences of hypothesis n-gram i in the hypothesis
    ref_count: Tensor  # (B, R, Tn) occurrences of hypothesis n-gram i in each reference
    hyp_total: Tensor  # (B,)     number of hypothesis n-grams
    ref_total: Tensor  # (B, R)   number of reference n-grams


def _ngram_orders(unigrams: _Unigrams, max_order: int) -> Iterator[_OrderStats]:
    """Yield the statistics of orders 1..max_order (paper eq. 6 and figure 1)."""
    cross_1, self_1 = unigrams.cross_match, unigrams.self_match
    hyp_mask, ref_mask = unigrams.hyp_mask, unigrams.ref_mask
    cross, self_match, hyp_weight, ref_weight = cross_1, self_1, hyp_mask, ref_mask
    for order in range(1, max_order + 1):
        if order > 1:
            shift = order - 1
            cross = cross[..., :-1, :-1] * cross_1[..., shift:, shift:]
            self_match = self_match[..., :-1, :-1] * self_1[..., shift:, shift:]
            hyp_weight = hyp_weight[..., :-1] * hyp_mask[..., shift:]
            ref_weight = ref_weight[..., :-1] * ref_mask[..., shift:]
        size = self_match.shape[-1]
        position = torch.arange(size, device=self_match.device)
        upper = position[:, None] < position[None, :]
        # first[i] = prod_{a < i} (1 - S[a, i]): 1 when hypothesis n-gram i is its first
        # occurrence (the paper's validity mask); torch.prod differentiates through zeros.
        first = torch.where(upper, 1.0 - self_match, 1.0).prod(dim=-2)
        # count[i] = sum_{c >= i} S[i, c]: occurrence i and the later ones. For a first
        # occurrence that is all of them, so one-hot counts are exact; leaving the earlier
        # ones out keeps soft clipped counts from exceeding the number of n-grams by more
        # than about 1% (counting them too gave up to 9% on flat two-word distributions).
        yield _OrderStats(
            order=order,
            first=first,
            hyp_count=torch.where(upper.mT, 0.0, self_match).sum(dim=-1),
            ref_count=cross.sum(dim=-1),
            hyp_total=hyp_weight.sum(dim=-1),
            ref_total=ref_weight.sum(dim=-1),
        )


def _closest_ref_length(hyp_length: Tensor, ref_lengths: Tensor) -> Tensor:
    """Reference length nearest to the hypothesis length, ties to the shorter one."""
    distance = (ref_lengths - hyp_length[:, None]).abs().detach()
    nearest = distance.amin(dim=-1, keepdim=True)
    candidates = torch.where(
        distance <= nearest, ref_lengths, torch.full_like(ref_lengths, torch.inf)
    )
    return candidates.amin(dim=-1)


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
    # bp = min(1, exp(1 - r/c)); c is floored at eps so r/c^2 in the gradient stays finite
    log_bp = (1.0 - ref_length / hyp_length.clamp(min=finfo.eps)).clamp(max=0.0)
    score = torch.exp(log_bp + (log_precision * weights).sum(dim=-1))
    # As ignite's "no_smooth": exactly 0 when an order (with a positive weight) has no match,
    # or when the hypothesis is empty. For soft inputs matches are never exactly 0.
    zero = (hyp_length <= 0) | ((matches <= 0) & (weights > 0)).any(dim=-1)
    return torch.where(zero, torch.zeros_like(score), score)


# ---------------------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------------------


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
        hyp_probs: ``(B, T, V)`` floating tensor; each row a distribution over the
            vocabulary (softmax or Gumbel-softmax output). Not checked to sum to 1.
        references: token ids ``(B, Tr)`` or ``(B, R, Tr)`` (integer tensor), or
            distributions ``(B, Tr, V)`` / ``(B, R, Tr, V)`` (floating tensor, also
            differentiable). ``Tr`` may differ from ``T``. Ragged id references work too:
            a list of 1-D tensors (or token lists), or of lists of them (the same number
            per sentence), with ``pad_id`` or ``eos_id`` given.
        max_order: largest n-gram order N (>= 1).
        weights: N non-negative weights of ``log p_n``; uniform ``1/N`` by default.
        eos_id: end-of-sentence id. A sentence ends before its first eos; for
            distributions the soft length mask is ``prod_{i<=t} (1 - p_i(eos))``.
        pad_id: padding id. Pad ids in id references are removed (anywhere). In
            distributions (hypothesis included) a position is weighted by
            ``1 - p(pad)``, so n-grams across a pad are dropped, not joined: identical
            to the exact metric when pads only trail the sentence. A ``pad_id`` outside
            ``[0, V)`` (e.g. -100) only applies to id references.
        corpus: ``False`` (default): one score per sentence, shape ``(B,)``. ``True``:
            minibatch / corpus BLEU, shape ``()``: match counts, n-gram counts, hypothesis
            lengths and closest reference lengths are summed over the batch before the
            division, the brevity penalty and the exponentiation (paper, appendix A).

    Returns:
        BLEU in ``[0, 1]`` for one-hot inputs, with the dtype and device of ``hyp_probs``.
        For strictly one-hot inputs it equals pytorch-ignite's BLEU with
        ``smooth="no_smooth"`` (``average="macro"`` per sentence, ``"micro"`` with
        ``corpus=True``): exactly 0 when an order has no match or the hypothesis is
        empty. Inputs whose probabilities are all positive (softmax) never have exactly
        zero matches, so there the score is a smooth, positive function of them.

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
    hyp_probs = _check_hyp_probs(hyp_probs)
    max_order = _check_int("max_order", max_order, 1)
    eos_id = _check_eos(eos_id, hyp_probs.shape[2])
    pad_id = _check_token_id("pad_id", pad_id)
    weight_tensor = _bleu_weights(weights, max_order, hyp_probs)
    unigrams = _unigram_matches(hyp_probs, references, eos_id, pad_id)

    matches, totals = [], []
    for stats in _ngram_orders(unigrams, max_order):
        best_ref_count = stats.ref_count.amax(dim=1)
        clipped = stats.first * torch.minimum(stats.hyp_count, best_ref_count)
        matches.append(clipped.sum(dim=-1))
        totals.append(stats.hyp_total)
    match_counts = torch.stack(matches, dim=-1)  # (B, N)
    ngram_counts = torch.stack(totals, dim=-1)
    hyp_length = unigrams.hyp_mask.sum(dim=-1)
    ref_length = _closest_ref_length(hyp_length, unigrams.ref_mask.sum(dim=-1))
    if corpus:
        return _bleu_from_statistics(
            match_counts.sum(0),
            ngram_counts.sum(0),
            hyp_length.sum(),
            ref_length.sum(),
            weight_tensor,
        )
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

    n-grams of orders ``min_len..max_len`` are pooled; for each reference
    ``tp`` = clipped matches and ``n_all = max(hyp n-grams, ref n-grams)``; the reference
    with the best ``tp / n_all`` is kept (the first one on ties, references with
    ``n_all == 0`` are skipped) and the score is ``tp / n_all`` (0 if nothing counts).

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
    hyp_probs = _check_hyp_probs(hyp_probs)
    min_len = _check_int("min_len", min_len, 1)
    max_len = _check_int("max_len", max_len, 1)
    if min_len > max_len:
        raise ValueError(f"min_len must be <= max_len, got min_len={min_len}, max_len={max_len}")
    eos_id = _check_eos(eos_id, hyp_probs.shape[2])
    pad_id = _check_token_id("pad_id", pad_id)
    unigrams = _unigram_matches(hyp_probs, references, eos_id, pad_id)

    tp_terms, hyp_terms, ref_terms = [], [], []
    for stats in _ngram_orders(unigrams, max_len):
        if stats.order >= min_len:
            counts = torch.minimum(stats.hyp_count[:, None, :], stats.ref_count)
            tp_terms.append((stats.first[:, None, :] * counts).sum(dim=-1))  # (B, R)
            hyp_terms.append(stats.hyp_total)
            ref_terms.append(stats.ref_total)
    true_positives = torch.stack(tp_terms).sum(dim=0)
    hyp_total = torch.stack(hyp_terms).sum(dim=0)
    ref_total = torch.stack(ref_terms).sum(dim=0)
    n_all = torch.maximum(hyp_total[:, None], ref_total)  # (B, R)
    ratio = _safe_ratio(true_positives, n_all)
    # best reference: highest ratio among those with n_all > 0, first on ties
    key = torch.where(n_all > 0, ratio, torch.full_like(ratio, -1.0)).detach()
    best = key.argmax(dim=-1, keepdim=True)
    tp_best = true_positives.gather(1, best).squeeze(1)
    n_all_best = n_all.gather(1, best).squeeze(1)
    if corpus:
        return _safe_ratio(tp_best.sum(), n_all_best.sum())
    return _safe_ratio(tp_best, n_all_best)


# ---------------------------------------------------------------------------------------
# losses
# ---------------------------------------------------------------------------------------


def _reduce(loss: Tensor, reduction: Reduction) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


class _ScoreLoss(nn.Module):
    """``-log(score + eps)`` of a soft score, reduced over the batch; the subclasses say
    which score (:meth:`_score`) and which settings it has (:meth:`_settings`)."""

    def __init__(
        self, eos_id: int | None, eps: float, reduction: Reduction, pad_id: int | None,
        corpus: bool,
    ) -> None:
        super().__init__()
        self.eos_id = _check_token_id("eos_id", eos_id)
        self.eps = _check_eps(eps)
        self.reduction: Reduction = _check_reduction(reduction)
        self.pad_id = _check_token_id("pad_id", pad_id)
        self.corpus = bool(corpus)

    def _score(self, hyp_probs: Tensor, references: Tensor | Sequence[Any]) -> Tensor:
        raise NotImplementedError

    def _settings(self) -> str:
        raise NotImplementedError

    def forward(self, hyp_probs: Tensor, references: Tensor | Sequence[Any]) -> Tensor:
        score = self._score(hyp_probs, references)
        return _reduce(-torch.log(score + self.eps), self.reduction)

    def extra_repr(self) -> str:
        return (
            f"{self._settings()}, eos_id={self.eos_id}, eps={self.eps}, "
            f"reduction={self.reduction!r}, pad_id={self.pad_id}, corpus={self.corpus}"
        )


class BleuLoss(_ScoreLoss):
    """``-log(soft_bleu(hyp_probs, references) + eps)``, reduced over the batch.

    Args:
        max_order: largest n-gram order.
        eos_id: end-of-sentence id (see :func:`soft_bleu`).
        eps: positive constant inside the log (paper, section 2).
        reduction: ``"mean"`` | ``"sum"`` | ``"none"`` (per-sentence losses ``(B,)``).
        weights: n-gram weights, uniform by default.
        pad_id: padding id (see :func:`soft_bleu`).
        corpus: use the minibatch BLEU; the loss is then a single value of shape ``()``
            and ``reduction`` has nothing left to reduce.

    Example:
        >>> import torch
        >>> from bleusuite.losses import BleuLoss
        >>> _ = torch.manual_seed(0)
        >>> logits = torch.randn(2, 6, 20, requires_grad=True)
        >>> refs = torch.randint(3, 20, (2, 6))
        >>> loss = BleuLoss(max_order=2)(logits.softmax(-1), refs)
        >>> loss.shape, bool(loss > 0)
        (torch.Size([]), True)
        >>> loss.backward()
        >>> logits.grad.shape
        torch.Size([2, 6, 20])
    """

    def __init__(
        self,
        max_order: int = 4,
        eos_id: int | None = None,
        eps: float = 1e-8,
        reduction: Reduction = "mean",
        *,
        weights: Sequence[float] | None = None,
        pad_id: int | None = None,
        corpus: bool = False,
    ) -> None:
        super().__init__(eos_id, eps, reduction, pad_id, corpus)
        self.max_order = _check_int("max_order", max_order, 1)
        if weights is not None and len(weights) != max_order:
            raise ValueError(f"weights must hold max_order={max_order} values, got {len(weights)}")
        self.weights = None if weights is None else tuple(float(w) for w in weights)

    def _score(self, hyp_probs: Tensor, references: Tensor | Sequence[Any]) -> Tensor:
        return soft_bleu(
            hyp_probs, references, max_order=self.max_order, weights=self.weights,
            eos_id=self.eos_id, pad_id=self.pad_id, corpus=self.corpus,
        )

    def _settings(self) -> str:
        return f"max_order={self.max_order}"


class GleuLoss(_ScoreLoss):
    """``-log(soft_gleu(hyp_probs, references) + eps)``, reduced over the batch.

    Args:
        min_len: smallest n-gram order.
        max_len: largest n-gram order.
        eos_id: end-of-sentence id (see :func:`soft_bleu`).
        eps: positive constant inside the log.
        reduction: ``"mean"`` | ``"sum"`` | ``"none"`` (per-sentence losses ``(B,)``).
        pad_id: padding id (see :func:`soft_bleu`).
        corpus: use the minibatch GLEU (a single value of shape ``()``).

    Example:
        >>> import torch
        >>> from bleusuite.losses import GleuLoss
        >>> refs = torch.tensor([[4, 5, 6, 7], [4, 4, 4, 4]])
        >>> hyp = torch.nn.functional.one_hot(refs, 8).double()
        >>> GleuLoss(reduction="none")(hyp, refs)
        tensor([-1.0000e-08, -1.0000e-08], dtype=torch.float64)
    """

    def __init__(
        self,
        min_len: int = 1,
        max_len: int = 4,
        eos_id: int | None = None,
        eps: float = 1e-8,
        reduction: Reduction = "mean",
        *,
        pad_id: int | None = None,
        corpus: bool = False,
    ) -> None:
        super().__init__(eos_id, eps, reduction, pad_id, corpus)
        self.min_len = _check_int("min_len", min_len, 1)
        self.max_len = _check_int("max_len", max_len, 1)
        if min_len > max_len:
            raise ValueError(
                f"min_len must be <= max_len, got min_len={min_len}, max_len={max_len}"
            )

    def _score(self, hyp_probs: Tensor, references: Tensor | Sequence[Any]) -> Tensor:
        return soft_gleu(
            hyp_probs, references, min_len=self.min_len, max_len=self.max_len,
            eos_id=self.eos_id, pad_id=self.pad_id, corpus=self.corpus,
        )

    def _settings(self) -> str:
        return f"min_len={self.min_len}, max_len={self.max_len}"
