"""Soft n-gram counts (steps 1-4 of :mod:`bleusuite.losses`): length masks, 1-gram match
matrices, and per order the first-occurrence mask, the counts and the n-gram totals."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import torch
from torch import Tensor

from bleusuite import checks
from bleusuite.inputs import pack_sentences


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
    """Ragged id references (per row a 1-D tensor, or a list of ``R`` tensors or token lists)
    as one ``(B, R, L)`` tensor, filled past each end with ``pad_id`` (else ``eos_id``)."""
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


def unigram_matches(
    hyp_probs: object, references: object, eos_id: int | None, pad_id: int | None
) -> _Unigrams:
    """The 1-gram matches of ``hyp_probs`` against ``references``, every argument checked."""
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
    batch, length, vocab_size = hyp_probs.shape
    if vocab_size == 0:
        raise ValueError("hyp_probs must have a non-empty vocabulary dimension, got V = 0")
    eos_id = checks.token_id(eos_id, "eos_id")
    if eos_id is not None and not 0 <= eos_id < vocab_size:
        raise ValueError(
            f"eos_id must be a vocabulary index in [0, {vocab_size}) (its probability ends the "
            f"sentence), got {eos_id}"
        )
    pad_id = checks.token_id(pad_id, "pad_id")
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


@dataclass(frozen=True)
class _OrderStats:
    order: int
    first: Tensor  # (B, Tn)   1 where hypothesis n-gram i is its first occurrence
    hyp_count: Tensor  # (B, Tn)  occurrences of hypothesis n-gram i in the hypothesis
    ref_count: Tensor  # (B, R, Tn) occurrences of hypothesis n-gram i in each reference
    hyp_total: Tensor  # (B,)     number of hypothesis n-grams
    ref_total: Tensor  # (B, R)   number of reference n-grams


def ngram_orders(unigrams: _Unigrams, max_order: int) -> Iterator[_OrderStats]:
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
