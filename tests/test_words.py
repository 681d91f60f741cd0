"""The compiled word numbering (``bleusuite._words``) against plain Python.

``WordIndex.number`` must split every line as ``str.split()`` does (a line holding a line
end is one unit, ``line.rstrip()``) and give every word the id of its first appearance,
across calls: the ids of :class:`bleusuite.text._Index`. Where the compiled part is not
built these tests are skipped, unless ``BLEUSUITE_NATIVE=1`` (set by tox) says it must be
there: then they fail.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleusuite import text

# every character str.split() splits on, in this interpreter's Unicode
WHITESPACE = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
# characters of every width (1, 2 and 4 bytes per character in a str)
LETTERS = ["a", "b", "A", "é", "ÿ", "ж", "Ж", "東", "😀", "𝔸", "-", ".", "\x00", "\x7f"]


@pytest.fixture(scope="module")
def words_module():
    module = text._words
    if module is None:
        if text.os.environ.get("BLEUSUITE_NATIVE") == "1":
            pytest.fail("BLEUSUITE_NATIVE=1 but bleusuite._words is not built")
        pytest.skip("bleusuite._words is not built (no C compiler at install)")
    return module


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
def test_the_setting_chooses_the_numbering(monkeypatch, setting):
    monkeypatch.setenv("BLEUSUITE_NATIVE", setting)
    if setting == "1" and text._words is None:
        with pytest.raises(ImportError, match="BLEUSUITE_NATIVE=1"):
            text.compiled_words()
        return
    assert text.compiled_words() is (text._words is not None and setting != "0")
    for name in ("13a", "none", "char", "intl", "zh"):  # word-local ones only
        tokenizer = text.load_tokenizer(name)
        encoder = text._UnitEncoder(tokenizer, lowercase=False)
        assert (encoder.words is not None) is (text.compiled_words() and tokenizer.word_local)


def test_without_the_compiled_part(monkeypatch):
    """An install without a C compiler: Python numbers the words; BLEUSUITE_NATIVE=1 asks
    for what is missing and says so."""
    monkeypatch.setattr(text, "_words", None)
    monkeypatch.delenv("BLEUSUITE_NATIVE", raising=False)
    assert text.compiled_words() is False
    ids = text.encode_texts([["a b", "b c"]], text.load_tokenizer("13a"), False)
    assert ids.ids.tolist() == [0, 1, 1, 2]
    monkeypatch.setenv("BLEUSUITE_NATIVE", "1")
    with pytest.raises(ImportError, match="compiled part"):
        text.compiled_words()


def test_a_bad_setting_is_named(monkeypatch):
    monkeypatch.setenv("BLEUSUITE_NATIVE", "yes")
    with pytest.raises(ValueError, match="BLEUSUITE_NATIVE must be 0 or 1"):
        text.compiled_words()
