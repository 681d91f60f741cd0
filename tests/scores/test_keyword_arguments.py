"""The keyword arguments of the scoring functions, written once as typed dicts (PEP 692):
every name of a function's type is taken at run time with its documented default (the same
score as without it), and a name it does not take raises Python's own ``TypeError``, which
names the function and the argument."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import bleusuite
from bleusuite.scores.bleu.pairwise import pairwise_sentence_bleu, self_bleu
from bleusuite.scores.bleu.prefix import prefix_sentence_bleu
from bleusuite.scores.bleu.result import BleuResultOptions
from bleusuite.scores.bleu.settings import BleuCallOptions, BleuGroupOptions, BleuOptions
from bleusuite.scores.bleu.statistics import BleuStatisticsOptions
from bleusuite.scores.chrf.settings import ChrfOptions
from bleusuite.scores.gleu.result import GleuResultOptions
from bleusuite.scores.gleu.settings import GleuCallOptions
from bleusuite.scores.rouge.settings import DEFAULT_TYPES, RougeOptions, RougeScoresOptions
from bleusuite.scores.ter.settings import TerCallOptions, TerOptions

HYP = np.array([[1, 2, 3, 4, 5], [1, 2, 3, 0, 0]])
REF = np.array([[1, 2, 3, 4, 6], [1, 2, 4, 0, 0]])
TEXT_HYP, TEXT_REF = ["the cat sat on the mat", "a dog"], ["the cat sat on a mat", "a dog ran"]
GROUP = np.array([[[1, 2, 3, 4], [1, 2, 3, 5], [4, 3, 2, 1]]])

#: the documented default of every keyword argument
DEFAULTS: dict[str, Any] = {
    "max_order": None, "weights": None, "smooth": None, "smooth_value": None,
    "effective_order": None, "ref_length": "closest", "pad_id": None, "eos_id": None,
    "tokenize": None, "lowercase": False, "min_len": 1, "max_len": 4, "nrefs": None,
    "char_order": 6, "word_order": 0, "beta": 2, "whitespace": False, "eps_smoothing": False,
    "normalized": False, "no_punct": False, "asian_support": False, "case_sensitive": False,
    "rouge_type": "rougeL", "measure": "fmeasure", "use_stemmer": False,
    "rouge_types": DEFAULT_TYPES,
}

#: where a function's default differs (bleu_statistics counts 4 orders unless told)
OVERRIDES: dict[str, dict[str, Any]] = {
    "bleu_statistics": {"max_order": 4},
    **{name: {"tokenize": "rouge"} for name in ("sentence_rouge", "corpus_rouge",
                                                "corpus_rouge_result", "rouge_scores")},
}


def _bleu_stats() -> Any:
    return bleusuite.bleu_statistics(HYP, REF, pad_id=0)


def _gleu_stats() -> Any:
    return bleusuite.gleu_statistics(HYP, REF, pad_id=0)


#: name -> (the call of the function with keyword arguments, their type)
FUNCTIONS: dict[str, tuple[Callable[..., Any], type]] = {
    "sentence_bleu": (lambda **o: bleusuite.sentence_bleu(HYP, REF, **o), BleuCallOptions),
    "corpus_bleu": (lambda **o: bleusuite.corpus_bleu(HYP, REF, **o), BleuCallOptions),
    "bleu_score": (lambda **o: bleusuite.bleu_score(_bleu_stats(), **o), BleuOptions),
    "bleu_statistics": (lambda **o: bleusuite.bleu_statistics(HYP, REF, **o).to_array(),
                        BleuStatisticsOptions),
    "prefix_sentence_bleu": (lambda **o: prefix_sentence_bleu(HYP, REF, **o), BleuCallOptions),
    "pairwise_sentence_bleu": (lambda **o: pairwise_sentence_bleu(GROUP, GROUP, **o),
                               BleuGroupOptions),
    "self_bleu": (lambda **o: self_bleu(GROUP, **o), BleuCallOptions),
    "corpus_bleu_result": (lambda **o: bleusuite.corpus_bleu_result(HYP, REF, **o).to_dict(),
                           BleuCallOptions),
    "from_stats": (lambda **o: bleusuite.BleuResult.from_stats(_bleu_stats(), **o).to_dict(),
                   BleuResultOptions),
    "sentence_gleu": (lambda **o: bleusuite.sentence_gleu(HYP, REF, **o), GleuCallOptions),
    "corpus_gleu": (lambda **o: bleusuite.corpus_gleu(HYP, REF, **o), GleuCallOptions),
    "gleu_statistics": (lambda **o: bleusuite.gleu_statistics(HYP, REF, **o).to_array(),
                        GleuCallOptions),
    "corpus_gleu_result": (lambda **o: bleusuite.corpus_gleu_result(HYP, REF, **o).to_dict(),
                           GleuCallOptions),
    "GleuResult.from_stats": (
        lambda **o: bleusuite.GleuResult.from_stats(_gleu_stats(), **o).to_dict(),
        GleuResultOptions),
    "sentence_chrf": (lambda **o: bleusuite.sentence_chrf(TEXT_HYP, TEXT_REF, **o), ChrfOptions),
    "corpus_chrf": (lambda **o: bleusuite.corpus_chrf(TEXT_HYP, TEXT_REF, **o), ChrfOptions),
    "corpus_chrf_result": (
        lambda **o: bleusuite.corpus_chrf_result(TEXT_HYP, TEXT_REF, **o).to_dict(), ChrfOptions),
    "sentence_ter": (lambda **o: bleusuite.sentence_ter(TEXT_HYP, TEXT_REF, **o), TerCallOptions),
    "corpus_ter": (lambda **o: bleusuite.corpus_ter(TEXT_HYP, TEXT_REF, **o), TerCallOptions),
    "ter_statistics": (
        lambda **o: bleusuite.ter_statistics(TEXT_HYP, TEXT_REF, **o).to_array(), TerCallOptions),
    "corpus_ter_result": (
        lambda **o: bleusuite.corpus_ter_result(TEXT_HYP, TEXT_REF, **o).to_dict(),
        TerCallOptions),
    "TerResult.from_stats": (
        lambda **o: bleusuite.TerResult.from_stats(
            bleusuite.ter_statistics(TEXT_HYP, TEXT_REF), **o).to_dict(), TerOptions),
    "sentence_rouge": (lambda **o: bleusuite.sentence_rouge(TEXT_HYP, TEXT_REF, **o),
                       RougeOptions),
    "corpus_rouge": (lambda **o: bleusuite.corpus_rouge(TEXT_HYP, TEXT_REF, **o), RougeOptions),
    "corpus_rouge_result": (
        lambda **o: bleusuite.corpus_rouge_result(TEXT_HYP, TEXT_REF, **o).to_dict(),
        RougeOptions),
    "rouge_scores": (
        lambda **o: {k: v.to_array().tolist()
                     for k, v in bleusuite.rouge_scores(TEXT_HYP, TEXT_REF, **o).items()},
        RougeScoresOptions),
}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return a == b
    return bool(np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True))


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_every_name_of_its_type_is_taken_with_its_default(name: str) -> None:
    call, options = FUNCTIONS[name]
    keys = sorted(options.__optional_keys__)
    assert keys and set(keys) <= set(DEFAULTS)
    defaults = {**DEFAULTS, **OVERRIDES.get(name, {})}
    assert _same(call(**{key: defaults[key] for key in keys}), call())


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_a_name_it_does_not_take_raises_python_s_type_error(name: str) -> None:
    call, _ = FUNCTIONS[name]
    function = name.rsplit(".", 1)[-1]
    with pytest.raises(TypeError, match=rf"^{function}\(\) got an unexpected keyword "
                                        r"argument 'smoth'$"):
        call(smoth="exp")
