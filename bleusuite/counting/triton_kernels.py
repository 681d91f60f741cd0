"""The Triton kernel of :mod:`bleusuite.counting.triton` (imported only where ``triton``
imports).

One program per (row, order, tile of hypothesis positions) counts the clipped matches whose
n-grams start in its tile, without any table: position ``i`` starts an n-gram that occurs
``rank(i)`` times earlier in the hypothesis and ``count_r(i)`` times in reference ``r``, so
``sum_i [rank(i) < max_r count_r(i)]`` is BLEU's clipped count (with ``count_r`` alone,
GLEU's true positives). Windows are compared token by token (nothing hashed): O(L^2)
comparisons per row and order, no memory beyond the outputs.
"""

from __future__ import annotations

import triton
import triton.language as tl

__all__ = ["clipped_counts_kernel", "interpreted"]


def interpreted() -> bool:
    """Whether the kernels run in Triton's interpreter (the only way on CPU tensors):
    ``TRITON_INTERPRET=1`` now, and when ``triton`` and this module were imported.

    >>> isinstance(interpreted(), bool)
    True
    """
    from triton.runtime.jit import JITFunction

    return (bool(triton.knobs.runtime.interpret) and _MADE_INTERPRETED
            and not isinstance(tl.standard.sum, JITFunction))


@triton.jit
def _equal_windows(  # type: ignore[no-untyped-def]  # (Triton reads annotations)
    hyp_row, hyp_stride, starts, other_row, other_stride, other_starts, order,
):
    """(BLOCK_I, BLOCK_J) bool: whether the ``order`` tokens of the hypothesis from each of
    ``starts`` equal those of the other sentence from each of ``other_starts`` (negative
    starts: masked out, never equal)."""
    equal = (starts[:, None] >= 0) & (other_starts[None, :] >= 0)
    for k in range(0, order):
        mine = tl.load(hyp_row + (starts + k) * hyp_stride, mask=starts >= 0, other=0)
        theirs = tl.load(other_row + (other_starts + k) * other_stride, mask=other_starts >= 0,
                         other=0)
        equal = equal & (mine[:, None] == theirs[None, :])
    return equal


@triton.jit
def clipped_counts_kernel(  # type: ignore[no-untyped-def]  # (Triton reads annotations)
    hyp, hyp_len, refs, ref_len, clipped, per_ref,
    hyp_s0, hyp_s1, hyp_len_s0, refs_s0, refs_s1, refs_s2, ref_len_s0, ref_len_s1,
    clipped_s0, clipped_s1, per_ref_s0, per_ref_s1, per_ref_s2,
    num_refs,
    BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_R: tl.constexpr,
    PER_REFERENCE: tl.constexpr,
):
    """Program (row ``b``, order ``n``, tile ``t``): adds the clipped matches of the
    hypothesis n-grams starting in tile ``t`` to ``clipped[b, n - 1]`` (and, with
    ``PER_REFERENCE``, ``per_ref[b, :, n - 1]``) by integer atomic adds (order-free sums)."""
    row = tl.program_id(0).to(tl.int64)
    order = tl.program_id(1) + 1
    i0 = tl.program_id(2) * BLOCK_I
    hyp_row = hyp + row * hyp_s0
    # (lengths as int32: a row holds fewer than 2**31 tokens)
    hyp_grams = tl.maximum(tl.load(hyp_len + row * hyp_len_s0).to(tl.int32) - order + 1, 0)
    if i0 < hyp_grams:  # else: no n-gram of this order starts in the tile
        block_j = tl.arange(0, BLOCK_J)
        sources = tl.arange(0, BLOCK_R)
        starts = i0 + tl.arange(0, BLOCK_I)
        starts = tl.where(starts < hyp_grams, starts, -1)
        # occurrence number: equal windows that start earlier in the hypothesis
        rank = tl.zeros([BLOCK_I], dtype=tl.int32)
        for j0 in range(0, i0 + BLOCK_I, BLOCK_J):
            earlier = j0 + block_j
            earlier = tl.where(earlier < hyp_grams, earlier, -1)
            equal = _equal_windows(hyp_row, hyp_s1, starts, hyp_row, hyp_s1, earlier, order)
            equal = equal & (earlier[None, :] < starts[:, None])
            rank += tl.sum(equal.to(tl.int32), axis=1)
        best = tl.zeros([BLOCK_I], dtype=tl.int32)
        per_source = tl.zeros([BLOCK_R], dtype=tl.int32)
        for r in range(0, num_refs):
            ref_row = refs + row * refs_s0 + r * refs_s1
            ref_grams = tl.maximum(
                tl.load(ref_len + row * ref_len_s0 + r * ref_len_s1).to(tl.int32) - order + 1, 0)
            count = tl.zeros([BLOCK_I], dtype=tl.int32)
            for k0 in range(0, ref_grams, BLOCK_J):
                theirs = k0 + block_j
                theirs = tl.where(theirs < ref_grams, theirs, -1)
                equal = _equal_windows(hyp_row, hyp_s1, starts, ref_row, refs_s2, theirs, order)
                count += tl.sum(equal.to(tl.int32), axis=1)
            best = tl.maximum(best, count)
            if PER_REFERENCE:
                kept = tl.sum(((starts >= 0) & (rank < count)).to(tl.int32), axis=0)
                per_source += tl.where(sources == r, kept, 0)
        kept_total = tl.sum(((starts >= 0) & (rank < best)).to(tl.int32), axis=0)
        tl.atomic_add(clipped + row * clipped_s0 + (order - 1) * clipped_s1,
                      kept_total.to(tl.int64))
        if PER_REFERENCE:
            tl.atomic_add(
                per_ref + row * per_ref_s0 + sources * per_ref_s1 + (order - 1) * per_ref_s2,
                per_source.to(tl.int64), mask=sources < num_refs)


#: whether this module's kernels were made for the interpreter
_MADE_INTERPRETED = not isinstance(clipped_counts_kernel, triton.runtime.jit.JITFunction)
