"""The evaluate module ``rouge`` shipped in ``bleusuite.evaluate``: its numbers are those of
evaluate's own ``rouge`` (rouge-score's ``score`` / ``score_multi``, then its
``BootstrapAggregator``'s middle F-measure, or the per-prediction lists), here a module
written the way evaluate's calls rouge-score, both loaded through ``evaluate.load`` with
the same NumPy random state."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
from rouge_cases import rouge_cases

from bleusuite.evaluate import module_path

evaluate = pytest.importorskip("evaluate")
pytest.importorskip("rouge_score")

#: evaluate's rouge module as its documentation describes it: rouge-score's RougeScorer,
#: score_multi for lists of references, BootstrapAggregator's mid F-measure
REFERENCE = textwrap.dedent('''
    import datasets
    import evaluate
    from rouge_score import rouge_scorer, scoring


    class Tokenizer:
        def __init__(self, function):
            self.function = function

        def tokenize(self, text):
            return self.function(text)


    class Reference(evaluate.Metric):
        def _info(self):
            string = datasets.Value("string", id="sequence")
            return evaluate.MetricInfo(description="", citation="", inputs_description="",
                features=[datasets.Features({"predictions": string,
                                             "references": datasets.Sequence(string)}),
                          datasets.Features({"predictions": string, "references": string})])

        def _compute(self, predictions, references, rouge_types=None, use_aggregator=True,
                     use_stemmer=False, tokenizer=None):
            rouge_types = rouge_types or ["rouge1", "rouge2", "rougeL", "rougeLsum"]
            multi = isinstance(references[0], list)
            scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer,
                tokenizer=None if tokenizer is None else Tokenizer(tokenizer))
            aggregator, scores = scoring.BootstrapAggregator(), []
            for reference, prediction in zip(references, predictions):
                score = (scorer.score_multi(reference, prediction) if multi
                         else scorer.score(reference, prediction))
                aggregator.add_scores(score)
                scores.append(score)
            if use_aggregator:
                return {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}
            return {key: [score[key].fmeasure for score in scores] for key in scores[0]}
''')


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    folder = tmp_path_factory.mktemp("modules") / "reference"
    folder.mkdir()
    (folder / "reference.py").write_text(REFERENCE, encoding="utf-8")
    return evaluate.load(module_path("rouge")), evaluate.load(str(folder))


@pytest.mark.parametrize(("multi", "use_stemmer"), [(False, True), (True, False)])
def test_aggregated_numbers_are_evaluates_for_the_same_random_state(modules, multi,
                                                                     use_stemmer):
    ours, reference = modules
    predictions, references = rouge_cases(13, 40)
    if not multi:
        references = [refs[0] for refs in references]
    np.random.seed(2024)  # noqa: NPY002  (the global state evaluate's rouge draws from)
    got = ours.compute(predictions=predictions, references=references, use_stemmer=use_stemmer)
    np.random.seed(2024)  # noqa: NPY002
    expected = reference.compute(predictions=predictions, references=references,
                                 use_stemmer=use_stemmer)
    assert got == expected


def test_per_prediction_lists_and_a_tokenizer(modules):
    ours, reference = modules
    predictions, references = rouge_cases(14, 40)
    for kwargs in ({"rouge_types": ["rouge2", "rougeLsum"]},
                   {"rouge_types": ["rougeL", "rougeLsum"], "tokenizer": lambda t: t.split(" ")}):
        got = ours.compute(predictions=predictions, references=references,
                           use_aggregator=False, **kwargs)
        expected = reference.compute(predictions=predictions, references=references,
                                     use_aggregator=False, **kwargs)
        assert got == expected
