"""bleusuite.jiwer against the real jiwer 4.0: measures to 1e-12 on whole lists and single
pairs, counts, transformed texts and alignments equal, on generated ASR-like cases, with the
compiled part on and off."""

from __future__ import annotations

import pytest
from compiled_part import compiled_on
from edit_cases import asr_pairs

from bleusuite import jiwer as ours

jiwer = pytest.importorskip("jiwer")

PAIRS = asr_pairs(600)
MEASURES = ("wer", "mer", "wil", "wip", "cer")


def chunks(output: object) -> list[list[tuple[object, ...]]]:
    return [[(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx)
             for c in row] for row in output.alignments]  # type: ignore[attr-defined]


def same_output(got: object, want: object, fields: tuple[str, ...]) -> None:
    for field in ("references", "hypotheses", "hits", "substitutions", "insertions",
                  "deletions"):
        assert getattr(got, field) == getattr(want, field), field
    for field in fields:
        assert getattr(got, field) == pytest.approx(getattr(want, field), abs=1e-12), field
    assert chunks(got) == chunks(want)


@pytest.fixture(params=[True, False], ids=["compiled", "python"])
def compiled(request: pytest.FixtureRequest) -> object:
    with compiled_on(request.param):
        yield request.param


def test_whole_lists(compiled: object) -> None:
    for start in range(0, len(PAIRS), 150):
        refs = [r for r, _ in PAIRS[start: start + 150]]
        hyps = [h for _, h in PAIRS[start: start + 150]]
        for name in MEASURES:
            want, got = getattr(jiwer, name)(refs, hyps), getattr(ours, name)(refs, hyps)
            assert got == pytest.approx(want, abs=1e-12), name
        same_output(ours.process_words(refs, hyps), jiwer.process_words(refs, hyps),
                    ("wer", "mer", "wil", "wip"))
        same_output(ours.process_characters(refs, hyps),
                    jiwer.process_characters(refs, hyps), ("cer",))


def test_single_pairs(compiled: object) -> None:
    for ref, hyp in PAIRS[:300]:
        for name in MEASURES:
            want, got = getattr(jiwer, name)(ref, hyp), getattr(ours, name)(ref, hyp)
            assert got == pytest.approx(want, abs=1e-12) and type(got) is type(want), (
                name, ref, hyp)
        same_output(ours.process_words(ref, hyp), jiwer.process_words(ref, hyp),
                    ("wer", "mer", "wil", "wip"))


@pytest.mark.parametrize(("ref", "hyp"), [
    ("a b", "b c"), ("", "a b"), ("", ""), ("a", ""), ("a  b ", " a b"), ([], []),
    (["", "a"], ["a", "a"]), (["a", ""], ["", ""]), ("x\ty z", "x y\tz"), ("  ", "a"),
])
def test_edge_rules(ref: object, hyp: object) -> None:
    for name in MEASURES:
        want, got = getattr(jiwer, name)(ref, hyp), getattr(ours, name)(ref, hyp)
        assert got == want and type(got) is type(want), name
    same_output(ours.process_words(ref, hyp), jiwer.process_words(ref, hyp),
                ("wer", "mer", "wil", "wip"))
    same_output(ours.process_characters(ref, hyp), jiwer.process_characters(ref, hyp),
                ("cer",))


def test_jiwer_transforms_pass_through() -> None:
    refs = [r for r, _ in PAIRS[:100]]
    hyps = [h for _, h in PAIRS[:100]]
    for transform in (jiwer.wer_standardize, jiwer.wer_default, jiwer.Compose(
            [jiwer.ToLowerCase(), jiwer.RemovePunctuation(), jiwer.RemoveMultipleSpaces(),
             jiwer.Strip(), jiwer.ReduceToListOfListOfWords()])):
        same_output(ours.process_words(refs, hyps, transform, transform),
                    jiwer.process_words(refs, hyps, transform, transform),
                    ("wer", "mer", "wil", "wip"))
    chars = jiwer.Compose([jiwer.ToLowerCase(), jiwer.RemoveWhiteSpace(replace_by_space=False),
                           jiwer.ReduceToListOfListOfChars()])
    same_output(ours.process_characters(refs, hyps, chars, chars),
                jiwer.process_characters(refs, hyps, chars, chars), ("cer",))
    same_output(ours.process_characters(refs, hyps, jiwer.cer_default, jiwer.cer_default),
                jiwer.process_characters(refs, hyps), ("cer",))
    contiguous = jiwer.wer_contiguous
    assert ours.wer(refs[:3], hyps[:5], contiguous, contiguous) == pytest.approx(
        jiwer.wer(refs[:3], hyps[:5], contiguous, contiguous), abs=1e-12)


def test_any_callable_as_transform() -> None:
    def lower_words(lines: list[str]) -> list[list[str]]:
        return [line.lower().split() for line in lines]

    refs, hyps = ["The Cat sat", "A dog"], ["the cat SAT down", "a Dog"]
    assert ours.wer(refs, hyps, lower_words, lower_words) == jiwer.wer(
        refs, hyps, jiwer.Compose([jiwer.ToLowerCase(), jiwer.ReduceToListOfListOfWords()]),
        jiwer.Compose([jiwer.ToLowerCase(), jiwer.ReduceToListOfListOfWords()]))


def test_errors_as_jiwer() -> None:
    for call in (ours.wer, ours.cer, ours.process_words):
        with pytest.raises(ValueError, match="lengths must match"):
            call(["a"], ["a", "b"])
        with pytest.raises(ValueError, match="string or list of strings"):
            call(3, "a")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="list of list strings"):
        ours.wer("a", "b", lambda lines: lines, lambda lines: lines)
