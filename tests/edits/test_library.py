"""sentence_wer, corpus_wer, sentence_cer, corpus_cer against jiwer, on text and on token
ids (lists, NumPy, torch), and their argument checks."""

from __future__ import annotations

import numpy as np
import pytest
from edit_cases import asr_pairs

import bleusuite
from bleusuite.scores.wer.counts import default_words

jiwer = pytest.importorskip("jiwer")

PAIRS = asr_pairs(300, seed=3)
REFS = [r for r, _ in PAIRS]
HYPS = [h for _, h in PAIRS]


def test_text_equals_jiwer() -> None:
    sentence = bleusuite.sentence_wer(HYPS, REFS)
    assert sentence.tolist() == pytest.approx([jiwer.wer(r, h) for r, h in PAIRS], abs=1e-12)
    chars = bleusuite.sentence_cer(HYPS, REFS)
    assert chars.tolist() == pytest.approx([jiwer.cer(r, h) for r, h in PAIRS], abs=1e-12)
    result, want = bleusuite.corpus_wer(HYPS, REFS), jiwer.process_words(REFS, HYPS)
    for name in ("wer", "mer", "wil", "wip"):
        assert getattr(result, name) == pytest.approx(getattr(want, name), abs=1e-12)
    for name in ("hits", "substitutions", "deletions", "insertions"):
        assert getattr(result, name) == getattr(want, name)
    assert float(bleusuite.corpus_cer(HYPS, REFS)) == pytest.approx(jiwer.cer(REFS, HYPS),
                                                                     abs=1e-12)


def test_transform_any_callable() -> None:
    got = bleusuite.corpus_wer(HYPS, REFS, transform=str.lower).wer
    assert got == pytest.approx(jiwer.wer(REFS, HYPS, jiwer.Compose(
        [jiwer.ToLowerCase(), *jiwer.wer_default.transforms]), jiwer.Compose(
        [jiwer.ToLowerCase(), *jiwer.wer_default.transforms])), abs=1e-12)


def ids_of(pairs: list[tuple[str, str]]) -> tuple[list[list[int]], list[list[int]]]:
    vocabulary: dict[str, int] = {}
    def number(line: str) -> list[int]:
        return [vocabulary.setdefault(w, len(vocabulary) + 1) for w in default_words(line)]
    return [number(h) for _, h in pairs], [number(r) for r, _ in pairs]


def test_token_ids_equal_text() -> None:
    hyps, refs = ids_of(PAIRS)
    want = bleusuite.sentence_wer(HYPS, REFS)
    assert bleusuite.sentence_wer(hyps, refs).tolist() == pytest.approx(want.tolist(), abs=1e-12)
    # padded arrays: an all-padding reference is absent (bleusuite's rule), so rows with an
    # empty reference are left out there
    keep = [k for k, ref in enumerate(refs) if ref]
    hyps, refs, want = [hyps[k] for k in keep], [refs[k] for k in keep], want[keep]
    width = max(len(s) for s in hyps + refs) + 1
    def padded(rows: list[list[int]]) -> np.ndarray:
        return np.array([row + [0] * (width - len(row)) for row in rows])
    got = bleusuite.sentence_wer(padded(hyps), padded(refs), pad_id=0)
    assert got.tolist() == pytest.approx(want.tolist(), abs=1e-12)
    assert bleusuite.corpus_wer(padded(hyps), padded(refs), pad_id=0) == bleusuite.corpus_wer(
        [HYPS[k] for k in keep], [REFS[k] for k in keep])
    torch = pytest.importorskip("torch")
    scores = bleusuite.sentence_wer(torch.tensor(padded(hyps)), torch.tensor(padded(refs)),
                                    pad_id=0)
    assert isinstance(scores, torch.Tensor)
    assert scores.tolist() == pytest.approx(want.tolist(), abs=1e-12)


def test_statistics_sum() -> None:
    stats = bleusuite.wer_statistics(HYPS, REFS)
    assert bleusuite.EditResult.from_stats(stats[:100] + stats[100:200]) == \
        bleusuite.corpus_wer(HYPS[:200], REFS[:200])


def test_checks() -> None:
    with pytest.raises(ValueError, match="one per hypothesis"):
        bleusuite.sentence_wer(["a"], [["a", "b"]])
    with pytest.raises(ValueError, match="at least one sentence"):
        bleusuite.corpus_wer([], [])
    with pytest.raises(TypeError, match="transform"):
        bleusuite.sentence_wer(["a"], ["a"], transform=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="pad_id"):
        bleusuite.sentence_wer(["a"], ["a"], pad_id=0)


def test_registry_entry_and_paired_test() -> None:
    from bleusuite.scores import registry
    from bleusuite.significance import paired_bootstrap

    entry = registry.get("wer")
    assert registry.of_statistics(bleusuite.wer_statistics(HYPS, REFS)) is entry
    table = entry.text_statistics(HYPS, [REFS], entry.settings())
    assert entry.scores(table.sum(axis=0), entry.settings())[0] == pytest.approx(
        100 * jiwer.wer(REFS, HYPS), abs=1e-9)
    chars = entry.text_statistics(HYPS, [REFS], entry.settings(characters=True))
    assert entry.scores(chars.sum(axis=0), entry.settings(characters=True))[0] == \
        pytest.approx(100 * jiwer.cer(REFS, HYPS), abs=1e-9)
    baseline = bleusuite.wer_statistics(HYPS, REFS)
    other = bleusuite.wer_statistics([r.lower() for r in REFS], REFS)
    results = paired_bootstrap(baseline, [other], n_resamples=50)
    assert results[0].score == pytest.approx(100 * jiwer.wer(REFS, HYPS), abs=1e-9)


def test_str_subclasses_are_text() -> None:
    """NumPy's ``str_`` (a str subclass) is read as the plain str it holds."""
    hyps, refs = ["a x c", "d e"], ["a b c", "d"]
    want = jiwer.wer(refs, hyps)
    assert bleusuite.corpus_wer([np.str_(h) for h in hyps], [np.str_(r) for r in refs]).wer \
        == want
    from bleusuite import jiwer as ours

    assert ours.wer([np.str_(r) for r in refs], [np.str_(h) for h in hyps]) == want
