"""Hostile input for the compiled part's ``caption_rouge`` (``bleusuite/csrc/caption_lcs.c``).

Captions of words that test its keys and its split: empty words (two spaces, a space at an
end, an empty caption), words of exactly 8 and of 9+ code points sharing prefixes, other
whitespace inside words, Latin-1, two- and four-byte code points (the same ASCII word in a
one-byte and in a two-byte str must match), hypotheses of more than 64 words (masks of
several machine words) and a scratch budget of 1 (masks made from position lists): each
call gives its Python twin's best precisions and recalls bit for bit
(:func:`bleusuite.pycocoevalcap.caption_lcs.best_precision_recall_python`, itself checked
against pycocoevalcap's ``my_lcs``), or refuses with a TypeError or ValueError.
``tox -e sanitize`` (tools/sanitize.py) runs this file under AddressSanitizer and
UndefinedBehaviorSanitizer.
"""

from __future__ import annotations

import numpy as np
import pytest
from compiled_part import compiled_on, require_compiled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleusuite.pycocoevalcap import Rouge
from bleusuite.pycocoevalcap.caption_lcs import (
    best_precision_recall,
    best_precision_recall_python,
)

FUZZ = settings(max_examples=200, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
WORDS = st.sampled_from(["", "a", "b", "ab", "abcdefgh", "abcdefgi", "abcdefghi", "abcdefghj",
                         "abcdefghijklmnopq", "abcdefghijklmnopr", "a\tb", "x\ny", "é", "café",
                         "cafébarista", "Ā", "ĀĀĀĀĀĀĀĀĀ", "😀", "a😀", "-lrb-", "don't"])


def caption(words: list[str], widen: str) -> str:
    """The words joined by single spaces; ``widen`` appended as one more word (a code point
    that makes the whole str two- or four-byte) where not empty."""
    return " ".join(words + ([widen] if widen else []))


CAPTIONS = st.builds(caption, st.lists(WORDS, max_size=12), st.sampled_from(["", "", "Ā", "😀"]))
LONG = st.builds(caption, st.lists(WORDS, min_size=60, max_size=140), st.sampled_from(["", "Ā"]))


@pytest.fixture(scope="module")
def native():
    return require_compiled()


def run(native, hyps: list[list[str]], refs: list[list[str]], scratch: int | None = None
        ) -> np.ndarray:
    best = np.full((len(hyps), 2), -7.0)
    extra = () if scratch is None else (scratch,)
    native.caption_rouge(hyps, refs, best, 0, len(hyps), *extra)
    return best


@FUZZ
@given(data=st.data(), images=st.integers(0, 5), long=st.booleans(),
       scratch=st.sampled_from([None, 1, 3]))
def test_caption_rouge_is_its_twin(native, data, images, long, scratch):
    hyps = [[data.draw(LONG if long else CAPTIONS)] for _ in range(images)]
    refs = [data.draw(st.lists(LONG if long and data.draw(st.booleans()) else CAPTIONS,
                               min_size=1, max_size=4)) for _ in range(images)]
    want = best_precision_recall_python(hyps, refs)
    assert np.array_equal(run(native, hyps, refs, scratch), want)
    # and by blocks of rows, as the worker threads call it
    if images:
        best = np.full((images, 2), -7.0)
        middle = data.draw(st.integers(0, images))
        native.caption_rouge(tuple(hyps), tuple(refs), best, 0, middle)
        native.caption_rouge(hyps, refs, best, middle, images)
        assert np.array_equal(best, want)


def my_lcs(string: list[str], sub: list[str]) -> int:
    """pycocoevalcap 1.2's rouge.my_lcs (its table)."""
    if len(string) < len(sub):
        sub, string = string, sub
    lengths = [[0 for _ in range(len(sub) + 1)] for _ in range(len(string) + 1)]
    for j in range(1, len(sub) + 1):
        for i in range(1, len(string) + 1):
            if string[i - 1] == sub[j - 1]:
                lengths[i][j] = lengths[i - 1][j - 1] + 1
            else:
                lengths[i][j] = max(lengths[i - 1][j], lengths[i][j - 1])
    return lengths[len(string)][len(sub)]


@FUZZ
@given(hyp=CAPTIONS, refs=st.lists(CAPTIONS, min_size=1, max_size=3))
def test_the_twin_is_pycocoevalcaps_loop(hyp, refs):
    token_c = hyp.split(" ")
    lcs = [my_lcs(ref.split(" "), token_c) for ref in refs]
    want = [max(k / float(len(token_c)) for k in lcs),
            max(k / float(len(ref.split(" "))) for k, ref in zip(lcs, refs, strict=True))]
    assert best_precision_recall_python([[hyp]], [refs]).tolist() == [want]


def test_empty_words_and_spaces(native):
    hyps = [[""], ["a  b"], [" a"], ["a b "], ["  "]]
    refs = [[""], ["a b", "a  b"], ["a", "a "], [" a b"], [" ", "   "]]
    assert np.array_equal(run(native, hyps, refs), best_precision_recall_python(hyps, refs))
    assert run(native, hyps, refs)[:2].tolist() == [[1.0, 1.0], [1.0, 1.0]]


class Text(str):
    pass


@pytest.mark.parametrize("hyps, refs", [
    ([["a"]], [[]]), ([["a", "b"]], [["a"]]), ([[]], [["a"]]), ([("a",)], [["a"]]),
    ([["a"]], [("a",)]), ([[b"a"]], [["a"]]), ([["a"]], [["a", 3]]), ([["a"]], ["a"]),
    ([[Text("a")]], [["a"]]), ([["a"]], [[Text("a")]]),
])
def test_malformed_images_are_refused(native, hyps, refs):
    with pytest.raises(ValueError):
        run(native, hyps, refs)


def test_bad_arguments_are_refused(native):
    hyps, refs = [["a"]], [["a"]]
    for call in (
        lambda: native.caption_rouge(hyps, refs, np.zeros((1, 2)), 0, 2),
        lambda: native.caption_rouge(hyps, refs, np.zeros((1, 2)), -1, 1),
        lambda: native.caption_rouge(hyps, refs + refs, np.zeros((1, 2)), 0, 1),
        lambda: native.caption_rouge(hyps, refs, np.zeros((2, 2)), 0, 1),
        lambda: native.caption_rouge(hyps, refs, np.zeros((1, 2)), 0, 1, 0),
        lambda: native.caption_rouge(hyps, refs, np.zeros((1, 2), dtype=np.float32), 0, 1),
        lambda: native.caption_rouge(hyps, refs, np.zeros((1, 4))[:, ::2], 0, 1),
        lambda: native.caption_rouge(iter(hyps), refs, np.zeros((1, 2)), 0, 1),
        lambda: native.caption_rouge(hyps, refs, np.zeros((1, 2)), 0),
    ):
        with pytest.raises((TypeError, ValueError)):
            call()


def test_compute_score_routes(native):
    gts = {2: ["a b c", "b c d"], 1: ["x y"], 3: ["q"]}
    res = {1: ["x z"], 2: ["a c d"], 3: ["r"]}  # another key order than gts'
    want = best_precision_recall_python([res[k] for k in gts], list(gts.values()))
    with compiled_on(True):
        got = best_precision_recall(gts, res, workers=2)
    assert got is not None and np.array_equal(got, want)
    # subclasses pycocoevalcap lets through take the slower path, with the same numbers
    with compiled_on(True):
        assert best_precision_recall({1: [Text("a b")]}, {1: ["a"]}) is None
    assert Rouge().compute_score({1: [Text("a b")]}, {1: ["a"]})[1].tolist() == [
        Rouge().compute_score({1: ["a b"]}, {1: ["a"]})[1].tolist()[0]]
    with pytest.raises(ValueError, match=r"res\[1\]"):
        Rouge().compute_score({1: ["a"]}, {1: ["a", "b"]})
    with pytest.raises(ValueError, match="same image ids"):
        Rouge().compute_score({1: ["a"]}, {2: ["a"]})
    with pytest.raises(TypeError):
        Rouge().compute_score([["a"]], {1: ["a"]})


def test_many_images_on_threads(native):
    rng = np.random.default_rng(45)
    vocabulary = ["a", "b", "cc", "dddddddd", "eeeeeeeee", "", "é", "Ā"]

    def line() -> str:
        return " ".join(vocabulary[k] for k in rng.integers(0, len(vocabulary),
                                                            int(rng.integers(0, 15))))

    gts = {k: [line() for _ in range(int(rng.integers(1, 6)))] for k in range(3000)}
    res = {k: [line()] for k in gts}
    with compiled_on(True):
        got = best_precision_recall(gts, res, workers=2)
    assert got is not None
    assert np.array_equal(got, best_precision_recall_python(list(res.values()),
                                                            list(gts.values())))
