"""Small batches scored row by row by the formulas traced into scalar Python (one function
per formula, settings and row shape, kept; :mod:`bleusuite.backends.trace`).

>>> def formula(be, matches, totals):
...     return be.where(totals > 0, matches / be.where(totals > 0, totals, 1), 0.0)
>>> by_rows(formula, (), [np.array([3, 1]), np.array([4, 0])]).tolist()
[0.75, 0.0]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from bleusuite.backends.trace import TraceError, row_function

__all__ = ["ROW_LIMIT", "by_rows"]

#: the most rows a batch may have to be scored row by row (from there the array face, whose
#: cost hardly grows with the rows, is the faster)
ROW_LIMIT = 16


@functools.lru_cache(maxsize=512)
def _traced(fn: Callable[..., Any], static: tuple[Any, ...],
            inputs: tuple[tuple[tuple[int, ...], str], ...]) -> Callable[..., Any] | None:
    """The traced face of ``fn`` for rows of these shapes and NumPy dtype kinds, or None."""
    kinds = {"b": "b", "i": "i", "u": "i", "f": "f"}
    try:
        return row_function(fn, static, [(shape, kinds.get(k, "?")) for shape, k in inputs])
    except TraceError:
        return None


def by_rows(fn: Callable[..., Any], static: tuple[Any, ...],
            arrays: Sequence[np.ndarray]) -> np.ndarray | None:
    """``fn(be, *arrays, *static)`` (one number per row, or a row of numbers) row by row,
    or None where the batch is empty or too large for that or ``fn`` cannot be traced: the
    caller then runs it on NumPy. ``static`` must be hashable."""
    rows = int(arrays[0].shape[0])
    if not 0 < rows <= ROW_LIMIT:
        return None
    function = _traced(fn, static, tuple((a.shape[1:], a.dtype.kind) for a in arrays))
    if function is None:
        return None
    if rows == 1:
        return np.array([function(*[v for a in arrays for v in a.reshape(-1).tolist()])],
                        dtype=np.float64)
    columns = [a.reshape(rows, -1).tolist() for a in arrays]
    return np.array([function(*[value for column in columns for value in column[row]])
                     for row in range(rows)], dtype=np.float64)
