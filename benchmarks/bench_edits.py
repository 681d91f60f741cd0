"""WER and CER (issue 44): bleusuite against jiwer 4.0 and torchmetrics 1.9, side by side,
the numbers checked equal.

10,000 ASR-like pairs of about 19 words: the shipped WMT15 sample's reference lines and its
system output edited (:func:`workloads.edited_wmt_text`, ``rate=0.15``: words
dropped, replaced, recased, blocks moved). Groups, each against its peer (the issue's
targets): ``jiwer.wer`` (20x), ``jiwer.cer`` (20x), ``jiwer.process_words`` with its
alignments (4x), torchmetrics' ``WordErrorRate`` (100x), and 1,000 calls of one pair each
to ``jiwer.wer`` (faster). bleusuite runs on 2 threads (``BLEUSUITE_NUM_THREADS=2``).

``BLEUSUITE_BENCH_EDITS_PAIRS`` changes the size. Run with ``tox -e bench`` or ``pytest
benchmarks/bench_edits.py``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from workloads import edited_wmt_text

from bleusuite import jiwer as ours

jiwer = pytest.importorskip("jiwer")

PAIRS = int(os.environ.get("BLEUSUITE_BENCH_EDITS_PAIRS", "10000"))
SINGLE = 1000
_RESULTS: dict[tuple[str, str], Any] = {}


@pytest.fixture(scope="module")
def pairs() -> tuple[list[str], list[str]]:
    (hyps,), refs = edited_wmt_text(PAIRS, seed=11, rate=0.15)
    return refs, hyps


@pytest.fixture(autouse=True)
def two_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "2")


def _check(group: str, name: str, value: Any) -> Any:
    _RESULTS[(group, name)] = value
    other = [v for (g, n), v in _RESULTS.items() if g == group and n != name]
    for seen in other:
        assert seen == value, (group, seen, value)
    return value


def _pair(timed: Callable[..., Any], group: str, fn: Callable[[], Any], peer: bool,
          peer_name: str, summary: Callable[[Any], Any] = lambda value: value) -> None:
    """Time ``fn`` (the call alone), then check its ``summary`` against the other side's."""
    name = peer_name if peer else "bleusuite"
    out = timed(group, name, fn, rounds=1 if peer else 5, baseline=peer,
                warmup=0 if peer else 1)
    _check(group, name, summary(out))


@pytest.mark.parametrize("peer", [True, False], ids=["jiwer", "bleusuite"])
def test_wer(timed, pairs, peer):
    refs, hyps = pairs
    module = jiwer if peer else ours
    _pair(timed, f"wer, {PAIRS} pairs", lambda: module.wer(refs, hyps), peer, "jiwer.wer")


@pytest.mark.parametrize("peer", [True, False], ids=["jiwer", "bleusuite"])
def test_cer(timed, pairs, peer):
    refs, hyps = pairs
    module = jiwer if peer else ours
    _pair(timed, f"cer, {PAIRS} pairs", lambda: module.cer(refs, hyps), peer, "jiwer.cer")


@pytest.mark.parametrize("peer", [True, False], ids=["jiwer", "bleusuite"])
def test_process_words(timed, pairs, peer):
    refs, hyps = pairs
    module = jiwer if peer else ours

    def summary(out: Any) -> Any:  # every count, word and alignment chunk
        chunks = [[(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx)
                   for c in row] for row in out.alignments]
        return (out.wer, out.hits, out.substitutions, out.deletions, out.insertions,
                out.references, out.hypotheses, chunks)

    _pair(timed, f"process_words with alignments, {PAIRS} pairs",
          lambda: module.process_words(refs, hyps), peer, "jiwer.process_words", summary)


@pytest.mark.parametrize("peer", [True, False], ids=["torchmetrics", "bleusuite"])
def test_torchmetrics_wer(timed, pairs, peer):
    pytest.importorskip("torch")
    text = pytest.importorskip("torchmetrics.text")
    from bleusuite.torchmetrics import WordErrorRate

    refs, hyps = pairs
    cls = text.WordErrorRate if peer else WordErrorRate
    _pair(timed, f"torchmetrics WordErrorRate, {PAIRS} pairs",
          lambda: cls()(hyps, refs), peer, "torchmetrics", float)


@pytest.mark.parametrize("peer", [True, False], ids=["jiwer", "bleusuite"])
def test_one_pair_per_call(timed, pairs, peer):
    refs, hyps = pairs
    wer = jiwer.wer if peer else ours.wer
    _pair(timed, f"wer of one pair, {SINGLE} calls",
          lambda: [wer(r, h) for r, h in zip(refs[:SINGLE], hyps[:SINGLE], strict=True)],
          peer, "jiwer.wer")
