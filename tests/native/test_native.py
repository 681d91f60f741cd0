"""bleusuite's compiled part (``bleusuite._native``, ``bleusuite/csrc/``) against its twins.

* ``Numbering`` against :class:`bleusuite.text.PythonNumbering`: the same ids, tokens per
  line and tokens, call after call on one object, for lines of characters of every width and
  every Unicode whitespace character, without a tokenizer, with bleusuite's ``13a`` and
  ``char`` and with an odd callable (several tokens for a word, or none); lines holding a
  line end; a line of every code point; 200,000 distinct words. And what a caller may do to
  it: bad input (refused by name, the object still usable), the ``tokens`` list (a copy:
  changing it changes nothing), a ``tokenize`` that calls back into the object or raises.
* ``count_matches`` against the NumPy pipeline (:func:`~bleusuite.counting.compact.
  count_matches_compact`) on generated rows: 1-4 references, orders 1-9, tiny vocabularies,
  empty sentences, absent references, ids at the ends of int64, copies, shifts and repeats
  of a reference, long lines; counts per reference or not, sub-ranges of rows. And hostile
  arguments, each refused with an error that names the argument, outputs untouched.
* ``BLEUSUITE_NATIVE`` and the install without the compiled part.

Where the compiled part is not built these tests are skipped, unless ``BLEUSUITE_NATIVE=1``
(set by tox) says it must be there: then they fail.
"""

from __future__ import annotations

import gc
import math
import os
import subprocess
import sys
import textwrap
import threading
import weakref
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from cases import brute_force
from compiled_part import require_compiled
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bleusuite import backends, native, text
from bleusuite.counting import counting_strategy, kernel
from bleusuite.counting.compact import count_matches_compact
from bleusuite.inputs import Batch
from bleusuite.text.tokenizers import Tokenizer13a, load_tokenizer

# every character str.split() splits on, in this interpreter's Unicode
WHITESPACE = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
# characters of every width (1, 2 and 4 bytes per character in a str)
LETTERS = ["a", "b", "A", "é", "ÿ", "ж", "Ж", "東", "😀", "𝔸", "-", ".", ",", "\x00", "\x7f",
           "&", "'", "ß", "İ"]


@pytest.fixture(scope="module")
def compiled() -> ModuleType:
    return require_compiled()


def _odd(unit: str) -> str:
    """A tokenizer of no particular kind: no token, one, or several joined by odd spaces."""
    if len(unit) % 3 == 0:
        return " \u3000 " if unit else ""
    if len(unit) % 3 == 1:
        return f"{unit}\u2028{unit[::-1]}\t{unit[:1]} {unit}"
    return unit.upper()


_13A = load_tokenizer("13a").tokenize

TOKENIZE: dict[str, Callable[[str], str] | None] = {
    "none": None,
    "13a": _13A,  # the compiled numbering's own rules (rules="13a")
    "13a, called": lambda unit: _13A(unit),  # the same rules called as Python
    "char": load_tokenizer("char").tokenize,
    "odd": _odd,
}

Numbered = tuple[list[tuple[list[int], list[int]]], list[str], int]


def _as_lists(ids: Any, counts: Any) -> tuple[list[int], list[int]]:
    """``number``'s result (bytes of int64, or NumPy arrays) as lists."""
    if isinstance(ids, bytes):
        ids, counts = np.frombuffer(ids, dtype=np.int64), np.frombuffer(counts, dtype=np.int64)
    return ids.tolist(), counts.tolist()


def _numbered(numbering: Any, calls: list[list[str]]) -> Numbered:
    """Each call's ids and tokens per line, then the tokens and their number."""
    out = [_as_lists(*numbering.number(lines)) for lines in calls]
    return out, numbering.tokens, len(numbering)


def _compiled(module: ModuleType, tokenize: Callable[[str], str] | None) -> Any:
    """The compiled numbering for ``tokenize``: its built-in rules for bleusuite's 13a (as
    :class:`bleusuite.text.TextEncoder` makes it), else ``tokenize`` called."""
    if isinstance(tokenize, Tokenizer13a):
        return module.Numbering(rules="13a")
    return module.Numbering(tokenize)


def _both(module: ModuleType, calls: list[list[str]],
          tokenize: Callable[[str], str] | None) -> tuple[Numbered, Numbered]:
    return (_numbered(_compiled(module, tokenize), calls),
            _numbered(text.PythonNumbering(tokenize), calls))


#: pieces of text where 13a's rules act: every ASCII symbol, entities (whole, nested and
#: cut), "<skipped>", digits around periods, commas and dashes, line ends, other scripts
PIECES_13A = [*"aZ07.,-'\"$&;<>/\\@[`{~_^|+(*:?!#%=)]}", "é", "ж", "😀", "\u3000", " ", "\t",
              "\n", "-\n", "&quot;", "&amp;", "&lt;", "&gt;", "&amp;quot;", "&quot", "<skipped>",
              "<skip", "3.5", "1,000", "U.S.", "e-mail", "1-2", ".5", "a.", ",b"]


@settings(max_examples=300, deadline=None)
@given(calls=st.lists(st.lists(st.lists(st.sampled_from(PIECES_13A), max_size=20).map("".join),
                               max_size=8), min_size=1, max_size=3))
@example(calls=[["It costs $3.50, or &quot;less&quot;.", "a-\nb <skipped> 1-2 U.S. ,. .,"]])
def test_the_built_in_13a_is_sacrebleus(compiled, calls):
    """``Numbering(rules="13a")``, call after call: each line's tokens are those of
    sacrebleu's own ``Tokenizer13a`` on the line (``line.rstrip()``), and the ids those of
    the Python twin calling bleusuite's Python 13a."""
    sacrebleu_13a = pytest.importorskip("sacrebleu.tokenizers.tokenizer_13a").Tokenizer13a()
    numbering = compiled.Numbering(rules="13a")
    for lines in calls:
        ids, counts = _as_lists(*numbering.number(lines))
        tokens, ends = numbering.tokens, np.cumsum([0, *counts])
        got = [[tokens[i] for i in ids[ends[k]:ends[k + 1]]] for k in range(len(lines))]
        assert got == [sacrebleu_13a(line.rstrip()).split() for line in lines]
    ours, python = _both(compiled, calls, _13A)
    assert ours == python == _numbered(compiled.Numbering(TOKENIZE["13a, called"]), calls)


lines_strategy = st.lists(
    st.lists(st.sampled_from([*LETTERS, *WHITESPACE, "\n", "ab", "  ", "ab ab", "a.b"]),
             max_size=24).map("".join),
    max_size=10)


@pytest.mark.parametrize("tokenize", list(TOKENIZE))
@settings(max_examples=150, deadline=None)
@given(calls=st.lists(lines_strategy, min_size=1, max_size=4))
@example(calls=[[]])
@example(calls=[[""], ["", " \t", "\n", " \n ", "a\n", "\n\n"]])
def test_numbering_is_pythons(compiled, tokenize, calls):
    """Random lines of characters of every width and every whitespace character, in several
    calls on one object: the same ids, tokens per line and tokens as plain Python."""
    ours, python = _both(compiled, calls, TOKENIZE[tokenize])
    assert ours == python


def test_a_word_is_one_word_in_lines_of_any_width(compiled):
    """``str`` keeps a line in 1, 2 or 4 bytes per character, by its widest character: the
    same word read from lines of different widths gets one id (as a unit and as a token)."""
    calls = [["abc é", "abc ж", "abc 😀", "é ж 😀 abc"], ["ж\u3000abc\u2028é"]]
    for tokenize in (None, str.upper, lambda unit: f"{unit} é abc"):
        ours, python = _both(compiled, calls, tokenize)
        assert ours == python
    ours, _ = _both(compiled, calls, None)
    assert ours[1] == ["abc", "é", "ж", "😀"]


def test_subclasses_of_list_and_str_are_lines_and_tokens(compiled):
    class Lines(list[str]):
        pass

    class Text(str):
        pass

    lines = Lines([Text("a b"), "b c", Text("é\nx")])
    for tokenize in (None, lambda unit: Text(unit.upper())):
        ours = _numbered(compiled.Numbering(tokenize), [lines, lines])
        assert ours == _numbered(text.PythonNumbering(tokenize), [lines, lines])
        assert all(type(token) is str for token in ours[1])


def _recorder(seen: list[str]) -> Callable[[str], str]:
    """A tokenizer that keeps each unit (as its own token) and records it."""

    def tokenize(unit: str) -> str:
        seen.append(unit)
        return unit

    return tokenize


def test_a_line_holding_a_line_end_is_one_unit(compiled):
    """With ``tokenize``, a line that holds ``"\\n"`` is tokenised whole (``line.rstrip()``:
    13a joins the words around a line end); without it, it is split like any line."""
    lines = ["a-\nb c", "a-\nb c \t", "x y", "\n", " x\n", "y\n "]
    for numbering in (compiled.Numbering, text.PythonNumbering):
        seen: list[str] = []
        numbered = numbering(_recorder(seen))
        ids, counts = _as_lists(*numbered.number(lines))
        # "y\n " is the unit "y", the word of "x y": one unit, tokenised once
        assert seen == ["a-\nb c", "x", "y", "", " x"]
        assert (ids, counts) == ([0, 1, 2, 0, 1, 2, 3, 4, 3, 4], [3, 3, 2, 0, 1, 1])
        assert numbered.tokens == ["a-", "b", "c", "x", "y"]
    ours, python = _both(compiled, [lines], None)
    assert ours == python and ours[0][0][1] == [3, 3, 2, 0, 1, 1]
    ours, python = _both(compiled, [lines, lines[::-1]], load_tokenizer("13a").tokenize)
    assert ours == python
    assert "ab" in ours[1]  # 13a drops "-\n": the words around the line end are joined


@pytest.mark.parametrize("tokenize", [None, str.swapcase, "13a"])
def test_a_line_of_every_code_point(compiled, tokenize):
    """One line holding every code point but the surrogates, each between two letters: split
    where ``str.split()`` splits, nowhere else; with a tokenizer and a line end in it, the
    whole line is one unit."""
    if tokenize == "13a":
        tokenize = load_tokenizer("13a").tokenize
    line = "x".join(chr(c) for c in range(1, sys.maxunicode + 1)
                    if not 0xD800 <= c <= 0xDFFF and c != ord("\n"))
    ours, python = _both(compiled, [[line], [line + "\n" + line]], tokenize)
    assert ours == python
    assert len(line.split()) == len(WHITESPACE)  # every one but "\n" is in the line


@pytest.mark.parametrize("tokenize", [None, str.upper])
def test_many_distinct_words(compiled, tokenize):
    """The tables grow (200,000 distinct words, each seen three times)."""
    rng = np.random.default_rng(5)
    words = [f"w{k}" for k in rng.permutation(200_000)]
    lines = [" ".join(words[k : k + 50]) for k in range(0, len(words), 50)]
    calls = [lines, lines[::-1], [line.upper().lower() for line in lines]]
    ours, python = _both(compiled, calls, tokenize)
    assert ours == python
    assert ours[2] == 200_000


def test_bad_input_is_refused_by_name(compiled):
    """Each error names what was wrong; the units of the lines before a bad one stay
    numbered (as the Python twin numbers those lines), and the object goes on working."""
    numbering = compiled.Numbering()
    with pytest.raises(TypeError, match="lines must be a list of str, not str"):
        numbering.number("a b")
    with pytest.raises(TypeError, match="lines must be a list of str, not tuple"):
        numbering.number(("a", "b"))
    with pytest.raises(TypeError, match=r"lines\[1\] must be a str, not int"):
        numbering.number(["a", 3, "b"])
    with pytest.raises(TypeError, match=r"lines\[0\] must be a str, not bytes"):
        numbering.number([b"a"])
    assert numbering.tokens == ["a"]
    assert _as_lists(*numbering.number(["b a"])) == ([1, 0], [2])
    with pytest.raises(TypeError, match="tokenize must be a callable or None, not int"):
        compiled.Numbering(1)
    with pytest.raises(TypeError, match="tokenize must be a callable or None, not str"):
        compiled.Numbering(tokenize="13a")
    with pytest.raises(TypeError):
        compiled.Numbering(None, None)
    for returned in (3, b"a", None, ["a"]):
        numbering = compiled.Numbering(lambda unit, value=returned: value if unit == "bad"
                                       else unit)
        with pytest.raises(TypeError, match=f"tokenize must return a str, not "
                                            f"{type(returned).__name__}"):
            numbering.number(["good bad good"])
        twin = text.PythonNumbering(str)
        twin.number(["good"])
        assert _numbered(numbering, [["good", "bad2 good"]]) == \
            _numbered(twin, [["good", "bad2 good"]])


def test_an_uninitialised_numbering_is_refused(compiled):
    empty = compiled.Numbering.__new__(compiled.Numbering)
    with pytest.raises(ValueError, match="Numbering was not initialised"):
        empty.number(["a"])
    assert empty.tokens == [] and len(empty) == 0
    empty.__init__()
    assert _as_lists(*empty.number(["a"])) == ([0], [1])


def test_init_again_starts_afresh(compiled):
    numbering = compiled.Numbering()
    numbering.number(["a b c"])
    numbering.__init__(str.upper)
    assert len(numbering) == 0 and numbering.tokens == []
    assert _numbered(numbering, [["c b", "a"]]) == _numbered(text.PythonNumbering(str.upper),
                                                            [["c b", "a"]])


@pytest.mark.parametrize("tokenize", [None, str.upper])
def test_tokens_is_a_copy(compiled, tokenize):
    """Changing the list ``tokens`` returns changes nothing in the numbering, and never
    crashes (an accessor that handed out the object's own list let a caller free the
    strings it still used: a segmentation fault)."""
    numbering, twin = compiled.Numbering(tokenize), text.PythonNumbering(tokenize)
    lines = ["the cat sat", "on the mat", "é ж 😀"]
    assert _numbered(numbering, [lines]) == _numbered(twin, [lines])
    tokens = numbering.tokens
    assert tokens is not numbering.tokens and tokens == numbering.tokens
    tokens.clear()
    assert numbering.tokens == twin.tokens
    tokens = numbering.tokens
    tokens.append("dog")
    tokens[0] = "THE"
    del tokens[1]
    tokens.extend(object() for _ in range(100))
    assert numbering.tokens == twin.tokens
    del tokens
    gc.collect()
    more = ["the dog", "a cat on a mat", "dog dog"]
    assert _numbered(numbering, [more]) == _numbered(twin, [more])
    kept = numbering.tokens
    del numbering
    gc.collect()
    assert kept == twin.tokens  # the strings outlive the numbering


def test_lines_are_not_held_and_nothing_leaks(compiled):
    """The units are new strings owned by the numbering; the lines, the tokenizer's results
    and the tokenizer itself are not held beyond what they need."""
    line = "".join(["alpha beta ", "gamma"])
    result = "".join(["A ", "B"])

    def tokenize(unit: str) -> str:
        return result

    before = sys.getrefcount(line), sys.getrefcount(result), sys.getrefcount(tokenize)
    numbering = compiled.Numbering(tokenize)
    for _ in range(100):
        numbering.number([line, line])
        assert numbering.tokens == ["A", "B"]
    assert sys.getrefcount(line) == before[0]
    assert sys.getrefcount(result) == before[1]
    del numbering
    assert sys.getrefcount(tokenize) == before[2]


def test_a_cycle_through_the_tokenizer_is_collected(compiled):
    """A numbering whose tokenizer holds it (a bound method of its owner) is garbage
    collected."""

    class Owner:
        def __init__(self) -> None:
            self.numbering = compiled.Numbering(self.tokenize)

        def tokenize(self, unit: str) -> str:
            return unit

    owner = Owner()
    owner.numbering.number(["a b"])
    alive = weakref.ref(owner)
    del owner
    gc.collect()
    assert alive() is None


def test_tokenize_cannot_reenter_the_numbering(compiled):
    """A tokenizer that calls ``number`` (or ``__init__``) on the numbering that calls it
    gets a RuntimeError; reading ``tokens`` and ``len`` is allowed; the numbering goes on
    working."""
    seen: list[Any] = []

    def tokenize(unit: str) -> str:
        for call in (lambda: numbering.number(["x"]), lambda: numbering.__init__()):
            try:
                call()
            except RuntimeError as error:
                seen.append(str(error))
        seen.append((len(numbering), list(numbering.tokens)))
        return unit.upper()

    numbering = compiled.Numbering(tokenize)
    assert _as_lists(*numbering.number(["a b a"])) == ([0, 1, 0], [3])
    assert seen == ["Numbering.number() is already running", "Numbering.number() is running",
                    (0, []), "Numbering.number() is already running",
                    "Numbering.number() is running", (1, ["A"])]

    def reenters(unit: str) -> str:
        return " ".join(map(str, numbering.number([unit])))

    numbering = compiled.Numbering(reenters)
    with pytest.raises(RuntimeError, match="already running"):
        numbering.number(["a b"])
    numbering.__init__(str.upper)
    assert _numbered(numbering, [["b a"]]) == _numbered(text.PythonNumbering(str.upper),
                                                        [["b a"]])


def test_tokenize_may_change_the_list_being_numbered(compiled):
    """A tokenizer that empties or extends the list of lines being numbered: the lines are
    read one at a time, so it ends early or goes on, without a crash."""
    lines = ["a b", "c d", "e f"]

    def clearing(unit: str) -> str:
        lines.clear()
        return unit

    ids, counts = _as_lists(*compiled.Numbering(clearing).number(lines))
    assert counts == [2] and ids == [0, 1]
    lines = ["a b", "c d"]

    def growing(unit: str) -> str:
        if len(lines) < 6:
            lines.append(unit * 2)
        return unit

    ids, counts = _as_lists(*compiled.Numbering(growing).number(lines))
    assert len(counts) == 6 and ids[:4] == [0, 1, 2, 3]


def _units(line: str, tokenize: bool) -> list[str]:
    return [line.rstrip()] if tokenize and "\n" in line else line.split()


@settings(max_examples=150, deadline=None)
@given(before=st.lists(lines_strategy, max_size=3), failing=lines_strategy,
       after=st.lists(lines_strategy, min_size=1, max_size=3),
       inner=st.sampled_from(["13a", "char", "odd"]), data=st.data())
def test_a_tokenize_that_raises_leaves_the_numbering_consistent(compiled, before, failing,
                                                                after, inner, data):
    """``tokenize`` raises on a unit that holds ``BOOM``: the call fails, and the numbering
    is then the Python twin's after the calls before and the units that came before the
    failing one (each numbered once, in order). Later calls (``BOOM`` tokenised this time)
    give the twin's ids and tokens."""
    tokenize_inner = TOKENIZE[inner]
    assert tokenize_inner is not None
    armed = [True]

    def tokenize(unit: str) -> str:
        if armed[0] and "BOOM" in unit:
            raise KeyError(unit)
        return tokenize_inner(unit)

    where = data.draw(st.integers(0, len(failing)))
    failing = [*failing[:where], data.draw(st.sampled_from(["BOOM", "a BOOM b", "x\nBOOM "])),
               *failing[where:]]
    if data.draw(st.booleans()):
        after = [[*lines, "BOOM"] for lines in after]
    numbering = compiled.Numbering(tokenize)
    twin = text.PythonNumbering(tokenize)
    for lines in before:
        assert _as_lists(*numbering.number(lines)) == _as_lists(*twin.number(lines))
    with pytest.raises(KeyError):
        numbering.number(failing)
    prefix: list[str] = []  # the failing call's units before the one that fails, as lines
    for line in failing:
        units = _units(line, True)
        failed = [k for k, unit in enumerate(units) if "BOOM" in unit]
        # a line that holds "\n" is its own unit; a word alone on a line is that word
        prefix += [line] if "\n" in line and not failed else units[: failed[0] if failed
                                                                    else len(units)]
        if failed:
            break
    twin.number(prefix)
    assert numbering.tokens == twin.tokens
    armed[0] = False
    assert _numbered(numbering, after) == _numbered(twin, after)


# ------------------------------------------------------------------------ count_matches


def _compact(hyps: list[list[int]], refs: list[list[list[int]]], max_order: int,
             per_reference: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """The NumPy pipeline's counts of the same rows (every reference present; a reference
    of length 0 is absent or empty, which counts alike)."""
    rows, num_refs = len(hyps), len(refs[0])
    width = max([1, *map(len, hyps), *(len(r) for row in refs for r in row)])
    fill = next((t for line in [*hyps, *(r for row in refs for r in row)] for t in line), 0)
    hyp = np.full((rows, width), fill, dtype=np.int64)
    ref = np.full((rows, num_refs, width), fill, dtype=np.int64)
    for b, (line, row) in enumerate(zip(hyps, refs, strict=True)):
        hyp[b, : len(line)] = line
        for r, tokens in enumerate(row):
            ref[b, r, : len(tokens)] = tokens
    hyp_len = np.array([len(line) for line in hyps], dtype=np.int64)
    ref_len = np.array([[len(r) for r in row] for row in refs], dtype=np.int64)
    batch = Batch(backends.get_backend(hyp), None, hyp_len, ref_len,
                  np.ones((rows, num_refs), dtype=bool), hyp=hyp, refs=ref)
    counts = count_matches_compact(batch, max_order, per_reference)
    return np.asarray(counts.clipped), (None if counts.per_reference is None
                                        else np.asarray(counts.per_reference))


def _layout(hyps: list[list[int]], refs: list[list[list[int]]], order: list[int],
            shared: bool) -> tuple[np.ndarray, ...]:
    """The kernel's arguments: every line a slice of a flat buffer (one buffer for both
    sides, or one each), the lines laid out in ``order`` (a permutation of all lines) with
    a stray value before each, so that nothing depends on the lines being in row order."""
    lines = [("h", b, 0) for b in range(len(hyps))] + [
        ("r", b, r) for b in range(len(refs)) for r in range(len(refs[b]))]
    buffers: dict[str, list[int]] = {"h": [], "r": []}
    starts = {"h": np.zeros(len(hyps), np.int64),
              "r": np.zeros((len(refs), len(refs[0])), np.int64)}
    for k in order:
        side, b, r = lines[k]
        buffer = buffers["h" if shared else side]
        buffer.append(-3)
        line = hyps[b] if side == "h" else refs[b][r]
        if side == "h":
            starts["h"][b] = len(buffer)
        else:
            starts["r"][b, r] = len(buffer)
        buffer.extend(line)
    hyp_ids = np.array(buffers["h"], dtype=np.int64)
    ref_ids = hyp_ids if shared else np.array(buffers["r"], dtype=np.int64)
    return (hyp_ids, starts["h"], np.array([len(h) for h in hyps], dtype=np.int64), ref_ids,
            starts["r"], np.array([[len(r) for r in row] for row in refs], dtype=np.int64))


SENTINEL = -7
VOCABULARIES = [
    [1], [1, 2], [0, 5, 9], list(range(40)),
    [0, 65535], [0, 65536],  # the value lookup table, and just past its size
    [2**62, -(2**62), 7, 2**63 - 1, -(2**63 - 1)],
    [-(2**63), 2**63 - 1, 0, -1],  # the whole int64 range: its span does not fit
]


@st.composite
def _rows(draw: st.DrawFn) -> tuple[list[list[int]], list[list[list[int]]]]:
    """Hypotheses and their 1-4 references from a tiny vocabulary: empty sentences, absent
    references (length 0), hypotheses that copy, shift or repeat one of their references."""
    vocabulary = draw(st.sampled_from(VOCABULARIES))
    num_refs, rows = draw(st.integers(1, 4)), draw(st.integers(1, 6))

    def line(max_size: int = 14) -> list[int]:
        return draw(st.lists(st.sampled_from(vocabulary), max_size=max_size))

    refs = [[line() if draw(st.integers(0, 5)) else [] for _ in range(num_refs)]
            for _ in range(rows)]
    hyps = []
    for row in refs:
        ref = draw(st.sampled_from(row))
        how = draw(st.sampled_from(["new", "copy", "shift", "repeat", "empty"]))
        hyps.append({"new": line(20), "copy": list(ref), "shift": ref[1:] + ref[:1],
                     "repeat": ref + ref[: draw(st.integers(0, len(ref)))], "empty": []}[how])
    return hyps, refs


def _kernel(module: ModuleType, layout: tuple[np.ndarray, ...], max_order: int,
            per_reference: bool, begin: int = 0, end: int | None = None) -> tuple[
        np.ndarray, np.ndarray | None]:
    rows, num_refs = layout[4].shape
    clipped = np.full((rows, max_order), SENTINEL, dtype=np.int64)
    per_ref = (np.full((rows, num_refs, max_order), SENTINEL, dtype=np.int64)
               if per_reference else None)
    assert module.count_matches(*layout, clipped, per_ref, begin,
                                rows if end is None else end) is None
    return clipped, per_ref


@settings(max_examples=400, deadline=None)
@given(case=_rows(), max_order=st.integers(1, 9), per_reference=st.booleans(),
       shared=st.booleans(), data=st.data())
def test_count_matches_is_the_numpy_pipelines(compiled, case, max_order, per_reference,
                                              shared, data):
    """BLEU's clipped matches (the largest count in one reference) and, where asked for, the
    matches per reference (GLEU's), as the NumPy pipeline counts them; rows outside
    ``[begin, end)`` are not written."""
    hyps, refs = case
    lines = len(hyps) + len(refs) * len(refs[0])
    layout = _layout(hyps, refs, data.draw(st.permutations(range(lines))), shared)
    begin = data.draw(st.integers(0, len(hyps)))
    end = data.draw(st.integers(begin, len(hyps)))
    clipped, per_ref = _kernel(compiled, layout, max_order, per_reference, begin, end)
    want_clipped, want_per_ref = _compact(hyps, refs, max_order, per_reference)
    np.testing.assert_array_equal(clipped[begin:end], want_clipped[begin:end])
    assert (clipped[:begin] == SENTINEL).all() and (clipped[end:] == SENTINEL).all()
    if per_reference:
        assert per_ref is not None and want_per_ref is not None
        np.testing.assert_array_equal(per_ref[begin:end], want_per_ref[begin:end])
        assert (per_ref[:begin] == SENTINEL).all() and (per_ref[end:] == SENTINEL).all()


def test_count_matches_by_hand(compiled):
    hyps: list[list[int]] = [[1, 1, 1, 2], [], [3, 4], [1, 2, 1]]
    refs: list[list[list[int]]] = [[[1, 1, 2, 1], [1, 1, 1]], [[5], []], [[], []],
                                   [[1, 1, 2, 1], [1, 1, 1]]]
    layout = _layout(hyps, refs, list(range(12)), shared=False)
    clipped, per_ref = _kernel(compiled, layout, 3, True)
    assert per_ref is not None
    # row 0 against the first reference: unigrams 1: min(3, 3), 2: min(1, 1); bigrams (1,1):
    # min(2, 1), (1,2): 1; trigrams (1,1,2): 1. Against the second: 1: 3; (1,1): 2;
    # (1,1,1): 1. Clipped by the largest count in one reference: 1: 3, 2: 1; (1,1): 2,
    # (1,2): 1; (1,1,1), (1,1,2)
    assert per_ref[0].tolist() == [[4, 2, 1], [3, 2, 1]]
    assert clipped[0].tolist() == [4, 3, 2]
    assert clipped[1].tolist() == clipped[2].tolist() == [0, 0, 0]
    # [1, 2, 1] against the first reference: 1: min(2, 3), 2: 1; (1,2), (2,1); (1,2,1)
    assert per_ref[3].tolist() == [[3, 2, 1], [2, 0, 0]]
    assert clipped[3].tolist() == [3, 2, 1]
    want_clipped, want_per_ref = brute_force(hyps, refs, 3)
    np.testing.assert_array_equal(clipped, want_clipped)
    np.testing.assert_array_equal(per_ref, want_per_ref)


@pytest.mark.parametrize("vocabulary", [30, 2**40])
def test_long_lines_and_many_rows(compiled, vocabulary):
    """Long rows (up to 3,000 tokens, 4 references, orders up to 9: the tables grow) and
    many short ones (the tables are reused row after row)."""
    rng = np.random.default_rng(vocabulary % 97)
    hyps, refs = [], []
    for rows, longest in ((12, 3000), (1500, 12)):
        for _ in range(rows):
            base = (rng.integers(0, 30, size=int(rng.integers(0, longest))) * (vocabulary // 30)
                    ).tolist()
            row = [base, base[::-1], base[: len(base) // 2] + base, []]
            hyp = list(base)
            for k in rng.integers(0, max(len(hyp), 1), size=len(hyp) // 10):
                if hyp:
                    hyp[int(k)] = -1
            hyps.append(hyp)
            refs.append(row)
    layout = _layout(hyps, refs, list(range(len(hyps) * 5)), shared=True)
    for max_order in (4, 9):
        clipped, per_ref = _kernel(compiled, layout, max_order, True)
        want_clipped, want_per_ref = _compact(hyps, refs, max_order, True)
        np.testing.assert_array_equal(clipped, want_clipped)
        np.testing.assert_array_equal(per_ref, want_per_ref)


def test_rows_of_different_value_ranges_in_one_call(compiled):
    """Each row picks its own alphabet from its value range: rows of a few values, rows
    that widen the lookup table (it grows row by row), rows too wide for it (a hash table
    over the values) and narrow rows again, in one call."""
    rng = np.random.default_rng(11)
    hyps, refs = [], []
    for low, span in [(0, 10), (5, 60_000), (-(2**40), 2**41), (100, 50), (0, 200_000),
                      (2**62, 2**40), (3, 5), (-70_000, 140_000)] * 3:
        base = (low + rng.integers(0, 40, size=int(rng.integers(1, 200))) * (span // 40)
                ).tolist()
        hyps.append(base[::2] + base[1::2])
        refs.append([base, base[len(base) // 3:]])
    layout = _layout(hyps, refs, list(range(len(hyps) * 3)), shared=False)
    clipped, per_ref = _kernel(compiled, layout, 5, True)
    want_clipped, want_per_ref = brute_force(hyps, refs, 5)
    np.testing.assert_array_equal(clipped, want_clipped)
    np.testing.assert_array_equal(per_ref, want_per_ref)


def test_grams_with_many_continuations(compiled):
    """An (n-1)-gram followed by hundreds of different tokens (the first kept beside it, the
    others in the table behind a 64-bit mask of their tokens, whose bits they share), and
    references that follow it by tokens with the same bits the hypothesis lacks."""
    hub = 1_000_000
    followers = list(range(1, 400))
    hyp = [t for f in followers for t in (hub, f)] + [hub, hub, 5, hub]
    ref = [t for f in followers[::-3] for t in (hub, f + 64 * (f % 2))] + [hub, 5, hub, hub]
    hyps, refs = [hyp, hyp[::-1], hyp], [[ref, hyp[:50]], [ref[::-1], []], [[], ref]]
    layout = _layout(hyps, refs, list(range(9)), shared=True)
    clipped, per_ref = _kernel(compiled, layout, 4, True)
    want_clipped, want_per_ref = brute_force(hyps, refs, 4)
    np.testing.assert_array_equal(clipped, want_clipped)
    np.testing.assert_array_equal(per_ref, want_per_ref)


def test_rows_counted_on_threads_at_once(compiled):
    """The GIL is released while rows are counted: threads that count blocks of the rows of
    one call into the same outputs give the counts of one call."""
    rng = np.random.default_rng(3)
    hyps = [rng.integers(0, 20, size=int(n)).tolist() for n in rng.integers(0, 300, 400)]
    refs = [[h[::-1], h[: len(h) // 2]] for h in hyps]
    layout = _layout(hyps, refs, list(range(1200)), shared=False)
    whole = _kernel(compiled, layout, 6, True)
    clipped = np.full((400, 6), SENTINEL, dtype=np.int64)
    per_ref = np.full((400, 2, 6), SENTINEL, dtype=np.int64)
    threads = [threading.Thread(target=compiled.count_matches,
                                args=(*layout, clipped, per_ref, begin, begin + 50))
               for begin in range(0, 400, 50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    np.testing.assert_array_equal(clipped, whole[0])
    np.testing.assert_array_equal(per_ref, whole[1])


def test_no_reference_and_no_row(compiled):
    """Rows without a reference column count nothing; a call without rows does nothing."""
    hyp = np.array([1, 2, 3], dtype=np.int64)
    none = np.zeros((1, 0), dtype=np.int64)
    clipped, per_ref = np.full((1, 4), SENTINEL), np.full((1, 0, 4), SENTINEL)
    compiled.count_matches(hyp, np.array([0]), np.array([3]), hyp, none, none, clipped,
                           per_ref, 0, 1)
    assert clipped.tolist() == [[0, 0, 0, 0]]
    empty = np.zeros(0, dtype=np.int64)
    compiled.count_matches(empty, empty, empty, empty, np.zeros((0, 2), np.int64),
                           np.zeros((0, 2), np.int64), np.zeros((0, 4), np.int64),
                           np.zeros((0, 2, 4), np.int64), 0, 0)


def _arguments() -> dict[str, Any]:
    """Valid arguments: 2 rows, 1 reference, orders 1-4."""
    return {
        "hyp_ids": np.array([1, 2, 3, 1, 2], dtype=np.int64),
        "hyp_starts": np.array([0, 3], dtype=np.int64),
        "hyp_lengths": np.array([3, 2], dtype=np.int64),
        "ref_ids": np.array([1, 2, 3, 4], dtype=np.int64),
        "ref_starts": np.array([[0], [1]], dtype=np.int64),
        "ref_lengths": np.array([[4], [2]], dtype=np.int64),
        "clipped": np.full((2, 4), SENTINEL, dtype=np.int64),
        "per_reference": np.full((2, 1, 4), SENTINEL, dtype=np.int64),
        "begin": 0,
        "end": 2,
    }


def _read_only(array: np.ndarray) -> np.ndarray:
    array = array.copy()
    array.flags.writeable = False
    return array


def _strided(array: np.ndarray) -> np.ndarray:
    """The same values, not contiguous (every other element of a larger array)."""
    wide = np.repeat(array, 2, axis=-1)
    return wide[..., ::2]


HOSTILE: dict[str, tuple[dict[str, Any], type[Exception], str]] = {
    "int32 ids": ({"hyp_ids": np.array([1, 2, 3, 1, 2], np.int32)}, TypeError,
                  "hyp_ids must be an int64 array, not of format i"),
    "float ids": ({"ref_ids": np.array([1.0, 2, 3, 4])}, TypeError,
                  "ref_ids must be an int64 array, not of format d"),
    "uint64 ids": ({"ref_ids": np.array([1, 2, 3, 4], np.uint64)}, TypeError,
                   "ref_ids must be an int64 array"),
    "big-endian ids": ({"hyp_ids": np.array([1, 2, 3, 1, 2], ">i8")}, TypeError,
                       "hyp_ids must be an int64 array"),
    "a list": ({"hyp_starts": [0, 3]}, TypeError,
               "hyp_starts must be a C-contiguous int64 array, not list"),
    "bytes": ({"hyp_lengths": b"\x03" + b"\x00" * 15}, TypeError,
              "hyp_lengths must be an int64 array, not of format B"),
    "None ids": ({"ref_ids": None}, TypeError,
                 "ref_ids must be a C-contiguous int64 array, not NoneType"),
    "strided starts": ({"hyp_starts": _strided(np.array([0, 3]))}, TypeError,
                       "hyp_starts must be a C-contiguous int64 array"),
    "strided lengths": ({"ref_lengths": _strided(np.array([[4], [2]]))}, TypeError,
                        "ref_lengths must be a C-contiguous int64 array"),
    "strided output": ({"clipped": _strided(np.zeros((2, 4), np.int64))}, TypeError,
                       "clipped must be a C-contiguous writable int64 array"),
    "2-D ids": ({"hyp_ids": np.array([[1, 2, 3, 1, 2]])}, ValueError,
                r"hyp_ids must have 1 dimension\(s\), not 2"),
    "lengths of other rows": ({"hyp_lengths": np.array([3, 2, 1])}, ValueError,
                              "hyp_lengths: axis 0 has 3 entries where 2 are needed"),
    "1-D ref starts": ({"ref_starts": np.array([0, 1])}, ValueError,
                       r"ref_starts must have 2 dimension\(s\), not 1"),
    "ref starts of other rows": ({"ref_starts": np.array([[0], [1], [2]])}, ValueError,
                                 "ref_starts: axis 0 has 3 entries where 2 are needed"),
    "ref lengths of other refs": ({"ref_lengths": np.array([[4, 1], [2, 1]])}, ValueError,
                                  "ref_lengths: axis 1 has 2 entries where 1 are needed"),
    "output of other rows": ({"clipped": np.zeros((3, 4), np.int64)}, ValueError,
                             "clipped: axis 0 has 3 entries where 2 are needed"),
    "no order": ({"clipped": np.zeros((2, 0), np.int64),
                  "per_reference": np.zeros((2, 1, 0), np.int64)}, ValueError,
                 "clipped: needs at least one column"),
    "per reference of other orders": ({"per_reference": np.zeros((2, 1, 3), np.int64)},
                                      ValueError, "per_reference: axis 2 has 3 entries"),
    "per reference of other refs": ({"per_reference": np.zeros((2, 2, 4), np.int64)},
                                    ValueError, "per_reference: axis 1 has 2 entries"),
    "per reference 2-D": ({"per_reference": np.zeros((2, 4), np.int64)}, ValueError,
                          r"per_reference must have 3 dimension\(s\), not 2"),
    "read-only output": ({"clipped": _read_only(np.zeros((2, 4), np.int64))}, TypeError,
                         "clipped must be a C-contiguous writable int64 array"),
    "read-only per reference": ({"per_reference": _read_only(np.zeros((2, 1, 4), np.int64))},
                                TypeError, "per_reference must be a C-contiguous writable"),
    "bytes output": ({"clipped": bytes(64)}, TypeError,
                     "clipped must be a C-contiguous writable int64 array, not bytes"),
    "int32 output": ({"clipped": np.zeros((2, 4), np.int32)}, TypeError,
                     "clipped must be an int64 array, not of format i"),
    "list per reference": ({"per_reference": [[[0] * 4]] * 2}, TypeError,
                           "per_reference must be a C-contiguous writable int64 array"),
    "negative length": ({"hyp_lengths": np.array([3, -1])}, ValueError,
                        r"hyp_starts/hyp_lengths: row 1 \(start 3, length -1\) is outside "
                        r"hyp_ids \(5 values\)"),
    "negative start": ({"hyp_starts": np.array([-1, 3])}, ValueError,
                       r"row 0 \(start -1, length 3\) is outside hyp_ids"),
    "past the end": ({"hyp_lengths": np.array([3, 3])}, ValueError,
                     r"row 1 \(start 3, length 3\) is outside hyp_ids"),
    "start past the end": ({"hyp_starts": np.array([0, 6]), "hyp_lengths": np.array([3, 0])},
                           ValueError, r"row 1 \(start 6, length 0\) is outside hyp_ids"),
    "length 2**31": ({"hyp_lengths": np.array([3, 2**31])}, ValueError,
                     "row 1 .* is outside hyp_ids"),
    "length 2**63 - 1": ({"hyp_lengths": np.array([2**63 - 1, 2])}, ValueError,
                         "row 0 .* is outside hyp_ids"),
    "start 2**63 - 1": ({"hyp_starts": np.array([0, 2**63 - 1])}, ValueError,
                        "row 1 .* is outside hyp_ids"),
    "lowest length": ({"hyp_lengths": np.array([-(2**63), 2])}, ValueError,
                      "row 0 .* is outside hyp_ids"),
    "negative ref length": ({"ref_lengths": np.array([[4], [-2]])}, ValueError,
                            r"ref_starts/ref_lengths: row 1, reference 0 \(start 1, length -2\) "
                            r"is outside ref_ids \(4 values\)"),
    "ref past the end": ({"ref_starts": np.array([[0], [3]])}, ValueError,
                         r"row 1, reference 0 \(start 3, length 2\) is outside ref_ids"),
    "ref length 2**31": ({"ref_lengths": np.array([[2**31], [2]])}, ValueError,
                         "row 0, reference 0 .* is outside ref_ids"),
    "ref start 2**63 - 1": ({"ref_starts": np.array([[2**63 - 1], [1]])}, ValueError,
                            "row 0, reference 0 .* is outside ref_ids"),
    "negative begin": ({"begin": -1}, ValueError,
                       "begin and end must satisfy 0 <= begin <= end <= 2 .the rows.; got -1 "
                       "and 2"),
    "end past the rows": ({"end": 3}, ValueError, "begin and end must satisfy"),
    "end before begin": ({"begin": 2, "end": 1}, ValueError, "begin and end must satisfy"),
    "huge begin": ({"begin": 2**64}, OverflowError, "begin is out of range"),
    "huge end": ({"end": -(2**70)}, OverflowError, "end is out of range"),
    "str begin": ({"begin": "0"}, TypeError, "begin must be an integer, not str"),
    "float end": ({"end": 2.0}, TypeError, "end must be an integer, not float"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_arguments_are_refused_by_name(compiled, name):
    """Each a TypeError, ValueError or OverflowError that names the argument, raised before
    anything is written (the outputs keep their values)."""
    changes, error, message = HOSTILE[name]
    arguments = _arguments() | changes
    outputs = [arguments[key] for key in ("clipped", "per_reference")
               if isinstance(arguments[key], np.ndarray)]
    saved = [output.copy() for output in outputs]
    with pytest.raises(error, match=message):
        compiled.count_matches(*arguments.values())
    for output, before in zip(outputs, saved, strict=True):
        np.testing.assert_array_equal(output, before)


def test_the_valid_arguments_count(compiled):
    """The arguments the hostile cases start from are valid (numbers, a memoryview, NumPy
    integers for the rows)."""
    arguments = _arguments()
    compiled.count_matches(*arguments.values())
    assert arguments["clipped"].tolist() == [[3, 2, 1, 0], [1, 0, 0, 0]]
    ids = memoryview(np.array([1, 2, 3, 1, 2], dtype=np.int64).tobytes()).cast("q")
    arguments = _arguments() | {"hyp_ids": ids, "begin": np.int64(1), "end": np.int32(2),
                                "per_reference": None}
    compiled.count_matches(*arguments.values())
    assert arguments["clipped"].tolist() == [[SENTINEL] * 4, [1, 0, 0, 0]]


def test_bad_rows_outside_the_range_are_not_read(compiled):
    """Only the rows ``[begin, end)`` are read: offsets of other rows may be anything."""
    arguments = _arguments() | {"hyp_lengths": np.array([3, -5]),
                                "ref_starts": np.array([[0], [2**62]]), "end": 1}
    compiled.count_matches(*arguments.values())
    assert arguments["clipped"].tolist() == [[3, 2, 1, 0], [SENTINEL] * 4]


def test_argument_count_is_checked(compiled):
    arguments = list(_arguments().values())
    with pytest.raises(TypeError, match="count_matches takes 10 or 11 arguments, not 9"):
        compiled.count_matches(*arguments[:9])
    with pytest.raises(TypeError, match="count_matches takes 10 or 11 arguments, not 12"):
        compiled.count_matches(*arguments, None, 0)
    with pytest.raises(TypeError, match="prefix must be a C-contiguous writable int64 array"):
        compiled.count_matches(*arguments, 0)
    with pytest.raises(TypeError, match="keyword"):
        compiled.count_matches(*arguments[:9], end=2)


@pytest.mark.parametrize("changes", [{"begin": "0"}, {"end": 2**64}, {"begin": 0.5}])
def test_begin_and_end_conversion_errors_name_the_argument(compiled, changes):
    arguments = _arguments() | changes
    with pytest.raises((TypeError, OverflowError), match=r"begin|end"):
        compiled.count_matches(*arguments.values())


def test_a_row_of_2_31_tokens_is_refused(compiled):
    """A hypothesis of ``2**31`` tokens, or references of as many together (an untouched
    read-only mapping of 16 GiB, in a process whose data is capped at 2 GiB) is refused
    before anything is read or allocated: n-gram keys pack two ids below ``2**31``."""
    if sys.maxsize < 2**62 or not sys.platform.startswith("linux"):
        pytest.skip("needs a 64-bit Linux address space")
    if "libasan" in os.environ.get("LD_PRELOAD", ""):
        pytest.skip("AddressSanitizer cannot map its shadow memory under a 2 GiB data limit "
                    "(the plain run checks the bound)")
    code = textwrap.dedent("""
        import mmap, resource
        import numpy as np
        from bleusuite import _native
        resource.setrlimit(resource.RLIMIT_DATA, (1 << 31, 1 << 31))
        size = (1 << 31) + 8
        try:
            buffer = mmap.mmap(-1, size * 8, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
                               | getattr(mmap, "MAP_NORESERVE", 0), prot=mmap.PROT_READ)
        except (OSError, OverflowError, ValueError) as error:
            print("skip", error)
            raise SystemExit(0)
        ids = np.frombuffer(buffer, dtype=np.int64)
        one = np.zeros((1, 1), dtype=np.int64)
        try:
            _native.count_matches(ids, np.array([0]), np.array([1 << 31]), ids, one, one,
                                  np.zeros((1, 4), dtype=np.int64), None, 0, 1)
        except ValueError as error:
            print(error)
        try:  # references: the same bound on their tokens together
            _native.count_matches(ids, np.array([0]), np.array([1]), ids,
                                  np.array([[0, 8]]), np.array([[1 << 30, 1 << 30]]),
                                  np.zeros((1, 4), dtype=np.int64), None, 0, 1)
        except ValueError as error:
            print(error)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    if done.stdout.startswith("skip"):
        pytest.skip(f"no 16 GiB mapping here: {done.stdout}")
    assert done.stdout.splitlines() == [
        "hyp_lengths: row 0 has 2147483648 tokens; at most 2147483647 are counted",
        "ref_lengths: the references of row 0 have 2147483648 tokens or more; at most "
        "2147483647 are counted"]


# ----------------------------------------------------------------- BLEUSUITE_NATIVE


@pytest.mark.parametrize("setting", ["", "0", "1"])
def test_the_setting_chooses_the_compiled_part(monkeypatch, setting):
    monkeypatch.setenv("BLEUSUITE_NATIVE", setting)
    if setting == "1" and native._native is None:
        with pytest.raises(ImportError, match="BLEUSUITE_NATIVE=1"):
            native.compiled()
        return
    assert native.compiled() is (native._native is not None and setting != "0")
    assert (native.module() is not None) is native.compiled()
    assert kernel.available() is native.compiled()
    monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)
    numpy_backend = backends.get_backend(np.zeros(1))
    assert counting_strategy(numpy_backend, np.zeros(1)) == (
        "compiled" if native.compiled() else "compact")
    assert isinstance(text.numbering(), text.PythonNumbering) is not native.compiled()
    for name in ("13a", "none", "char", "intl", "zh"):
        encoder = text.Encoder(load_tokenizer(name), lowercase=False)
        assert isinstance(encoder.numbering, text.PythonNumbering) is not native.compiled()
        assert encoder.encode([["a b", "b c"]]).ids.tolist() == [0, 1, 1, 2]


def test_without_the_compiled_part(monkeypatch):
    """An install without a C compiler: Python numbers the words and NumPy counts;
    ``BLEUSUITE_NATIVE=1`` asks for what is missing and says so."""
    monkeypatch.setattr(native, "_native", None)
    monkeypatch.delenv("BLEUSUITE_NATIVE", raising=False)
    monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)
    assert native.compiled() is False and native.module() is None
    assert kernel.available() is False
    ids = text.encode_texts([["a b", "b c"]], load_tokenizer("13a"), False)
    assert ids.ids.tolist() == [0, 1, 1, 2]
    with pytest.raises(ImportError, match="not built or is turned off"):
        kernel.count_pairs(None, 4)  # type: ignore[arg-type]
    monkeypatch.setenv("BLEUSUITE_NATIVE", "1")
    with pytest.raises(ImportError, match="compiled part"):
        native.compiled()


def test_a_bad_setting_is_named(monkeypatch):
    monkeypatch.setenv("BLEUSUITE_NATIVE", "yes")
    with pytest.raises(ValueError, match="BLEUSUITE_NATIVE must be 0 or 1"):
        native.compiled()


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), max_size=50))
@example(values=[1.0, 5e-324, 1e308, -745.2, 709.78, 709.79, 0.0, -0.0, -1.0])
def test_libm_map_is_maths(compiled, values):
    """``libm_map`` gives ``math.log`` / ``math.exp`` of each value bit for bit, and counts
    the values where math raises or a value is not finite (sacrebleu's arithmetic then falls
    back to math itself)."""
    rng = np.random.default_rng(len(values))
    for function, drawn in ((math.log, rng.uniform(1e-300, 2.0, 2000)),
                            (math.exp, rng.uniform(-800.0, 10.0, 2000))):
        array = np.concatenate([np.array(values, dtype=np.float64), drawn])
        out = np.full_like(array, 7.0)
        unusual = compiled.libm_map(function.__name__, array, out)
        expected, refused = [], 0
        for value in array.tolist():
            try:
                result = function(value)
            except (ValueError, OverflowError):
                refused += 1
                expected.append(None)
                continue
            expected.append(result)
            refused += not (math.isfinite(value) and math.isfinite(result))
        assert unusual == refused
        for got, want in zip(out.tolist(), expected, strict=True):
            if want is not None and not math.isnan(want):
                assert got == want and math.copysign(1, got) == math.copysign(1, want)


def test_libm_map_refuses_bad_arguments_by_name(compiled):
    values, out = np.ones(3), np.empty(3)
    with pytest.raises(ValueError, match="function must be 'log' or 'exp'"):
        compiled.libm_map("sqrt", values, out)
    with pytest.raises(TypeError, match="values must be a float64 array"):
        compiled.libm_map("log", np.ones(3, np.float32), out)
    with pytest.raises(TypeError, match="out must be a C-contiguous writable float64 array"):
        compiled.libm_map("log", values, b"x" * 24)  # read-only
    with pytest.raises(ValueError, match="out has 2 items where values has 3"):
        compiled.libm_map("exp", values, np.empty(2))
    with pytest.raises(TypeError, match="values must be a C-contiguous float64 array"):
        compiled.libm_map("exp", np.ones((3, 2))[:, 0], out)
    with pytest.raises(TypeError, match="takes 3 arguments"):
        compiled.libm_map("exp", values)
    assert out.shape == (3,)


def test_sacrebleus_arithmetic_is_the_same_without_the_compiled_part(monkeypatch):
    """``exact_bleu`` (every sacrebleu digit of the library and the command) maps math's log
    and exp in C where the compiled part is built: the same scores without it."""
    from bleusuite.scores.bleu.sacrebleu_formula import exact_bleu

    rng = np.random.default_rng(3)
    totals = rng.integers(0, 60, (500, 4))
    table = np.concatenate([rng.integers(0, 80, (500, 2)), rng.integers(0, totals + 1), totals,
                            np.maximum(totals, 1)], axis=1)  # lengths, matches, totals
    for smooth in ("exp", "floor", "add-k", "none"):
        with_c = exact_bleu(table, smooth, effective_order=True).scores
        monkeypatch.setattr(native, "module", lambda: None)
        without = exact_bleu(table, smooth, effective_order=True).scores
        monkeypatch.undo()
        np.testing.assert_array_equal(with_c, without)
