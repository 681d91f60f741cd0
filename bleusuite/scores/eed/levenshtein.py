"""torchmetrics' ``EditDistance``: the Levenshtein distance between the characters of two
strings (insertions and deletions cost 1, a substitution ``substitution_cost``), counted
as torchmetrics' ``_LevenshteinEditDistance`` (sacrebleu's TER beam) counts it:

1. Rows are the prediction's characters, columns the target's; row 0 is ``0, 1, ..., m``.
2. Row ``i`` is computed only at columns within ``beam`` of ``floor(i * m / n)`` (``beam``
   is 25, or ``ceil(m / n / 2 + 25)`` where ``m / n > 50``; an empty prediction counts
   ``m / n`` as 1), the last row up to its end; the other cells stay at 10**16.
3. Cell ``(i, j)`` is the least of the cell above-left plus 0 (same character) or
   ``substitution_cost``, the cell above plus 1 and the cell to the left plus 1; the
   distance is the last cell (a full Levenshtein distance wherever the beam covers the
   path, which it does for strings of under ~25 characters' difference).

The compiled kernel (``edit_distances`` of ``bleusuite/csrc/edit_distance.c``) counts pairs with
the GIL released on the worker threads; the Python twin below takes a row at a time as
NumPy arrays (the insertions of a row as a running minimum).

>>> edit_distances(["rain"], ["shine"], substitution_cost=2).tolist()
[5]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from bleusuite import native, threads
from bleusuite.scores.eed.characters import code_points

__all__ = ["FAR", "edit_distances", "pair_distance"]

#: torchmetrics' cost of a cell outside the beam (its ``_INT_INFINITY``): no cell costs more
FAR = 10**16
#: a substitution cost at or above this counts as this: a path with one substitution then
#: costs more than any distance that fits in torchmetrics' int32 result, and none overflows
_COST_CAP = 1 << 40
_BEAM_WIDTH = 25
#: character pairs (summed over the pairs) per thread at least (see threads.work_blocks)
MIN_WORK_PER_THREAD = 1 << 18


def edit_distances(preds: Sequence[str], targets: Sequence[str],
                   substitution_cost: int = 1) -> np.ndarray:
    """The edit distance of each prediction to its target (int64, one per pair).

    Raises:
        OverflowError: a distance that does not fit torchmetrics' int32 result.
    """
    cost = min(int(substitution_cost), _COST_CAP)
    pred_chars, pred_starts, pred_lengths = code_points(preds)
    target_chars, target_starts, target_lengths = code_points(targets)
    distances = np.empty(len(pred_lengths), dtype=np.int64)
    module = native.module()
    if module is None:
        for k in range(len(distances)):
            distances[k] = pair_distance(
                pred_chars[pred_starts[k] : pred_starts[k] + pred_lengths[k]],
                target_chars[target_starts[k] : target_starts[k] + target_lengths[k]], cost)
    else:
        work = np.cumsum(pred_lengths * target_lengths + 1)
        bounds, workers = threads.work_blocks(work, threads.worker_threads(),
                                              MIN_WORK_PER_THREAD)

        def block(index: int) -> None:
            module.edit_distances(pred_chars, pred_starts, pred_lengths, target_chars,
                                  target_starts, target_lengths, cost, distances,
                                  bounds[index], bounds[index + 1])

        threads.run_blocks(block, range(len(bounds) - 1), workers)
    if len(distances) and distances.max() > np.iinfo(np.int32).max:
        raise OverflowError(
            f"an edit distance of {int(distances.max())} does not fit the int32 that "
            f"torchmetrics returns (substitution_cost={substitution_cost})")
    return distances


def pair_distance(pred: np.ndarray, target: np.ndarray, cost: int) -> int:
    """The beam distance of one pair of code-point arrays (the module docstring's steps)."""
    n, m = len(pred), len(target)
    ratio = m / n if n else 1.0
    beam = math.ceil(ratio / 2 + _BEAM_WIDTH) if ratio / 2 > _BEAM_WIDTH else _BEAM_WIDTH
    row = np.arange(m + 1, dtype=np.int64)
    columns = np.arange(m + 1, dtype=np.int64)
    for i in range(1, n + 1):
        diagonal = math.floor(i * ratio)
        low = max(0, diagonal - beam)
        high = m + 1 if i == n else min(m + 1, diagonal + beam)
        best = row + 1
        best[1:] = np.minimum(best[1:], row[:-1] + np.where(target == pred[i - 1], 0, cost))
        np.minimum(best, FAR, out=best)
        # insertions: cell j is at most cell k (k < j, inside the beam) plus j - k
        inside = best[low:high] - columns[low:high]
        row = np.full(m + 1, FAR, dtype=np.int64)
        row[low:high] = np.minimum(np.minimum.accumulate(inside) + columns[low:high], FAR)
    return int(row[m])
