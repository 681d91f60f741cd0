"""ROUGE (``bleusuite.sentence_rouge`` and its siblings) against Google's rouge-score on
generated documents, every type, measure and stemmer setting, other tokenizers; the
fallbacks without the compiled part; the statistics, the result object and the errors.
Token ids on every backend: ``test_rouge_ids.py``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from rouge_cases import rouge_cases

import bleusuite
from bleusuite.scores import registry
from bleusuite.scores.rouge.settings import MEASURES

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

TYPES = ("rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum")


@pytest.fixture(scope="module")
def cases() -> tuple[list[str], list[list[str]]]:
    return rouge_cases(2026, 120)


def _expected(scores: list[dict], rouge_type: str, measure: str) -> np.ndarray:
    return np.array([float(getattr(s[rouge_type], measure)) for s in scores])


def _close(got: np.ndarray, expected: np.ndarray, label: str) -> None:
    assert got.dtype == np.float64, label
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12, err_msg=label)


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_every_type_and_measure_is_rouge_scores(cases, use_stemmer):
    """rouge-score's ``score_multi`` (one or two references), to 1e-12 (the same bits)."""
    hyps, refs = cases
    scorer = rouge_scorer.RougeScorer(list(TYPES), use_stemmer=use_stemmer)
    expected = [scorer.score_multi(r, h) for h, r in zip(hyps, refs, strict=True)]
    got = bleusuite.rouge_scores(hyps, refs, rouge_types=TYPES, use_stemmer=use_stemmer)
    assert list(got) == list(TYPES)
    for rouge_type in TYPES:
        for measure in MEASURES:
            want = _expected(expected, rouge_type, measure)
            _close(getattr(got[rouge_type], measure), want, f"{rouge_type} {measure}")
            assert np.array_equal(getattr(got[rouge_type], measure), want)  # to the bit
            alone = bleusuite.sentence_rouge(hyps, refs, rouge_type=rouge_type,
                                             measure=measure, use_stemmer=use_stemmer)
            _close(alone, want, f"sentence_rouge {rouge_type} {measure}")


def test_one_reference_string_is_rouge_scores_score(cases):
    hyps, refs = cases
    single = [r[0] for r in refs]
    scorer = rouge_scorer.RougeScorer(["rouge2", "rougeLsum"], use_stemmer=True)
    expected = [scorer.score(r, h) for h, r in zip(hyps, single, strict=True)]
    got = bleusuite.rouge_scores(hyps, single, rouge_types=["rouge2", "rougeLsum"],
                                 use_stemmer=True)
    for rouge_type in ("rouge2", "rougeLsum"):
        _close(got[rouge_type].fmeasure, _expected(expected, rouge_type, "fmeasure"),
               rouge_type)


EDGES = [
    ("", "the cat"), ("the cat", ""), ("", ""), ("...", "!!"), ("a", "a"),
    ("The CAT sat.", "the cat SAT"), ("1,000 3.5 U.S.", "1 000 3 5 u s"),
    ("İstanbul Kelvin Straße", "i stanbul kelvin stra e"), ("a a a a", "a"),
    ("a b\n\n\nb a\n", "b a\na b"), ("x\ny\nz", "z y x"), ("relational running", "relate run"),
    ("the the the\nthe", "the\nthe the"),
]


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_edge_cases_are_rouge_scores(use_stemmer):
    hyps = [h for h, _ in EDGES]
    refs = [[r, h.upper()] for h, r in EDGES]  # ties between references too
    scorer = rouge_scorer.RougeScorer(list(TYPES), use_stemmer=use_stemmer)
    expected = [scorer.score_multi(r, h) for h, r in zip(hyps, refs, strict=True)]
    got = bleusuite.rouge_scores(hyps, refs, rouge_types=TYPES, use_stemmer=use_stemmer)
    for rouge_type in TYPES:
        for measure in MEASURES:
            _close(getattr(got[rouge_type], measure), _expected(expected, rouge_type, measure),
                   f"{rouge_type} {measure}")


class _Tokenizer:
    """A rouge-score tokenizer made of one of bleusuite's (sacrebleu's 13a)."""

    def __init__(self, name: str) -> None:
        self.tokenize_line = bleusuite.text.load_tokenizer(name).tokenize

    def tokenize(self, text: str) -> list[str]:
        return self.tokenize_line(text).split()


def test_another_tokenizer_is_rouge_scores_with_it(cases):
    """13a tokens: documents and (for rougeLsum) their lines tokenised apart, as
    rouge-score does with a tokenizer of its own."""
    hyps, refs = cases
    scorer = rouge_scorer.RougeScorer(list(TYPES), tokenizer=_Tokenizer("13a"))
    expected = [scorer.score_multi(r, h) for h, r in zip(hyps, refs, strict=True)]
    got = bleusuite.rouge_scores(hyps, refs, rouge_types=TYPES, tokenize="13a")
    for rouge_type in TYPES:
        _close(got[rouge_type].fmeasure, _expected(expected, rouge_type, "fmeasure"), rouge_type)


def test_the_same_numbers_without_the_compiled_part(cases, monkeypatch):
    """Python's numbering and NLTK's stemmer, the NumPy counting and the Python LCS."""
    hyps, refs = (part[:40] for part in cases)
    compiled = bleusuite.rouge_scores(hyps, refs, rouge_types=TYPES, use_stemmer=True)
    monkeypatch.setenv("BLEUSUITE_NATIVE", "0")
    fallback = bleusuite.rouge_scores(hyps, refs, rouge_types=TYPES, use_stemmer=True)
    for rouge_type in TYPES:
        for measure in MEASURES:
            assert np.array_equal(getattr(fallback[rouge_type], measure),
                                  getattr(compiled[rouge_type], measure)), rouge_type


# ------------------------------------------------------------- statistics, results

def test_corpus_scores_are_means_of_the_statistics(cases):
    hyps, refs = cases
    per_document = bleusuite.sentence_rouge(hyps, refs, rouge_type="rouge2", measure="recall")
    corpus = bleusuite.corpus_rouge(hyps, refs, rouge_type="rouge2", measure="recall")
    assert float(corpus) == pytest.approx(per_document.mean(), abs=1e-15)
    stats = bleusuite.rouge_scores(hyps, refs, rouge_types=["rouge2"])["rouge2"]
    halves = stats[:50].sum() + stats[50:].sum()
    assert float(bleusuite.rouge_score(halves, "recall")) == pytest.approx(float(corpus),
                                                                           abs=1e-15)
    again = bleusuite.RougeStats.from_array(stats.to_array())
    assert np.array_equal(again.to_array(), stats.to_array())
    result = bleusuite.corpus_rouge_result(hyps, refs, rouge_type="rouge2", measure="recall")
    assert result.score == pytest.approx(100 * float(corpus), rel=1e-15)
    assert result.documents == len(hyps)
    assert result.format(signature=False).startswith(f"ROUGE-2 = {result.score:.2f} (P ")
    assert "nrefs:var|measure:recall|tok:rouge|stem:no" in result.signature
    assert json.loads(json.dumps(result.to_dict()))["recall"] == result.recall


def test_the_registry_entry_scores_text_rows():
    entry = registry.get("rouge")
    settings = entry.settings(rouge_type="rouge1", measure="precision")
    table = entry.text_statistics(["a b c", "d"], [["a b", "e"]], settings)
    assert entry.scores(table, settings).tolist() == pytest.approx([200 / 3, 0.0], abs=1e-12)
    assert entry.scores(table.sum(axis=0), settings).tolist() == pytest.approx([100 / 3],
                                                                             abs=1e-12)
    assert entry.title(settings) == "ROUGE-1" and registry.word_counted("rouge") is None
    assert "rouge" not in registry.COMMAND_METRICS  # sacrebleu's command has no ROUGE


def test_the_command_refuses_rouge_by_name(tmp_path, capsys):
    from bleusuite import cli

    (tmp_path / "hyp.txt").write_text("a b\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("a b\n", encoding="utf-8")
    for flags in (["-m", "rouge"], ["-tok", "rouge"]):
        status = cli.main(["score", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"),
                           *flags])
        assert status == 2 and "invalid choice: 'rouge'" in capsys.readouterr().err


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"rouge_type": "rouge0"}, ValueError, "rouge_type must be one of"),
    ({"rouge_type": "rougeW"}, ValueError, "rouge_type must be one of"),
    ({"measure": "f1"}, ValueError, "measure must be one of"),
    ({"use_stemmer": 1}, TypeError, "use_stemmer must be a bool"),
    ({"tokenize": "spacy"}, ValueError, "tokenize must be one of"),
    ({"tokenize": None}, ValueError, "tokenize=None is for token ids"),
    ({"pad_id": 0}, ValueError, "pad_id and eos_id apply to token ids"),
])
def test_bad_settings_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        bleusuite.sentence_rouge(["a b"], ["a b"], **kwargs)


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="references: hypothesis 1 has no reference"):
        bleusuite.sentence_rouge(["a", "b"], [["a"], []])
    with pytest.raises(ValueError, match="hypotheses and references must have the same batch"):
        bleusuite.sentence_rouge(["a", "b"], ["a"])
    with pytest.raises(TypeError, match=r"references\[0\]\[0\] must be a string"):
        bleusuite.sentence_rouge(["a"], [[3]])
    with pytest.raises(ValueError, match="rougeLsum needs sentences"):
        bleusuite.sentence_rouge(np.array([[1, 2]]), np.array([[1, 2]]), tokenize=None,
                                 rouge_type="rougeLsum")
    with pytest.raises(ValueError, match="use_stemmer=True stems words of text"):
        bleusuite.sentence_rouge(np.array([[1, 2]]), np.array([[1, 2]]), tokenize=None,
                                 use_stemmer=True)
    with pytest.raises(ValueError, match="each type once"):
        bleusuite.rouge_scores(["a"], ["a"], rouge_types=["rouge1", "rouge1"])
    with pytest.raises(ValueError, match="corpus_rouge needs at least one document"):
        bleusuite.corpus_rouge([], [])
    with pytest.raises(ValueError, match="corpus_rouge needs at least one document"):
        bleusuite.corpus_rouge(np.zeros((0, 3), np.int64), np.zeros((0, 3), np.int64),
                               tokenize=None)
    assert bleusuite.sentence_rouge([], []).shape == (0,)
