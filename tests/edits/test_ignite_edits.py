"""bleusuite.metrics' CharacterErrorRate against Ignite 0.5.5's, and WordErrorRate against
jiwer, on batched updates."""

from __future__ import annotations

import pytest
from edit_cases import asr_pairs

pytest.importorskip("torch")
nlp = pytest.importorskip("ignite.metrics.nlp")
jiwer = pytest.importorskip("jiwer")

from ignite.exceptions import NotComputableError  # noqa: E402

from bleusuite.metrics import CharacterErrorRate, WordErrorRate  # noqa: E402

PAIRS = asr_pairs(200, seed=9)


def test_character_error_rate_equals_ignites() -> None:
    theirs, mine = nlp.CharacterErrorRate(), CharacterErrorRate()
    for start in range(0, len(PAIRS), 41):
        batch = PAIRS[start: start + 41]
        output = ([h for _, h in batch], [r for r, _ in batch])
        theirs.update(output)
        mine.update(output)
        assert mine.compute() == theirs.compute()
    for pair in (("", ""), ("a", ""), ("abc", "abd")):
        theirs, mine = nlp.CharacterErrorRate(), CharacterErrorRate()
        theirs.update(pair)
        mine.update(pair)
        assert mine.compute() == theirs.compute()


def test_word_error_rate_equals_jiwer() -> None:
    metric = WordErrorRate()
    for start in range(0, len(PAIRS), 41):
        batch = PAIRS[start: start + 41]
        metric.update(([h for _, h in batch], [r for r, _ in batch]))
    assert metric.compute() == pytest.approx(
        jiwer.wer([r for r, _ in PAIRS], [h for _, h in PAIRS]), abs=1e-12)


def test_checks_as_ignite() -> None:
    with pytest.raises(NotComputableError):
        CharacterErrorRate().compute()
    with pytest.raises(ValueError, match="same length"):
        CharacterErrorRate().update((["a"], ["a", "b"]))
    with pytest.raises(TypeError, match="must be str"):
        WordErrorRate().update((1, "a"))
