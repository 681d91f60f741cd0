"""sacrebleu's BLEU arithmetic (``BLEU.compute_bleu``), the one place it is written.

Two faces over one set of rules (:func:`smoothed_precisions`, and the brevity penalty of
:mod:`bleusuite.scores.rules`):

* :func:`array_bleu`: element-wise on statistics arrays of any backend (the library's
  ``bleu_score`` with ``smooth="none" | "floor" | "add-k" | "exp"``), 0-1 scale, equal to
  sacrebleu's scores to within 1e-12 (the logarithms and exponentials are the backend's);
* :func:`exact_bleu`: rows of summed statistics on the host, with sacrebleu's own scalar
  arithmetic operation for operation (Python's ``math.log``, ``math.exp`` and ``sum``), so
  the floats are sacrebleu's to the last bit: the command's corpus and sentence scores,
  confidence intervals and paired tests, whatever the route, print sacrebleu's digits.
  ``float32=True`` is sacrebleu's arithmetic on resamples (its bootstrap sums float32
  statistics, and NumPy 2 keeps the precisions in float32 there).

The tests hold the two faces against each other and against sacrebleu.

>>> import numpy as np
>>> # hyp_len, ref_len, correct (N = 4), totals, clamped totals
>>> table = np.array([[6, 6, 5, 4, 3, 2, 6, 5, 4, 3, 6, 5, 4, 3]])
>>> exact_bleu(table).scores.tolist()
[75.98356856515926]
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleusuite import backends, native
from bleusuite.backends.base import Backend
from bleusuite.scores import rules

__all__ = ["LOG_ZERO", "METHODS", "ExactBleu", "array_bleu", "exact_bleu", "smoothed_precisions"]

#: sacrebleu's smoothing methods
METHODS = ("none", "floor", "add-k", "exp")
#: the value each method takes by default (``smooth_value=None``), where it takes one
VALUE_DEFAULTS = {"floor": 0.1, "add-k": 1.0}
#: sacrebleu's ``my_log(0)``: its log of a zero precision
LOG_ZERO = -9999999999.0


def smoothed_precisions(
    be: Backend, correct: Any, total: Any, smooth: str, smooth_value: float | None,
    scale: float = 100.0, cast: Callable[[Any], Any] | None = None,
) -> tuple[Any, Any]:
    """sacrebleu's smoothed precisions ``(..., N)`` on the 0-``scale`` scale (its
    ``BLEUScore.precisions`` when some order has a match), and which orders its loop
    reached.

    ``correct`` and ``total`` are integer arrays ``(..., N)``; ``cast`` makes them floats
    (default: float64 on the backend; the command's resampled scores use float32). sacrebleu
    stops at the first order without hypothesis n-grams (after add-k): the orders from there
    on have precision 0 and are not reached. ``scale * correct / total`` is divided after
    the product, as sacrebleu's ``100. * correct / total``.
    """
    cast = cast or be.to_float64
    later = be.arange(correct.shape[-1], like=correct) > 0
    correct_f, total_f = cast(correct), cast(total)
    if smooth == "add-k":  # sacrebleu adds k to the orders above 1
        k = _value(smooth, smooth_value)
        correct_f = be.where(later, correct_f + k, correct_f)
        total_f = be.where(later, total_f + k, total_f)
    reached = be.cumsum(be.to_int64(total_f <= 0), axis=-1) == 0
    safe_total = be.where(reached, total_f, 1.0)
    zero = reached & (correct_f == 0)
    precisions = be.where(reached, scale * correct_f / safe_total, 0.0)
    if smooth == "exp":  # the k-th zero precision is 1 / (2**k total)
        rank = be.cumsum(be.to_int64(zero), axis=-1)
        halving = cast(be.power_of_two(rank, int(correct.shape[-1])))
        precisions = be.where(zero, scale / (halving * safe_total), precisions)
    elif smooth == "floor":
        precisions = be.where(zero, scale * _value(smooth, smooth_value) / safe_total, precisions)
    return precisions, reached


def _value(smooth: str, smooth_value: float | None) -> float:
    return VALUE_DEFAULTS[smooth] if smooth_value is None else float(smooth_value)


def array_bleu(
    be: Backend, stats: Any, weights: Any | None, order: int, smooth: str,
    smooth_value: float | None, effective_order: bool,
) -> Any:
    """sacrebleu's BLEU of (summed) statistics (a ``BleuStats``), element-wise, 0-1 scale.

    ``weights`` None is sacrebleu's own uniform mean of the logs (``effective_order``
    averages over the orders its loop reached); given weights are NLTK-style.
    """
    correct = stats.matches[..., :order]
    precisions, reached = smoothed_precisions(be, correct, stats.totals[..., :order], smooth,
                                              smooth_value, scale=100.0)
    logs = be.where(precisions > 0, be.log(be.where(precisions > 0, precisions, 1.0)), LOG_ZERO)
    if weights is not None:
        log_mean = be.sum_(weights * logs, axis=-1)
    elif effective_order:
        count = be.sum_(be.to_int64(reached), axis=-1)
        eff = be.where(count > 0, count, order)
        used = be.arange(order, like=correct) < eff[..., None]
        log_mean = be.sum_(be.where(used, logs, 0.0), axis=-1) / be.to_float64(eff)
    else:
        log_mean = be.sum_(logs, axis=-1) / float(order)
    score = rules.brevity_penalty(be, stats.hyp_len, stats.ref_len) * be.exp(log_mean)
    return be.where(be.sum_(correct, axis=-1) > 0, score / 100.0, 0.0)


@dataclass(frozen=True)
class ExactBleu:
    """sacrebleu's ``compute_bleu`` of rows of statistics: ``(R,)`` scores (0-100), ``(R, N)``
    precisions (0-100, what it prints) and ``(R,)`` brevity penalties."""

    scores: np.ndarray
    precisions: np.ndarray
    brevity_penalty: np.ndarray


def exact_bleu(
    table: Any, smooth: str = "exp", smooth_value: float | None = None,
    effective_order: bool = False, *, float32: bool = False, max_order: int = 4,
) -> ExactBleu:
    """sacrebleu's ``BLEU.compute_bleu`` of each row of summed BLEU statistics (a
    :class:`~bleusuite.BleuStats`, or its ``to_array`` layout ``(R, 2 + 3N)`` or
    ``(2 + 3N,)``), bit for bit.

    Logarithms and exponentials are Python's ``math`` functions, the log terms are added
    with Python's ``sum`` and the brevity penalty is :func:`bleusuite.scores.rules.brevity_penalty`
    with ``math.exp``, as sacrebleu computes them.

    >>> table = np.array([[4, 6, 4, 3, 2, 1, 4, 3, 2, 1, 4, 3, 2, 1]])
    >>> result = exact_bleu(table)
    >>> round(float(result.scores[0]), 4), result.brevity_penalty.round(4).tolist()
    (60.6531, [0.6065])
    """
    if smooth not in METHODS:
        raise ValueError(f"smooth must be one of sacrebleu's {', '.join(METHODS)}; got {smooth!r}")
    if hasattr(table, "to_array"):  # statistics, of any backend
        table = table.to_array()
        table = backends.get_backend(table).to_numpy(table)
    if not isinstance(table, np.ndarray):
        raise TypeError(f"table must be BleuStats or a NumPy array of them; got "
                        f"{type(table).__name__}")
    table = np.atleast_2d(np.asarray(table, dtype=np.int64))
    width = (table.shape[-1] - 2) // 3
    if width < max_order or table.shape[-1] != 2 + 3 * width:
        raise ValueError(f"table: expected rows of 2 + 3 * N >= {2 + 3 * max_order} BLEU "
                         f"statistics; got shape {table.shape}")
    be = backends.get_backend(table)
    dtype = np.float32 if float32 else np.float64
    correct = table[:, 2 : 2 + max_order]
    total = table[:, 2 + width : 2 + width + max_order]
    sys_len, ref_len = table[:, 0], table[:, 1]
    precisions, reached = smoothed_precisions(be, correct, total, smooth, smooth_value,
                                              cast=lambda a: np.asarray(a, dtype=dtype))
    if effective_order:
        orders = np.maximum(reached.sum(axis=1), 1)
        orders = np.where(reached[:, 0], orders, max_order)
    else:
        orders = np.full(len(table), max_order)
    # bp * exp(sum(my_log(p) for p in precisions[:order]) / order), mapped in C over the
    # rows: NumPy's own log and exp may differ from the C library's in the last bit.
    # Orders past the effective order add 0.0, which changes no sum (plain or compensated).
    logs = np.full(precisions.shape, LOG_ZERO)
    positive = precisions != 0
    logs[positive] = _mapped(math.log, precisions[positive].astype(np.float64))
    logs[np.arange(max_order) >= orders[:, None]] = 0.0
    exponentials = _mapped(math.exp, python_row_sums(logs) / orders)
    penalty = rules.brevity_penalty(be, sys_len, ref_len, exp=lambda a: _mapped(math.exp, a))
    scores = np.where(correct.any(axis=1), penalty * exponentials, 0.0)
    shown = np.where(correct.any(axis=1, keepdims=True), precisions.astype(np.float64), 0.0)
    return ExactBleu(scores, shown, penalty)


def _mapped(function: Callable[[float], float], values: np.ndarray) -> np.ndarray:
    """``function`` (``math.log`` or ``math.exp``) of each value, as float64: in one call of
    the compiled part's ``libm_map`` (the same C functions), or value by value where it is
    not built or a value is one ``math`` refuses or makes infinite."""
    flat = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
    compiled = native.module()
    if compiled is not None and function in (math.log, math.exp):
        mapped = np.empty_like(flat)
        if compiled.libm_map(function.__name__, flat, mapped) == 0:
            return mapped.reshape(np.shape(values))
    mapped = np.fromiter(map(function, flat.tolist()), np.float64, len(flat))
    return mapped.reshape(np.shape(values))


def python_row_sums(rows: np.ndarray) -> np.ndarray:
    """``[sum(row) for row in rows.tolist()]`` as float64, bit for bit: Python's ``sum``
    of floats adds left to right before Python 3.12 (vectorised here, column by column,
    starting from ``0 + row[0]`` as ``sum`` does); from 3.12 on it compensates the
    rounding (Neumaier), and the rows are summed by ``sum`` itself.

    >>> python_row_sums(np.array([[0.1, 0.2, 0.3], [1e16, 1.0, -1e16]])).tolist() == [
    ...     sum([0.1, 0.2, 0.3]), sum([1e16, 1.0, -1e16])]
    True
    """
    rows = np.asarray(rows, dtype=np.float64)
    if sys.version_info >= (3, 12) or rows.ndim != 2:
        return np.fromiter(map(sum, rows.tolist()), np.float64, len(rows))
    total = np.zeros(rows.shape[0])
    with np.errstate(over="ignore"):  # Python's sum overflows to inf without a word
        for column in rows.T:
            total += column
    return total
