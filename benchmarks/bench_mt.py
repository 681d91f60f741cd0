"""bleusuite on the CPU against NLTK and pytorch-ignite on work that looks real (issue 13).

Workloads (``tests/workloads.py``), 256 rows x 1024 token ids, right-padded with 0:

* **MT-like**: hypotheses made by editing the references (substitutions, insertions,
  deletions, local reorderings; per-sentence BLEU about 15 - 60), lengths 512 - 1024,
  vocabulary 50k, 1 reference, and 4 references (paraphrases of one source).
* **WMT sample x N**: the shipped WMT15 en-ru sample (a real system output, BLEU 23),
  as documents of consecutive sentences, cycling through the 100 sentences.
* **independent draws** (one labelled row, the older benchmarks' data): hypotheses and
  references drawn independently, no padding; a best case for pipelines that drop what
  cannot match.

Each group times NLTK (the baseline; ``ignite.metrics.Bleu`` in the Ignite group) and
bleusuite with the counting its install gets: ``compiled`` (the compiled kernel of
bleusuite's C part, built by ``pip install`` where a C compiler is at hand) and ``compact``
(the NumPy pipeline, what an install without it gets; ``BLEUSUITE_COUNTING=compact``), on
all the CPUs this process may use. Every
bleusuite result is checked equal to the baseline's to 1e-12. The end-of-run summary has
the ratios, and an "issue 25 acceptance" table with the targets next to the measured
ratios: the README's performance table is read from it.

Run with ``tox -e bench`` or ``pytest benchmarks/bench_mt.py``. Nothing here asserts a time.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from workloads import PAD_ID, mt_like_batch, wmt_sample_batch

import bleusuite
from bleusuite import native
from bleusuite.bench import zipf_batch
from bleusuite.bench.peers import nltk_corpus_bleu, nltk_sentence_bleu, nltk_sentence_gleu
from conftest import _RESULTS, add_summary_table

BATCH, LENGTH = 256, 1024
STRATEGIES = ("compiled", "compact")


class Workload:
    """One batch: id arrays for bleusuite, token lists (padding dropped) for the peers."""

    def __init__(self, label: str, hyp: np.ndarray, refs: np.ndarray, pad_id: int | None):
        self.label = label
        self.hyp, self.refs, self.pad_id = hyp, refs, pad_id
        keep = (lambda row: [t for t in row if t != pad_id]) if pad_id is not None else list
        self.hyp_lists = [keep(row) for row in hyp.tolist()]
        self.ref_lists = [[keep(r) for r in row] for row in refs.tolist()]


_WORKLOADS: dict[str, Callable[[], Workload]] = {
    "MT-like, 1 ref": lambda: Workload(
        "MT-like, 1 ref", *mt_like_batch(BATCH, LENGTH, refs=1), PAD_ID),
    "MT-like, 4 refs": lambda: Workload(
        "MT-like, 4 refs", *mt_like_batch(BATCH, LENGTH, refs=4), PAD_ID),
    "WMT sample x N": lambda: Workload(
        "WMT sample x N", *wmt_sample_batch(BATCH, LENGTH), PAD_ID),
    "independent draws": lambda: Workload(
        "independent draws", *zipf_batch(BATCH, LENGTH), None),
}
_cache: dict[str, Workload] = {}


def workload(name: str) -> Workload:
    if name not in _cache:
        _cache[name] = _WORKLOADS[name]()
    return _cache[name]


# group -> (workload, NLTK's call, bleusuite's call with NLTK's settings)
TASKS: dict[str, tuple[str, Callable[[Workload], Callable[[], Any]], Callable[..., Any]]] = {
    "sentence_bleu": ("MT-like, 1 ref", nltk_sentence_bleu,
                      lambda w: bleusuite.sentence_bleu(w.hyp, w.refs, pad_id=w.pad_id,
                                                        smooth="method1")),
    "corpus_bleu": ("MT-like, 1 ref", nltk_corpus_bleu,
                    lambda w: bleusuite.corpus_bleu(w.hyp, w.refs, pad_id=w.pad_id)),
    "sentence_gleu": ("MT-like, 1 ref", nltk_sentence_gleu,
                      lambda w: bleusuite.sentence_gleu(w.hyp, w.refs, pad_id=w.pad_id)),
    "sentence_bleu 4 refs": ("MT-like, 4 refs", nltk_sentence_bleu,
                             lambda w: bleusuite.sentence_bleu(w.hyp, w.refs, pad_id=w.pad_id,
                                                               smooth="method1")),
    "sentence_bleu WMT": ("WMT sample x N", nltk_sentence_bleu,
                          lambda w: bleusuite.sentence_bleu(w.hyp, w.refs, pad_id=w.pad_id,
                                                            smooth="method1")),
    "sentence_bleu independent": ("independent draws", nltk_sentence_bleu,
                                  lambda w: bleusuite.sentence_bleu(w.hyp, w.refs,
                                                                    smooth="method1")),
}
_NLTK_NAMES = {
    "sentence_bleu": "nltk sentence_bleu loop", "corpus_bleu": "nltk corpus_bleu",
    "sentence_gleu": "nltk sentence_gleu loop",
}
_BASELINE_SCORES: dict[str, np.ndarray] = {}


def group_of(task: str) -> str:
    """``"sentence_bleu, MT-like, 1 ref, 256x1024"``, ..."""
    return f"{task.split(' ')[0]}, {TASKS[task][0]}, {BATCH}x{LENGTH}"


def nltk_name(task: str) -> str:
    return _NLTK_NAMES[task.split(" ")[0]]


@pytest.fixture
def counting(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """``BLEUSUITE_COUNTING`` for one bleusuite entry (compiled: skipped where the C part
    is not built or is turned off)."""
    strategy: str = request.param
    if strategy == "compiled" and not native.compiled():
        pytest.skip("bleusuite's compiled part is not built or is turned off (BLEUSUITE_NATIVE)")
    monkeypatch.setenv("BLEUSUITE_COUNTING", strategy)
    monkeypatch.delenv("BLEUSUITE_NUM_THREADS", raising=False)  # every CPU
    return strategy


def _baseline(task: str) -> np.ndarray:
    """NLTK's scores (computed once, untimed, when its entry was deselected)."""
    if task not in _BASELINE_SCORES:
        _BASELINE_SCORES[task] = np.atleast_1d(
            np.asarray(TASKS[task][1](workload(TASKS[task][0]))(), dtype=np.float64))
    return _BASELINE_SCORES[task]


@pytest.mark.parametrize("task", list(TASKS))
def test_nltk(timed: Callable[..., Any], task: str) -> None:
    pytest.importorskip("nltk")
    call = TASKS[task][1](workload(TASKS[task][0]))
    result = timed(group_of(task), nltk_name(task), call, rounds=2, baseline=True, warmup=0)
    _BASELINE_SCORES[task] = np.atleast_1d(np.asarray(result, dtype=np.float64))


@pytest.mark.parametrize("counting", STRATEGIES, indirect=True)
@pytest.mark.parametrize("task", list(TASKS))
def test_bleusuite(timed: Callable[..., Any], task: str, counting: str) -> None:
    w = workload(TASKS[task][0])
    score = TASKS[task][2]
    result = timed(group_of(task), f"bleusuite numpy ({counting})", lambda: score(w),
                   rounds=10, warmup=2)
    pytest.importorskip("nltk")
    np.testing.assert_allclose(np.atleast_1d(np.asarray(result, dtype=np.float64)),
                               _baseline(task), rtol=0, atol=1e-12)


# -- the Ignite metric: one update of the MT-like batch (reset + update + compute)

IGNITE_GROUP = f"Ignite Bleu update (macro), MT-like, 1 ref, {BATCH}x{LENGTH}"
_IGNITE: dict[str, float] = {}


def _epoch(metric: Any, output: tuple[Any, Any]) -> float:
    metric.reset()
    metric.update(output)
    return float(metric.compute())


def test_ignite_bleu(timed: Callable[..., Any]) -> None:
    pytest.importorskip("torch")
    ignite_metrics = pytest.importorskip("ignite.metrics")
    w = workload("MT-like, 1 ref")
    metric = ignite_metrics.Bleu(ngram=4, smooth="smooth1", average="macro")
    output = (w.hyp_lists, w.ref_lists)
    _IGNITE["macro"] = timed(IGNITE_GROUP, "ignite.metrics.Bleu, token lists",
                             lambda: _epoch(metric, output), rounds=2, baseline=True,
                             warmup=0)


@pytest.mark.parametrize("counting", STRATEGIES, indirect=True)
def test_bleusuite_ignite_bleu(timed: Callable[..., Any], counting: str) -> None:
    torch = pytest.importorskip("torch")
    ignite_metrics = pytest.importorskip("ignite.metrics")
    from bleusuite.metrics import Bleu

    w = workload("MT-like, 1 ref")
    metric = Bleu(ngram=4, smooth="smooth1", average="macro", pad_id=w.pad_id)
    output = (torch.from_numpy(w.hyp), torch.from_numpy(w.refs))
    result = timed(IGNITE_GROUP, f"bleusuite.metrics.Bleu, id tensors ({counting})",
                   lambda: _epoch(metric, output), rounds=10, warmup=2)
    if "macro" not in _IGNITE:
        _IGNITE["macro"] = _epoch(ignite_metrics.Bleu(ngram=4, smooth="smooth1",
                                                      average="macro"),
                                  (w.hyp_lists, w.ref_lists))
    assert abs(result - _IGNITE["macro"]) <= 1e-12


# -- the acceptance table (issue 25's targets; issue 13 set the first ones), printed at
# the end of the run

ACCEPTANCE = (  # (what, group, baseline name, target ratio)
    ("per-sentence BLEU vs NLTK sentence_bleu loop", group_of("sentence_bleu"),
     "nltk sentence_bleu loop", 80.0),
    ("corpus_bleu vs NLTK corpus_bleu", group_of("corpus_bleu"), "nltk corpus_bleu", 80.0),
    ("sentence_gleu vs NLTK sentence_gleu loop", group_of("sentence_gleu"),
     "nltk sentence_gleu loop", 70.0),
    ("4 refs: per-sentence BLEU vs NLTK", group_of("sentence_bleu 4 refs"),
     "nltk sentence_bleu loop", 150.0),
    ("Ignite Bleu update vs ignite.metrics.Bleu", IGNITE_GROUP,
     "ignite.metrics.Bleu, token lists", 45.0),
    ("WMT sample x N: per-sentence BLEU vs NLTK", group_of("sentence_bleu WMT"),
     "nltk sentence_bleu loop", None),
    ("independent draws (best case): per-sentence BLEU vs NLTK",
     group_of("sentence_bleu independent"), "nltk sentence_bleu loop", None),
)


def acceptance_lines() -> list[str]:
    """One line per acceptance row: the target and each bleusuite entry's ratio."""
    lines = [f"{BATCH} x {LENGTH} ids on {os.cpu_count()} CPUs, load average "
             f"{os.getloadavg()[0]:.1f}; ratio = baseline time / bleusuite time (best of rounds)"]
    for what, group, baseline, target in ACCEPTANCE:
        results = _RESULTS.get(group, {})
        if baseline not in results:
            continue
        ratios = [f"{name.split('(')[-1].rstrip(')')}: {results[baseline] / seconds:5.1f}x"
                  f" ({seconds * 1e3:.1f} ms)"
                  for name, seconds in sorted(results.items()) if name != baseline]
        wanted = f">= {target:.0f}x" if target else "(info)"
        lines.append(f"  {what:58s} {wanted:8s} {'; '.join(ratios)}"
                     f"   [{baseline}: {results[baseline] * 1e3:.0f} ms]")
    return lines


@pytest.fixture(scope="module", autouse=True)
def acceptance_report() -> Iterator[None]:
    yield
    if any(group in _RESULTS for _, group, _, _ in ACCEPTANCE):
        add_summary_table("issue 25 acceptance (bench_mt.py)", acceptance_lines())
