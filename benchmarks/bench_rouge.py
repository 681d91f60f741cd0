"""The ROUGE benchmarks (issue 38), side by side in one run, numbers checked equal:

- 600 summarisation-like documents of about 120 words (``workloads.
  summary_documents`` in ``tests/``: sentences one per line, inflected words, one reference each),
  rouge1, rouge2, rougeL and rougeLsum with the stemmer: rouge-score's ``RougeScorer``
  looped over the documents against :func:`bleusuite.rouge_scores` (target >= 100x), and
  the same without the stemmer;
- Ignite's ``RougeL`` ``update`` on 1,000 lines of about 20 tokens (token lists, two
  references each): ``ignite.metrics.RougeL`` against ``bleusuite.metrics.RougeL`` on the
  same token lists and on padded token-id tensors (target >= 30x).

Run with ``tox -e bench`` or ``pytest benchmarks/bench_rouge.py``; the ratios are printed
at the end of the run.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from workloads import mt_like_batch, summary_documents

import bleusuite

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
HYPS, REFS = summary_documents(600, words=120, seed=38)
_EXPECTED: dict[bool, list[Any]] = {}


def _group(use_stemmer: bool) -> str:
    return f"ROUGE 1/2/L/Lsum, 600 docs x 120 words, stemmer {'on' if use_stemmer else 'off'}"


def _rouge_score(use_stemmer: bool) -> list[Any]:
    scorer = rouge_scorer.RougeScorer(list(TYPES), use_stemmer=use_stemmer)
    return [scorer.score_multi(r, h) for h, r in zip(HYPS, REFS, strict=True)]


@pytest.mark.parametrize("use_stemmer", [True, False])
def test_rouge_score(timed: Any, use_stemmer: bool) -> None:
    _EXPECTED[use_stemmer] = timed(_group(use_stemmer), "rouge-score RougeScorer loop",
                                   lambda: _rouge_score(use_stemmer), rounds=2, warmup=0,
                                   baseline=True)


@pytest.mark.parametrize("use_stemmer", [True, False])
def test_bleusuite_rouge_scores(timed: Any, use_stemmer: bool) -> None:
    got = timed(_group(use_stemmer), "bleusuite.rouge_scores",
                lambda: bleusuite.rouge_scores(HYPS, REFS, rouge_types=TYPES,
                                               use_stemmer=use_stemmer), rounds=15)
    expected = _EXPECTED.get(use_stemmer) or _rouge_score(use_stemmer)
    for rouge_type in TYPES:
        for measure in ("precision", "recall", "fmeasure"):
            want = np.array([getattr(s[rouge_type], measure) for s in expected])
            assert np.array_equal(getattr(got[rouge_type], measure), want), rouge_type


# ------------------------------------------------------------------------- Ignite RougeL

torch = pytest.importorskip("torch")
ignite_rouge = pytest.importorskip("ignite.metrics.nlp.rouge")

from bleusuite.metrics import RougeL  # noqa: E402

_HYP_IDS, _REF_IDS = mt_like_batch(1000, 20, refs=2, vocab=5000, seed=38)
LINES = ([[t for t in row if t] for row in _HYP_IDS.tolist()],
         [[[t for t in r if t] for r in row] for row in _REF_IDS.tolist()])
TENSORS = (torch.from_numpy(_HYP_IDS), torch.from_numpy(_REF_IDS))
IGNITE_GROUP = "Ignite RougeL update, 1,000 lines x ~20 tokens, 2 references"
_IGNITE: dict[str, Any] = {}


def _epoch(metric: Any, output: Any) -> dict[str, float]:
    metric.reset()
    metric.update(output)
    return dict(metric.compute())


def test_ignite_rougel(timed: Any) -> None:
    _IGNITE["result"] = timed(IGNITE_GROUP, "ignite.metrics.RougeL, token lists",
                              lambda: _epoch(ignite_rouge.RougeL(multiref="best"), LINES),
                              rounds=3, warmup=0, baseline=True)


@pytest.mark.parametrize("form", ["token lists", "token-id tensors"])
def test_bleusuite_rougel(timed: Any, form: str) -> None:
    metric = RougeL(multiref="best", pad_id=0)
    output = LINES if form == "token lists" else TENSORS
    got = timed(IGNITE_GROUP, f"bleusuite.metrics.RougeL, {form}",
                lambda: _epoch(metric, output), rounds=20)
    expected = _IGNITE.get("result") or _epoch(ignite_rouge.RougeL(multiref="best"), LINES)
    for key, value in expected.items():
        assert abs(got[key] - value) <= 1e-12, key
