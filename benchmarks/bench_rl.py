"""BLEU for RL on the CPU, side by side with the loops users write today (issue 27).

Workloads (:func:`workloads.mt_like_batch`, token ids right-padded with 0):

* **groups**: 64 prompts x G = 16 samples x 256 tokens; the samples of a prompt are edits
  of one common sentence (so they share n-grams, as samples of one prompt do): the
  16 references of ``mt_like_batch(64, 256, refs=16, ref_edit_rate=0.25)``;
* **prefixes**: 256 hypotheses x 256 tokens with one reference each (``mt_like_batch``).

Rows (bleusuite's result is checked equal to every baseline's to 1e-12 where both ran):

1. self-BLEU of the groups (each sample against the other 15): ``bleusuite.self_bleu``
   against a loop of NLTK's ``sentence_bleu`` (method1) and a loop of sacrebleu's
   ``BLEU.sentence_score`` (``exp``, effective order, ``tokenize="none"``: the lines are
   the ids written out, made before timing), one call per sample;
2. the 16 x 16 BLEU matrix of each group: ``bleusuite.pairwise_sentence_bleu`` against
   NLTK and sacrebleu per pair (16,384 calls);
3. BLEU of every prefix of 256 x 256: ``bleusuite.prefix_sentence_bleu`` against one
   ``bleusuite.sentence_bleu`` call on the same batch (the target: within 5x), and against
   ``sentence_bleu`` of all 65,536 prefixes written out (what re-scoring costs);
4. a BLEUBERI-style reward: ``BleuReward(tokenize="13a")`` with evaluate's numbers on 512
   completions (text) with 1..5 references, against evaluate's ``bleu`` called once per
   completion (only where evaluate's metric is in the Hugging Face cache).

The loops are timed on everything (about a minute in all); ``--sample K`` times them on
``K`` prompts spread over the workload (every ``64 / K``-th; the same share of completions
for evaluate) and scales the time, for a quicker look. bleusuite's
calls are timed whole, best of ``--repeat``. Run: ``python benchmarks/bench_rl.py``.
"""

from __future__ import annotations

import argparse
import glob
import logging
import os
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from workloads import PAD_ID, mt_like_batch

import bleusuite
from bleusuite import native
from bleusuite.rewards import BleuReward

PROMPTS, GROUP, LENGTH = 64, 16, 256
PREFIX_ROWS = 256
COMPLETIONS = 512


def best_of(repeat: int, call: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``repeat`` calls (seconds), and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return min(times), result


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result


def sentences(array: np.ndarray) -> list[list[int]]:
    """Rows of ids without the padding (the peers' input)."""
    return [[t for t in row if t != PAD_ID] for row in array.tolist()]


def line(tokens: list[int]) -> str:
    return " ".join(map(str, tokens))


def check(ours: np.ndarray, theirs: list[float], label: str) -> None:
    diff = float(np.max(np.abs(ours - np.asarray(theirs)), initial=0.0))
    if diff > 1e-12:
        raise AssertionError(f"{label}: bleusuite differs from the baseline by {diff}")


class Table:
    """Rows of (task, bleusuite's time, baseline, its time, target); the ratio column is the
    baseline's time over bleusuite's (a speed-up), or with ``cost=True`` bleusuite's time
    over the baseline's (what a result costs next to a reference call)."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, float, str, float, str, bool]] = []

    def add(self, task: str, ours: float, baseline: str, theirs: float, target: str,
            cost: bool = False) -> None:
        self.rows.append((task, ours, baseline, theirs, target, cost))

    def print(self) -> None:
        header = ("task", "bleusuite s", "baseline", "baseline s", "ratio", "target")
        body = [(task, f"{ours:.4f}", baseline, f"{theirs:.4f}",
                 f"{ours / theirs:.1f}x its time" if cost else f"{theirs / ours:.1f}x faster",
                 target) for task, ours, baseline, theirs, target, cost in self.rows]
        widths = [max(len(str(r[i])) for r in [header, *body]) for i in range(len(header))]
        for row in [header, tuple("-" * w for w in widths), *body]:
            print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths,
                                                                          strict=True)))


def groups_workload() -> np.ndarray:
    _, groups = mt_like_batch(PROMPTS, LENGTH, refs=GROUP, ref_edit_rate=0.25, seed=27)
    return groups


def nltk_bleu(references: list[list[int]], hypothesis: list[int]) -> float:
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(sentence_bleu(references, hypothesis,
                                   smoothing_function=SmoothingFunction().method1))


def sacrebleu_metric() -> Any:
    from sacrebleu.metrics import BLEU

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    return BLEU(tokenize="none", effective_order=True)


def self_bleu_rows(table: Table, groups: np.ndarray, sample: int, repeat: int) -> None:
    ours_nltk_time, ours_nltk = best_of(repeat, lambda: bleusuite.self_bleu(
        groups, pad_id=PAD_ID, smooth="method1"))
    ours_sacre_time, ours_sacre = best_of(repeat, lambda: bleusuite.self_bleu(
        groups, pad_id=PAD_ID, smooth="exp", effective_order=True))
    step = PROMPTS // sample
    members = [sentences(group) for group in groups[::step]]
    lines = [[line(s) for s in group] for group in members]
    metric = sacrebleu_metric()

    def nltk_loop() -> list[float]:
        return [nltk_bleu(g[:i] + g[i + 1 :], g[i]) for g in members for i in range(GROUP)]

    def sacre_loop() -> list[float]:
        return [metric.sentence_score(g[i], g[:i] + g[i + 1 :]).score / 100
                for g in lines for i in range(GROUP)]

    scale = PROMPTS / len(members)
    nltk_time, nltk_scores = timed(nltk_loop)
    check(ours_nltk[::step].reshape(-1), nltk_scores, "self-BLEU vs NLTK")
    sacre_time, sacre_scores = timed(sacre_loop)
    check(ours_sacre[::step].reshape(-1), sacre_scores, "self-BLEU vs sacrebleu")
    task = f"self-BLEU {PROMPTS} x G={GROUP} x {LENGTH}"
    table.add(task, ours_nltk_time, "NLTK loop (method1)", nltk_time * scale, ">= 100x")
    table.add(task, ours_sacre_time, "sacrebleu loop (exp)", sacre_time * scale, ">= 20x")


def pairwise_rows(table: Table, groups: np.ndarray, sample: int, repeat: int) -> None:
    ours_time, ours = best_of(repeat, lambda: bleusuite.pairwise_sentence_bleu(
        groups, groups, pad_id=PAD_ID, smooth="method1"))
    sacre_ours_time, sacre_ours = best_of(repeat, lambda: bleusuite.pairwise_sentence_bleu(
        groups, groups, pad_id=PAD_ID, smooth="exp", effective_order=True))
    step = PROMPTS // sample
    members = [sentences(group) for group in groups[::step]]
    lines = [[line(s) for s in group] for group in members]
    metric = sacrebleu_metric()
    scale = PROMPTS / len(members)
    nltk_time, nltk_scores = timed(lambda: [nltk_bleu([o], c) for g in members for c in g
                                            for o in g])
    check(ours[::step].reshape(-1), nltk_scores, "pairwise vs NLTK")
    sacre_time, sacre_scores = timed(lambda: [metric.sentence_score(c, [o]).score / 100
                                              for g in lines for c in g for o in g])
    check(sacre_ours[::step].reshape(-1), sacre_scores, "pairwise vs sacrebleu")
    task = f"{GROUP} x {GROUP} matrix, {PROMPTS} prompts"
    table.add(task, ours_time, "NLTK loop (method1)", nltk_time * scale, ">= 100x")
    table.add(task, sacre_ours_time, "sacrebleu loop (exp)", sacre_time * scale, "")


def prefix_rows(table: Table, repeat: int) -> None:
    hyp, refs = mt_like_batch(PREFIX_ROWS, LENGTH, seed=28)
    settings = {"pad_id": PAD_ID, "smooth": "exp", "effective_order": True}
    bleusuite.prefix_sentence_bleu(hyp[:2], refs[:2], **settings)  # imports
    ours_time, ours = best_of(repeat, lambda: bleusuite.prefix_sentence_bleu(hyp, refs,
                                                                            **settings))
    one_time, one = best_of(repeat, lambda: bleusuite.sentence_bleu(hyp, refs, **settings))
    check(ours[:, -1], one.tolist(), "the last prefix is the sentence")
    hyps, ref_lists = sentences(hyp), [sentences(r) for r in refs]
    every = [h[:t] for h in hyps for t in range(1, len(h) + 1)]
    every_refs = [r for h, r in zip(hyps, ref_lists, strict=True) for _ in range(len(h))]
    rescore_time, rescored = best_of(max(1, repeat // 2), lambda: bleusuite.sentence_bleu(
        every, every_refs, smooth="exp", effective_order=True))
    lengths = [len(h) for h in hyps]
    mask = np.arange(LENGTH)[None, :] < np.array(lengths)[:, None]
    check(ours[mask], rescored.tolist(), "prefixes vs re-scoring")
    task = f"prefix BLEU {PREFIX_ROWS} x {LENGTH}"
    table.add(task, ours_time, "1 sentence_bleu call", one_time, "<= 5x its time", cost=True)
    table.add(task, ours_time, "sentence_bleu of each prefix", rescore_time, "")


def bleuberi_row(table: Table, sample: int, repeat: int) -> None:
    try:
        import evaluate
        from evaluate import config
    except ImportError:
        print("(BLEUBERI row skipped: evaluate is not installed)")
        return
    found = glob.glob(os.path.join(config.HF_MODULES_CACHE, "evaluate_modules", "metrics",
                                   "bleu", "*", "bleu.py"))
    if not found:
        print("(BLEUBERI row skipped: evaluate's bleu is not in the Hugging Face cache)")
        return
    metric = evaluate.load(found[0])
    hyp, refs = mt_like_batch(COMPLETIONS, 64, refs=5, seed=29)
    rng = np.random.default_rng(29)
    completions = [" ".join(f"w{t}" for t in row) for row in sentences(hyp)]
    references = [[" ".join(f"w{t}" for t in r) for r in sentences(row)[: rng.integers(1, 6)]]
                  for row in refs]
    reward = BleuReward(tokenize="13a", smooth="no_smooth", effective_order=False,
                        ref_length="shortest")
    ours_time, ours = best_of(repeat, lambda: reward(completions=completions,
                                                     reference=references))
    step = PROMPTS // sample
    loop_time, theirs = timed(lambda: [
        metric.compute(predictions=[c], references=[r])["bleu"]
        for c, r in zip(completions[::step], references[::step], strict=True)])
    check(np.asarray(ours[::step]), theirs, "BLEUBERI reward vs evaluate")
    table.add(f"BLEUBERI reward, {COMPLETIONS} completions, 1-5 refs", ours_time,
              "evaluate bleu loop", loop_time * step, ">= 50x")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=PROMPTS,
                        help="prompts the peers' loops are timed on (a divisor of 64; scaled)")
    parser.add_argument("--repeat", type=int, default=10, help="bleusuite: best of this many")
    args = parser.parse_args(argv)
    sample = args.sample
    if not 1 <= sample <= PROMPTS or PROMPTS % sample:
        parser.error(f"--sample must divide {PROMPTS}")
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}; "
          f"{os.cpu_count()} CPUs; counting: "
          f"{'compiled' if native.compiled() else 'compact'}")
    groups = groups_workload()
    table = Table()
    self_bleu_rows(table, groups, sample, args.repeat)
    pairwise_rows(table, groups, sample, args.repeat)
    prefix_rows(table, args.repeat)
    bleuberi_row(table, sample, args.repeat)
    print(f"loops timed on {sample} of {PROMPTS} prompts and scaled"
          if sample < PROMPTS else "loops timed on everything")
    table.print()
    print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
