"""The adapters against the tools they replace, on the same data, in one run.

* torchmetrics: ``torchmetrics.text.BLEUScore`` (its input: strings, split on whitespace)
  against ``bleusuite.torchmetrics.BLEUScore`` on the same strings and on the token-id
  tensors they were made from: one ``update`` + ``compute`` of 256 MT-like sentences x 64
  tokens (``conftest.mt_like``: a reference, the hypothesis the reference with 30% of its
  tokens replaced), both smoothings; torchmetrics in float64, so the scores are checked
  equal (1e-12) while timing;
* sacrebleu: ``BLEU().corpus_score`` and ``CHRF().corpus_score`` against
  ``bleusuite.sacrebleu``'s on the WMT sample shipped in the package, 3,000 lines (the 100
  lines 30 times), scores checked equal to the last bit;
* evaluate: evaluate's own ``sacrebleu`` module (when it can be loaded here: from the hub or
  its cache, or from a local copy of its ``metrics/sacrebleu`` folder named by the
  environment variable ``EVALUATE_SACREBLEU``) against ``bleusuite.evaluate``'s, on the same
  3,000 lines; skipped otherwise.

Run with ``tox -e bench`` or ``pytest benchmarks/bench_adapters.py -p no:randomly``; the ratios
are printed at the end of the run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

from conftest import mt_like

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")
from torchmetrics.text import BLEUScore as TorchmetricsBLEU  # noqa: E402

from bleusuite.sacrebleu import BLEU, CHRF  # noqa: E402
from bleusuite.torchmetrics import BLEUScore  # noqa: E402

HYP, REF = mt_like(256, 64, 1)
HYP_T, REF_T = torch.from_numpy(HYP), torch.from_numpy(REF)


def _line(row: Any) -> str:
    return " ".join(f"w{t}" for t in row.tolist() if t != 0)


PREDS = [_line(row) for row in HYP]
TARGET = [[_line(ref) for ref in refs] for refs in REF]

_DATA = resources.files("bleusuite") / "data"
LINES = (_DATA / "sample-hyp.txt").read_text(encoding="utf-8").splitlines() * 30
REFS = (_DATA / "sample-ref.txt").read_text(encoding="utf-8").splitlines() * 30


@pytest.fixture(autouse=True)
def _float64_default() -> Iterator[None]:
    """torchmetrics counts and scores in the default dtype: float64, to compare exactly."""
    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(before)


def _epoch(metric: Any, preds: Any, target: Any) -> float:
    metric.reset()
    metric.update(preds, target)
    return float(metric.compute())


#: the tool's own number for each setting, computed once (the timed runs are checked
#: against it)
_EXPECTED: dict[str, float] = {}


def _expected(key: str, compute: Any) -> float:
    if key not in _EXPECTED:
        _EXPECTED[key] = compute()
    return _EXPECTED[key]


BLEU_SCORES = {
    "torchmetrics BLEUScore, strings":
        lambda smooth: (TorchmetricsBLEU(smooth=smooth), PREDS, TARGET),
    "bleusuite BLEUScore, strings": lambda smooth: (BLEUScore(smooth=smooth), PREDS, TARGET),
    "bleusuite BLEUScore, id tensors":
        lambda smooth: (BLEUScore(smooth=smooth, pad_id=0), HYP_T, REF_T),
}


@pytest.mark.parametrize("name", list(BLEU_SCORES))
@pytest.mark.parametrize("smooth", [False, True])
def test_torchmetrics_bleu(timed: Any, smooth: bool, name: str) -> None:
    metric, preds, target = BLEU_SCORES[name](smooth)
    baseline = name.startswith("torchmetrics")
    got = timed(f"BLEUScore update+compute 256x64 (smooth={smooth})", name,
                lambda: _epoch(metric, preds, target), rounds=3 if baseline else 10,
                baseline=baseline, warmup=0 if baseline else 1)
    expected = _expected(f"torchmetrics {smooth}",
                         lambda: _epoch(TorchmetricsBLEU(smooth=smooth), PREDS, TARGET))
    assert abs(got - expected) <= 1e-12 and expected > 0.1


@pytest.mark.parametrize("tool", ["sacrebleu", "bleusuite.sacrebleu"])
@pytest.mark.parametrize("name", ["BLEU", "CHRF"])
def test_sacrebleu_corpus_score(timed: Any, name: str, tool: str) -> None:
    metrics = pytest.importorskip("sacrebleu.metrics")
    make = getattr(metrics, name) if tool == "sacrebleu" else (BLEU if name == "BLEU" else CHRF)
    baseline = tool == "sacrebleu"
    got = timed(f"sacrebleu {name}().corpus_score, 3000 lines", f"{tool} {name}",
                lambda: make().corpus_score(LINES, [REFS]).score, rounds=3 if baseline else 10,
                baseline=baseline, warmup=0 if baseline else 1)
    assert got == _expected(f"sacrebleu {name}",
                            lambda: getattr(metrics, name)().corpus_score(LINES, [REFS]).score)


def _evaluate_modules() -> dict[str, Any]:
    evaluate = pytest.importorskip("evaluate")
    import bleusuite.evaluate

    try:
        hub = evaluate.load(os.environ.get("EVALUATE_SACREBLEU", "sacrebleu"))
    except Exception as error:  # no network and no cached copy: nothing to compare with
        pytest.skip(f"evaluate's own sacrebleu module cannot be loaded here ({error!r:.80})")
    return {"evaluate.load('sacrebleu')": hub,
            "bleusuite.evaluate sacrebleu":
                evaluate.load(bleusuite.evaluate.module_path("sacrebleu"))}


@pytest.mark.parametrize("name", ["evaluate.load('sacrebleu')", "bleusuite.evaluate sacrebleu"])
def test_evaluate_sacrebleu(timed: Any, name: str) -> None:
    modules = _evaluate_modules()
    references = [[r] for r in REFS]
    baseline = name.startswith("evaluate")
    got = timed("evaluate sacrebleu compute, 3000 lines", name,
                lambda: modules[name].compute(predictions=LINES, references=references)["score"],
                rounds=3 if baseline else 5, baseline=baseline, warmup=0 if baseline else 1)
    hub = modules["evaluate.load('sacrebleu')"]
    assert got == _expected("evaluate", lambda: hub.compute(predictions=LINES,
                                                            references=references)["score"])
