"""The rules every metric applies to text alike: a hypothesis with no reference (``[]``, or
only ``None`` ones) raises "hypothesis N has no reference"; a ``None`` (or other non-string)
among text hypotheses is named by its position, not blamed on ``hypotheses[0]`` or an
option of text."""

from __future__ import annotations

import re
from typing import Any

import pytest

import bleusuite

#: every scoring function of text, with the options that make it read text
TEXT_SCORERS: dict[str, Any] = {
    "sentence_bleu": lambda h, r: bleusuite.sentence_bleu(h, r, tokenize="13a"),
    "corpus_bleu": lambda h, r: bleusuite.corpus_bleu(h, r, tokenize="13a"),
    "sentence_gleu": lambda h, r: bleusuite.sentence_gleu(h, r, tokenize="13a"),
    "corpus_gleu": lambda h, r: bleusuite.corpus_gleu(h, r, tokenize="13a"),
    "sentence_chrf": bleusuite.sentence_chrf,
    "corpus_chrf": bleusuite.corpus_chrf,
    "corpus_chrf++": lambda h, r: bleusuite.corpus_chrf(h, r, word_order=2),
    "sentence_ter": bleusuite.sentence_ter,
    "corpus_ter": bleusuite.corpus_ter,
    "corpus_ter_normalized": lambda h, r: bleusuite.corpus_ter(h, r, normalized=True),
    "sentence_rouge": bleusuite.sentence_rouge,
    "sentence_rouge_stemmed": lambda h, r: bleusuite.sentence_rouge(h, r, use_stemmer=True),
    "rouge_scores": bleusuite.rouge_scores,
    "corpus_rouge": bleusuite.corpus_rouge,
}


@pytest.mark.parametrize("missing", [[], [None], [None, None]], ids=["empty", "none", "nones"])
@pytest.mark.parametrize("name", list(TEXT_SCORERS))
def test_a_hypothesis_without_reference_raises_for_every_metric(name, missing):
    hyps = ["the cat sat", "a dog ran", "birds fly"]
    refs: list[Any] = [["the cat sat down"], missing, ["birds fly high"]]
    with pytest.raises(ValueError, match=r"^references: hypothesis 1 has no reference"):
        TEXT_SCORERS[name](hyps, refs)


@pytest.mark.parametrize("wrong", [None, 3, b"a dog"], ids=["None", "int", "bytes"])
@pytest.mark.parametrize("name", list(TEXT_SCORERS))
def test_a_non_string_among_text_hypotheses_is_named(name, wrong):
    hyps = ["the cat sat", wrong, "birds fly"]
    refs = [["the cat sat down"], ["a dog ran"], ["birds fly high"]]
    with pytest.raises(TypeError, match=re.escape("hypotheses[1]")):
        TEXT_SCORERS[name](hyps, refs)


def test_torchmetrics_names_its_own_argument():
    pytest.importorskip("torchmetrics")
    from bleusuite.torchmetrics import SacreBLEUScore

    with pytest.raises(TypeError, match=re.escape("preds[2]")):
        SacreBLEUScore().update(["a b", "c", None], [["a b"], ["c"], ["d"]])


def test_sacrebleu_chrf_names_the_line_of_its_streams():
    from bleusuite.sacrebleu import CHRF

    with pytest.raises(ValueError, match=r"^references: line 1 has no reference"):
        CHRF().corpus_score(["a b", "c"], [["a b", None]])
