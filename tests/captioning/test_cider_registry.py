"""CIDEr-D's registry entry (``bleusuite.scores.cider.entry``): with fixed document
frequencies its per-image statistics sum to :func:`bleusuite.corpus_cider`'s mean (text and
token ids), its result object prints the corpus score, and without document frequencies it
refuses with a message that says what to give (its scores would depend on the batch)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from caption_cases import edited, sentence

import bleusuite
from bleusuite.inputs import normalize_batch
from bleusuite.scores import registry


def _corpus(images: int, seed: int = 5) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(seed)
    refs = [[sentence(rng) for _ in range(3)] for _ in range(images)]
    hyps = [edited(rng, rng.choice(r)) for r in refs]
    return hyps, refs


def test_text_statistics_sum_to_corpus_cider() -> None:
    hyps, refs = _corpus(60)
    frequency = bleusuite.cider_document_frequency(refs + _corpus(40, seed=9)[1])
    entry = registry.get("cider")
    settings = entry.settings(document_frequency=frequency)
    streams = [list(column) for column in zip(*refs, strict=True)]
    # two blocks, as Ray or two processes would count them
    table = np.concatenate([entry.text_statistics(hyps[:25], [s[:25] for s in streams],
                                                  settings),
                            entry.text_statistics(hyps[25:], [s[25:] for s in streams],
                                                  settings)])
    want = bleusuite.corpus_cider(hyps, refs, document_frequency=frequency)
    assert entry.scores(table.sum(axis=0), settings)[0] == pytest.approx(100 * want,
                                                                         rel=1e-12)
    result = registry.result("cider", table.sum(axis=0), settings, "3")
    assert result.cider == pytest.approx(want, rel=1e-12) and result.images == 60
    assert str(result).startswith("CIDEr-D|nrefs:3|df:fixed|n:4|sigma:6.0|tok:whitespace")


def test_token_id_statistics_equal_the_text() -> None:
    hyps, refs = _corpus(30)
    vocabulary: dict[str, int] = {}

    def ids(line: str) -> list[int]:
        return [vocabulary.setdefault(w, len(vocabulary) + 1) for w in line.split()]

    hyp_ids = [ids(h) for h in hyps]
    ref_ids = [[ids(r) for r in row] for row in refs]
    text_frequency = bleusuite.cider_document_frequency(refs)
    id_frequency = bleusuite.cider_document_frequency(ref_ids)
    entry = registry.get("cider")
    settings = entry.token_id_settings(entry.settings(document_frequency=id_frequency), {})
    batch = normalize_batch(hyp_ids, ref_ids, global_ids=True)
    stats = entry.token_id_statistics(batch, settings)
    want = bleusuite.sentence_cider(hyps, refs, document_frequency=text_frequency)
    np.testing.assert_allclose(np.asarray(stats.score), want, rtol=1e-12, atol=0)
    with pytest.raises(ValueError, match="counted on text"):
        entry.token_id_settings(entry.settings(document_frequency=text_frequency), {})


def test_without_document_frequencies_it_says_what_to_give() -> None:
    entry = registry.get("cider")
    with pytest.raises(ValueError, match=r"document_frequency=bleusuite\.cider_document_"):
        entry.text_statistics(["a cat"], [["a cat sat"]], entry.settings())
    with pytest.raises(TypeError, match="document_frequency must come from"):
        entry.settings(document_frequency={("a",): 1})
    with pytest.raises(ValueError, match="max_order must be a positive int"):
        entry.settings(max_order=0)
