"""The CIDEr-D metric classes (``bleusuite.torchmetrics.CIDErScore``,
``bleusuite.metrics.CiderD``): over batched updates, with fixed document frequencies, their
result is :func:`bleusuite.corpus_cider`'s (text and token-id tensors); their state is a sum,
so a split of the updates changes nothing; without document frequencies they refuse."""

from __future__ import annotations

import random

import pytest
from caption_cases import edited, sentence

import bleusuite

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")
pytest.importorskip("ignite")

from bleusuite.metrics import CiderD  # noqa: E402
from bleusuite.torchmetrics import CIDErScore  # noqa: E402


def _corpus(images: int) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(21)
    refs = [[sentence(rng) for _ in range(rng.randint(1, 5))] for _ in range(images)]
    return [edited(rng, rng.choice(r)) for r in refs], refs


@pytest.mark.parametrize("cut", [1, 17, 40])
def test_batched_updates_equal_corpus_cider(cut: int) -> None:
    hyps, refs = _corpus(50)
    frequency = bleusuite.cider_document_frequency(refs + _corpus(30)[1])
    want = bleusuite.corpus_cider(hyps, refs, document_frequency=frequency)
    metric = CIDErScore(document_frequency=frequency)
    metric.update(hyps[:cut], refs[:cut])
    metric.update(hyps[cut:], refs[cut:])
    assert float(metric.compute()) == pytest.approx(want, rel=1e-12)
    ignite_metric = CiderD(document_frequency=frequency)
    ignite_metric.update((hyps[:cut], refs[:cut]))
    ignite_metric.update((hyps[cut:], refs[cut:]))
    assert ignite_metric.compute() == pytest.approx(want, rel=1e-12)


def test_token_id_tensors() -> None:
    hyp = torch.tensor([[5, 6, 7, 0], [8, 9, 0, 0]])
    refs = torch.tensor([[[5, 6, 7, 1], [5, 6, 2, 0]], [[8, 9, 3, 0], [8, 4, 0, 0]]])
    frequency = bleusuite.cider_document_frequency(refs, pad_id=0)
    want = bleusuite.corpus_cider(hyp, refs, document_frequency=frequency, pad_id=0)
    metric = CIDErScore(document_frequency=frequency, pad_id=0)
    assert float(metric(hyp, refs)) == pytest.approx(want, rel=1e-12)


def test_they_need_document_frequencies() -> None:
    with pytest.raises(ValueError, match="document_frequency"):
        CIDErScore()
    with pytest.raises(ValueError, match="document_frequency"):
        CiderD()
    with pytest.raises(ValueError, match="max_order"):
        CIDErScore(document_frequency=bleusuite.cider_document_frequency([["a b"]]),
                   max_order=0)
