"""Front doors (issue 14): what the ragged, mixed, text and result inputs cost.

* ``sentence_bleu`` on 512 generated sentences of 16 to 256 tokens (vocabulary 50k), as a
  padded tensor (the baseline), a list of 1-D tensors (ragged), a padded tensor beside
  token-list references (``generate`` output and a tokenised dataset), and token lists.
* ``corpus_bleu(..., tokenize="13a", smooth="exp")`` on 3000 lines of text against
  ``sacrebleu.corpus_bleu`` (the baseline), and ``corpus_bleu_result`` against
  ``corpus_bleu`` on token ids (what the result object adds).

Every form is checked to give the baseline's numbers. Run with ``tox -e bench`` or
``pytest benchmarks/bench_inputs.py``; the ratios are printed at the end of the run.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import bleusuite
from conftest import zipf_batch

torch = pytest.importorskip("torch")

BATCH, MAX_LEN = 512, 256
_HYP, _REF = zipf_batch(BATCH, MAX_LEN, seed=3)
_HYP += 1  # ids from 1: 0 is the padding
_REF += 1
_rng = np.random.default_rng(3)
_HYP_LEN = _rng.integers(16, MAX_LEN + 1, size=BATCH)
_REF_LEN = _rng.integers(16, MAX_LEN + 1, size=BATCH)
_HYP[np.arange(MAX_LEN) >= _HYP_LEN[:, None]] = 0
_REF[:, 0][np.arange(MAX_LEN) >= _REF_LEN[:, None]] = 0

HYP_LISTS = [row[:n].tolist() for row, n in zip(_HYP, _HYP_LEN, strict=True)]
REF_LISTS = [[row[:n].tolist()] for row, n in zip(_REF[:, 0], _REF_LEN, strict=True)]
FORMS: dict[str, tuple[Any, Any]] = {
    "padded tensors": (torch.from_numpy(_HYP), torch.from_numpy(_REF)),
    "ragged tensor lists": ([torch.tensor(h) for h in HYP_LISTS],
                            [torch.tensor(r[0]) for r in REF_LISTS]),
    "padded tensor + token-list refs": (torch.from_numpy(_HYP), REF_LISTS),
    "int token lists": (HYP_LISTS, REF_LISTS),
}
_EXPECTED = np.asarray(bleusuite.sentence_bleu(_HYP, _REF, pad_id=0, smooth="exp",
                                               effective_order=True))


@pytest.mark.parametrize("form", list(FORMS))
def test_sentence_bleu_input_forms(timed: Any, form: str) -> None:
    hyps, refs = FORMS[form]
    result = timed(f"sentence_bleu, {BATCH} sentences of 16-{MAX_LEN} tokens", form,
                   lambda: bleusuite.sentence_bleu(hyps, refs, pad_id=0, smooth="exp",
                                                   effective_order=True),
                   rounds=10, baseline=form == "padded tensors")
    np.testing.assert_allclose(np.asarray(result), _EXPECTED, rtol=0, atol=1e-12)


def _text(rng: np.random.Generator, lines: int) -> list[str]:
    words = np.array([f"w{i}" for i in range(3000)] + [",", ".", "!", "(a)", "U.S.", "don't"])
    weights = 1.0 / np.arange(1, len(words) + 1)
    weights /= weights.sum()
    lengths = rng.integers(1, 40, size=lines)
    tokens = rng.choice(words, size=int(lengths.sum()), p=weights)
    starts = np.cumsum(lengths) - lengths
    return [" ".join(tokens[s:s + n]) for s, n in zip(starts, lengths, strict=True)]


_TEXT_RNG = np.random.default_rng(5)
TEXT_HYPS = _text(_TEXT_RNG, 3000)
TEXT_REFS = _text(_TEXT_RNG, 3000)


def test_sacrebleu_corpus_bleu_text(timed: Any) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    timed("corpus BLEU of 3000 lines of text (13a, exp)", "sacrebleu.corpus_bleu",
          lambda: sacrebleu.corpus_bleu(TEXT_HYPS, [TEXT_REFS]).score / 100, rounds=3,
          baseline=True)


def test_bleusuite_corpus_bleu_text(timed: Any) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    refs = [[r] for r in TEXT_REFS]
    result = timed("corpus BLEU of 3000 lines of text (13a, exp)",
                   "bleusuite.corpus_bleu(tokenize='13a')",
                   lambda: float(bleusuite.corpus_bleu(TEXT_HYPS, refs, tokenize="13a",
                                                       smooth="exp")), rounds=5)
    assert abs(result - sacrebleu.corpus_bleu(TEXT_HYPS, [TEXT_REFS]).score / 100) <= 1e-12


@pytest.mark.parametrize("kind", ["corpus_bleu", "corpus_bleu_result"])
def test_result_object_cost(timed: Any, kind: str) -> None:
    function = getattr(bleusuite, kind)
    result = timed(f"corpus BLEU of {BATCH} padded id sentences", kind,
                   lambda: float(function(_HYP, _REF, pad_id=0, smooth="exp")),
                   rounds=10, baseline=kind == "corpus_bleu")
    want = float(bleusuite.corpus_bleu(_HYP, _REF, pad_id=0, smooth="exp"))
    # a result object holds its printed number, on sacrebleu's 0-100 scale (docs/text.md)
    assert result == (want if kind == "corpus_bleu" else pytest.approx(100 * want, rel=1e-12))
