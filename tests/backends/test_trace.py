"""The traced formulas (bleusuite.backends.trace, whose by_rows scores small batches)
against the array face on NumPy: the same floats, bit for bit, on many rows of statistics,
for every smoothing name and setting; and what the trace refuses."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bleusuite import native
from bleusuite.backends import get_backend
from bleusuite.backends.trace import TraceError, row_function
from bleusuite.scores.bleu import smoothing
from bleusuite.scores.bleu.score import _formula_of_table, scores_from_counts
from bleusuite.scores.bleu.settings import BleuSettings

pytestmark = pytest.mark.skipif(not native.compiled(),
                                reason="the traced formulas share the compiled part's libm")

NUMPY = get_backend(np.zeros(1))


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal to the bit; NaN where the other is NaN, and the zeros of either sign equal
    (NumPy's ``maximum`` of 0.0 and -0.0 depends on the processor's instruction)."""
    a, b = np.asarray(a, dtype=np.float64) + 0.0, np.asarray(b, dtype=np.float64) + 0.0
    nan = np.isnan(a)
    return bool((nan == np.isnan(b)).all() and np.array_equal(a[~nan].view(np.int64),
                                                               b[~nan].view(np.int64)))


def _tables(rng: np.random.Generator, rows: int, order: int) -> np.ndarray:
    """BLEU statistics rows [hyp_len, ref_len, matches, totals, clamped] with edge cases:
    empty hypotheses, no matches, exact matches, long sentences."""
    hyp_len = rng.integers(0, 60, rows)
    hyp_len[: rows // 8] = rng.integers(0, 3, rows // 8)
    ref_len = np.maximum(hyp_len + rng.integers(-10, 10, rows), 0)
    totals = np.maximum(hyp_len[:, None] - np.arange(order) , 0)
    matches = np.minimum(totals, rng.integers(0, 40, (rows, order)))
    matches = np.minimum.accumulate(matches, axis=1)  # fewer matches at higher orders
    matches[rows // 4 : rows // 3] = 0
    matches[rows // 3 : rows // 2] = totals[rows // 3 : rows // 2]
    return np.concatenate([hyp_len[:, None], ref_len[:, None], matches, totals,
                           np.maximum(totals, 1)], axis=1).astype(np.int64)


SETTINGS = [
    *(BleuSettings.of(smooth=name) for name in smoothing.SMOOTHING_NAMES if name != "method6"),
    *(BleuSettings.of(smooth=name, effective_order=True)
      for name in ("none", "floor", "add-k", "exp")),
    BleuSettings.of(smooth="floor", smooth_value=0.3),
    BleuSettings.of(smooth="add-k", smooth_value=2),
    BleuSettings.of(smooth="method1", smooth_value=0.25),
    BleuSettings.of(smooth="method3", max_order=2),
    BleuSettings.of(smooth="exp", max_order=9),
    BleuSettings.of(smooth="method7", weights=(0.5, 0.3, 0.2)),
    BleuSettings.of(smooth="smooth1", weights=(0.1, 0.2, 0.3, 0.4, 0, 0)),
    BleuSettings.of(smooth="none", weights=(0.25, 0.25, 0.5)),
]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: f"{s.smooth}-{s.max_order}-"
                         f"{s.effective_order}-{s.weights}-{s.smooth_value}")
def test_traced_formula_is_the_array_formula(settings: BleuSettings) -> None:
    rng = np.random.default_rng(settings.max_order * 31 + len(settings.smooth))
    table = _tables(rng, 400, settings.stats_order)
    expected = _formula_of_table(NUMPY, table, settings)
    width = table.shape[1]
    traced = row_function(_formula_of_table, (settings,), [((width,), "i")])
    got = np.array([traced(*row) for row in table.tolist()])
    assert _same(got, expected)


@pytest.mark.parametrize("ref_length", ["closest", "closest_first", "shortest"])
@pytest.mark.parametrize("refs", [1, 2, 4])
def test_traced_scores_from_counts(ref_length: str, refs: int) -> None:
    rng = np.random.default_rng(refs)
    settings = BleuSettings.of(smooth="method1", ref_length=ref_length)
    rows = 300
    table = _tables(rng, rows, 4)
    hyp_len, clipped = table[:, 0], table[:, 2:6]
    ref_len = np.maximum(hyp_len[:, None] + rng.integers(-6, 6, (rows, refs)), 0)
    present = rng.random((rows, refs)) < 0.8
    present[:, 0] = True
    ref_len = np.where(present, ref_len, 0)
    expected = scores_from_counts(NUMPY, hyp_len, ref_len, present, clipped, settings, 1 << 62)
    traced = row_function(scores_from_counts, (settings, 1 << 62),
                          [((), "i"), ((refs,), "i"), ((refs,), "b"), ((4,), "i")])
    got = np.array([traced(h, *r, *p, *c) for h, r, p, c in zip(
        hyp_len.tolist(), ref_len.tolist(), present.tolist(), clipped.tolist(), strict=True)])
    assert _same(got, expected)


def test_numpy_semantics_of_the_helpers() -> None:
    def formula(be, x, y):
        return be.concat([(x / y)[:, None], be.log(x)[:, None], be.exp(x * 1000.0)[:, None],
                          be.maximum(x, y)[:, None], be.min_(be.concat([x[:, None], y[:, None]],
                                                                       axis=1), axis=1)[:, None]],
                         axis=1)

    traced = row_function(formula, (), [((), "f"), ((), "f")])
    for x, y in [(1.0, 0.0), (-1.0, 0.0), (0.0, 0.0), (math.nan, 1.0), (2.0, math.nan),
                 (0.0, -0.0), (-3.0, 2.0)]:
        with np.errstate(all="ignore"):
            expected = formula(NUMPY, np.array([x]), np.array([y]))[0]
        assert _same(np.array(traced(x, y)), expected), (x, y)


def test_float_sums_take_numpy_order() -> None:
    rng = np.random.default_rng(0)
    for width in (3, 7, 8, 9, 16, 17, 40, 130):
        values = rng.standard_normal((50, width)) * np.exp(rng.standard_normal((50, width)) * 8)
        traced = row_function(lambda be, x: be.sum_(x, axis=-1), (), [((width,), "f")])
        got = np.array([traced(*row) for row in values.tolist()])
        assert _same(got, values.sum(axis=-1))


def test_what_the_trace_refuses() -> None:
    with pytest.raises(TraceError, match="host"):
        row_function(lambda be, x: x + 1 if be.to_bool(x[0] > 0) else x, (), [((), "i")])
    with pytest.raises(TraceError, match="branches"):
        row_function(lambda be, x: x if x[0] > 0 else -x, (), [((), "i")])
    with pytest.raises(TraceError, match="not traced"):
        row_function(lambda be, x: be.sort_last(x), (), [((3,), "i")])
    settings = BleuSettings.of(smooth="method6")
    with pytest.raises(TraceError):
        row_function(lambda be, t, s: scores_from_counts(
            be, t[:, 0], t[:, 1:2], t[:, 1:2] > 0, t[:, 2:6], s, 1 << 62), (settings,),
            [((6,), "i")])
