"""NLTK's BLEU arithmetic (``SmoothingFunction().method0`` .. ``method7``), the one place it
is written. NLTK floors each sentence's n-gram count at 1 before summing
(``clamped_totals``) and leaves orders with a zero precision out of the mean.
"""

from __future__ import annotations

import math
import sys
from typing import Any

from bleusuite.backends.base import Backend
from bleusuite.scores.bleu.smoothing import gated_score, stack

__all__ = ["check_method6", "nltk_bleu"]

# NLTK SmoothingFunction's constructor defaults (alpha for method6, k for method4)
_NLTK_ALPHA = 5
_NLTK_K = 5
# method6 switches to log space below this precision (far above the float minimum, so no
# intermediate product underflows)
_TINY = 1e-280
_LOG_TINY = math.log(_TINY)
# NLTK method0's log of a zero precision: math.log(sys.float_info.min)
_LOG_FLOAT_MIN = math.log(sys.float_info.min)


def nltk_bleu(
    be: Backend, stats: Any, weights: Any, order: int, smooth: str, epsilon: float
) -> Any:
    """NLTK ``corpus_bleu`` on (summed) statistics."""
    matches = stats.matches[..., :order]
    denominators = stats.clamped_totals[..., :order]
    numer = be.to_float64(matches)
    denom = be.to_float64(denominators)
    precisions = numer / denom
    zero = matches == 0
    hyp_len = stats.hyp_len

    def method4(p: Any) -> Any:
        rank = be.cumsum(be.to_int64(zero), axis=-1)
        log_len = be.log(be.where(hyp_len > 1, be.to_float64(hyp_len), 2.0))[..., None]
        # NLTK: numerator = 1 / (2**incvnt * k / log(hyp_len)); p = numerator / denominator
        smoothed = 1.0 / (be.power_of_two(rank, order) * float(_NLTK_K) / log_len) / denom
        return be.where(zero & (hyp_len > 1)[..., None], smoothed, p)

    def method5(p: Any) -> Any:
        # m[-1] = p_1 + 1; p_i <- (m[i-1] + p_i + p_{i+1}) / 3 with the original p_{i+1},
        # and NLTK's own 5-gram precision after the last order (whatever the order count)
        five = be.to_float64(stats.matches[..., 4]) / be.to_float64(stats.clamped_totals[..., 4])
        previous = p[..., 0] + 1.0
        columns = []
        for i in range(order):
            following = p[..., i + 1] if i + 1 < order else five
            previous = (previous + p[..., i] + following) / 3.0
            columns.append(previous)
        return stack(be, columns)

    zero_log = None
    if smooth == "method0":
        # NLTK's p_n = sys.float_info.min, taken by its log: that value underflows float32
        # (JAX without x64), its log does not
        zero_log = _LOG_FLOAT_MIN
    elif smooth == "method1":
        precisions = be.where(zero, epsilon / denom, precisions)
    elif smooth == "method2":
        smoothed = (numer + 1.0) / (denom + 1.0)
        first = be.arange(order, like=matches) == 0
        precisions = be.where(first, precisions, smoothed)
    elif smooth == "method3":
        rank = be.cumsum(be.to_int64(zero), axis=-1)
        precisions = be.where(zero, 1.0 / (be.power_of_two(rank, order) * denom), precisions)
    elif smooth == "method4":
        precisions = method4(precisions)
    elif smooth == "method5":
        precisions = method5(precisions)
    elif smooth == "method6":  # in log space: its precisions fall below the float range
        log_precisions, unscorable = _nltk_method6_logs(be, stats, precisions, order)
        score = gated_score(be, stats, be.sum_(weights * log_precisions, axis=-1),
                            matches[..., 0] != 0)
        return score if unscorable is None else be.where(unscorable, float("nan"), score)
    elif smooth == "method7":
        precisions = method5(method4(precisions))
    # NLTK leaves out orders whose precision is 0 (or negative); method0 adds ``zero_log``
    positive = precisions > 0
    logs = be.log(be.where(positive, precisions, 1.0))
    log_sum = be.sum_(be.where(positive, weights * logs,
                               0.0 if zero_log is None else weights * zero_log), axis=-1)
    return gated_score(be, stats, log_sum, matches[..., 0] != 0)


def _nltk_method6_logs(
    be: Backend, stats: Any, precisions: Any, order: int
) -> tuple[Any, Any | None]:
    """Logs of NLTK's method6 precisions (Gao and He 2013), for orders i >= 3
    ``p_i = (m_i + alpha * p_{i-1}**2 / p_{i-2}) / (l_i + alpha)``, and on devices the mask
    of sentences NLTK cannot score (NaN there), else None.

    Without matches ``log p_i`` falls quadratically with i, far below the float range (NLTK
    keeps exact fractions): each step is computed in floats while the precisions stay well
    inside the range (the arithmetic NLTK's fractions round to), in log space from there.
    """
    unscorable = check_method6(be, stats, order)
    # with a 3-gram match every precision is positive; rows without a unigram match score
    # 0 whatever these hold
    safe = be.where(precisions > 0, precisions, 1.0)
    values = [safe[..., 0], safe[..., 1]]  # p_i, valid where `in_range`
    in_range = [values[0] > _TINY, values[1] > _TINY]
    logs = [be.log(values[0]), be.log(values[1])]  # log p_i, always valid
    log_alpha = math.log(_NLTK_ALPHA)
    for i in range(2, order):
        m = be.to_float64(stats.matches[..., i])
        denominator = be.to_float64(stats.totals[..., i]) + _NLTK_ALPHA
        before, last = values[i - 2], values[i - 1]
        linear = (m + _NLTK_ALPHA * (last * (last / before))) / denominator
        linear_ok = in_range[i - 2] & in_range[i - 1] & (linear > _TINY)
        # log(m + alpha * pi0) - log(l + alpha), pi0 = p_{i-1}**2 / p_{i-2}
        log_prior = log_alpha + 2.0 * logs[i - 1] - logs[i - 2]
        log_m = be.where(m > 0, be.log(be.where(m > 0, m, 1.0)), -math.inf)
        high, low = be.maximum(log_m, log_prior), be.minimum(log_m, log_prior)
        log_value = high + be.log(1.0 + be.exp(low - high)) - be.log(denominator)
        log_p = be.where(linear_ok, be.log(be.where(linear_ok, linear, 1.0)), log_value)
        logs.append(log_p)
        in_range.append(linear_ok | (log_p > _LOG_TINY))
        values.append(be.where(linear_ok, linear, be.exp(be.maximum(log_p, _LOG_TINY))))
    return stack(be, logs), unscorable


def check_method6(be: Backend, stats: Any, order: int) -> Any | None:
    """Raise if method6 cannot score a sentence (as NLTK does) where that costs no host
    read; on devices and under tracing return the mask of such sentences instead."""
    if order < 3:
        raise ValueError("smooth='method6' needs max_order >= 3 (NLTK interpolates from 3-grams)")
    # NLTK returns 0 for a hypothesis without unigram match before it looks at 3-grams
    trigram_zero = (stats.matches[..., 2] == 0) & (stats.matches[..., 0] > 0)
    if not be.reads_are_free(trigram_zero):
        return trigram_zero
    if be.to_bool(be.any_(trigram_zero)):
        rows = be.to_numpy(be.flatnonzero(trigram_zero.reshape(-1)))
        where = f" (sentence {int(rows[0])})" if trigram_zero.ndim else ""
        raise ValueError(
            "smooth='method6' requires at least one 3-gram match where a unigram matches, as "
            f"in NLTK (which fails an assertion there){where}; {len(rows)} sentence(s) have "
            "none"
        )
    return None
