"""Clipped n-gram matches of every prefix of each hypothesis, from running counts: the
clipped count of order ``n`` grows by one at the n-gram starting at ``p`` exactly when that
n-gram's occurrence rank in the hypothesis is at most its largest count in any reference.

Where the compiled part counts, its kernel does this in its counting pass
(:func:`bleusuite.counting.kernel.count_prefixes`). Elsewhere, per order and in fixed
shapes: a stable sort of each row's keys (the hypothesis and its references in one row;
order ``n`` keys are (id of the (n-1)-gram, next token)) puts a group's hypothesis
occurrences first; a fixed-length bincount gives each group's counts; the occurrences
within the clip are scattered back and summed along the hypothesis.

>>> import numpy as np
>>> from bleusuite.counting.prefix import prefix_matches
>>> from bleusuite.inputs import normalize_batch
>>> batch = normalize_batch(np.array([[7, 7, 8, 9]]), np.array([[7, 8, 9, 0]]), pad_id=0)
>>> prefix_matches(batch, 2)[0].tolist()       # [1-gram, 2-gram] matches of each prefix
[[1, 0], [1, 0], [2, 1], [3, 2]]
"""

from __future__ import annotations

from typing import Any

from bleusuite.backends.base import Backend
from bleusuite.counting import counting_strategy, kernel
from bleusuite.counting.matches import shift_left
from bleusuite.inputs import Batch
from bleusuite.inputs.batch import RaggedPairs

__all__ = ["prefix_matches"]


def prefix_matches(batch: Batch, max_order: int) -> Any:
    """``(B, Lh, max_order)`` int64: entry ``[b, t - 1, n - 1]`` holds the clipped matches of
    order ``n`` of the first ``t`` tokens of hypothesis ``b`` against its references (past
    the end of the hypothesis, those of the whole hypothesis)."""
    batch = batch.padded()
    be = batch.backend
    if counting_strategy(be, batch.hyp) == "compiled":  # the kernel, in its counting pass
        pairs = batch.pairs or RaggedPairs.from_padded(batch.hyp, batch.hyp_len, batch.refs,
                                                      batch.ref_len)
        return kernel.count_prefixes(pairs, max_order, int(batch.hyp.shape[1]))
    run = be.compiled(_prefix_arrays, static_argnums=(0, 5))
    return run(be, batch.hyp, batch.hyp_len, batch.refs, batch.ref_len, max_order)


def _prefix_arrays(be: Backend, hyp: Any, hyp_len: Any, refs: Any, ref_len: Any,
                   max_order: int) -> Any:
    rows, hyp_width = hyp.shape
    num_refs, ref_width = refs.shape[1], refs.shape[2]
    if rows == 0 or hyp_width == 0 or num_refs == 0 or ref_width == 0:
        return be.zeros((rows, hyp_width, max_order), be.int64, like=hyp)
    width = hyp_width + num_refs * ref_width
    id_bits = width.bit_length()  # group numbers are 1..width
    position_bits = (width - 1).bit_length()
    sources = num_refs + 1
    if 2 * id_bits > be.key_bits or (rows * (width + 1) * sources) >> (be.key_bits + 1):
        raise ValueError(
            f"hypotheses: a batch of {rows} x {hyp_width} tokens with {num_refs} x {ref_width} "
            f"reference tokens is too large for {be.key_bits + 2}-bit integers; with JAX, "
            "enable jax_enable_x64"
        )
    column = be.arange(width, like=hyp)
    is_ref = column >= hyp_width
    offset = be.where(is_ref, (column - hyp_width) % ref_width, column)
    lengths = be.concat(
        [hyp_len[:, None] + be.zeros((1, hyp_width), be.int64, like=hyp),
         (ref_len[:, :, None] + be.zeros((1, 1, ref_width), be.int64, like=hyp)).reshape(
             rows, num_refs * ref_width)],
        axis=1,
    )
    room = lengths - offset[None, :]  # the tokens from each position to its sentence's end
    tokens = be.concat([hyp, refs.reshape(rows, num_refs * ref_width)], axis=1)
    # a position that starts no n-gram of the order gets a key of its own kind: 0 in the
    # hypothesis, 1 in a reference (n-gram keys are at least 2)
    outside = be.to_int64(is_ref)[None, :]
    first_keys, first_bits = _token_keys(be, tokens, column, position_bits)
    row_start = be.arange(rows, like=hyp)[:, None] * (width + 1)
    first_ids = ids = tokens
    per_order = []
    for order in range(1, max_order + 1):
        if order == 1:
            keys, key_bits = first_keys, first_bits
        else:
            keys = (ids << id_bits) | shift_left(be, first_ids, order - 1, 0)
            key_bits = 2 * id_bits
        keys = be.where(room >= order, keys, outside)
        ordered, position = _sorted(be, keys, column, key_bits, position_bits)
        boundary = be.concat([be.full((rows, 1), True, be.bool_, like=hyp),
                              ordered[:, 1:] != ordered[:, :-1]], axis=1)
        group = be.cumsum(boundary, axis=1)  # 1.. per row, in sorted order
        if num_refs == 1:
            source = be.to_int64(position >= hyp_width)
        else:
            source = be.where(position < hyp_width, 0, (position - hyp_width) // ref_width + 1)
        # occurrences of each group in the hypothesis (source 0) and in each reference
        table = be.count_into(((row_start + group) * sources + source).reshape(-1),
                              rows * (width + 1) * sources).reshape(rows, width + 1, sources)
        in_hyp = be.to_int64(table[:, :, 0])
        clip = table[:, :, 1] if num_refs == 1 else be.max_(table[:, :, 1:], axis=2)
        # an occurrence is within the clip while the hypothesis occurrences up to it, less
        # those of the groups before its own, are at most the clip
        threshold = be.cumsum(in_hyp, axis=1) - in_hyp + clip
        from_hyp = source == 0
        within = from_hyp & (be.cumsum(from_hyp, axis=1)
                             <= be.take_along(threshold, group, axis=1))
        # one scatter back to the positions: the group (the id of the n-gram, for the next
        # order) and whether the occurrence is within the clip
        placed = be.scatter_last((rows, width), position, (group << 1) | be.to_int64(within))
        ids = placed >> 1
        if order == 1:
            first_ids = ids  # equal for equal tokens (where a token is one)
        running = be.cumsum(placed[:, :hyp_width] & 1, axis=1)
        per_order.append(_shift_right(be, running, order - 1)[:, :, None])
    return be.concat(per_order, axis=2)


def _token_keys(be: Backend, tokens: Any, column: Any, position_bits: int) -> tuple[Any, int]:
    """Keys of the tokens of each row, at least 2, equal for equal values, and their bits:
    the values shifted where their range is read for free and leaves room for the
    positions, else per-row ids from a stable sort."""
    rows, width = tokens.shape
    if be.reads_are_free(tokens) and be.numel(tokens):
        low, high = be.to_ints([be.min_(tokens), be.max_(tokens)])
        bits = (high - low + 2).bit_length()  # Python ints: no overflow
        if bits + position_bits <= be.key_bits:
            return (tokens - low) + 2, bits
    ordered, position = be.sort_last_with_index(tokens)
    boundary = be.concat([be.full((rows, 1), True, be.bool_, like=tokens),
                          ordered[:, 1:] != ordered[:, :-1]], axis=1)
    ids = be.scatter_last((rows, width), position, be.cumsum(boundary, axis=1) + 1)
    return ids, (width + 1).bit_length()


def _sorted(be: Backend, keys: Any, column: Any, key_bits: int,
            position_bits: int) -> tuple[Any, Any]:
    """Each row's keys in order, and their positions (a stable sort)."""
    if key_bits + position_bits <= be.key_bits:
        packed = be.sort_last((keys << position_bits) | column[None, :])
        return packed >> position_bits, packed & ((1 << position_bits) - 1)
    return be.sort_last_with_index(keys)


def _shift_right(be: Backend, running: Any, by: int) -> Any:
    """``running[..., t - by]`` at position t, 0 before ``by``."""
    if by == 0:
        return running
    rows, width = running.shape
    by = min(by, width)
    zeros = be.zeros((rows, by), be.int64, like=running)
    return be.concat([zeros, running[:, : width - by]], axis=1)
