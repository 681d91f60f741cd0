"""sacrebleu's TER arithmetic (``TER._compute_score_from_stats``), the one place it is
written: edits over the average reference length, 1 where the references are empty and the
hypothesis is not, 0 where both are; times 100.

>>> from bleusuite.scores.ter.statistics import REF_LENGTH_UNIT
>>> ter_scores(np.array([[3, 4 * REF_LENGTH_UNIT], [2, 0], [0, 0]])).tolist()
[75.0, 100.0, 0.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bleusuite.scores.ter.statistics import REF_LENGTH_UNIT, TerStats

__all__ = ["ter_scores"]


def ter_scores(stats: TerStats[Any] | np.ndarray, *, float32: bool = False) -> np.ndarray:
    """sacrebleu's TER of each entry of ``stats`` (or of their ``to_array`` form), 0-100,
    operation for operation (``float32``: in float32, as its bootstrap resamples).

    >>> ter_scores(np.array([1, 3 * REF_LENGTH_UNIT]), float32=True).dtype
    dtype('float32')
    """
    if isinstance(stats, np.ndarray):
        stats = TerStats.from_array(stats)
    be = stats.backend
    edits = np.asarray(be.to_numpy(stats.edits)).astype(np.float64)
    units = np.asarray(be.to_numpy(stats.ref_length_units))
    ref_length = units.astype(np.float64) / REF_LENGTH_UNIT
    dtype = np.float32 if float32 else np.float64
    edits, ref_length = edits.astype(dtype), ref_length.astype(dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(ref_length > 0, edits / np.where(ref_length > 0, ref_length, 1),
                         np.where(edits > 0, dtype(1), dtype(0)))
    result: np.ndarray = np.asarray(dtype(100) * ratio.astype(dtype), dtype=dtype)
    return result if float32 else result.astype(np.float64)
