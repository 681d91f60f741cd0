"""Differential fuzzing of the compiled ``gather`` (``bleusuite/csrc/gather.c``).

Every call goes in twice, through :func:`bleusuite.inputs.normalize_batch` /
:func:`~bleusuite.inputs.text_batch` with the compiled part on and with it off
(``BLEUSUITE_NATIVE=0``: the general path of :mod:`bleusuite.inputs.lists`, the packing path
of :mod:`bleusuite.inputs.ragged`, :class:`bleusuite.text.Encoder` for text), and must come
out the same: the same sentences in every row (ids compared within each row, where they
are numbered row by row; the tokens themselves with ``global_ids``), the same references
present, or the same refusal, a ``TypeError`` / ``ValueError`` naming the caller's argument.
The inputs: int tokens with padding and end-of-sentence ids anywhere, negative ids, ids at
and beyond the int64 range, bools, NumPy scalars, arrays of every integer dtype (strided,
reversed, big-endian, 0-d, 2-d), ``array.array`` and ``memoryview``, str tokens (odd
Unicode, empty, whitespace), text with every tokenizer, rows of every shape, forms mixed, a
batch beyond the 4,096-row block split, and hostile objects (lists changed while they are
read, lying ``__len__``, ``__index__`` that raises, str subclasses that compare otherwise,
bytes). ``tox -e sanitize`` (tools/sanitize.py) runs this file under AddressSanitizer and
UndefinedBehaviorSanitizer.
"""

from __future__ import annotations

import array
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from compiled_part import compiled_on, require_compiled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleusuite import threads
from bleusuite.inputs import lists, normalize_batch, text_batch
from bleusuite.inputs.lists import THREADED_GATHER_ROWS, python_gather
from bleusuite.text import tokenizers

REFUSALS = (TypeError, ValueError)
FUZZ = settings(max_examples=250, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
#: the argument names of a call, as its messages must give them
NAMES = [("hypotheses", "references"), ("y_pred", "y")]


@pytest.fixture(scope="module")
def native():
    return require_compiled()


Rows = list[tuple[list[Any], list[list[Any] | None]]]


def _rows(batch: Any, tokens: list[str] | None = None) -> Rows:
    """A host batch's sentences, row by row (absent references None): their tokens, where
    ``tokens`` gives the token of each id, else their ids renumbered within each row by
    first appearance (ids that are numbered row by row compare only there)."""
    pairs, present = batch.pairs, np.asarray(batch.ref_present)
    assert pairs is not None and present.shape == pairs.ref_starts.shape
    hyp_ids, ref_ids = pairs.hyp_ids.tolist(), pairs.ref_ids.tolist()
    rows: Rows = []
    for start, length, ref_starts, ref_lengths, here in zip(
            pairs.hyp_starts.tolist(), pairs.hyp_lengths.tolist(), pairs.ref_starts.tolist(),
            pairs.ref_lengths.tolist(), present.tolist(), strict=True):
        slices = [(hyp_ids, start, length), *((ref_ids, s, n) if there else None
                                             for s, n, there in zip(ref_starts, ref_lengths,
                                                                    here, strict=True))]
        seen: dict[int, Any] = {}
        sentences: list[list[Any] | None] = []
        for part in slices:
            if part is None:
                sentences.append(None)
                continue
            ids, s, n = part
            assert s >= 0 and n >= 0 and s + n <= len(ids)
            sentences.append([tokens[i] for i in ids[s : s + n]] if tokens is not None else
                             [seen.setdefault(i, len(seen)) for i in ids[s : s + n]])
        rows.append((sentences[0], sentences[1:]))  # type: ignore[arg-type]
    return rows


def _outcome(call: Callable[[], Rows], names: tuple[str, str], lying: bool) -> tuple[Any, ...]:
    """What a call gives: ``("rows", rows)``, or ``("refused", type, message)`` for a
    refusal, whose message must name one of the call's arguments. Where a ``__len__`` lies
    (``lying``), the general path's checks and packing, which size what they read by
    ``len``, may fail on their own (an IndexError, NumPy's shape mismatch): refusals too,
    as long as both ways give the same."""
    refusals = (*REFUSALS, IndexError) if lying else REFUSALS
    try:
        return ("rows", call())
    except refusals as error:
        message = str(error)
        assert lying or any(name in message for name in (*names, "pad_id", "eos_id")), message
        return ("refused", type(error).__name__, message)


def _both_ways(call: Callable[[], Rows], names: tuple[str, str],
               lying: bool = False) -> tuple[Any, ...]:
    """The outcome of a call with the compiled part, checked against the general path's."""
    with compiled_on(True):
        compiled = _outcome(call, names, lying)
    with compiled_on(False):
        general = _outcome(call, names, lying)
    assert compiled == general
    return compiled


def _tokens_both_ways(hypotheses: Any, references: Any, names: tuple[str, str] = NAMES[0],
                      lying: bool = False, **options: Any) -> tuple[Any, ...]:
    return _both_ways(lambda: _rows(normalize_batch(hypotheses, references, argnames=names,
                                                    **options)), names, lying)


def _text_both_ways(hypotheses: Any, references: Any, names: tuple[str, str] = NAMES[0],
                    global_ids: bool = False, lying: bool = False,
                    **options: Any) -> tuple[Any, ...]:
    def call() -> Rows:
        batch, tokens = text_batch(hypotheses, references, argnames=names,
                                   global_ids=global_ids, **options)
        # the references present, in order: a None reference keeps its slot (absent) in
        # the compiled gather, where the general path drops it (the scores are the same)
        return [(hyp, [ref for ref in refs if ref is not None])
                for hyp, refs in _rows(batch, tokens if global_ids else None)]

    return _both_ways(call, names, lying)


# ------------------------------------------------------------------------ token lists

INT_TOKENS = st.one_of(st.integers(-3, 6), st.sampled_from(
    [2**63 - 1, -(2**63), 2**63 - 2, 2**62, -1, 0]))
BEYOND_INT64 = st.sampled_from([2**63, -(2**63) - 1, 2**64, 2**64 + 1, -(2**100)])
STR_TOKENS = st.one_of(st.sampled_from(
    ["a", "b", "A", "", " ", "\t", "\u3000", "é", "e\u0301", "東", "😀", "\U0010ffff", "<pad>",
     "</s>", "a b", "0", "1"]), st.text(max_size=3),
    # 1 to 8 one-byte characters are numbered by a word of them (bs_short_word): words that
    # share characters, around the 8-character edge, and wide ones that are never short
    st.text(alphabet="abé東", min_size=1, max_size=10))
#: odd tokens that the compiled gather leaves to the general path (which numbers them as
#: hashable tokens, or says what is wrong)
ODD_TOKENS = st.sampled_from([np.int64(1), np.int32(-1), np.uint64(2**64 - 1), np.uint8(0),
                              np.bool_(True), 1.0, 2.5, b"a", None, (1, 2), [1], True, False,
                              np.float32(1)])
SPECIALS = st.sampled_from([None, None, 0, 1, -1, 2**63 - 1, -(2**63), "<pad>", "</s>", "a",
                            ""])
DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", ">i8",
          "<i4", "bool", "float64"]


@st.composite
def _array(draw: st.DrawFn, values: st.SearchStrategy[list[int]]) -> Any:
    """A sentence of ids as an array: NumPy of any dtype (strided, reversed; 0-d or 2-d
    now and then), ``array.array`` or a ``memoryview`` of one."""
    items = draw(values)
    form = draw(st.sampled_from(["numpy"] * 6 + ["strided", "reversed", "0-d", "2-d",
                                                  "array", "memoryview"]))
    if form in ("array", "memoryview"):
        code = draw(st.sampled_from("bBhHiIlLqQ"))
        try:
            made = array.array(code, items)
        except OverflowError:
            made = array.array("q", [0])
        return made if form == "array" else memoryview(made)
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    with np.errstate(all="ignore"):
        values_array = np.array([v % (1 << 64) if dtype.kind == "u" else v for v in items],
                                dtype=object)
        try:
            made = values_array.astype(dtype) if len(items) else np.zeros(0, dtype)
        except (OverflowError, ValueError):
            made = np.zeros(len(items), dtype)
    if form == "strided":
        return np.repeat(made, 2)[::2]
    if form == "reversed":
        return made[::-1]
    if form == "0-d":
        return made[0] if len(made) else np.zeros((), dtype)
    if form == "2-d":
        return made.reshape(1, -1)
    return made


class LyingLength(Sequence):  # type: ignore[type-arg]
    """A sequence whose ``len`` is not the number of its items (where ``length`` is not)."""

    def __init__(self, items: Sequence[Any], length: int) -> None:
        self.items, self.length = list(items), length

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: Any) -> Any:
        return self.items[index]


class ListSubclass(list):  # type: ignore[type-arg]
    """A list whose ``len`` says one item fewer or more than it holds."""

    def __init__(self, items: Sequence[Any], offset: int) -> None:
        super().__init__(items)
        self.offset = offset

    def __len__(self) -> int:
        return max(0, super().__len__() + self.offset)


def _lies(obj: Any) -> bool:
    """Whether a ``__len__`` in ``obj`` (nested lists) lies."""
    if isinstance(obj, LyingLength):
        return obj.length != len(obj.items) or any(map(_lies, obj.items))
    if isinstance(obj, ListSubclass) and obj.offset and list.__len__(obj) + obj.offset >= 0:
        return True
    return isinstance(obj, list | tuple) and any(map(_lies, obj))


class CaseBlind(str):
    """A str token that compares (and hashes) without case: NLTK's ``==`` sees it so."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and self.lower() == other.lower()

    def __hash__(self) -> int:
        return hash(self.lower())


@st.composite
def _sentence(draw: st.DrawFn, tokens: st.SearchStrategy[Any], arrays: bool) -> Any:
    items = draw(st.lists(tokens, max_size=6))
    form = draw(st.sampled_from(["list"] * 20 + ["tuple"] * 5 + ["array"] * (12 * arrays)
                                + ["lying", "subclass", "odd"]))
    if form == "tuple":
        return tuple(items)
    if form == "array" and all(type(t) is int for t in items):
        return draw(_array(st.just(items)))
    if form == "lying":
        return LyingLength(items, max(0, len(items) + draw(st.sampled_from([-1, 1]))))
    if form == "subclass":
        return ListSubclass(items, draw(st.sampled_from([-1, 0, 1])))
    if form == "odd":
        return draw(st.sampled_from([None, "a b", b"ab", bytearray(b"ab"), 3, {1: 2}]))
    return items


@st.composite
def _token_call(draw: st.DrawFn) -> tuple[Any, Any, dict[str, Any]]:
    """Hypotheses, references (NLTK form) and options of a token-list call."""
    kind = draw(st.sampled_from(["int"] * 5 + ["str"] * 4 + ["mixed", "odd", "beyond",
                                                             "bool", "case-blind"]))
    tokens: st.SearchStrategy[Any] = {
        "int": INT_TOKENS, "str": STR_TOKENS, "beyond": st.one_of(INT_TOKENS, BEYOND_INT64),
        "mixed": st.one_of(INT_TOKENS, STR_TOKENS), "bool": st.one_of(st.booleans(),
                                                                      INT_TOKENS),
        "odd": st.one_of(INT_TOKENS, ODD_TOKENS),
        "case-blind": st.one_of(STR_TOKENS, st.sampled_from("aAbB").map(CaseBlind)),
    }[kind]
    rows = draw(st.integers(1, 5)) if draw(st.integers(0, 9)) else 0
    arrays = kind in ("int", "beyond") and draw(st.booleans())
    sentence = _sentence(tokens, arrays)
    hyps = [draw(sentence) for _ in range(rows)]
    refs: list[Any] = []
    for _ in range(rows):
        form = draw(st.sampled_from(["list"] * 16 + ["tuple", "empty", "one array"] * 2
                                    + ["none", "lying"]))
        row = [draw(sentence) for _ in range(draw(st.integers(1, 3)))]
        if form == "tuple":
            refs.append(tuple(row))
        elif form == "empty":
            refs.append([])
        elif form == "one array" and arrays:
            refs.append(draw(_array(st.lists(INT_TOKENS, max_size=5))))
        elif form == "none":
            refs.append([None] if draw(st.booleans()) else None)
        elif form == "lying":
            refs.append(LyingLength(row, len(row) - draw(st.sampled_from([-1, 1]))))
        else:
            refs.append(row)
    # hypothesis draws small numbers and first choices most: the plain forms come first
    if draw(st.integers(0, 19)) == 19:  # batch sizes that differ
        refs = refs[:-1] if refs and draw(st.booleans()) else [*refs, [[1]]]
    outer = draw(st.sampled_from(["list"] * 16 + ["tuple", "lying", "subclass"]))
    if outer == "tuple":
        hyps, refs = tuple(hyps), tuple(refs)  # type: ignore[assignment]
    elif outer == "lying":
        hyps = LyingLength(hyps, len(hyps) + 1)  # type: ignore[assignment]
    elif outer == "subclass":
        refs = ListSubclass(refs, draw(st.sampled_from([-1, 1])))
    options = {"pad_id": draw(SPECIALS), "eos_id": draw(SPECIALS),
               "global_ids": draw(st.booleans())}
    return hyps, refs, options


@FUZZ
@given(call=_token_call(), names=st.sampled_from(NAMES))
def test_token_lists_give_the_general_paths_rows(native, call, names):
    """Token lists of every kind and form: the rows (or the refusal) of the general path."""
    hyps, refs, options = call
    _tokens_both_ways(hyps, refs, names, _lies([hyps, refs]), **options)


def _numbered_gather(native: Any, hyps: list[Any], refs: list[Any], pad: Any, eos: Any,
                     by_row: bool) -> tuple[Any, ...]:
    """The compiled gather of plain lists (a Numbering for str tokens), as rows."""
    gathered = native.gather(hyps, refs, native.Numbering(), False, pad, eos, None, by_row)
    assert gathered is not None
    return _gathered_rows(gathered, len(hyps))


def _gathered_rows(gathered: Any, rows: int) -> tuple[Any, ...]:
    """A gather result checked for consistency (every slice inside ids), as its rows, its
    number of references and its first row without reference."""
    ids_bytes, layout_bytes, present_bytes, num_refs, missing = gathered
    ids = np.frombuffer(ids_bytes, np.int64)
    layout = np.frombuffer(layout_bytes, np.int64)
    present = np.frombuffer(present_bytes, np.uint8)
    slots = rows * num_refs
    assert num_refs >= 1 and len(layout) == 2 * (rows + slots) and len(present) == slots
    assert set(present.tolist()) <= {0, 1}
    starts = np.concatenate([layout[:rows], layout[2 * rows : 2 * rows + slots]])
    lengths = np.concatenate([layout[rows : 2 * rows], layout[2 * rows + slots :]])
    assert (starts >= 0).all() and (lengths >= 0).all() and (starts + lengths <= len(ids)).all()
    absent = np.flatnonzero(present.reshape(rows, num_refs).sum(axis=1) == 0) if rows else []
    assert missing == (int(absent[0]) if len(absent) else -1)
    sentences = [ids[s : s + n].tolist() for s, n in zip(starts, lengths, strict=True)]
    return sentences, present.tolist(), num_refs, missing


@FUZZ
@given(data=st.data(), rows=st.integers(0, 4), kind=st.sampled_from(["int", "str"]),
       by_row=st.booleans())
def test_gather_is_python_gather(native, data, rows, kind, by_row):
    """The compiled gather of int or str token lists (pad and eos anywhere, references of
    nothing but padding, empty ones, rows without any) against ``python_gather`` of the
    tokens numbered as the general path numbers them."""
    tokens = INT_TOKENS if kind == "int" else st.sampled_from(["a", "b", "", "é", "p", "e"])
    pad = data.draw(st.sampled_from([None, 0, 1]) if kind == "int"
                    else st.sampled_from([None, "p", "a"]))
    eos = data.draw(st.sampled_from([None, 0, 2, 2**63 - 1]) if kind == "int"
                    else st.sampled_from([None, "e", "p"]))
    hyps = [data.draw(st.lists(tokens, max_size=6)) for _ in range(rows)]
    refs = [[data.draw(st.lists(tokens, max_size=6)) for _ in range(data.draw(
        st.integers(0, 3)))] for _ in range(rows)]
    ours = _numbered_gather(native, hyps, refs, pad, eos, by_row)
    vocabulary: dict[Any, int] = {}

    def number(sentence: list[Any]) -> list[int]:
        return [t if kind == "int" else vocabulary.setdefault(t, len(vocabulary))
                for t in sentence]

    numbered_hyps = [number(h) for h in hyps]
    numbered_refs = [[number(r) for r in row] for row in refs]
    special = [None if s is None or kind == "int" else vocabulary.get(s) for s in (pad, eos)]
    theirs = _gathered_rows(python_gather(numbered_hyps, numbered_refs,
                                          pad if kind == "int" else special[0],
                                          eos if kind == "int" else special[1]), rows)
    if kind == "int":  # the ids are the tokens
        assert ours == theirs
    else:  # str tokens: ids by first appearance (in the row's table, with by_row)
        assert ours[1:] == theirs[1:] and _same_within_rows(ours, theirs, rows)


def _same_within_rows(ours: tuple[Any, ...], theirs: tuple[Any, ...], rows: int) -> bool:
    """Whether two gathered results hold the same sentences up to a renumbering within
    each row."""
    num_refs = ours[2]
    for b in range(rows):
        slots = [b] + [rows + b * num_refs + k for k in range(num_refs)]
        first: dict[int, int] = {}
        second: dict[int, int] = {}
        for s in slots:
            a = [first.setdefault(i, len(first)) for i in ours[0][s]]
            z = [second.setdefault(i, len(second)) for i in theirs[0][s]]
            if a != z:
                return False
    return True


# ------------------------------------------------------------------------------- text

#: pieces of lines: words, every class of 13a's rules, entities, line ends, odd whitespace
#: and Unicode (İ and the Kelvin sign lowercase to ASCII letters: rouge's special cases)
PIECES = st.sampled_from(
    ["the", "The", "CAT", "sat", " ", " ", "  ", "\t", "\n", "\r\n", "\u3000", "\xa0", "\x1c",
     "\x85", "\u2028", ".", ",", "-", "3", "3.5", "1,000", "U.S.", "don't", "&amp;", "&quot;",
     "&lt;", "&gt;", "&", ";", "<skipped>", "-\n", "$", "(", ")", "!", "?", "'", '"', "é",
     "e\u0301", "ß", "İ", "\u212a", "東京", "😀", "\U0010ffff", "a-b", "x.", ".x", "ÉCOLE",
     "relational", "databases", "running", "", "ab", "abb", "aab", "abab", "abcdefgh",
     "abcdefghi", "abcdefgha", "bcdefgha"])
LINES = st.lists(PIECES, max_size=10).map("".join)
TEXT_TOKENIZERS = [
    "13a", "none", "char", "intl", "zh", "rouge", tokenizers.CHRF_CHARACTERS,
    tokenizers.CHRF_CHARACTERS_WHITESPACE, tokenizers.CHRF_WORDS,
    # rouge-score's with its stemmer (ROUGE's own rules), 13a as a Python tokenizer that
    # acts on each word (numbered with the GIL held, one numbering for every row)
    tokenizers.Tokenizer("rouge-porter", tokenizers.TokenizerRouge(stem=True), "rouge",
                         word_local=True, rules="rouge-porter"),
    tokenizers.Tokenizer("13a-python", tokenizers.Tokenizer13a(), "13a", word_local=True),
]


class Line(str):
    """A line that is a str subclass (read by its characters)."""

    __slots__ = ()


@st.composite
def _text_call(draw: st.DrawFn) -> tuple[Any, Any, bool]:
    """Hypotheses and references (per hypothesis: a line, or a list or tuple of lines and
    None) of a text call, now and then malformed; and whether a ``__len__`` lies."""
    rows = draw(st.integers(1, 4)) if draw(st.integers(0, 9)) else 0
    line = st.one_of(LINES, LINES.map(Line))
    hyps: list[Any] = [draw(line) for _ in range(rows)]
    refs: list[Any] = []
    for _ in range(rows):
        form = draw(st.sampled_from(["line"] * 3 + ["list"] * 3 + ["tuple", "empty", "none"]))
        row = [draw(st.one_of(line, st.none())) for _ in range(draw(st.integers(1, 3)))]
        refs.append({"line": row[0] or "", "list": row, "tuple": tuple(row), "empty": [],
                     "none": None}[form])
    odd = draw(st.integers(0, 19))  # the plain forms first: hypothesis draws them most
    if odd == 19 and rows:  # a token list, bytes or a number where a line goes
        where = draw(st.sampled_from(["hyp", "ref"]))
        bad = draw(st.sampled_from([["a", "b"], b"ab", 3, None]))
        if where == "hyp":
            hyps[-1] = bad
        else:
            refs[-1] = [bad] if draw(st.booleans()) else bad
    elif odd == 18:  # batch sizes that differ
        refs.append("extra")
    lying = False
    if odd == 17:
        hyps = ListSubclass(hyps, draw(st.sampled_from([-1, 1])))
        lying = True
    elif odd == 16:
        refs = LyingLength(refs, len(refs) + 1)  # type: ignore[assignment]
        lying = True
    elif odd == 15:
        hyps = tuple(hyps)  # type: ignore[assignment]
    return hyps, refs, lying


@settings(FUZZ, max_examples=300)
@given(call=_text_call(), tokenizer=st.sampled_from(TEXT_TOKENIZERS),
       lowercase=st.booleans(), global_ids=st.booleans(), require=st.booleans(),
       names=st.sampled_from(NAMES))
def test_text_gives_the_general_paths_rows(native, call, tokenizer, lowercase, global_ids,
                                          require, names):
    """Text with every tokenizer (the compiled rules with and without row tables, a Python
    tokenizer per word, and one per line), lowercased or not: the tokens of the general
    path (:class:`bleusuite.text.Encoder`) in every sentence, or its refusal."""
    hyps, refs, lying = call
    _text_both_ways(hyps, refs, names, global_ids, lying, tokenize=tokenizer,
                    lowercase=lowercase, require_references=require)


# ---------------------------------------------------------- large batches, long rows


@pytest.fixture
def blocks(monkeypatch):
    """Four worker threads, so that a call of THREADED_GATHER_ROWS rows or more is split into
    blocks, each gathered with a Numbering of its own (whatever the machine's cores)."""
    monkeypatch.setattr(threads, "worker_threads", lambda: 4)


def test_blocks_of_rows_give_the_general_paths_rows(native, blocks):
    """Beyond the block split: str token lists, int token lists in some blocks and str in
    others (each block takes its own form; the general path numbers them together), text,
    and a malformed last row (the whole call goes the general path, which names it)."""
    rng = np.random.default_rng(5)
    rows = THREADED_GATHER_ROWS + 904
    words = ["a", "b", "c", "<p>", "é", "東", "x.", "&amp;", "1,000"]

    def sentence(kind: str) -> list[Any]:
        size = int(rng.integers(0, 5))
        if kind == "int":
            return rng.integers(0, 5, size).tolist()
        return [words[i] for i in rng.integers(0, len(words), size)]

    mixed = ["int" if b < rows // 2 else "str" for b in range(rows)]
    for row_kinds in (["str"] * rows, mixed):
        hyps = [sentence(kind) for kind in row_kinds]
        refs = [[[7 if kind == "int" else "a", *sentence(kind)]
                 for _ in range(int(rng.integers(1, 3)))] for kind in row_kinds]
        numberings: list[Any] = []

        def numbering(made: list[Any] = numberings) -> Any:
            made.append(native.Numbering())
            return made[-1]

        split = lists.gather(native, hyps, refs, numbering, False, "<p>", "c", None, True)
        assert len(numberings) > 1  # gathered in blocks
        # a block of one form is gathered (a block that holds both goes the general path)
        assert split is not None or row_kinds is mixed
        assert _tokens_both_ways(hyps, refs, pad_id="<p>", eos_id="c")[0] == "rows"
    bad = [*hyps[:-1], [*hyps[-1], 1.5, None]]  # tokens the general path numbers
    assert _tokens_both_ways(bad, refs)[0] == "rows"
    assert f"hypotheses[{rows - 1}]" in _tokens_both_ways([*hyps[:-1], "a b"], refs)[2]
    lines = [" ".join(sentence("str")) for _ in range(rows)]
    refs_text = [[" ".join(sentence("str")), None] for _ in range(rows)]
    for tokenizer in ("13a", tokenizers.CHRF_WORDS):
        assert _text_both_ways(lines, refs_text, tokenize=tokenizer)[0] == "rows"
    assert f"references[{rows - 1}]" in _text_both_ways(lines, [*refs_text[:-1], 3],
                                                       tokenize="13a")[2]


@pytest.mark.parametrize("seed", range(3))
def test_long_rows_grow_the_row_tables(native, seed):
    """Rows of hundreds of distinct tokens (a row table grows past its 64 slots, the next
    row reuses it) between short ones: the general path's rows, by token lists and text."""
    rng = np.random.default_rng(seed)
    vocabulary = [f"w{k}" for k in range(2000)] + ["é", "東京", "x.", "U.S.", "&quot;"]

    def sentence() -> list[str]:
        size = int(rng.choice([0, 1, 3, 40, 300, 900]))
        return [vocabulary[i] for i in rng.integers(0, len(vocabulary), size)]

    hyps = [sentence() for _ in range(12)]
    refs = [[sentence() for _ in range(int(rng.integers(1, 4)))] for _ in range(12)]
    assert _tokens_both_ways(hyps, refs, pad_id="w0", eos_id="w1")[0] == "rows"
    for tokenizer in ("13a", "none", "char", "rouge"):
        for global_ids in (False, True):
            assert _text_both_ways([" ".join(h) for h in hyps],
                                   [[" ".join(r) for r in row] for row in refs],
                                   global_ids=global_ids, tokenize=tokenizer)[0] == "rows"


def test_short_tokens_are_numbered_by_all_their_characters(native):
    """Tokens of 1 to 8 one-byte characters are numbered row by row by a word of their
    characters (``bs_short_word``, which reads some characters twice where there are
    fewer than 8): tokens that share that word's bytes at other lengths stay apart, and a
    short word met as a str token, in a line of one-byte characters, in a line of wider
    characters and as a token split off by 13a is one token."""
    short = ["ab", "abb", "aab", "aaab", "abab", "abbb", "abcdefgh", "abcdefghi",
             "abcdefgha", "bcdefgha", "a", "aa", "aaa", "é", "éé", "abcd", "abcdbcd"]
    pairs = normalize_batch([short + short[::-1]], [[short]]).pairs
    hyp = pairs.hyp_ids[pairs.hyp_starts[0] : pairs.hyp_starts[0] + pairs.hyp_lengths[0]]
    ref = pairs.ref_ids[pairs.ref_starts[0, 0] : pairs.ref_starts[0, 0] + len(short)]
    assert hyp.tolist() == list(range(len(short))) + list(range(len(short)))[::-1]
    assert ref.tolist() == list(range(len(short)))
    assert _tokens_both_ways([short + short[::-1]], [[short, short[::2]]])[0] == "rows"
    # "cat" and "sat." in ASCII lines, in lines that hold wider characters, and 13a's
    # tokens of "sat." (numbered in the numbering's own table, as UCS4)
    for tokenizer in ("13a", "none", "rouge"):
        outcome = _text_both_ways(["the cat sat.", "東京 cat sat"],
                                  [["cat sat . 東京", "the cat"], ["the cat sat.", "cat"]],
                                  tokenize=tokenizer)
        assert outcome[0] == "rows"
    pairs = text_batch(["the cat sat."], [["東京 the cat sat ."]], tokenize="13a")[0].pairs
    hyp = pairs.hyp_ids[pairs.hyp_starts[0] : pairs.hyp_starts[0] + pairs.hyp_lengths[0]]
    ref = pairs.ref_ids[pairs.ref_starts[0, 0] : pairs.ref_starts[0, 0] + 5]
    assert ref.tolist()[1:] == hyp.tolist() == [0, 1, 2, 3]  # one token across widths


# ------------------------------------------------------------------- hostile input


def _text_gather(native: Any, hyps: Any, refs: Any, transform: Any = None,
                 numbering: Any = None, by_row: bool = False) -> Any:
    numbering = native.Numbering(rules="13a") if numbering is None else numbering
    return native.gather(hyps, refs, numbering, True, None, None, transform, by_row)


@pytest.mark.parametrize("change", ["clear hypotheses", "clear references", "grow",
                                    "replace lines", "drop rows", "shrink a row"])
@pytest.mark.parametrize("by_row", [False, True])
def test_lists_changed_while_gather_reads_them(native, change, by_row):
    """``transform`` (Python code, called on every line as it is read) changes the lists
    being read: whatever ids come out lie inside what was gathered, or the call says the
    input is not its form (None), never a read outside the lists (ASan)."""
    hyps = [f"line {k} of the cat." for k in range(6)]
    refs: list[Any] = [[f"ref {k}", None, f"ref {k} two"] for k in range(6)]
    calls = 0

    def transform(line: str) -> str:
        nonlocal calls
        calls += 1
        if calls == 3:
            if change == "clear hypotheses":
                hyps.clear()
            elif change == "clear references":
                refs.clear()
            elif change == "grow":
                hyps.extend(["more"] * 50)
                refs[0].extend(["more"] * 50)
                refs.extend([["more"]] * 50)
            elif change == "replace lines":
                hyps[:] = [b"bytes", 3, None] * 2
                refs[1][:] = [3, None]
            elif change == "drop rows":
                del hyps[2:], refs[2:]
            else:
                del refs[0][1:], refs[1][:]
        return line.upper()

    gathered = _text_gather(native, hyps, refs, transform, by_row=by_row)
    if gathered is not None:
        _gathered_rows(gathered, 6)


def test_python_tokenizer_that_changes_the_lists_or_reenters(native):
    """A Python tokenizer runs while gather numbers the lines held: changing the lists,
    asking the Numbering for its tokens or its length, and calling gather, number() or
    __init__ on it again (refused: it is busy) do no harm."""
    hyps, refs = ["a b. c", "d e"], [["a b.", "x"], ["d"]]
    thirteen_a = tokenizers.Tokenizer13a()
    seen: list[Any] = []

    def tokenize(word: str) -> str:
        hyps.clear()
        refs[:] = [None]
        seen.append((len(numbering), len(numbering.tokens)))
        for again in (lambda: _text_gather(native, ["z"], ["z"], numbering=numbering),
                      lambda: numbering.number(["z"]), lambda: numbering.__init__()):
            with pytest.raises(RuntimeError, match=r"(is|already) running"):
                again()
        return thirteen_a(word)

    numbering = native.Numbering(tokenize)
    gathered = _text_gather(native, hyps, refs, numbering=numbering)
    ids, _, num_refs, missing = _gathered_rows(gathered, 2)
    assert seen and numbering.tokens[:3] == ["a", "b", "."] and (num_refs, missing) == (2, -1)
    tokens = [[numbering.tokens[i] for i in sentence] for sentence in ids]
    assert tokens == [["a", "b", ".", "c"], ["d", "e"], ["a", "b", "."], ["x"], ["d"], []]
    with pytest.raises(ValueError, match="built-in rules only"):
        _text_gather(native, ["a"], ["a"], numbering=native.Numbering(tokenize), by_row=True)


def test_python_code_that_raises_or_returns_the_wrong_type(native):
    """An exception of transform or of a Python tokenizer propagates, and so does a result
    that is not a str; the Numbering is free again after each."""
    numbering = native.Numbering(rules="13a")

    def boom(line: str) -> str:
        raise KeyError(line)

    with pytest.raises(KeyError):
        _text_gather(native, ["a"], ["a"], boom, numbering)
    with pytest.raises(TypeError, match="transform must return a str"):
        _text_gather(native, ["a"], ["a"], lambda line: line.encode(), numbering)
    with pytest.raises(KeyError):
        _text_gather(native, ["a b"], ["a"], numbering=native.Numbering(boom))
    with pytest.raises(TypeError, match="tokenize must return a str"):
        _text_gather(native, ["a"], ["a"], numbering=native.Numbering(lambda w: [w]))
    assert _text_gather(native, ["a"], ["a"], numbering=numbering) is not None


def test_gather_refuses_what_it_cannot_take(native):
    """Arguments of the wrong kind: a TypeError or ValueError that says which."""
    with pytest.raises(TypeError, match="8 arguments"):
        native.gather([], [])
    with pytest.raises(ValueError, match="text needs a numbering"):
        native.gather(["a"], ["a"], None, True, None, None, None, False)
    with pytest.raises(TypeError, match="numbering must be a Numbering"):
        native.gather(["a"], ["a"], object(), True, None, None, None, False)
    with pytest.raises(ValueError, match="not initialised"):
        native.gather(["a"], ["a"], native.Numbering.__new__(native.Numbering), True, None,
                      None, None, False)
    with pytest.raises(ValueError, match="without tokenizer"):
        native.gather([["a"]], [[["a"]]], native.Numbering(rules="13a"), False, None, None,
                      None, False)

    class Truthless:
        def __bool__(self) -> bool:
            raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        native.gather([], [], None, Truthless(), None, None, None, False)
    # not its forms: None (the general path says what is wrong)
    for hyps, refs in [([[1]], [[[1]], [[2]]]), ("ab", ["ab"]), ([[1]], [3]),
                       ([b"ab"], [[b"ab"]]), ([bytearray(b"ab")], [[[1]]]),
                       ([np.array([1.5])], [[[1]]]), ([np.array(["a"])], [[[1]]]),
                       ([np.zeros((2, 2), np.int64)], [[[1]]]), ([np.int64(3)], [[[1]]]),
                       ([[1, "a"]], [[[1]]]), ([["a"]], [[[1]]]), ([[2**63]], [[[1]]]),
                       ([np.array([2**64 - 1], np.uint64)], [[[1]]]),
                       ([np.array([1, 2], ">i8")], [[[1]]]),
                       ([np.array([1], object)], [[[1]]])]:
        assert native.gather(hyps, refs, None, False, None, None, None, False) is None


class Index:
    """An object with ``__index__`` (an int to NumPy and ``operator.index``, not to
    isinstance): one that raises, or that empties a list when asked."""

    def __init__(self, value: int, victim: list[Any] | None = None) -> None:
        self.value, self.victim = value, victim

    def __index__(self) -> int:
        if self.victim is None:
            raise ZeroDivisionError("no index")
        self.victim.clear()
        return self.value

    def __hash__(self) -> int:
        return self.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Index) and other.value == self.value


def test_objects_with_index_are_hashable_tokens(native):
    """Objects with ``__index__`` are no int tokens: the general path numbers them as
    hashable tokens (never calling ``__index__``), both ways; as ``pad_id`` they are
    refused."""
    victim = [[1, 2]]
    hyps = [[Index(1, victim), Index(2)], [1, 2]]
    refs = [[[Index(1, victim)]], victim]
    assert _tokens_both_ways(hyps, refs) == ("rows", [([0, 1], [[0]]), ([0, 1], [[0, 1]])])
    assert victim == [[1, 2]]
    with pytest.raises(TypeError, match="pad_id"):
        normalize_batch([[1]], [[[1]]], pad_id=Index(1))
    with pytest.raises(TypeError, match="eos_id"):
        normalize_batch([np.array([1])], [[np.array([1])]], eos_id=Index(1, victim))


def test_numbering_used_by_another_thread_while_gather_numbers(native):
    """While gather numbers lines without the GIL, another thread asks the Numbering for its
    length and tokens (those of the calls before), and tries number() and __init__ on it
    (refused: it is busy); a gather that finds it busy is refused the same way. No harm to
    either."""
    numbering = native.Numbering(rules="13a")
    lines = [f"w{k} x{k % 97}. y" for k in range(10_000)]
    refs = [[line, None] for line in lines]
    gathering, stop = threading.Event(), threading.Event()
    refused: list[str] = []

    def poke() -> None:
        while not stop.is_set():
            assert len(numbering.tokens) >= 0 and len(numbering) >= 0
            if not gathering.wait(0.001):
                continue
            for call in (lambda: numbering.number(["a b"]),
                         lambda: numbering.__init__(rules="13a")):
                try:
                    call()
                except RuntimeError as error:
                    refused.append(str(error))
            while gathering.is_set():  # once per gather
                assert len(numbering.tokens) >= 0 and len(numbering) >= 0

    other = threading.Thread(target=poke)
    other.start()
    done = 0
    try:
        for _ in range(100):
            gathering.set()
            try:
                gathered = _text_gather(native, lines, refs, numbering=numbering)
            except RuntimeError as error:  # the other thread's number() was running
                assert "already running" in str(error)
                continue
            finally:
                gathering.clear()
            _gathered_rows(gathered, len(lines))
            done += 1
            if done == 2:
                break
    finally:
        stop.set()
        other.join()
    assert done and all("running" in message for message in refused)
    ids = _gathered_rows(_text_gather(native, lines[:3], refs[:3], numbering=numbering), 3)[0]
    assert [numbering.tokens[i] for i in ids[0]] == ["w0", "x0", ".", "y"]


# ------------------------------------------------------------ regressions (found here)


def test_str_subclass_tokens_compare_as_python_does(native):
    """Found by the fuzz test: str tokens (and a str pad_id) of a subclass that compares
    without case were compared by their characters by the compiled gather, by ``==`` (as in
    NLTK) by the general path. They go the general path now."""
    hyps = [[CaseBlind("A"), "b", "p"]]
    refs = [[[CaseBlind("a"), CaseBlind("B")], ["P", "P"]]]
    # A and a are one token; b and B too (CaseBlind's == is the one Python asks first)
    assert _tokens_both_ways(hyps, refs) == ("rows", [([0, 1, 2], [[0, 1], [3, 3]])])
    # "p" is padding (the dictionary finds it by hash("p"), then CaseBlind's ==); "P" is not
    assert _tokens_both_ways([["A", "p", "b"]], [[["a", "b"], ["P"]]], pad_id=CaseBlind(
        "P")) == ("rows", [([0, 1], [[2, 1], [3]])])


def test_int_subclass_tokens_are_read_as_the_general_path_reads_them(native):
    """Found by the fuzz test: an int subclass whose ``__int__`` says another number was
    read by its value by the compiled gather, by ``__int__`` by NumPy on the general path.
    It goes the general path now (bools, whose type is exact, stay)."""

    class Shifted(int):
        def __int__(self) -> int:
            return int.__int__(self) + 1

    hyps, refs = [[Shifted(1), 2, True]], [[[2, 1]]]
    assert _tokens_both_ways(hyps, refs) == ("rows", [([0, 0, 1], [[0, 1]])])
    assert native.gather(hyps, refs, None, False, None, None, None, False) is None


def test_list_subclasses_whose_len_lies(native):
    """Found by the fuzz test: a list subclass whose ``len`` lies was read by its items by
    the compiled gather and sized by ``len`` after it (``cannot reshape array``); and a
    sentence whose ``len`` lies shifted every sentence after it on the general path, which
    read the tokens by iterating and the lengths by ``len`` (a silent wrong row). Each
    sequence is now read once, by its items, on the general path; the compiled gather
    takes lists and tuples themselves only."""
    for names in NAMES:
        assert _tokens_both_ways(ListSubclass([[1], [2]], -1), [[[1]], [[2]]], names) == (
            "refused", "ValueError", f"{names[0]} and {names[1]} must have the same batch "
            "size; got 1 hypotheses and 2 entries of references")
    # the lists are read by their items: one row, whatever len() says
    rows = [([0, 1, 2], [[3, 0, 1]]), ([0], [[0]])]
    for lying in (LyingLength([5, 6, 7], 1), LyingLength([5, 6, 7], 5),
                  ListSubclass([5, 6, 7], -2), ListSubclass([5, 6, 7], 2)):
        assert _tokens_both_ways([lying, [4]], [[[8, 5, 6]], [[4]]], lying=True) == (
            "rows", rows)
    for hyps, refs in [(ListSubclass(["a b", "c"], -1), ["a b", "c"]),
                       (["a b", "c"], LyingLength(["a b", "c", "d"], 2))]:
        outcome = _text_both_ways(hyps, refs, tokenize="13a", lying=True)
        assert outcome[:2] == ("refused", "ValueError") and "batch size" in outcome[2]
    assert _text_both_ways(["a b", "c"], [ListSubclass(["a b", "x"], -1), "c"],
                           tokenize="13a") == ("rows", [([0, 1], [[0, 1], [2]]), ([0], [[0]])])


def test_tokens_after_the_end_of_a_sentence_are_read_too(native):
    """Found by the fuzz test: the compiled gather stopped reading a sentence at its eos,
    so a token after it that the general path, which reads every token, numbers otherwise
    (a Python int outside int64: every token then numbered as a Python value) or refuses
    (a uint64 array item above int64, an unhashable token) was taken as it was."""
    for hyps, refs in (([[]], [[[1, 2**63]]]), ([[5, 1, -(2**64)]], [[[5]]])):
        assert _tokens_both_ways(hyps, refs, eos_id=1)[0] == "rows"
    cases = [
        ([[5, 1, [2]]], [[[5]]], 1, r"hypotheses[0][2] must be a hashable token"),
        ([["a", "</s>", ["x"]]], [[["a"]]], "</s>", "hypotheses[0][2] must be a hashable"),
        ([np.array([5, 1, 2**64 - 1], np.uint64)], [[np.array([5])]], 1,
         "hypotheses holds token ids above 2**63 - 1"),
    ]
    for hyps, refs, eos, message in cases:
        outcome = _tokens_both_ways(hyps, refs, eos_id=eos)
        assert outcome[0] == "refused" and message in outcome[2], outcome
    # before the end, and with nothing to refuse after it: the same rows both ways
    assert _tokens_both_ways([[5, 1, 2.5, "a"]], [[[5, 1, 7]]], eos_id=1) == (
        "rows", [([0], [[0]])])
