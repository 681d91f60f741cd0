"""Fixed-shape counting: clipped n-gram matches where every array's shape follows from the
input shapes alone, so that a call runs on CUDA with no host synchronisation, in a CUDA
graph, under ``torch.compile(fullgraph=True)`` and on torch ``meta`` tensors.

Per-row ids from one stable row sort (:func:`_row_ids`: at most ``hypothesis width + 1``,
so a key's bits follow from the shapes); the keys of the ``max_order`` ids at each position
(:func:`_pack`), one row sort; per order, groups where the top ``n`` ids change, counted per
source by one fixed-length bincount. Keys that do not fit ``key_bits``: order by order.
"""

from __future__ import annotations

from typing import Any

from bleusuite.backends.base import Backend
from bleusuite.counting.matches import MatchCounts, OrderCounter, shift_left
from bleusuite.inputs import Batch

__all__ = ["count_matches_fixed"]

_HYP_PAD = 0  # id past the end of a hypothesis
_REF_PAD = 1  # id past the end of a reference, and of every value not in the hypothesis


def count_matches_fixed(batch: Batch, max_order: int, per_reference: bool = False) -> MatchCounts:
    """Clipped n-gram matches of orders 1..``max_order`` (see the module docstring)."""
    batch = batch.padded()
    be = batch.backend
    run = be.compiled(_count_arrays, static_argnums=(0, 5, 6))
    clipped, per_ref = run(be, batch.hyp, batch.hyp_len, batch.refs, batch.ref_len, max_order,
                           per_reference)
    return MatchCounts(clipped, per_ref)


def _count_arrays(
    be: Backend, hyp: Any, hyp_len: Any, refs: Any, ref_len: Any, max_order: int,
    per_reference: bool,
) -> tuple[Any, Any]:
    rows, hyp_width = hyp.shape
    num_refs, ref_width = refs.shape[1], refs.shape[2]
    if rows == 0 or hyp_width == 0 or ref_width == 0:
        return (
            be.zeros((rows, max_order), be.int64, like=hyp),
            be.zeros((rows, num_refs, max_order), be.int64, like=hyp) if per_reference else None,
        )
    tag_bits = num_refs.bit_length()
    id_bits = (hyp_width + 1).bit_length()  # ids are at most hyp_width + 1
    table_size = rows * (hyp_width + num_refs * ref_width) * (num_refs + 1)
    if max(2 * id_bits, id_bits + tag_bits) > be.key_bits + 1 or table_size >> (be.key_bits + 1):
        # the fallback's keys hold two ids (or an id and a tag), the count table is indexed
        # by the integer type: only int32 (JAX without x64) reaches this
        raise ValueError(
            f"hypotheses: a batch of {rows} x {hyp_width} tokens with {num_refs} x {ref_width} "
            f"reference tokens is too large for {be.key_bits + 2}-bit integers; with JAX, "
            "enable jax_enable_x64"
        )
    hyp_ids, ref_ids = _row_ids(be, hyp, refs.reshape(rows, -1), hyp_width)
    hyp_ids = be.where(be.arange(hyp_width, like=hyp_ids) < hyp_len[:, None], hyp_ids, _HYP_PAD)
    ref_ids = be.where(
        be.arange(ref_width, like=ref_ids) < ref_len[..., None],
        ref_ids.reshape(rows, num_refs, ref_width), _REF_PAD,
    )
    counter = _FixedCounter(be, num_refs, tag_bits, per_reference)
    if max_order * id_bits + tag_bits <= be.key_bits:
        keys = be.sort_last(_pack(be, hyp_ids, ref_ids, max_order, id_bits, tag_bits))
        counter.use(keys)
        for order in range(1, max_order + 1):
            counter.count(tag_bits + id_bits * (max_order - order))
        return counter.stacked()
    gram_hyp, gram_refs = hyp_ids, ref_ids
    for order in range(1, max_order + 1):
        if order > 1:
            gram_hyp, gram_refs = _extend(be, gram_hyp, gram_refs, hyp_ids, ref_ids, order,
                                          id_bits)
        counter.use(be.sort_last(_pack(be, gram_hyp, gram_refs, 1, id_bits, tag_bits)))
        counter.count(tag_bits)
    return counter.stacked()


def _row_ids(be: Backend, hyp: Any, refs: Any, hyp_width: int) -> tuple[Any, Any]:
    """Per-row ids of (B, Lh) hypothesis and (B, R*Lr) reference values: ``2 + rank`` among
    the row's distinct hypothesis values for a value in the hypothesis, else 1."""
    rows = hyp.shape[0]
    joined = be.concat([hyp, refs], axis=1)
    width = joined.shape[1]
    ordered, position = be.sort_last_with_index(joined)
    first = be.concat(
        [be.full((rows, 1), True, be.bool_, like=ordered), ordered[:, 1:] != ordered[:, :-1]],
        axis=1,
    )
    # equal values keep their order, hypothesis positions first: a value occurs in the
    # hypothesis iff the first of its run does
    starts_hyp_value = first & (position < hyp_width)
    rank = be.cumsum(starts_hyp_value, axis=1)  # 1.. for the k-th hypothesis value
    # the value that has each rank (slot 0 takes the writes of every other position), read
    # back at every position: equal iff the position's value is that hypothesis value
    value_of_rank = be.scatter_last((rows, hyp_width + 1), be.where(starts_hyp_value, rank, 0),
                                    ordered)
    in_hyp = (be.take_along(value_of_rank, rank, axis=1) == ordered) & (rank > 0)
    ids = be.scatter_last((rows, width), position, be.where(in_hyp, rank + 1, _REF_PAD))
    return ids[:, :hyp_width], ids[:, hyp_width:]


def _pack(
    be: Backend, hyp: Any, refs: Any, order: int, id_bits: int, tag_bits: int
) -> Any:
    """(B, M) keys: the ids of the ``order`` tokens starting at each position, then the
    source tag. Each sentence is followed by ``order - 1`` pads of its kind in one buffer, so
    every shifted view is a slice of it (keys starting on pads never match)."""
    rows, num_refs, ref_width = refs.shape
    hyp_width = hyp.shape[1]
    tail = order - 1
    pieces = [hyp]
    if tail:
        pieces.append(be.full((rows, tail), _HYP_PAD, be.int64, like=hyp))
        refs = be.concat([refs, be.full((rows, num_refs, tail), _REF_PAD, be.int64, like=refs)],
                         axis=2)
    pieces.append(refs.reshape(rows, -1))
    if tail:
        pieces.append(be.full((rows, tail), _REF_PAD, be.int64, like=hyp))
    buffer = be.concat(pieces, axis=1)
    width = buffer.shape[1] - tail
    key = buffer[:, :width]
    for offset in range(1, order):
        key = (key << id_bits) | buffer[:, offset : offset + width]
    # source tags by position: 0 for the hypothesis (and its pads), r + 1 for reference r
    position = be.arange(width, like=hyp) - (hyp_width + tail)
    tags = be.where(position < 0, 0, position // (ref_width + tail) + 1)
    return (key << tag_bits) | tags[None, :]


def _extend(
    be: Backend, gram_hyp: Any, gram_refs: Any, hyp: Any, refs: Any, order: int, id_bits: int
) -> tuple[Any, Any]:
    """Per-row ids of the n-grams of ``order``: (id of order - 1, next token) ranked."""
    rows = hyp.shape[0]

    def pairs(gram: Any, tokens: Any, pad: int) -> Any:
        return (gram << id_bits) | shift_left(be, tokens, order - 1, pad)

    hyp_pairs = pairs(gram_hyp, hyp, _HYP_PAD)
    ref_pairs = pairs(gram_refs, refs, _REF_PAD)
    new_hyp, new_refs = _row_ids(be, hyp_pairs, ref_pairs.reshape(rows, -1), hyp.shape[1])
    return new_hyp, new_refs.reshape(refs.shape)


class _FixedCounter(OrderCounter):
    """Clipped match counts from row-sorted keys ``(n-gram << tag_bits) | source``."""

    def use(self, keys: Any) -> None:
        """Count from a (B, M) array of keys sorted within each row."""
        be = self.be
        rows = keys.shape[0]
        self.keys = keys
        # each key's predecessor in its row; -1 before the first, which no key equals
        # under any shift (keys are non-negative), so every row starts a group
        self.before = be.concat([be.full((rows, 1), -1, be.int64, like=keys), keys[:, :-1]],
                                axis=1)
        # slot of an entry in the (group, source) table: group * sources + source, with the
        # group number taken from a running count of boundaries (1-based, hence the offset)
        sources = self.num_refs + 1
        self.source = (keys & ((1 << self.tag_bits) - 1)).reshape(-1) - sources

    def count(self, shift: int) -> None:
        """Add the counts of the n-grams held in the key bits above ``shift``."""
        be = self.be
        rows, width = self.keys.shape
        sources = self.num_refs + 1
        boundary = ((self.keys >> shift) != (self.before >> shift)).reshape(-1)
        group = be.cumsum(boundary, axis=0)  # 1-based group number of every entry
        table = be.count_into(group * sources + self.source, rows * width * sources)
        table = table.reshape(rows * width, sources)
        hyp = table[:, 0]
        refs = table[:, 1:]
        best = refs[:, 0] if self.num_refs == 1 else be.max_(refs, axis=1)
        # each group's clipped count, taken once at its first entry and summed per row
        self._clipped.append(self._per_row(be.minimum(hyp, best), group, boundary, rows))
        if self.per_reference:
            self._per_ref.append(
                self._per_row(be.minimum(hyp[:, None], refs), group, boundary, rows)
            )

    def _per_row(self, per_group: Any, group: Any, boundary: Any, rows: int) -> Any:
        be = self.be
        at_entry = per_group[group - 1]
        if at_entry.ndim == 1:
            at_entry = be.where(boundary, at_entry, 0)
        else:
            at_entry = be.where(boundary[:, None], at_entry, 0)
        return be.to_int64(be.sum_(at_entry.reshape(rows, -1, *at_entry.shape[1:]), axis=1))
