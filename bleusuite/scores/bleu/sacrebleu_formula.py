"""sacrebleu's BLEU arithmetic (``BLEU.compute_bleu``), the one place it is written.

:func:`sacrebleu_scores` is sacrebleu's arithmetic operation for operation, element-wise on
statistics of any backend (on NumPy with the C library's ``log``/``exp`` and Python's
``sum``: sacrebleu's floats to the last bit). The library's ``bleu_score`` with sacrebleu's
smoothing names divides it by 100; :func:`exact_bleu` takes rows of summed statistics on
the host for the command, the sacrebleu API and the result objects (``float32=True``: its
bootstrap resamples' arithmetic).

>>> import numpy as np
>>> # hyp_len, ref_len, correct (N = 4), totals, clamped totals
>>> table = np.array([[6, 6, 5, 4, 3, 2, 6, 5, 4, 3, 6, 5, 4, 3]])
>>> exact_bleu(table).scores.tolist()
[75.98356856515926]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleusuite import backends
from bleusuite.backends import trace
from bleusuite.backends.base import Backend
from bleusuite.scores import rules
from bleusuite.scores.bleu.smoothing import SACREBLEU_METHODS, smooth_value_of

__all__ = ["LOG_ZERO", "METHODS", "ExactBleu", "exact_bleu", "sacrebleu_scores",
           "smoothed_precisions"]

#: sacrebleu's smoothing methods
METHODS = SACREBLEU_METHODS
#: sacrebleu's ``my_log(0)``: its log of a zero precision
LOG_ZERO = -9999999999.0


def smoothed_precisions(
    be: Backend, correct: Any, total: Any, smooth: str, smooth_value: float | None,
    scale: float = 100.0, cast: Callable[[Any], Any] | None = None,
) -> tuple[Any, Any]:
    """sacrebleu's smoothed precisions ``(..., N)``, 0-``scale``, of the integer ``correct``
    and ``total`` ``(..., N)`` (made floats by ``cast``, default float64), and which orders
    its loop reached (it stops at the first order without n-grams, after add-k)."""
    cast = cast or be.to_float64
    later = be.arange(correct.shape[-1], like=correct) > 0
    correct_f, total_f = cast(correct), cast(total)
    if smooth == "add-k":  # sacrebleu adds k to the orders above 1
        k = smooth_value_of(smooth, smooth_value)
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
        floor = smooth_value_of(smooth, smooth_value)
        precisions = be.where(zero, scale * floor / safe_total, precisions)
    return precisions, reached


def sacrebleu_scores(
    be: Backend, stats: Any, weights: Any | None, order: int, smooth: str,
    smooth_value: float | None, effective_order: bool,
    cast: Callable[[Any], Any] | None = None,
) -> tuple[Any, Any, Any]:
    """sacrebleu's ``compute_bleu`` of (summed) ``BleuStats``, element-wise: the scores and
    the precisions it reports (0-100), and the brevity penalties. ``weights`` None is
    sacrebleu's uniform mean of the logs, added as Python's ``sum`` adds."""
    correct = stats.matches[..., :order]
    precisions, reached = smoothed_precisions(be, correct, stats.totals[..., :order], smooth,
                                              smooth_value, scale=100.0, cast=cast)
    positive = precisions > 0
    logs = be.where(positive, be.log(be.to_float64(be.where(positive, precisions, 1.0))),
                    LOG_ZERO)
    if weights is not None:
        log_mean = be.sum_(weights * logs, axis=-1)
    elif effective_order:
        count = be.sum_(be.to_int64(reached), axis=-1)
        eff = be.where(count > 0, count, order)
        used = be.arange(order, like=correct) < eff[..., None]
        # the orders past the effective one add 0.0, which changes no sum
        log_mean = be.python_sum(be.where(used, logs, 0.0), axis=-1) / be.to_float64(eff)
    else:
        log_mean = be.python_sum(logs, axis=-1) / float(order)
    penalty = rules.brevity_penalty(be, stats.hyp_len, stats.ref_len)
    matched = be.sum_(correct, axis=-1) > 0
    scores = be.where(matched, penalty * be.exp(log_mean), 0.0)
    shown = be.where(matched[..., None], be.to_float64(precisions), 0.0)
    return scores, shown, penalty


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
    :class:`~bleusuite.BleuStats`, or its ``to_array`` layout), bit for bit.

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
    static = (max_order, smooth, smooth_value, effective_order, float32)
    rows = None if float32 else trace.by_rows(_exact_of_table, static, [table])
    if rows is None:
        rows = _exact_of_table(backends.get_backend(table), table, *static)
    return ExactBleu(rows[:, 0], rows[:, 2:], rows[:, 1])


def _exact_of_table(be: Backend, table: Any, max_order: int, smooth: str,
                    smooth_value: float | None, effective_order: bool, float32: bool) -> Any:
    """:func:`sacrebleu_scores` of a table as one array ``(R, 2 + N)``: score, brevity
    penalty, precisions (``float32``: the counts cast as sacrebleu's resamples are)."""
    from bleusuite.scores.bleu.statistics import BleuStats  # its own layout

    def cast(a: Any) -> Any:
        return np.asarray(a, dtype=np.float32) if float32 else be.to_float64(a)

    scores, shown, penalty = sacrebleu_scores(be, BleuStats.from_array(table), None, max_order,
                                              smooth, smooth_value, effective_order, cast=cast)
    return be.concat([scores[..., None], penalty[..., None], shown], axis=-1)
