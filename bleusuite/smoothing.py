"""The three smoothing families, each with its library's exact arithmetic.

Every function here is element-wise over the leading axes of the statistics, so the same
code scores one corpus (0-d statistics) or every sentence of a batch ((B,) statistics), on
any backend. Orders are the last axis.

The smoothing names, and whose numbers each reproduces:

* NLTK ``sentence_bleu`` / ``corpus_bleu`` with ``SmoothingFunction().methodK``:
  ``method0`` .. ``method7`` (per-sentence denominators floored at 1 before summing).
* pytorch-ignite ``Bleu(smooth=...)``: ``no_smooth``, ``smooth1``, ``nltk_smooth2``,
  ``smooth2`` (sentence scores are the ``average="macro"`` terms, corpus scores equal
  ``average="micro"``).
* sacrebleu ``BLEU(smooth_method=..., smooth_value=..., effective_order=...)``, divided
  by 100: ``none``, ``floor``, ``add-k``, ``exp``.
"""

from __future__ import annotations

import math
import sys
from typing import Any

from bleusuite import checks, rules
from bleusuite.backends.base import Backend

__all__ = ["FAMILIES", "SMOOTHING_NAMES", "family_of"]

NLTK_METHODS = tuple(f"method{k}" for k in range(8))
IGNITE_METHODS = ("no_smooth", "smooth1", "nltk_smooth2", "smooth2")
SACREBLEU_METHODS = ("none", "floor", "add-k", "exp")

#: family name -> smoothing names of that family
FAMILIES: dict[str, tuple[str, ...]] = {
    "nltk": NLTK_METHODS,
    "ignite": IGNITE_METHODS,
    "sacrebleu": SACREBLEU_METHODS,
}
#: every accepted smoothing name
SMOOTHING_NAMES: tuple[str, ...] = NLTK_METHODS + IGNITE_METHODS + SACREBLEU_METHODS

#: smoothing names whose default ``smooth_value`` can be changed, and that default
SMOOTH_VALUE_DEFAULTS: dict[str, float] = {"method1": 0.1, "floor": 0.1, "add-k": 1.0}

# NLTK SmoothingFunction's constructor defaults (alpha for method6, k for method4)
_NLTK_ALPHA = 5
_NLTK_K = 5
# method6 switches to log space below this precision (far above the float minimum, so no
# intermediate product underflows)
_TINY = 1e-280
_LOG_TINY = math.log(_TINY)
# NLTK method0's log of a zero precision: math.log(sys.float_info.min)
_LOG_FLOAT_MIN = math.log(sys.float_info.min)
#: sacrebleu's ``my_log(0)``: its log of a zero precision
SACREBLEU_LOG_ZERO = -9999999999.0


def family_of(smooth: Any) -> str:
    """The family a smoothing name belongs to.

    >>> family_of("method3"), family_of("smooth1"), family_of("exp")
    ('nltk', 'ignite', 'sacrebleu')
    """
    for family, names in FAMILIES.items():
        if smooth in names:
            return family
    raise ValueError(
        f"smooth must be one of {', '.join(SMOOTHING_NAMES)}; got {smooth!r}"
    )


def extra_orders(smooth: str) -> int:
    """Highest order a smoothing method needs beyond the weights (NLTK 5/7 use 5-grams)."""
    return 5 if smooth in ("method5", "method7") else 0


def _f(be: Backend, a: Any) -> Any:
    return be.to_float64(a)


def power_of_two(be: Backend, exponent: Any, largest: int) -> Any:
    """``2.0 ** exponent`` in float64, exactly, for int64 exponents in 0..``largest``.

    The geometric smoothings (NLTK method3/4/7, sacrebleu ``exp``) halve the k-th zero
    precision: ``2 ** k`` in int64 overflows from k = 63 (orders go up to 256), and a
    float ``pow`` may round on some devices. A lookup in a table of Python's exact floats
    ``2.0 ** k`` is exact on every backend (and one gather).
    """
    return be.power_of_two(exponent, largest)


def _weighted_log_sum(
    be: Backend, weights: Any, precisions: Any, skip_zero: bool, zero_log: float | None = None
) -> Any:
    if skip_zero:  # NLTK leaves out orders whose precision is 0 (or negative)
        positive = precisions > 0
        logs = be.log(be.where(positive, precisions, 1.0))
        # ``zero_log``: the log a zero precision stands for instead (method0)
        return be.sum_(be.where(positive, weights * logs, 0.0 if zero_log is None
                                else weights * zero_log), axis=-1)
    return be.sum_(weights * be.log(precisions), axis=-1)


def brevity_penalty(be: Backend, hyp_len: Any, ref_len: Any) -> Any:
    """BLEU's brevity penalty: :func:`bleusuite.rules.brevity_penalty`."""
    return rules.brevity_penalty(be, hyp_len, ref_len)


def nltk_bleu(
    be: Backend, stats: Any, weights: Any, order: int, smooth: str, epsilon: float
) -> Any:
    """NLTK ``corpus_bleu`` on (summed) statistics."""
    matches = stats.matches[..., :order]
    denominators = stats.clamped_totals[..., :order]
    numer = _f(be, matches)
    denom = _f(be, denominators)
    precisions = numer / denom
    zero = matches == 0
    hyp_len = stats.hyp_len

    def method4(p: Any) -> Any:
        rank = be.cumsum(be.to_int64(zero), axis=-1)
        log_len = be.log(be.where(hyp_len > 1, _f(be, hyp_len), 2.0))[..., None]
        # NLTK: numerator = 1 / (2**incvnt * k / log(hyp_len)); p = numerator / denominator
        smoothed = 1.0 / (power_of_two(be, rank, order) * float(_NLTK_K) / log_len) / denom
        return be.where(zero & (hyp_len > 1)[..., None], smoothed, p)

    def method5(p: Any) -> Any:
        # m[-1] = p_1 + 1; p_i <- (m[i-1] + p_i + p_{i+1}) / 3 with the original p_{i+1},
        # and NLTK's own 5-gram precision after the last order (whatever the order count)
        five = _f(be, stats.matches[..., 4]) / _f(be, stats.clamped_totals[..., 4])
        previous = p[..., 0] + 1.0
        columns = []
        for i in range(order):
            following = p[..., i + 1] if i + 1 < order else five
            previous = (previous + p[..., i] + following) / 3.0
            columns.append(previous)
        return _stack(be, columns)

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
        precisions = be.where(zero, 1.0 / (power_of_two(be, rank, order) * denom), precisions)
    elif smooth == "method4":
        precisions = method4(precisions)
    elif smooth == "method5":
        precisions = method5(precisions)
    elif smooth == "method6":  # in log space: its precisions fall below the float range
        log_precisions, unscorable = _nltk_method6_logs(be, stats, precisions, order)
        score = brevity_penalty(be, hyp_len, stats.ref_len) * be.exp(
            be.sum_(weights * log_precisions, axis=-1)
        )
        score = be.where(matches[..., 0] == 0, 0.0, score)
        if unscorable is not None:
            score = be.where(unscorable, float("nan"), score)
        return score
    elif smooth == "method7":
        precisions = method5(method4(precisions))
    score = brevity_penalty(be, hyp_len, stats.ref_len) * be.exp(
        _weighted_log_sum(be, weights, precisions, skip_zero=True, zero_log=zero_log)
    )
    return be.where(matches[..., 0] == 0, 0.0, score)


def _stack(be: Backend, columns: list[Any]) -> Any:
    return be.concat([c[..., None] for c in columns], axis=-1)


def _nltk_method6_logs(
    be: Backend, stats: Any, precisions: Any, order: int
) -> tuple[Any, Any | None]:
    """Logs of NLTK's method6 precisions (Gao and He 2013): for orders i >= 3,
    ``p_i = (m_i + alpha * p_{i-1}**2 / p_{i-2}) / (l_i + alpha)``; and, on devices (where
    raising would need a host read), the mask of sentences NLTK cannot score (their score
    becomes NaN), None elsewhere.

    Without matches ``log p_i`` falls quadratically with i (about -65,000 at order 256), far
    below the float range: NLTK keeps exact fractions (and fails in ``math.log`` once one
    is below 1e-308), a float recurrence would reach 0 and drop the order from the score.
    Each step is computed in floats while the precisions stay well inside the float range
    (the arithmetic NLTK's fractions round to: a perfect match gives exactly 1), and in
    log space from where they leave it, so every precision stays finite and the score is
    exact: 0.0 when it underflows.
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
        m = _f(be, stats.matches[..., i])
        denominator = _f(be, stats.totals[..., i]) + _NLTK_ALPHA
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
    return _stack(be, logs), unscorable


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


def ignite_bleu(be: Backend, stats: Any, weights: Any, order: int, smooth: str) -> Any:
    """pytorch-ignite ``Bleu._brevity_penalty_smoothing`` on (summed) statistics."""
    matches = stats.matches[..., :order]
    totals = stats.totals[..., :order]
    numer = _f(be, matches)
    floored = _f(be, be.maximum(totals, 1))
    first = be.arange(order, like=matches) == 0
    if smooth == "no_smooth":
        precisions = numer / floored
    elif smooth == "smooth1":
        precisions = be.where(matches != 0, numer / floored, 0.1 / floored)
    elif smooth == "nltk_smooth2":
        precisions = be.where(first, numer / floored, (numer + 1.0) / (floored + 1.0))
    else:  # smooth2: like nltk_smooth2 but without flooring the denominators
        raw = _f(be, totals)
        unigram = numer / be.where(raw > 0, raw, 1.0)
        precisions = be.where(first, unigram, (numer + 1.0) / (raw + 1.0))
    valid = matches[..., 0] != 0
    if smooth == "no_smooth":  # ignite returns 0 as soon as any order has no match
        valid = valid & (be.sum_(be.to_int64(matches == 0), axis=-1) == 0)
    safe = be.where(valid[..., None], precisions, 1.0)
    score = brevity_penalty(be, stats.hyp_len, stats.ref_len) * be.exp(
        _weighted_log_sum(be, weights, safe, skip_zero=False)
    )
    return be.where(valid, score, 0.0)


def sacrebleu_bleu(
    be: Backend,
    stats: Any,
    weights: Any | None,
    order: int,
    smooth: str,
    smooth_value: float | None,
    effective_order: bool,
) -> Any:
    """sacrebleu ``BLEU.compute_bleu`` on (summed) statistics, on the 0-1 scale."""
    correct = stats.matches[..., :order]
    any_correct = be.sum_(correct, axis=-1) > 0
    precisions, reached = sacrebleu_precisions(be, stats, order, smooth, smooth_value)
    logs = be.where(precisions > 0, be.log(be.where(precisions > 0, precisions, 1.0)),
                    SACREBLEU_LOG_ZERO)
    if weights is not None:
        log_mean = be.sum_(weights * logs, axis=-1)
    elif effective_order:
        count = be.sum_(be.to_int64(reached), axis=-1)
        eff = be.where(count > 0, count, order)
        used = be.arange(order, like=correct) < eff[..., None]
        log_mean = be.sum_(be.where(used, logs, 0.0), axis=-1) / _f(be, eff)
    else:
        log_mean = be.sum_(logs, axis=-1) / float(order)
    score = brevity_penalty(be, stats.hyp_len, stats.ref_len) * be.exp(log_mean)
    return be.where(any_correct, score / 100.0, 0.0)


def sacrebleu_precisions(
    be: Backend, stats: Any, order: int, smooth: str, smooth_value: float | None,
    scale: float = 100.0,
) -> tuple[Any, Any]:
    """sacrebleu's smoothed precisions on the 0-100 scale (its ``BLEUScore.precisions``
    when some order has a match), and which orders its loop reached, ``(..., order)`` each.
    ``scale=1.0`` gives them on the 0-1 scale (divided before, not after: the same rounding
    as ``correct / total``).

    sacrebleu stops at the first order without hypothesis n-grams (after add-k): the
    orders from there on have precision 0 and are not reached.
    """
    correct = stats.matches[..., :order]
    total = stats.totals[..., :order]
    later = be.arange(order, like=correct) > 0
    correct_f = _f(be, correct)
    total_f = _f(be, total)
    if smooth == "add-k":
        k = smooth_value_of(smooth, smooth_value)
        correct_f = be.where(later, correct_f + k, correct_f)
        total_f = be.where(later, total_f + k, total_f)
    # sacrebleu stops at the first order without hypothesis n-grams
    reached = be.cumsum(be.to_int64(total_f <= 0), axis=-1) == 0
    safe_total = be.where(reached, total_f, 1.0)
    zero = reached & (correct_f == 0)
    precisions = be.where(reached, scale * correct_f / safe_total, 0.0)
    if smooth == "exp":
        rank = be.cumsum(be.to_int64(zero), axis=-1)
        smoothed = scale / (power_of_two(be, rank, order) * safe_total)
        precisions = be.where(zero, smoothed, precisions)
    elif smooth == "floor":
        v = smooth_value_of(smooth, smooth_value)
        precisions = be.where(zero, scale * v / safe_total, precisions)
    return precisions, reached


def smooth_value_of(smooth: str, smooth_value: float | None) -> float:
    """The value a smoothing method takes: ``smooth_value`` as a float, else its default
    (:data:`SMOOTH_VALUE_DEFAULTS`; the caller's method is one of them).

    >>> smooth_value_of("add-k", None), smooth_value_of("floor", 0.5)
    (1.0, 0.5)
    """
    return SMOOTH_VALUE_DEFAULTS[smooth] if smooth_value is None else float(smooth_value)


def check_smooth_value(smooth: str, smooth_value: Any) -> float | None:
    if smooth_value is None:
        return None
    if smooth not in SMOOTH_VALUE_DEFAULTS:
        raise ValueError(
            f"smooth_value is only used by {', '.join(SMOOTH_VALUE_DEFAULTS)}; "
            f"got smooth_value={smooth_value!r} with smooth={smooth!r}"
        )
    return checks.number(smooth_value, "smooth_value", minimum=0)
