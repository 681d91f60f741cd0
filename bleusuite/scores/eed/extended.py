"""EED, the extended edit distance of Stanchev, Wang and Ney (2019), as torchmetrics'
``ExtendedEditDistance`` computes it on preprocessed sentences (:mod:`.preprocess`).

For a hypothesis ``h`` (``n`` characters) and a reference ``r`` (``m`` characters), rows
are the reference's characters and columns the hypothesis' (the CDER alignment grid):

1. Row 0 is ``0, 1, 1, ..., 1``; every column was visited -1 times.
2. Row ``w``: column 0 is the cell above plus 1; column ``i`` the least of the cell to its
   left plus ``deletion``, the cell above-left plus 0 (``h[i-1] == r[w-1]``) or 1, and
   the cell above plus ``insertion``.
3. The first column holding the row's least cost is visited once more; where ``r[w-1]``
   is a space, every cell of the row is lowered to at most that cost plus ``alpha`` (a
   jump).
4. The coverage is ``rho`` times the sum over the columns of their visits (a column never
   visited counts 1); the score is ``min(1, (last cell + coverage) / (m + coverage))``.

A sentence's score is the least over its references. The arithmetic is float64 in the
order above, steps 1 to 3 in the compiled kernel (``eed_grid`` of
``bleusuite/csrc/edit_distance.c``, the GIL released, on the worker threads) or its Python twin,
step 4 in NumPy: a row's least cost and the column that holds it first are the
reference's own, and so is every score's last digit.

>>> reference_scores([" a cat "], [" the cat "]).tolist()
[0.45945945945945943]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from bleusuite import native, threads
from bleusuite.scores.eed.characters import code_points
from bleusuite.scores.eed.preprocess import preprocess_all

__all__ = ["eed_scores", "pair_grid", "reference_scores"]

#: character pairs (summed over the pairs) per thread at least (see threads.work_blocks)
MIN_WORK_PER_THREAD = 1 << 17
_SPACE = ord(" ")


def eed_scores(preds: Sequence[str], targets: Sequence[Sequence[str]],
               language: Literal["en", "ja"] = "en", alpha: float = 2.0, rho: float = 0.3,
               deletion: float = 0.2, insertion: float = 1.0) -> np.ndarray:
    """Each prediction's EED against its references (float64, one per prediction; the
    least over the references, ``inf`` where it has none), after ``language``'s
    preprocessing.

    >>> eed_scores(["this is the prediction"], [["this is the reference"]]).round(4).tolist()
    [0.3835]
    """
    hyps = preprocess_all(preds, language)
    counts = np.fromiter(map(len, targets), dtype=np.int64, count=len(targets))
    owners = np.repeat(np.arange(len(hyps)), counts)
    flat_refs = preprocess_all([ref for references in targets for ref in references], language)
    scores = reference_scores([hyps[k] for k in owners.tolist()], flat_refs, alpha, rho,
                              deletion, insertion)
    best = np.full(len(hyps), np.inf)
    np.minimum.at(best, owners, scores)
    return best


def reference_scores(hyps: Sequence[str], refs: Sequence[str], alpha: float = 2.0,
                     rho: float = 0.3, deletion: float = 0.2,
                     insertion: float = 1.0) -> np.ndarray:
    """The EED of each hypothesis against the reference beside it (preprocessed texts;
    float64, one per pair).

    Raises:
        ZeroDivisionError: an empty reference where ``rho`` is 0 (the score is 0 / 0).
    """
    hyp_chars, hyp_starts, hyp_lengths = code_points(hyps)
    ref_chars, ref_starts, ref_lengths = code_points(refs)
    if rho == 0 and (ref_lengths == 0).any():
        raise ZeroDivisionError("float division by zero: EED of an empty reference (after "
                                "preprocessing) with rho=0")
    last = np.empty(len(hyp_lengths), dtype=np.float64)
    visited = np.empty(len(hyp_lengths), dtype=np.int64)
    module = native.module()
    if module is None:
        for k in range(len(last)):
            last[k], visited[k] = pair_grid(
                hyp_chars[hyp_starts[k] : hyp_starts[k] + hyp_lengths[k]].tolist(),
                ref_chars[ref_starts[k] : ref_starts[k] + ref_lengths[k]].tolist(),
                alpha, deletion, insertion)
    else:
        costs = np.array([alpha, deletion, insertion], dtype=np.float64)
        work = np.cumsum((hyp_lengths + 1) * ref_lengths + 1)
        bounds, workers = threads.work_blocks(work, threads.worker_threads(),
                                              MIN_WORK_PER_THREAD)

        def block(index: int) -> None:
            module.eed_grid(hyp_chars, hyp_starts, hyp_lengths, ref_chars, ref_starts,
                            ref_lengths, costs, last, visited, bounds[index],
                            bounds[index + 1])

        threads.run_blocks(block, range(len(bounds) - 1), workers)
    # step 4 here, element by element (float64, the reference's order): the kernel adds
    # and compares only, so no compiler can fuse a multiplication into an addition
    with np.errstate(invalid="ignore"):  # rho=inf: inf / inf, which min(1, nan) makes 1
        coverage = rho * visited.astype(np.float64)
        scores = (last + coverage) / (ref_lengths.astype(np.float64) + coverage)
        return np.where(scores < 1, scores, 1.0)


def pair_grid(hyp: list[int], ref: list[int], alpha: float, deletion: float,
               insertion: float) -> tuple[float, int]:
    """One pair's last cell and visits (the module docstring's steps 1 to 3; the kernel's
    twin)."""
    n = len(hyp)
    visits = [-1] * (n + 1)
    row = [0.0] + [1.0] * n
    for char in ref:
        next_row = [row[0] + 1.0]
        for i in range(1, n + 1):
            next_row.append(min(next_row[i - 1] + deletion,
                                row[i - 1] + (0.0 if hyp[i - 1] == char else 1.0),
                                row[i] + insertion))
        least = min(next_row)
        visits[next_row.index(least)] += 1
        if char == _SPACE:
            jump = alpha + least
            next_row = [min(cost, jump) for cost in next_row]
        row = next_row
    return row[-1], sum(count if count >= 0 else 1 for count in visits)

