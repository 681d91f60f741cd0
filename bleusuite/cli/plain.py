"""The plain ``bleusuite`` command: BLEU, mean sentence BLEU and GLEU of whitespace-tokenised
files, or of the sample corpus shipped in the package."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import bleusuite
from bleusuite.checks import counted
from bleusuite.cli.errors import CommandError
from bleusuite.cli.io import read_lines
from bleusuite.scores.bleu import smoothing
from bleusuite.scores.bleu.entry import verbose_line
from bleusuite.scores.bleu.result import BleuResult

__all__ = ["Corpus", "corpus_report", "format_report", "load_corpus", "run_plain",
           "sample_corpus"]


#: how the plain command tokenises: it splits each line on whitespace (as multi-bleu.perl;
#: ``bleusuite score`` tokenises with sacrebleu's 13a by default, so its numbers differ)
TOKENIZATION = "whitespace"


@dataclass(frozen=True)
class Corpus:
    """Whitespace-tokenised sentences of the plain ``bleusuite`` command."""

    name: str
    hypotheses: list[list[str]]
    references: list[list[list[str]]]


def load_corpus(hyp_path: str, ref_paths: Sequence[str]) -> Corpus:
    """A corpus from a hypothesis file and line-aligned reference files."""
    hyp_lines = read_lines(hyp_path, "hypothesis")
    ref_columns = [read_lines(path, "reference") for path in ref_paths]
    for path, lines in zip(ref_paths, ref_columns, strict=True):
        if len(lines) != len(hyp_lines):
            raise CommandError(
                f"{path} has {counted(len(lines), 'line')} but {hyp_path} has "
                f"{len(hyp_lines)}"
            )
    if not hyp_lines:
        raise CommandError(f"{hyp_path} is empty: nothing to score")
    hypotheses = [line.split() for line in hyp_lines]
    references = [[column[i].split() for column in ref_columns] for i in range(len(hyp_lines))]
    return Corpus(hyp_path, hypotheses, references)


def sample_corpus() -> Corpus:
    """The sample corpus shipped in ``bleusuite/data``."""
    from importlib import resources  # only here: it costs start-up time to every command

    data = resources.files("bleusuite") / "data"
    hyp = (data / "sample-hyp.txt").read_text(encoding="utf-8").splitlines()
    ref = (data / "sample-ref.txt").read_text(encoding="utf-8").splitlines()
    return Corpus(
        "sample: WMT newstest2015 en-ru, Google Translate vs reference",
        [line.split() for line in hyp],
        [[line.split()] for line in ref],
    )


def corpus_report(corpus: Corpus, max_order: int, smooth: str) -> dict[str, Any]:
    """BLEU, mean sentence BLEU and GLEU of a corpus, as the plain command prints them."""
    stats_order = max(max_order, smoothing.extra_orders(smooth))  # NLTK method5/7: 5-grams
    stats = bleusuite.bleu_statistics(corpus.hypotheses, corpus.references, max_order=stats_order)
    total = stats.sum()
    bleu = BleuResult.from_stats(total, max_order=max_order, smooth=smooth)
    sentence = bleusuite.bleu_score(stats, smooth="exp", max_order=max_order,
                                    effective_order=True)
    gleu = float(bleusuite.corpus_gleu(corpus.hypotheses, corpus.references))
    return {
        "corpus": corpus.name,
        "sentences": len(corpus.hypotheses),
        "tokenize": TOKENIZATION,
        "bleu": {
            "score": bleu.score,
            "smooth": smooth,
            "max_order": max_order,
            "precisions": list(bleu.precisions),
            "brevity_penalty": bleu.brevity_penalty,
            "ratio": bleu.ratio,
            "hyp_len": bleu.hyp_len,
            "ref_len": bleu.ref_len,
        },
        "mean_sentence_bleu": 100 * float(np.mean(sentence)),
        "gleu": {"score": 100 * gleu, "min_len": 1, "max_len": 4},
    }


def format_report(result: dict[str, Any]) -> str:
    """The text output of the plain command."""
    bleu = result["bleu"]
    verbose = verbose_line(bleu["precisions"], bleu["brevity_penalty"], bleu["hyp_len"],
                           bleu["ref_len"])
    return "\n".join([
        f"{result['corpus']} ({result['sentences']} sentences, tokens: {result['tokenize']})",
        f"BLEU = {bleu['score']:.2f} {verbose}, smooth={bleu['smooth']}",
        f"GLEU = {result['gleu']['score']:.2f} (orders 1-4)",
        f"mean sentence BLEU = {result['mean_sentence_bleu']:.2f} "
        "(smooth=exp, effective order, as sacrebleu's sentence_bleu)",
    ])


def run_plain(args: argparse.Namespace) -> str:
    """The plain command: the sample corpus, or ``--hyp``/``--ref`` files."""
    if args.hyp is None and not args.ref:
        corpus = sample_corpus()
    elif args.hyp is None or not args.ref:
        raise CommandError("give both --hyp FILE and at least one --ref FILE (or neither)")
    else:
        corpus = load_corpus(args.hyp, args.ref)
    result = corpus_report(corpus, args.max_order, args.smooth)
    if args.format == "json":
        import json

        return json.dumps(result, indent=2)
    return format_report(result)
