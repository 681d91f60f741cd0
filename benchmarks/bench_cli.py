"""The command-line benchmark (issue 6): corpus BLEU of a generated 100,000-line corpus (two
references), end to end from files, ``bleusuite score`` against the ``sacrebleu`` command.

Both run as subprocesses with the same tokenizer (13a) and smoothing (exp) and must print
the same score (|diff| <= 1e-9); ``test_speedup`` requires bleusuite to be at least 3x faster
(best of 3 runs for bleusuite, one run of sacrebleu, which takes about a minute). The same
for chrF (``-m chrf``; sacrebleu takes about two minutes and several GB there). Run with
``tox -e bench`` or ``pytest benchmarks/bench_cli.py``. ``BLEUSUITE_BENCH_LINES`` changes the
corpus size (the 3x requirement applies from 100,000 lines: on small files both commands
mostly start up); ``BLEUSUITE_BENCH_RATIO_FILE`` names a file to write the ratio to.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from workloads import make_corpus, write_corpus

pytest.importorskip("sacrebleu")

LINES = int(os.environ.get("BLEUSUITE_BENCH_LINES", "100000"))
GROUP = f"corpus BLEU, {LINES} lines x 2 refs, from files"
CHRF_GROUP = f"corpus chrF, {LINES} lines x 2 refs, from files"
MIN_SPEEDUP = 3.0
_BEST: dict[str, float] = {}
_SCORES: dict[str, float] = {}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[str]]:
    hyp, refs = make_corpus(LINES, 2, seed=0, vocab_size=20_000)
    return write_corpus(tmp_path_factory.mktemp("bench_cli"), hyp, refs)


def _command(name: str, argv: list[str]) -> Callable[[], Any]:
    """Run ``argv``; remember its best wall time and its BLEU (JSON output)."""

    def run() -> Any:
        start = time.perf_counter()
        result = subprocess.run(argv, capture_output=True, check=True)
        elapsed = time.perf_counter() - start
        _BEST[name] = min(elapsed, _BEST.get(name, float("inf")))
        report = json.loads(result.stdout)
        _SCORES[name] = report[0]["score"] if isinstance(report, list) else report["score"]
        return report

    return run


def _bleusuite(*args: str) -> list[str]:
    return [sys.executable, "-m", "bleusuite", "score", *args]


def test_sacrebleu_command(timed, files):
    hyp, refs = files
    argv = [sys.executable, "-m", "sacrebleu", *refs, "-i", hyp, "-w", "12", "-f", "json"]
    timed(GROUP, "sacrebleu command", _command("sacrebleu", argv), rounds=1, baseline=True,
          warmup=0)


def test_bleusuite_score(timed, files):
    hyp, refs = files
    run = _command("bleusuite", _bleusuite(*refs, "-i", hyp, "-w", "12"))
    timed(GROUP, "bleusuite score", run, rounds=3)


def test_sacrebleu_command_chrf(timed, files):
    hyp, refs = files
    argv = [sys.executable, "-m", "sacrebleu", *refs, "-i", hyp, "-m", "chrf", "-w", "12",
            "-f", "json"]
    timed(CHRF_GROUP, "sacrebleu command -m chrf", _command("sacrebleu chrf", argv), rounds=1,
          baseline=True, warmup=0)


def test_bleusuite_score_chrf(timed, files):
    hyp, refs = files
    run = _command("bleusuite chrf", _bleusuite(*refs, "-i", hyp, "-m", "chrf", "-w", "12"))
    timed(CHRF_GROUP, "bleusuite score -m chrf", run, rounds=3)


def test_bleusuite_score_bleu_gleu_confidence(timed, files):
    hyp, refs = files
    run = _command("bleusuite -ci", _bleusuite(*refs, "-i", hyp, "-w", "12", "-m", "bleu",
                                               "gleu", "--confidence"))
    timed(GROUP, "bleusuite score -m bleu gleu -ci (1000)", run, rounds=1, warmup=0)


def test_speedup():
    if "sacrebleu" not in _BEST or "bleusuite" not in _BEST:
        pytest.skip("run the whole file: the ratio needs both timings")
    for name, score in _SCORES.items():
        baseline = "sacrebleu chrf" if name.endswith("chrf") else "sacrebleu"
        if baseline in _SCORES:
            assert abs(score - _SCORES[baseline]) <= 1e-9, name
    ratio = _BEST["sacrebleu"] / _BEST["bleusuite"]
    print(f"\nbleusuite score is {ratio:.1f}x faster than the sacrebleu command "
          f"({_BEST['bleusuite']:.2f} s vs {_BEST['sacrebleu']:.2f} s, {LINES} lines)")
    Path(os.environ.get("BLEUSUITE_BENCH_RATIO_FILE", os.devnull)).write_text(f"{ratio:.2f}\n")
    if "sacrebleu chrf" in _BEST and "bleusuite chrf" in _BEST:
        chrf_ratio = _BEST["sacrebleu chrf"] / _BEST["bleusuite chrf"]
        print(f"bleusuite score -m chrf is {chrf_ratio:.1f}x faster than sacrebleu -m chrf "
              f"({_BEST['bleusuite chrf']:.2f} s vs {_BEST['sacrebleu chrf']:.2f} s)")
        if LINES >= 100_000:
            assert chrf_ratio >= MIN_SPEEDUP
    if LINES >= 100_000:
        assert ratio >= MIN_SPEEDUP
