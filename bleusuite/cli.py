"""The ``bleusuite`` command.

With no arguments it scores the sample corpus shipped in the package (100 sentences of
WMT newstest2015 en-ru); with ``--hyp FILE --ref FILE [--ref FILE ...]`` it scores
whitespace-tokenised text files, one sentence per line.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

import bleusuite
from bleusuite.smoothing import SMOOTHING_NAMES


class CommandError(Exception):
    """A problem to report in one line, with exit status 2."""


@dataclass(frozen=True)
class Corpus:
    name: str
    hypotheses: list[list[str]]
    references: list[list[list[str]]]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bleusuite",
        description="Exact BLEU and GLEU of whitespace-tokenised text files. With no files, "
        "scores the sample corpus shipped with bleusuite.",
    )
    parser.add_argument("--hyp", metavar="FILE", help="system output, one sentence per line")
    parser.add_argument(
        "--ref", metavar="FILE", action="append", default=[],
        help="reference file, line-aligned with --hyp (repeat for several references)",
    )
    parser.add_argument("--max-order", type=int, default=4, help="highest n-gram order (4)")
    parser.add_argument(
        "--smooth", default="none", choices=SMOOTHING_NAMES, metavar="NAME",
        help="smoothing (default: none, sacrebleu's; see the docs for the full list)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--version", action="version", version=f"bleusuite {bleusuite.__version__}")
    return parser


def read_lines(path: str, what: str) -> list[str]:
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise CommandError(f"cannot read {what} file {path}: {error.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise CommandError(f"{what} file {path} is not valid UTF-8 (line {line})") from None
    return text.splitlines()


def load_corpus(hyp_path: str, ref_paths: Sequence[str]) -> Corpus:
    hyp_lines = read_lines(hyp_path, "hypothesis")
    ref_columns = [read_lines(path, "reference") for path in ref_paths]
    for path, lines in zip(ref_paths, ref_columns, strict=True):
        if len(lines) != len(hyp_lines):
            raise CommandError(
                f"{path} has {len(lines)} lines but {hyp_path} has {len(hyp_lines)}"
            )
    if not hyp_lines:
        raise CommandError(f"{hyp_path} is empty: nothing to score")
    hypotheses = [line.split() for line in hyp_lines]
    references = [[column[i].split() for column in ref_columns] for i in range(len(hyp_lines))]
    return Corpus(hyp_path, hypotheses, references)


def sample_corpus() -> Corpus:
    data = resources.files("bleusuite") / "data"
    hyp = (data / "sample-hyp.txt").read_text(encoding="utf-8").splitlines()
    ref = (data / "sample-ref.txt").read_text(encoding="utf-8").splitlines()
    return Corpus(
        "sample: 100 sentences of WMT newstest2015 en-ru (Google Translate vs reference)",
        [line.split() for line in hyp],
        [[line.split()] for line in ref],
    )


def score(corpus: Corpus, max_order: int, smooth: str) -> dict[str, Any]:
    stats = bleusuite.bleu_statistics(corpus.hypotheses, corpus.references, max_order=max_order)
    total = stats.sum()
    bleu = float(bleusuite.bleu_score(total, smooth=smooth))
    matches = np.asarray(total.matches, dtype=np.float64)
    totals = np.asarray(total.totals, dtype=np.float64)
    precisions = np.divide(matches, totals, out=np.zeros_like(matches), where=totals > 0)
    hyp_len, ref_len = int(total.hyp_len), int(total.ref_len)
    sentence = bleusuite.bleu_score(stats, smooth="exp", max_order=max_order,
                                    effective_order=True)
    gleu = float(bleusuite.corpus_gleu(corpus.hypotheses, corpus.references))
    return {
        "corpus": corpus.name,
        "sentences": len(corpus.hypotheses),
        "bleu": {
            "score": 100 * bleu,
            "smooth": smooth,
            "max_order": max_order,
            "precisions": [100 * p for p in precisions.tolist()],
            "bp": float(np.exp(min(0.0, 1 - ref_len / hyp_len))) if hyp_len else 0.0,
            "ratio": hyp_len / ref_len if ref_len else 0.0,
            "hyp_len": hyp_len,
            "ref_len": ref_len,
        },
        "mean_sentence_bleu": 100 * float(np.mean(sentence)),
        "gleu": {"score": 100 * gleu, "min_len": 1, "max_len": 4},
    }


def format_text(result: dict[str, Any]) -> str:
    bleu = result["bleu"]
    precisions = "/".join(f"{p:.1f}" for p in bleu["precisions"])
    return "\n".join([
        f"{result['corpus']} ({result['sentences']} sentences)",
        f"BLEU = {bleu['score']:.2f} {precisions} (BP={bleu['bp']:.3f}, "
        f"ratio={bleu['ratio']:.3f}, hyp_len={bleu['hyp_len']}, ref_len={bleu['ref_len']}; "
        f"smooth={bleu['smooth']})",
        f"GLEU = {result['gleu']['score']:.2f} (orders 1-4)",
        f"mean sentence BLEU = {result['mean_sentence_bleu']:.2f} "
        "(smooth=exp, effective order, as sacrebleu's sentence_bleu)",
    ])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.hyp is None and not args.ref:
            corpus = sample_corpus()
        elif args.hyp is None or not args.ref:
            raise CommandError("give both --hyp FILE and at least one --ref FILE (or neither)")
        else:
            corpus = load_corpus(args.hyp, args.ref)
        result = score(corpus, args.max_order, args.smooth)
    except (CommandError, ValueError, TypeError) as error:
        print(f"bleusuite: error: {error}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(result, indent=2))
    else:
        print(format_text(result))
    return 0
