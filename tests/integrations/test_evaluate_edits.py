"""The evaluate modules ``wer`` and ``cer`` shipped in ``bleusuite.evaluate``: their numbers
equal evaluate 0.4.6's scripts run on jiwer 4.0 (transcribed below: the scripts' branch for
jiwer without ``compute_measures``), on generated ASR-like corpora and on the edge cases
(empty predictions, an empty reference among others, runs of spaces, every reference
empty); ``evaluate.load`` of their paths works offline."""

from __future__ import annotations

import random
import textwrap

import pytest
from edit_cases import asr_pairs
from offline_evaluate import run_offline

from bleusuite.evaluate import module_path
from bleusuite.evaluate.edits import NoReferenceWordsError, error_rate

evaluate = pytest.importorskip("evaluate")
jiwer = pytest.importorskip("jiwer")



def evaluate_script(predictions: list[str], references: list[str], characters: bool,
                    concatenate_texts: bool = False) -> float:
    """evaluate 0.4.6's ``wer`` (``cer`` with ``characters``) ``_compute`` on jiwer 4."""
    process = jiwer.process_characters if characters else jiwer.process_words
    if concatenate_texts:
        output = process(references, predictions)
        return output.cer if characters else output.wer
    incorrect = 0
    total = 0
    for prediction, reference in zip(predictions, references, strict=True):
        measures = process(reference, prediction)
        incorrect += measures.substitutions + measures.deletions + measures.insertions
        total += measures.substitutions + measures.deletions + measures.hits
    return incorrect / total


@pytest.fixture(scope="module")
def modules():
    return {"wer": evaluate.load(module_path("wer")), "cer": evaluate.load(module_path("cer"))}


def _corpora(count: int, seed: int) -> list[tuple[list[str], list[str]]]:
    """``count`` corpora of 1 to 40 generated pairs, each with a reference word."""
    rng = random.Random(seed)
    pairs = asr_pairs(40 * count, seed=seed)
    corpora = []
    for _ in range(count):
        chosen = rng.sample(pairs, rng.randint(1, 40))
        if not any(ref.split() for ref, _ in chosen):
            chosen.append(("a reference", "a hypothesis"))
        corpora.append(([hyp for _, hyp in chosen], [ref for ref, _ in chosen]))
    return corpora


@pytest.mark.parametrize("name", ["wer", "cer"])
@pytest.mark.parametrize("concatenate_texts", [False, True])
def test_the_modules_equal_evaluates_scripts_on_asr_like_corpora(modules, name,
                                                                  concatenate_texts):
    characters = name == "cer"
    for predictions, references in _corpora(30, seed=44 + characters):
        ours = modules[name].compute(predictions=predictions, references=references,
                                     concatenate_texts=concatenate_texts)
        assert isinstance(ours, float)
        assert ours == evaluate_script(predictions, references, characters, concatenate_texts)


EDGE_CASES = [
    (["", "the cat"], ["a b", "the cat sat"]),            # an empty prediction
    ([""], ["a b c"]),                                    # only an empty prediction
    (["a b", "x y z"], ["", "x y"]),                      # an empty reference, not all
    (["a b", "x"], ["   ", "x"]),                         # a reference of spaces only
    (["a  b   c ", " a\tb"], ["a b  c", "a  b "]),        # runs of spaces, tabs
    (["a   b", "a b"], ["a b", "a   b"]),                 # CER keeps inner spaces
    (["  ", "x"], ["y", "x"]),                            # a prediction of spaces only
    (["Новый премьер", "東京 タワー"], ["новый премьер-министр", "東京タワー"]),
    (["b c"], ["a b"]),                                   # jiwer: two substitutions
    (["a b c d e"], ["x"]),                               # more insertions than words
]


@pytest.mark.parametrize("case", range(len(EDGE_CASES)))
@pytest.mark.parametrize("name", ["wer", "cer"])
@pytest.mark.parametrize("concatenate_texts", [False, True])
def test_the_modules_equal_evaluates_scripts_on_edge_cases(modules, case, name,
                                                           concatenate_texts):
    predictions, references = EDGE_CASES[case]
    characters = name == "cer"
    ours = modules[name].compute(predictions=predictions, references=references,
                                 concatenate_texts=concatenate_texts)
    assert ours == evaluate_script(predictions, references, characters, concatenate_texts)


@pytest.mark.parametrize("name", ["wer", "cer"])
def test_every_reference_empty(modules, name):
    """evaluate's scripts divide by zero; ours says why, and is a ZeroDivisionError too;
    with concatenate_texts, jiwer's edge rule (the insertions)."""
    predictions, references = ["a b", "c"], ["", " "]
    with pytest.raises(ZeroDivisionError):
        evaluate_script(predictions, references, name == "cer")
    with pytest.raises(NoReferenceWordsError, match="every reference is empty"):
        modules[name].compute(predictions=predictions, references=references)
    with pytest.raises(ZeroDivisionError):
        modules[name].compute(predictions=predictions, references=references)
    ours = modules[name].compute(predictions=predictions, references=references,
                                 concatenate_texts=True)
    assert ours == evaluate_script(predictions, references, name == "cer", True) > 0


def test_the_modules_examples_and_batches(modules):
    """evaluate's docstring examples; add_batch then compute as one compute."""
    predictions = ["this is the prediction", "there is an other sample"]
    references = ["this is the reference", "there is another one"]
    assert modules["wer"].compute(predictions=predictions, references=references) == 0.5
    assert modules["cer"].compute(predictions=predictions,
                                  references=references) == 0.34146341463414637
    for name in ("wer", "cer"):
        for prediction, reference in zip(predictions, references, strict=True):
            modules[name].add_batch(predictions=[prediction], references=[reference])
        assert modules[name].compute() == evaluate_script(predictions, references,
                                                          name == "cer")


def test_error_rate_refuses_bad_input():
    with pytest.raises(ValueError, match="references: 1 references for 2 predictions"):
        error_rate(["a", "b"], ["a"])
    with pytest.raises(ValueError, match="predictions: evaluate's wer takes a list of"):
        error_rate("a b", "a b")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="references: evaluate's cer"):
        error_rate(["a"], [["a"]], characters=True)  # type: ignore[list-item]
    assert error_rate([], [], concatenate_texts=True) == jiwer.process_words([], []).wer == 0
    with pytest.raises(NoReferenceWordsError):
        error_rate([], [])


def test_the_modules_refuse_lists_of_references_as_evaluate(modules):
    with pytest.raises(ValueError, match="expected format"):
        modules["wer"].compute(predictions=["a"], references=[["a"]])


def test_the_modules_load_offline_without_jiwer(tmp_path):
    """A fresh process with the hub off, an empty cache, and jiwer unimportable."""
    script = textwrap.dedent("""
        import json, sys
        sys.modules["jiwer"] = None  # import jiwer fails
        import evaluate
        from bleusuite.evaluate import module_path
        out = {}
        for name in ("wer", "cer"):
            module = evaluate.load(module_path(name))
            out[name] = [module.name, module.compute(predictions=["the cat sit on mat"],
                                                     references=["the cat sat on the mat"])]
        json.dump(out, open(sys.argv[1], "w"))
    """)
    result = run_offline(script, tmp_path)
    assert result == {
        "wer": ["wer", jiwer.wer("the cat sat on the mat", "the cat sit on mat")],
        "cer": ["cer", jiwer.cer("the cat sat on the mat", "the cat sit on mat")]}
