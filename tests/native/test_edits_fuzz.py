"""Hostile input for the compiled part's ``edit_counts`` (``bleusuite/csrc/edits.c``).

Random slices of random id buffers (overlapping, shared by hypotheses and references,
empty; more than 64 words, so that Myers' columns take several machine words), offsets and
lengths that do not fit their buffers, wrong shapes, rows out of range: each call either
gives the Python twin's counts and opcodes (:func:`bleusuite.scores.wer.edits.pair_opcodes`)
or refuses with a TypeError, ValueError or OverflowError, and never reads or writes outside
its buffers. ``tox -e sanitize`` (tools/sanitize.py) runs this file under AddressSanitizer
and UndefinedBehaviorSanitizer.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
from compiled_part import require_compiled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleusuite.scores.wer.edits import pair_opcodes

REFUSALS = (TypeError, ValueError, OverflowError)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: few distinct values (many alignments of equal cost), extreme ones among them
VALUES = st.sampled_from([0, 1, 2, 1, 2, -1, 2**63 - 1, -(2**63)])


@pytest.fixture(scope="module")
def native():
    return require_compiled()


@FUZZ
@given(data=st.data(), rows=st.integers(0, 4))
def test_edit_counts_with_valid_slices_are_the_twins(native, data, rows):
    ids = np.array(data.draw(st.lists(VALUES, max_size=160)), dtype=np.int64)
    size = len(ids)

    def slices() -> tuple[np.ndarray, np.ndarray]:
        starts = data.draw(st.lists(st.integers(0, size), min_size=rows, max_size=rows))
        lengths = [data.draw(st.integers(0, size - s)) for s in starts]
        return np.array(starts, dtype=np.int64), np.array(lengths, dtype=np.int64)

    hyp_starts, hyp_lengths = slices()
    ref_starts, ref_lengths = slices()
    counts = np.full((rows, 5), -7, dtype=np.int64)
    room = hyp_lengths + ref_lengths + 1
    chunk_starts = np.cumsum(room) - room
    chunks = np.full((int(room.sum()), 5), -7, dtype=np.int64)
    native.edit_counts(ids, hyp_starts, hyp_lengths, ids, ref_starts, ref_lengths, counts,
                       chunks, chunk_starts, 0, rows)
    plain = np.zeros((rows, 5), dtype=np.int64)
    native.edit_counts(ids, hyp_starts, hyp_lengths, ids, ref_starts, ref_lengths, plain,
                       None, None, 0, rows)
    for b in range(rows):
        hyp = ids[hyp_starts[b]: hyp_starts[b] + hyp_lengths[b]].tolist()
        ref = ids[ref_starts[b]: ref_starts[b] + ref_lengths[b]].tolist()
        want = pair_opcodes(ref, hyp)
        assert chunks[chunk_starts[b]: chunk_starts[b] + counts[b, 4]].tolist() == [
            list(op) for op in want]
        tally = [0, 0, 0, 0]
        for tag, i1, i2, j1, j2 in want:
            tally[tag] += j2 - j1 if tag == 3 else i2 - i1
        assert counts[b, :4].tolist() == tally == plain[b, :4].tolist()


@FUZZ
@given(data=st.data())
def test_edit_counts_refuses_what_does_not_fit(native, data):
    size = data.draw(st.integers(0, 20))
    rows = data.draw(st.integers(0, 3))
    ids = np.zeros(size, dtype=np.int64)
    big = st.integers(-(2**63), 2**63 - 1)
    small = st.integers(-3, size + 3)
    def column(n: int) -> np.ndarray:
        return np.array(data.draw(st.lists(st.one_of(small, big), min_size=n, max_size=n)),
                        dtype=np.int64)
    counts_rows = data.draw(st.sampled_from([rows, rows + 1]))
    chunk_rows = data.draw(st.integers(0, 30))
    args = [ids, column(rows), column(data.draw(st.sampled_from([rows, rows + 1]))), ids,
            column(rows), column(rows), np.zeros((counts_rows, 5), dtype=np.int64),
            np.zeros((chunk_rows, 5), dtype=np.int64), column(rows),
            data.draw(st.integers(-1, rows + 1)), data.draw(st.integers(-1, rows + 1))]
    if data.draw(st.booleans()):
        args[7] = args[8] = None
    with contextlib.suppress(*REFUSALS):
        native.edit_counts(*args)


def test_edit_counts_argument_types(native):
    ids = np.zeros(3, dtype=np.int64)
    one = np.zeros(1, dtype=np.int64)
    counts = np.zeros((1, 5), dtype=np.int64)
    with pytest.raises(TypeError):
        native.edit_counts(ids, one, one, ids, one, one, counts, None, None, 0)
    with pytest.raises(TypeError):
        native.edit_counts(ids.astype(np.int32), one, one, ids, one, one, counts, None, None,
                           0, 1)
    with pytest.raises(ValueError):
        native.edit_counts(ids, one, one, ids, one, one, np.zeros((1, 4), dtype=np.int64),
                           None, None, 0, 1)
    with pytest.raises(ValueError, match="outside"):
        native.edit_counts(ids, one, one + 5, ids, one, one, counts, None, None, 0, 1)


#: words of every str kind (1, 2 and 4 bytes a code point), and whitespace of each sort:
#: a space, a tab and newline (a lone one stays in jiwer's words), U+3000, U+001C, U+0085
PIECES = st.sampled_from(["a", "b", "ab", "é", "東", "京都", "😀", "a😀", " ", "  ", "\t",
                          "\n", "\u3000", "\x1c", "\x85", "\xa0", " \t", "x"])
LINES = st.lists(PIECES, max_size=40).map("".join)


@FUZZ
@given(pairs=st.lists(st.tuples(LINES, LINES), max_size=6), jiwer_split=st.booleans())
def test_line_edit_counts_are_the_word_counts(native, pairs, jiwer_split):
    """Text split in C and compared by hash confirmed by content: the counts of the words
    split in Python (jiwer's default split, or ``str.split()``) and numbered by a dict."""
    from bleusuite.scores.wer.counts import default_words
    from bleusuite.scores.wer.edits import edit_counts

    hyps = tuple(h for h, _ in pairs)
    refs = tuple(r for _, r in pairs)
    counts = np.zeros((len(pairs), 5), dtype=np.int64)
    native.line_edit_counts(hyps, refs, jiwer_split, counts, 0, len(pairs))
    split = default_words if jiwer_split else str.split
    for row, (hyp, ref) in enumerate(pairs):
        vocabulary: dict[str, int] = {}
        h = [vocabulary.setdefault(w, len(vocabulary)) for w in split(hyp)]
        r = [vocabulary.setdefault(w, len(vocabulary)) for w in split(ref)]
        want, _ = edit_counts(np.array(h, dtype=np.int64), np.array([0]),
                              np.array([len(h)]), np.array(r, dtype=np.int64), np.array([0]),
                              np.array([len(r)]))
        assert counts[row, :4].tolist() == want[0, :4].tolist(), (hyp, ref)


def test_line_edit_counts_refuses_what_it_cannot_read(native):
    counts = np.zeros((1, 5), dtype=np.int64)
    with pytest.raises(TypeError, match="hypotheses must be a tuple of str"):
        native.line_edit_counts(["a"], ("a",), True, counts, 0, 1)
    with pytest.raises(TypeError, match=r"references\[0\] must be a str, not int"):
        native.line_edit_counts(("a",), (1,), True, counts, 0, 1)
    with pytest.raises(ValueError, match="references has 2 items where hypotheses has 1"):
        native.line_edit_counts(("a",), ("a", "b"), True, counts, 0, 1)
    with pytest.raises(ValueError, match="begin and end"):
        native.line_edit_counts(("a",), ("a",), True, counts, 0, 2)
    with pytest.raises(ValueError, match="counts"):
        native.line_edit_counts(("a",), ("a",), True, np.zeros((2, 5), dtype=np.int64), 0, 1)
    # words of one str kind and of another compare by code points
    native.line_edit_counts(("a 東",), ("a 東 b",), False, counts, 0, 1)
    assert counts[0, :4].tolist() == [2, 0, 1, 0]
    native.line_edit_counts(("a b",), ("a c",), False, counts, 0, 1)
    assert counts[0, :4].tolist() == [1, 1, 0, 0]


def test_whitespace_is_pythons_for_every_code_point(native):
    """``line_edit_counts`` splits at exactly the characters of ``str.isspace`` (its list is
    written out in C): ``"a" + c + "b"`` is two words where ``c`` is whitespace, one
    otherwise, for every code point but the surrogates."""
    points = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    lines = tuple(f"a{chr(c)}{chr(c)}b" for c in points)  # a run of two: both splits agree
    counts = np.zeros((len(lines), 5), dtype=np.int64)
    native.line_edit_counts(lines, tuple("a b" for _ in lines), False, counts, 0, len(lines))
    ref_words = counts[:, :3].sum(axis=1)  # hits + substitutions + deletions
    hyp_words = counts[:, 0] + counts[:, 1] + counts[:, 3]
    got = [c for c, words in zip(points, hyp_words.tolist(), strict=True) if words == 2]
    assert got == [c for c in points if chr(c).isspace()]
    assert (ref_words == 2).all()
