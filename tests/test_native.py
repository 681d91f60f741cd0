"""bleusuite's compiled part (``bleusuite._native``) against plain Python and NumPy.

``WordIndex.number`` must split every line as ``str.split()`` does (a line holding a line
end is one unit, ``line.rstrip()``) and give every word the id of its first appearance,
across calls: the ids of :class:`bleusuite.text._Index`. ``clipped_matches`` must give the
clipped counts of the NumPy pipeline (``count_matches``). Where the compiled part is not
built these tests are skipped, unless ``BLEUSUITE_NATIVE=1`` (set by tox) says it must be
there: then they fail.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from compiled_part import require_compiled
from hypothesis import given, settings
from hypothesis import strategies as st

from bleusuite import native, text

# every character str.split() splits on, in this interpreter's Unicode
WHITESPACE = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
# characters of every width (1, 2 and 4 bytes per character in a str)
LETTERS = ["a", "b", "A", "é", "ÿ", "ж", "Ж", "東", "😀", "𝔸", "-", ".", "\x00", "\x7f"]


@pytest.fixture(scope="module")
def words_module():
    return require_compiled()


def _python_numbering(calls: list[list[str]]) -> tuple[list[tuple[list[int], list[int]]],
                                                         list[str]]:
    index = text._Index()
    out = []
    for lines in calls:
        units = [[line.rstrip()] if "\n" in line else line.split() for line in lines]
        ids = [index[unit] for line in units for unit in line]
        out.append((ids, [len(line) for line in units]))
    return out, index.keys_in_order


def _compiled_numbering(module, calls: list[list[str]]) -> tuple[
        list[tuple[list[int], list[int]]], list[str]]:
    index = module.WordIndex()
    out = []
    for lines in calls:
        ids, counts = index.number(lines)
        out.append((np.frombuffer(ids, dtype=np.int64).tolist(),
                    np.frombuffer(counts, dtype=np.int64).tolist()))
    return out, list(index.words)


lines_strategy = st.lists(
    st.lists(st.sampled_from([*LETTERS, *WHITESPACE, "\n", "ab", "  ", "ab ab"]),
             max_size=24).map("".join),
    max_size=10)


@settings(max_examples=300, deadline=None)
@given(calls=st.lists(lines_strategy, min_size=1, max_size=4))
def test_numbering_is_pythons(words_module, calls):
    """Random lines of characters of every width and every whitespace character, in several
    calls on one index: the same units, counts, ids and words as plain Python."""
    assert _compiled_numbering(words_module, calls) == _python_numbering(calls)


def test_every_whitespace_character_splits(words_module):
    """One line holding every code point but the surrogates, each between two letters:
    split where ``str.split()`` splits, nowhere else."""
    line = "x".join(chr(c) for c in range(1, sys.maxunicode + 1)
                    if not 0xD800 <= c <= 0xDFFF and c != ord("\n"))
    assert _compiled_numbering(words_module, [[line]]) == _python_numbering([[line]])
    assert len(line.split()) == len(WHITESPACE)  # every one but "\n" is in the line


def test_a_word_is_one_word_in_lines_of_any_width(words_module):
    """``str`` keeps a line in 1, 2 or 4 bytes per character, by its widest character: the
    same word read from lines of different widths gets one id."""
    calls = [["abc é", "abc ж", "abc 😀", "é ж 😀 abc"], ["ж\u3000abc\u2028é"]]
    result = _compiled_numbering(words_module, calls)
    assert result == _python_numbering(calls)
    assert result[1] == ["abc", "é", "ж", "😀"]


def test_many_distinct_words(words_module):
    """The table grows (200,000 distinct words, each seen three times)."""
    rng = np.random.default_rng(5)
    words = [f"w{k}" for k in rng.permutation(200_000)]
    lines = [" ".join(words[k : k + 50]) for k in range(0, len(words), 50)]
    calls = [lines, lines[::-1], [line.upper().lower() for line in lines]]
    compiled = _compiled_numbering(words_module, calls)
    assert compiled == _python_numbering(calls)
    assert len(compiled[1]) == 200_000


def test_empty_input_and_blank_lines(words_module):
    calls = [[], [""], ["", "  \t", "\n", " \n ", "a\n"]]
    assert _compiled_numbering(words_module, calls) == _python_numbering(calls)


def test_bad_input_is_refused_by_name(words_module):
    index = words_module.WordIndex()
    with pytest.raises(TypeError, match="lines must be a list of str"):
        index.number("a b")
    with pytest.raises(TypeError, match=r"lines\[1\] must be a str, not int"):
        index.number(["a", 3])
    with pytest.raises(TypeError):
        words_module.WordIndex(1)
    assert list(index.words) == ["a"]  # the words before the bad line stay numbered


def test_words_stay_alive_and_lines_are_not_held(words_module):
    """The words are new strings owned by the index; the lines are not kept."""
    line = "".join(["alpha beta ", "gamma"])
    before = sys.getrefcount(line)
    index = words_module.WordIndex()
    for _ in range(100):
        index.number([line, line])
    assert sys.getrefcount(line) == before
    words = index.words
    del index
    assert words == ["alpha", "beta", "gamma"]


@pytest.mark.parametrize("setting", ["", "0", "1"])
def test_the_setting_chooses_the_compiled_part(monkeypatch, setting):
    monkeypatch.setenv("BLEUSUITE_NATIVE", setting)
    if setting == "1" and native._native is None:
        with pytest.raises(ImportError, match="BLEUSUITE_NATIVE=1"):
            native.compiled()
        return
    assert native.compiled() is (native._native is not None and setting != "0")
    assert (native.module() is not None) is native.compiled()
    for name in ("13a", "none", "char", "intl", "zh"):  # word-local ones only
        tokenizer = text.load_tokenizer(name)
        encoder = text._UnitEncoder(tokenizer, lowercase=False)
        assert (encoder.words is not None) is (native.compiled() and tokenizer.word_local)


def test_without_the_compiled_part(monkeypatch):
    """An install without a C compiler: Python numbers the words; BLEUSUITE_NATIVE=1 asks
    for what is missing and says so."""
    monkeypatch.setattr(native, "_native", None)
    monkeypatch.delenv("BLEUSUITE_NATIVE", raising=False)
    assert native.compiled() is False and native.module() is None
    ids = text.encode_texts([["a b", "b c"]], text.load_tokenizer("13a"), False)
    assert ids.ids.tolist() == [0, 1, 1, 2]
    monkeypatch.setenv("BLEUSUITE_NATIVE", "1")
    with pytest.raises(ImportError, match="compiled part"):
        native.compiled()


def test_a_bad_setting_is_named(monkeypatch):
    monkeypatch.setenv("BLEUSUITE_NATIVE", "yes")
    with pytest.raises(ValueError, match="BLEUSUITE_NATIVE must be 0 or 1"):
        native.compiled()


# ------------------------------------------------------------------- clipped matches


def _ragged(streams: list[list[list[int]]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Flat ids, starts and lengths ``(S, B)`` of streams of lines of token ids, the lines
    laid out in a shuffled order (starts need not follow the streams)."""
    lines = [(s, b) for s, stream in enumerate(streams) for b in range(len(stream))]
    order = np.random.default_rng(len(lines)).permutation(len(lines))
    ids: list[int] = []
    starts = np.zeros((len(streams), len(streams[0])), dtype=np.int64)
    lengths = np.zeros_like(starts)
    for k in order:
        s, b = lines[k]
        starts[s, b], lengths[s, b] = len(ids), len(streams[s][b])
        ids.extend(streams[s][b])
    return np.array(ids, dtype=np.int64), starts, lengths


def _numpy_matches(streams: list[list[list[int]]], systems: int,
                   max_order: int) -> tuple[np.ndarray, np.ndarray]:
    """``(B, S, N)`` clipped matches and ``(B, S, R, N)`` matches per reference of each
    system (the first ``systems`` streams) against the references (the others), by the
    NumPy pipeline."""
    from bleusuite.inputs import normalize_batch
    from bleusuite.ngrams import count_matches

    width = max(1, *(len(line) for stream in streams for line in stream))

    def padded(lines: list[list[int]]) -> np.ndarray:
        return np.array([line + [-1] * (width - len(line)) for line in lines], np.int64)

    refs = np.stack([padded(stream) for stream in streams[systems:]], axis=1)
    clipped, per_reference = [], []
    for stream in streams[:systems]:
        counts = count_matches(normalize_batch(padded(stream), refs, eos_id=-1), max_order,
                               per_reference=True)
        assert counts.per_reference is not None
        clipped.append(np.asarray(counts.clipped))
        per_reference.append(np.asarray(counts.per_reference))
    return np.stack(clipped, axis=1), np.stack(per_reference, axis=1)


def _compiled_matches(module, streams: list[list[list[int]]], systems: int,
                      max_order: int) -> tuple[np.ndarray, np.ndarray]:
    ids, starts, lengths = _ragged(streams)
    clipped, per_reference = module.clipped_matches(ids, starts, lengths, systems, max_order)
    lines, references = len(streams[0]), len(streams) - systems
    return (np.frombuffer(clipped, dtype=np.int64).reshape(lines, systems, max_order),
            np.frombuffer(per_reference, dtype=np.int64).reshape(lines, systems, references,
                                                                 max_order))


def _same(got: tuple[np.ndarray, np.ndarray], expected: tuple[np.ndarray, np.ndarray]) -> None:
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])


def _line(draw, vocabulary: list[int], max_size: int) -> list[int]:
    return draw(st.lists(st.sampled_from(vocabulary), max_size=max_size))


@st.composite
def _streams(draw):
    """Systems and 1-3 references: lines from tiny vocabularies (many repeated n-grams),
    empty lines, lines shorter than the order, huge and negative ids, systems that copy or
    shift a reference or repeat it. Returns the streams and the number of systems."""
    vocabulary = draw(st.sampled_from([[1], [1, 2], [0, 5, 9], [2**62, -(2**62), 7, 2**63 - 1],
                                       list(range(40))]))
    num_lines = draw(st.integers(1, 6))
    num_systems = draw(st.integers(1, 4))
    references = [[_line(draw, vocabulary, 14) for _ in range(num_lines)]
                  for _ in range(draw(st.integers(1, 3)))]
    systems = []
    for _ in range(num_systems):
        lines = []
        for b in range(num_lines):
            ref = references[draw(st.integers(0, len(references) - 1))][b]
            how = draw(st.sampled_from(["new", "copy", "shift", "repeat"]))
            if how == "copy":
                lines.append(list(ref))
            elif how == "shift":
                lines.append(ref[1:] + ref[:1])
            elif how == "repeat":
                lines.append(ref + ref)
            else:
                lines.append(_line(draw, vocabulary, 14))
        systems.append(lines)
    return [*systems, *references], num_systems


@settings(max_examples=300, deadline=None)
@given(case=_streams(), max_order=st.integers(1, 7))
def test_clipped_matches_are_the_numpy_pipelines(words_module, case, max_order):
    """BLEU's clipped matches (the largest count in one reference) and the matches per
    reference (GLEU's), as the NumPy pipeline counts them."""
    streams, systems = case
    _same(_compiled_matches(words_module, streams, systems, max_order),
          _numpy_matches(streams, systems, max_order))


def test_clipped_matches_by_hand(words_module):
    streams = [[[1, 1, 1, 2], [], [3, 4]],   # a system
               [[1, 2, 1], [5], [3, 4]],      # another
               [[1, 1, 2, 1], [5], []],       # a reference
               [[1, 1, 1], [], []]]           # another reference
    clipped, per_reference = _compiled_matches(words_module, streams, 2, 3)
    # line 0, first system against the first reference: unigrams 1: min(3, 3), 2: min(1, 1);
    # bigrams (1,1): min(2, 1), (1,2): 1; trigrams (1,1,2): 1. Against the second: 1: 3;
    # (1,1): 2; (1,1,1): 1. Clipped by the largest count in one reference: 1: 3, 2: 1;
    # (1,1): min(2, 2), (1,2): 1; (1,1,1), (1,1,2)
    assert per_reference[0, 0].tolist() == [[4, 2, 1], [3, 2, 1]]
    assert clipped[0, 0].tolist() == [4, 3, 2]
    # second system, [1, 2, 1]: first reference 1: min(2, 3), 2: 1; (1,2), (2,1); (1,2,1)
    assert per_reference[0, 1].tolist() == [[3, 2, 1], [2, 0, 0]]
    assert clipped[0, 1].tolist() == [3, 2, 1]
    assert per_reference[1].tolist() == [[[0, 0, 0], [0, 0, 0]], [[1, 0, 0], [0, 0, 0]]]
    assert clipped[2].tolist() == [[0, 0, 0], [0, 0, 0]]  # empty reference lines
    _same((clipped, per_reference), _numpy_matches(streams, 2, 3))


def test_many_lines_and_long_lines(words_module):
    """The table grows for long reference lines and is reused across many lines."""
    rng = np.random.default_rng(11)
    reference = [rng.integers(0, 30, size=int(n)).tolist()
                 for n in rng.integers(0, 400, size=60)]
    other = [line[::2] for line in reference]
    systems = [[line[::-1] if k % 2 else line[: len(line) // 2] + line for line in reference]
               for k in range(3)]
    for streams in ([*systems, reference], [*systems, reference, other]):
        _same(_compiled_matches(words_module, streams, 3, 4), _numpy_matches(streams, 3, 4))


def test_clipped_matches_refuses_bad_input_by_name(words_module):
    ids, starts, lengths = _ragged([[[1, 2], [3]], [[1], [3]]])
    count = words_module.clipped_matches
    with pytest.raises(TypeError, match="ids must be a C-contiguous int64 array"):
        count(ids.astype(np.int32), starts, lengths, 1, 4)
    with pytest.raises(TypeError, match="starts must be a C-contiguous int64 array"):
        count(ids, starts.T, lengths, 1, 4)  # a view, not contiguous
    with pytest.raises(TypeError, match="ids must be a C-contiguous int64 array"):
        count([1, 2], starts, lengths, 1, 4)
    with pytest.raises(ValueError, match="lengths must hold 4 values"):
        count(ids, starts, lengths[:1], 1, 4)
    with pytest.raises(ValueError, match="max_order must be at least 1"):
        count(ids, starts, lengths, 1, 0)
    with pytest.raises(ValueError, match="systems must be between 1 and"):
        count(ids, starts, lengths, 2, 4)  # no stream left for a reference
    with pytest.raises(ValueError, match="systems must be between 1 and"):
        count(ids, starts, lengths, 0, 4)
    with pytest.raises(ValueError, match="outside ids"):
        count(ids, starts, lengths + 5, 1, 4)
    with pytest.raises(ValueError, match=r"starts must be a \(streams, lines\) array"):
        count(ids, starts.ravel(), lengths, 1, 4)
    with pytest.raises(TypeError, match="takes 5 arguments"):
        count(ids, starts, lengths, 4)
