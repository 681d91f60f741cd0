"""Property-based parity: hypothesis draws the order (1..256), the weights, the smoothing
name, the lengths and the token values; every score is compared with the real NLTK,
sacrebleu and pytorch-ignite wherever those give a finite answer.

Tolerance: 1e-12 *relative* (scores at high orders are tiny: 1e-40 is an ordinary value at
order 256), with an absolute floor of 1e-300 below which floats are subnormal.

Where the reference gives no answer bleusuite decides (docs/smoothing.md, "Orders up to
256"): NLTK's method6 keeps exact fractions whose size doubles with each order (it is only
drawn up to order 10 here) and fails in ``math.log`` once a precision is below 1e-308,
where bleusuite, in log space, gives the exact score (0.0 when that underflows); NLTK's
method6 without a 3-gram match fails an assertion, where bleusuite raises ``ValueError``.

Each example is also scored through arrays (padded, ``pad_id``) on NumPy and on the torch
pipeline (the path CUDA tensors take), which must equal the list form. The example counts
are bounded so that the whole file runs in a few seconds.
"""

from __future__ import annotations

import math
import os
import warnings
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the property tests compare with pytorch-ignite "
                                               "and run the torch pipeline")

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from reference import (
    ignite_micro_bleu,
    ignite_sentence_bleu,
    sacrebleu_corpus_bleu,
    sacrebleu_sentence_bleu,
)

import bleusuite
from bleusuite import backends

RTOL = 1e-12
ATOL = 1e-300
PAD = -(2**63)  # never drawn as a token
# PROPERTY_EXAMPLES=2000 for a longer hunt; the default keeps the plain test run short
PROPERTY_SETTINGS = settings(max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "30")),
                             deadline=None,
                             suppress_health_check=[HealthCheck.too_slow])

Case = tuple[list[int], list[list[int]]]

# ---------------------------------------------------------------------------- strategies


@st.composite
def token_pools(draw: st.DrawFn) -> list[int]:
    """Distinct token values: a tiny vocabulary (many matches) or huge / negative ids."""
    kind = draw(st.sampled_from(["tiny", "small", "huge"]))
    if kind == "tiny":
        return list(range(1, draw(st.integers(2, 4)) + 1))
    if kind == "small":
        return list(range(1, draw(st.integers(5, 30)) + 1))
    values = draw(st.lists(st.integers(-(2**63) + 1, 2**63 - 1), min_size=2, max_size=8,
                           unique=True))
    return values


@st.composite
def batches(draw: st.DrawFn, max_len: int = 14, max_cases: int = 3) -> list[Case]:
    """1..max_cases sentences, each with 1..3 references; lengths from 0 (short sentences
    leave most orders without n-grams, which is where smoothing works)."""
    pool = draw(token_pools())
    tokens = st.sampled_from(pool)
    cases = []
    for _ in range(draw(st.integers(1, max_cases))):
        hyp = draw(st.lists(tokens, max_size=max_len))
        refs = draw(st.lists(st.lists(tokens, max_size=max_len), min_size=1, max_size=3))
        if draw(st.booleans()) and hyp:  # a reference close to the hypothesis
            refs[0] = hyp[: draw(st.integers(0, len(hyp)))] + refs[0][:2]
        cases.append((hyp, refs))
    return cases


orders = st.one_of(st.integers(1, 8), st.integers(1, 256))


@st.composite
def weight_vectors(draw: st.DrawFn, order: int) -> tuple[float, ...] | None:
    """None (uniform), or non-negative weights summing to 1, some of them 0."""
    if draw(st.booleans()):
        return None
    raw = draw(st.lists(st.floats(0.0, 1.0), min_size=order, max_size=order))
    total = sum(raw)
    assume(total > 0)
    return tuple(w / total for w in raw)


# ----------------------------------------------------------------------------- helpers


def assert_close(ours: float, theirs: float, what: str) -> None:
    assert math.isfinite(ours), f"{what}: ours={ours!r}"
    assert abs(ours - theirs) <= RTOL * abs(theirs) + ATOL, (
        f"{what}: ours={ours!r} reference={theirs!r}"
    )


def padded(cases: list[Case]) -> tuple[np.ndarray, np.ndarray]:
    """The cases as (B, L) hypotheses and (B, R, L') references padded with PAD (a missing
    reference is a row of padding)."""
    width = max(1, *(len(h) for h, _ in cases))
    ref_width = max(1, *(len(r) for _, refs in cases for r in refs))
    num_refs = max(len(refs) for _, refs in cases)
    hyp = np.full((len(cases), width), PAD, dtype=np.int64)
    ref = np.full((len(cases), num_refs, ref_width), PAD, dtype=np.int64)
    for i, (h, refs) in enumerate(cases):
        hyp[i, : len(h)] = h
        for j, r in enumerate(refs):
            ref[i, j, : len(r)] = r
            if not r:  # an empty reference that counts: PAD would make it absent
                ref[i, j, 0] = PAD + 1
    return hyp, ref


def array_scores(fn: Any, cases: list[Case], **kwargs: Any) -> list[np.ndarray]:
    """``fn`` on the padded arrays: NumPy, then torch through the torch pipeline."""
    hyp, ref = padded(cases)
    results = [np.asarray(fn(hyp, ref, pad_id=PAD, eos_id=PAD + 1, **kwargs))]
    with backends.use_numpy_for_torch_cpu(False):
        got = fn(torch.from_numpy(hyp), torch.from_numpy(ref), pad_id=PAD, eos_id=PAD + 1,
                 **kwargs)
    results.append(got.numpy())
    return results


def check_array_forms(fn: Any, cases: list[Case], expected: np.ndarray, **kwargs: Any) -> None:
    for got in array_scores(fn, cases, **kwargs):
        np.testing.assert_allclose(got, expected, rtol=RTOL, atol=ATOL)


def uses_pad(cases: list[Case]) -> bool:
    return any(t in (PAD, PAD + 1) for h, refs in cases for s in (h, *refs) for t in s)


# ------------------------------------------------------------------------------- NLTK


def nltk_score(cases: list[Case], weights: tuple[float, ...], method: str) -> float | None:
    """NLTK's corpus_bleu, or None where NLTK gives no finite answer."""
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = float(corpus_bleu([r for _, r in cases], [h for h, _ in cases], weights,
                                      getattr(SmoothingFunction(), method)))
        except (AssertionError, IndexError, ValueError, ZeroDivisionError, OverflowError):
            return None
    return value if math.isfinite(value) else None


@st.composite
def nltk_settings(draw: st.DrawFn) -> tuple[int, tuple[float, ...] | None, str]:
    method = draw(st.sampled_from([f"method{k}" for k in range(8)]))
    # NLTK's method6 keeps exact fractions that double in size with each order
    order = draw(st.integers(3, 10)) if method == "method6" else draw(orders)
    return order, draw(weight_vectors(order)), method


@PROPERTY_SETTINGS
@given(cases=batches(), setting=nltk_settings())
def test_nltk(cases: list[Case], setting: tuple[int, Any, str]) -> None:
    order, weights, method = setting
    kwargs: dict[str, Any] = {"smooth": method, "max_order": order}
    if weights is not None:
        kwargs["weights"] = weights
    full_weights = weights or (1 / order,) * order
    hyps, refs = [h for h, _ in cases], [r for _, r in cases]
    try:
        ours = bleusuite.sentence_bleu(hyps, refs, **kwargs)
    except ValueError as error:  # NLTK's method6 asserts a 3-gram match
        assert method == "method6" and "3-gram" in str(error)
        assert any(nltk_score([case], full_weights, method) is None for case in cases)
        return
    for i, case in enumerate(cases):
        theirs = nltk_score([case], full_weights, method)
        if theirs is not None:
            assert_close(float(ours[i]), theirs, f"sentence {i} {kwargs}")
    # NLTK's methods 5-7 take their extra terms from the last sentence only (documented)
    if method not in ("method5", "method6", "method7") or len(cases) == 1:
        theirs = nltk_score(cases, full_weights, method)
        if theirs is not None:
            assert_close(float(bleusuite.corpus_bleu(hyps, refs, **kwargs)), theirs,
                         f"corpus {kwargs}")
    if not uses_pad(cases):
        check_array_forms(bleusuite.sentence_bleu, cases, ours, **kwargs)


@PROPERTY_SETTINGS
@given(cases=batches(max_len=30), order=st.integers(11, 256))
def test_method6_at_high_orders_is_finite_and_exact_in_log_space(cases: list[Case],
                                                                  order: int) -> None:
    """Beyond NLTK's reach: a finite score, equal to the float recurrence wherever that one
    stays in range (orders 3..10 are compared with NLTK above)."""
    hyps, refs = [h for h, _ in cases], [r for _, r in cases]
    try:
        ours = bleusuite.sentence_bleu(hyps, refs, max_order=order, smooth="method6")
    except ValueError as error:
        assert "3-gram" in str(error)
        return
    # (not bounded by 1: an interpolated precision p_{i-1}**2 / p_{i-2} may exceed 1)
    assert np.all(np.isfinite(ours)) and np.all(ours >= 0)
    stats = bleusuite.bleu_statistics(hyps, refs, max_order=order)
    for i in range(len(cases)):
        m = stats.matches[i].astype(float)
        if m[0] == 0:
            assert ours[i] == 0
            continue
        p = list(m[:2] / stats.clamped_totals[i, :2])
        if m[2] == 0:
            continue
        for k in range(2, order):
            if min(p[-2:]) < 1e-250:  # the plain float recurrence is no longer accurate
                break
            p.append((m[k] + 5 * p[k - 1] * (p[k - 1] / p[k - 2])) / (stats.totals[i, k] + 5))
        else:
            if min(p) <= 0:
                continue
            c, r = int(stats.hyp_len[i]), int(stats.ref_len[i])
            bp = 1.0 if c >= r else (math.exp(1 - r / c) if c else 0.0)
            expected = bp * math.exp(math.fsum(math.log(x) / order for x in p))
            assert float(ours[i]) == pytest.approx(expected, rel=1e-9, abs=ATOL)


# ----------------------------------------------------------------------------- ignite


@PROPERTY_SETTINGS
@given(cases=batches(), order=orders,
       smooth=st.sampled_from(["no_smooth", "smooth1", "nltk_smooth2", "smooth2"]))
def test_ignite(cases: list[Case], order: int, smooth: str) -> None:
    hyps, refs = [h for h, _ in cases], [r for _, r in cases]
    ours = bleusuite.sentence_bleu(hyps, refs, max_order=order, smooth=smooth)
    theirs = ignite_sentence_bleu(cases, ngram=order, smooth=smooth)
    for i in range(len(cases)):
        if math.isfinite(theirs[i]):
            assert_close(float(ours[i]), float(theirs[i]), f"sentence {i} {order} {smooth}")
    micro = ignite_micro_bleu(cases, ngram=order, smooth=smooth)
    if math.isfinite(micro):
        corpus = bleusuite.corpus_bleu(hyps, refs, max_order=order, smooth=smooth)
        assert_close(float(corpus), micro, f"corpus {order} {smooth}")
    if not uses_pad(cases):
        check_array_forms(bleusuite.sentence_bleu, cases, ours, max_order=order, smooth=smooth)


# -------------------------------------------------------------------------- sacrebleu


@st.composite
def sacrebleu_settings(draw: st.DrawFn) -> dict[str, Any]:
    smooth = draw(st.sampled_from(["none", "floor", "add-k", "exp"]))
    value = None
    if smooth in ("floor", "add-k") and draw(st.booleans()):
        value = draw(st.floats(0.0, 3.0))
    return {"smooth": smooth, "smooth_value": value, "effective_order": draw(st.booleans()),
            "max_order": draw(orders)}


@PROPERTY_SETTINGS
@given(cases=batches(), setting=sacrebleu_settings())
def test_sacrebleu(cases: list[Case], setting: dict[str, Any]) -> None:
    hyps, refs = [h for h, _ in cases], [r for _, r in cases]
    ours = bleusuite.sentence_bleu(hyps, refs, **setting)
    theirs = sacrebleu_sentence_bleu(cases, **setting)
    for i in range(len(cases)):
        if math.isfinite(theirs[i]):
            assert_close(float(ours[i]), float(theirs[i]), f"sentence {i} {setting}")
    corpus = sacrebleu_corpus_bleu(cases, **setting)
    if math.isfinite(corpus):
        assert_close(float(bleusuite.corpus_bleu(hyps, refs, **setting)), corpus,
                     f"corpus {setting}")
    if not uses_pad(cases):
        check_array_forms(bleusuite.sentence_bleu, cases, ours, **setting)


# ---------------------------------------------------------------------- the Ignite metric


@PROPERTY_SETTINGS
@given(cases=batches(), order=orders,
       smooth=st.sampled_from(["method1", "method3", "method4", "method7", "smooth1", "exp",
                               "floor"]))
def test_metric_equals_the_functions(cases: list[Case], order: int, smooth: str) -> None:
    """``metrics.Bleu`` (macro: mean of sentence scores; micro: corpus score) on lists."""
    from bleusuite.metrics import Bleu

    hyps, refs = [h for h, _ in cases], [r for _, r in cases]
    sentence = bleusuite.sentence_bleu(hyps, refs, max_order=order, smooth=smooth)
    corpus = float(bleusuite.corpus_bleu(hyps, refs, max_order=order, smooth=smooth))
    macro, micro = Bleu(ngram=order, smooth=smooth), Bleu(ngram=order, smooth=smooth,
                                                          average="micro")
    for metric in (macro, micro):
        metric.update((hyps, refs))
    assert float(macro.compute()) == pytest.approx(float(np.mean(sentence)), rel=1e-14,
                                                   abs=ATOL)
    assert float(micro.compute()) == pytest.approx(corpus, rel=1e-14, abs=ATOL)
