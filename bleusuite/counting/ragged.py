"""Ragged rows (:class:`~bleusuite.inputs.RaggedPairs`) as padded batches, for the NumPy
pipeline where the compiled part is not built."""

from __future__ import annotations

import bisect
from collections.abc import Iterator

import numpy as np

from bleusuite import backends
from bleusuite.inputs.batch import Batch, RaggedPairs, identity, padded_rows

__all__ = ["FILL", "padded_batches"]

#: token slots (rows x (1 + references) x width) per padded batch of :func:`padded_batches`
BATCH_SLOTS = 1 << 20
#: the value past the end of a sentence in :func:`padded_batches` (never read as a token)
FILL = -1


def padded_batches(pairs: RaggedPairs, slots: int = BATCH_SLOTS) -> Iterator[
        tuple[np.ndarray, Batch]]:
    """``(rows, batch)``: the rows as padded NumPy batches of similar length, each at most
    ``slots`` token slots, with their row indices."""
    be = backends.get_backend(pairs.hyp_lengths)
    longest = np.maximum(pairs.hyp_lengths, pairs.ref_lengths.max(axis=1, initial=0))
    order = np.argsort(longest, kind="stable")
    widths = np.maximum(longest[order], 1)
    streams = 1 + pairs.references
    begin, size = 0, len(order)
    while begin < size:
        end = bisect.bisect_right(
            range(begin + 1, size + 1), slots,
            key=lambda stop: (stop - begin) * streams * int(widths[stop - 1]))
        end = max(end + begin, begin + 1)
        rows = order[begin:end]
        width = int(widths[end - 1])
        hyp = padded_rows(pairs.hyp_ids, pairs.hyp_starts[rows], pairs.hyp_lengths[rows], FILL,
                          width)
        refs = padded_rows(pairs.ref_ids, pairs.ref_starts[rows], pairs.ref_lengths[rows], FILL,
                           width)
        present = np.ones(refs.shape[:2], dtype=bool)
        yield rows, Batch(be, identity, pairs.hyp_lengths[rows], pairs.ref_lengths[rows],
                          present, None, hyp, refs)
        begin = end
