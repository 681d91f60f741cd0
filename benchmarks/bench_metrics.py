"""The Ignite metric benchmark (issue 4): one ``update`` of 256 sentences x 1024 tokens
(vocabulary 50k, one reference), ``bleusuite.metrics.Bleu`` against ``ignite.metrics.Bleu``.

Ignite gets the sentences as token lists (the only input it takes); bleusuite gets the same
sentences as token-id tensors (the ``>= 25x`` claim), as lists of int tokens (``>= 10x``)
and as lists of str tokens. Each timing is ``reset`` + ``update`` + ``compute`` of a fresh
epoch; the results are checked equal to Ignite's. Run with ``tox -e bench`` or
``pytest benchmarks/bench_metrics.py``; the ratios are printed at the end of the run.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import zipf_batch

torch = pytest.importorskip("torch")
ignite_metrics = pytest.importorskip("ignite.metrics")

from bleusuite.metrics import Bleu, Gleu  # noqa: E402

HYP, REF = zipf_batch(256, 1024)
HYP_T, REF_T = torch.from_numpy(HYP), torch.from_numpy(REF)
HYP_LISTS = HYP.tolist()
REF_LISTS = [[r] for r in REF[:, 0].tolist()]
HYP_STR = [[f"w{t}" for t in h] for h in HYP_LISTS]
REF_STR = [[[f"w{t}" for t in r] for r in rs] for rs in REF_LISTS]

INPUTS: dict[str, tuple[Any, Any]] = {
    "token-id tensors": (HYP_T, REF_T),
    "int token lists": (HYP_LISTS, REF_LISTS),
    "str token lists": (HYP_STR, REF_STR),
}
_IGNITE_RESULTS: dict[str, float] = {}


def epoch(metric: Any, output: tuple[Any, Any]) -> float:
    metric.reset()
    metric.update(output)
    return float(metric.compute())


def _group(average: str) -> str:
    return f"Bleu update 256x1024 ({average})"


@pytest.mark.parametrize("average", ["macro", "micro"])
def test_ignite_bleu(timed: Any, average: str) -> None:
    metric = ignite_metrics.Bleu(ngram=4, smooth="smooth1", average=average)
    result = timed(_group(average), "ignite.metrics.Bleu, token lists",
                   lambda: epoch(metric, (HYP_LISTS, REF_LISTS)), rounds=3, baseline=True)
    _IGNITE_RESULTS[average] = result


@pytest.mark.parametrize("form", list(INPUTS))
@pytest.mark.parametrize("average", ["macro", "micro"])
def test_bleusuite_bleu(timed: Any, average: str, form: str) -> None:
    metric = Bleu(ngram=4, smooth="smooth1", average=average)
    result = timed(_group(average), f"bleusuite.metrics.Bleu, {form}",
                   lambda: epoch(metric, INPUTS[form]), rounds=20)
    if average not in _IGNITE_RESULTS:  # run on its own: compute Ignite's result once
        _IGNITE_RESULTS[average] = epoch(
            ignite_metrics.Bleu(ngram=4, smooth="smooth1", average=average),
            (HYP_LISTS, REF_LISTS),
        )
    assert abs(result - _IGNITE_RESULTS[average]) <= 1e-12


@pytest.mark.parametrize("form", ["token-id tensors", "int token lists"])
def test_bleusuite_gleu(timed: Any, form: str) -> None:
    timed("Gleu update 256x1024 (macro)", f"bleusuite.metrics.Gleu, {form}",
          lambda: epoch(Gleu(), INPUTS[form]), rounds=10)
