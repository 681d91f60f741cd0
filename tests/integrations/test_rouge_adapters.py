"""The ROUGE drop-ins: ``bleusuite.metrics.Rouge`` / ``RougeN`` / ``RougeL`` against
pytorch-ignite's (1e-12, several updates, ``multiref`` "best" and "average", several
``alpha``), and ``bleusuite.torchmetrics.ROUGEScore`` against torchmetrics' (1e-6: its
scores are float32), on generated documents."""

from __future__ import annotations

import numpy as np
import pytest
from rouge_cases import rouge_cases

torch = pytest.importorskip("torch")
ignite_rouge = pytest.importorskip("ignite.metrics.nlp.rouge")

from bleusuite.metrics import Rouge, RougeL, RougeN  # noqa: E402


def _token_batches(seed: int) -> list[tuple[list[list[str]], list[list[list[str]]]]]:
    """Three updates of token lists (documents split on whitespace), 1-2 references each."""
    hyps, refs = rouge_cases(seed, 60)
    batches = []
    for begin in range(0, 60, 20):
        y_pred = [h.split() for h in hyps[begin : begin + 20]]
        y = [[r.split() for r in rs] for rs in refs[begin : begin + 20]]
        batches.append((y_pred, y))
    return batches


def _assert_same(got: dict, expected: dict, atol: float) -> None:
    assert list(got) == list(expected)
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=atol), key


@pytest.mark.parametrize("multiref", ["best", "average"])
@pytest.mark.parametrize("alpha", [0, 0.3, 1])
def test_ignite_metrics_are_ignites(multiref, alpha):
    batches = _token_batches(5)
    pairs = [
        (Rouge(variants=["L", 2, 1, 3], multiref=multiref, alpha=alpha),
         ignite_rouge.Rouge(variants=["L", 2, 1, 3], multiref=multiref, alpha=alpha)),
        (RougeN(ngram=2, multiref=multiref, alpha=alpha),
         ignite_rouge.RougeN(ngram=2, multiref=multiref, alpha=alpha)),
        (RougeL(multiref=multiref, alpha=alpha),
         ignite_rouge.RougeL(multiref=multiref, alpha=alpha)),
        (Rouge(multiref=multiref, alpha=alpha), ignite_rouge.Rouge(multiref=multiref,
                                                                   alpha=alpha)),
    ]
    for ours, theirs in pairs:
        for batch in batches:
            ours.update(batch)
            theirs.update(batch)
        _assert_same(ours.compute(), theirs.compute(), 1e-12)
        ours.reset()
        ours.update(batches[0])
        theirs.reset()
        theirs.update(batches[0])
        _assert_same(ours.compute(), theirs.compute(), 1e-12)


def test_ignite_metrics_take_token_ids():
    """Padded id tensors (an all-padding reference is absent) and ragged tensors: the
    numbers of the same token lists."""
    rng = np.random.default_rng(3)
    hyp = torch.as_tensor(rng.integers(1, 6, size=(8, 12)))
    refs = torch.as_tensor(rng.integers(1, 6, size=(8, 2, 12)))
    hyp[:, 9:] = 0
    refs[::2, 1] = 0
    lists = ([[t for t in row if t] for row in hyp.tolist()],
             [[[t for t in r if t] for r in row if any(r)] for row in refs.tolist()])
    ours = Rouge(variants=[1, "L"], multiref="best", pad_id=0)
    ours.update((hyp, refs))
    theirs = ignite_rouge.Rouge(variants=[1, "L"], multiref="best")
    theirs.update(lists)
    _assert_same(ours.compute(), theirs.compute(), 1e-12)
    ragged = RougeL(multiref="best")
    ragged.update(([torch.tensor(h) for h in lists[0]],
                   [[torch.tensor(r) for r in rs] for rs in lists[1]]))
    assert ragged.compute()["Rouge-L-F"] == pytest.approx(ours.compute()["Rouge-L-F"],
                                                          abs=1e-12)


def test_ignite_errors_are_ignites():
    with pytest.raises(ValueError, match=r"alpha must be in interval \[0, 1\]"):
        RougeL(alpha=1.5)
    with pytest.raises(ValueError, match="multiref : valid values are"):
        RougeN(multiref="max")
    with pytest.raises(ValueError, match="ngram order must be greater than zero"):
        RougeN(ngram=0)
    with pytest.raises(ValueError, match="variant must be 'L' or integer greater to zero"):
        Rouge(variants=["Lsum"])
    from ignite.exceptions import NotComputableError

    with pytest.raises(NotComputableError):
        RougeL().compute()


# ------------------------------------------------------------------------ torchmetrics

tm_rouge = pytest.importorskip("torchmetrics.text.rouge")
from bleusuite.torchmetrics import ROUGEScore  # noqa: E402

KEYS = ("rouge1", "rouge2", "rougeL")


@pytest.mark.parametrize("accumulate", ["best", "avg"])
def test_torchmetrics_rougescore_is_torchmetrics(accumulate):
    hyps, refs = rouge_cases(9, 60)
    ours = ROUGEScore(use_stemmer=True, accumulate=accumulate, rouge_keys=KEYS)
    theirs = tm_rouge.ROUGEScore(use_stemmer=True, accumulate=accumulate, rouge_keys=KEYS)
    for begin in range(0, 60, 30):
        ours.update(hyps[begin : begin + 30], refs[begin : begin + 30])
        theirs.update(hyps[begin : begin + 30], refs[begin : begin + 30])
    got, expected = ours.compute(), theirs.compute()
    assert list(got) == list(expected)
    for key, value in expected.items():
        assert got[key].dtype == torch.float32, key
        assert float(got[key]) == pytest.approx(float(value), abs=1e-6), key


def test_torchmetrics_forms_and_custom_tokenizer():
    """A single string, a list of references per prediction, and a normalizer and
    tokenizer of the caller's own."""
    ours, theirs = ROUGEScore(rouge_keys="rouge1"), tm_rouge.ROUGEScore(rouge_keys="rouge1")
    assert float(ours("My name is John", "Is your name John")["rouge1_fmeasure"]) == \
        pytest.approx(float(theirs("My name is John", "Is your name John")["rouge1_fmeasure"]))

    def normalizer(text: str) -> str:
        return text.replace(",", " ")

    def tokenizer(text: str) -> list[str]:
        return text.split(" ")

    hyps, refs = rouge_cases(4, 20)
    kwargs = {"normalizer": normalizer, "tokenizer": tokenizer, "use_stemmer": True,
              "rouge_keys": KEYS}
    got = ROUGEScore(**kwargs)(hyps, refs)
    expected = tm_rouge.ROUGEScore(**kwargs)(hyps, refs)
    for key, value in expected.items():
        assert float(got[key]) == pytest.approx(float(value), abs=1e-6), key


def test_torchmetrics_errors_are_torchmetrics():
    with pytest.raises(ValueError, match="Got unknown rouge key rouge10"):
        ROUGEScore(rouge_keys=("rouge10",))
    with pytest.raises(ValueError, match="Got unknown accumulate value mean"):
        ROUGEScore(accumulate="mean")
    with pytest.raises(ValueError, match="target: prediction 0 has no reference"):
        ROUGEScore(rouge_keys="rouge1").update(["a"], [[]])
