"""Hostile input for every entry point of the compiled part (``bleusuite._native``).

Random sizes, offsets and lengths that do not fit their buffers, negative values, wrong
types and shapes, wide and odd Unicode, empty input: each call either gives the right
answer (checked against plain Python) or refuses with a TypeError, ValueError or
OverflowError, and never reads or writes outside its buffers. ``tox -e sanitize``
(tools/sanitize.py) runs this file under AddressSanitizer and UndefinedBehaviorSanitizer,
where any stray access fails the run.
"""

from __future__ import annotations

import contextlib
import itertools
from collections import Counter

import numpy as np
import pytest
from compiled_part import require_compiled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REFUSALS = (TypeError, ValueError, OverflowError)
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def native():
    return require_compiled()


def python_counts(hyp: list[int], refs: list[list[int]], orders: int) -> tuple[
        list[int], list[list[int]]]:
    """Clipped matches of orders 1..N, and per reference, by counting n-gram tuples."""
    clipped, per_ref = [], [[] for _ in refs]
    for n in range(1, orders + 1):
        grams = Counter(tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1))
        ref_grams = [Counter(tuple(r[i : i + n]) for i in range(len(r) - n + 1)) for r in refs]
        clipped.append(sum(min(c, max((rg[g] for rg in ref_grams), default=0))
                           for g, c in grams.items()))
        for k, rg in enumerate(ref_grams):
            per_ref[k].append(sum(min(c, rg[g]) for g, c in grams.items()))
    return clipped, per_ref


VALUES = st.sampled_from([0, 1, 2, 3, -1, 2**62, -(2**62), 2**63 - 1, -(2**63), 7, 7, 7])


@FUZZ
@given(data=st.data(), rows=st.integers(0, 5), refs=st.integers(0, 3),
       orders=st.integers(1, 7), per_reference=st.booleans(), prefix=st.booleans())
def test_count_matches_with_valid_slices_is_exact(native, data, rows, refs, orders,
                                                   per_reference, prefix):
    """Slices anywhere in the buffers (overlapping, shared between hypotheses and
    references, empty): the counts of plain Python, and with a ``prefix`` buffer (of any
    width from the longest hypothesis up) those of every prefix."""
    ids = np.array(data.draw(st.lists(VALUES, max_size=40)), dtype=np.int64)
    size = len(ids)

    def slices(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        starts = np.array(data.draw(st.lists(st.integers(0, size), min_size=int(np.prod(shape)),
                                             max_size=int(np.prod(shape)))), dtype=np.int64)
        lengths = np.array([data.draw(st.integers(0, size - start)) for start in starts],
                           dtype=np.int64)
        return starts.reshape(shape), lengths.reshape(shape)

    hyp_starts, hyp_lengths = slices((rows,))
    ref_starts, ref_lengths = slices((rows, refs))
    clipped = np.full((rows, orders), -7, dtype=np.int64)
    per_ref = np.full((rows, refs, orders), -7, dtype=np.int64) if per_reference else None
    begin = data.draw(st.integers(0, rows))
    end = data.draw(st.integers(begin, rows))
    width = int(hyp_lengths[begin:end].max(initial=0)) + data.draw(st.integers(0, 2))
    prefixes = np.full((rows, width, orders), -7, dtype=np.int64) if prefix else None
    native.count_matches(ids, hyp_starts, hyp_lengths, ids, ref_starts, ref_lengths, clipped,
                         per_ref, begin, end, prefixes)
    for row in range(rows):
        if not begin <= row < end:  # rows outside the range are not touched
            assert (clipped[row] == -7).all()
            continue
        hyp = ids[hyp_starts[row] : hyp_starts[row] + hyp_lengths[row]].tolist()
        row_refs = [ids[s : s + n].tolist() for s, n in zip(ref_starts[row], ref_lengths[row],
                                                              strict=True)]
        expected, expected_per_ref = python_counts(hyp, row_refs, orders)
        assert clipped[row].tolist() == expected
        if per_ref is not None:
            assert per_ref[row].tolist() == expected_per_ref
        if prefixes is not None:  # entry t - 1: the first t tokens (the whole past the end)
            assert prefixes[row].tolist() == [python_counts(hyp[:t], row_refs, orders)[0]
                                              for t in range(1, width + 1)]


HOSTILE_INTS = st.sampled_from([0, 1, 3, -1, -(2**63), 2**63 - 1, 2**31, 2**62, 40, 41])


@FUZZ
@given(data=st.data())
def test_count_matches_refuses_what_does_not_fit(native, data):
    """Offsets, lengths, shapes, dtypes and ranges drawn to be wrong as often as right."""
    rows, refs, orders = (data.draw(st.integers(0, 3)) for _ in range(3))
    ids = np.arange(data.draw(st.integers(0, 41)), dtype=np.int64)

    def array(shape: tuple[int, ...], writable: bool = False) -> object:
        kind = data.draw(st.sampled_from(["ok"] * 6 + ["int32", "float", "strided", "list",
                                                       "readonly", "shape", "none"]))
        values = np.array(data.draw(st.lists(HOSTILE_INTS, min_size=int(np.prod(shape)),
                                             max_size=int(np.prod(shape)))),
                          dtype=np.int64).reshape(shape)
        if kind == "int32":
            return values.astype(np.int32)
        if kind == "float":
            return values.astype(np.float64)
        if kind == "strided":
            return np.repeat(values, 2, axis=-1)[..., ::2] if values.ndim else values
        if kind == "list":
            return values.tolist()
        if kind == "readonly" and writable:
            values.flags.writeable = False
        if kind == "shape":
            return values.reshape(-1)[:-1] if values.size else np.zeros(3, np.int64)
        if kind == "none":
            return None
        return values

    arguments = [ids, array((rows,)), array((rows,)), ids, array((rows, refs)),
                 array((rows, refs)), array((rows, orders), writable=True),
                 array((rows, refs, orders), writable=True),
                 data.draw(HOSTILE_INTS), data.draw(HOSTILE_INTS)]
    with contextlib.suppress(REFUSALS):
        native.count_matches(*arguments)


def test_count_matches_messages_name_the_argument(native):
    ids = np.arange(10, dtype=np.int64)
    one, zero = np.array([3], dtype=np.int64), np.array([0], dtype=np.int64)
    refs = np.array([[0]], dtype=np.int64)
    out = np.zeros((1, 4), dtype=np.int64)
    cases = [
        ((ids.astype(np.int32), zero, one, ids, refs, refs, out, None, 0, 1), "hyp_ids"),
        ((ids, zero, np.array([11]), ids, refs, refs, out, None, 0, 1), "outside hyp_ids"),
        ((ids, zero, np.array([-1]), ids, refs, refs, out, None, 0, 1), "outside hyp_ids"),
        ((ids, zero, one, ids, refs, np.array([[20]]), out, None, 0, 1), "outside ref_ids"),
        ((ids, zero, one, ids, refs, refs, out[:, :0], None, 0, 1), "clipped"),
        ((ids, zero, one, ids, refs, refs, np.zeros((2, 4), np.int64), None, 0, 1), "clipped"),
        ((ids, zero, one, ids, refs, refs, out, np.zeros((1, 2, 4), np.int64), 0, 1),
         "per_reference"),
        ((ids, zero, one, ids, refs, refs, out, None, 0, 2), "begin and end"),
        ((ids, zero, one, ids, refs, refs, out, None, -1, 1), "begin and end"),
        ((ids, zero, one, ids, refs, refs, np.zeros((1, 4), np.float64), None, 0, 1), "clipped"),
    ]
    for arguments, fragment in cases:
        with pytest.raises(REFUSALS, match=fragment):
            native.count_matches(*arguments)
    readonly = out.copy()
    readonly.flags.writeable = False
    with pytest.raises(TypeError, match="clipped"):
        native.count_matches(ids, zero, one, ids, refs, refs, readonly, None, 0, 1)
    with pytest.raises(TypeError, match="10 or 11 arguments"):
        native.count_matches(ids)


def test_count_matches_does_not_grow_with_the_order(native):
    """A 3,000-token line at max_order 100,000 needs the memory of its tokens, not of its
    orders: the orders stop once nothing can match."""
    line = np.arange(3000, dtype=np.int64)
    out = np.zeros((1, 100_000), dtype=np.int64)
    starts, lengths = np.array([0]), np.array([3000])
    native.count_matches(line, starts, lengths, line, starts[:, None], lengths[:, None], out,
                         None, 0, 1)
    assert out[0, :3].tolist() == [3000, 2999, 2998] and out[0, 2999] == 1
    assert out[0, 3000:].sum() == 0


ODD = st.sampled_from(["a", "é", "ж", "東", "😀", "\U0010ffff", "\ud800", "\udfff", "\x00",
                       " ", "\u2028", "\x85", "\n", "\t", "\u3000", "\xa0", "-", "&amp;"])


def python_numbering(calls: list[list[str]], tokenize: object) -> list[tuple[list[int],
                                                                             list[int]]]:
    from bleusuite.text import PythonNumbering

    twin = PythonNumbering(tokenize)  # type: ignore[arg-type]
    return [tuple(a.tolist() for a in twin.number(lines)) for lines in calls]  # type: ignore


@FUZZ
@given(calls=st.lists(st.lists(st.lists(ODD, max_size=16).map("".join), max_size=6),
                      min_size=1, max_size=3),
       tokenizer=st.sampled_from([None, "upper", "split", "empty", "13a", "13a rules"]))
def test_numbering_of_odd_unicode_is_pythons(native, calls, tokenizer):
    """Lone surrogates, the last code point, NUL, every kind of line end: the ids of the
    Python twin."""
    from bleusuite.text.tokenizers import load_tokenizer

    thirteen_a = load_tokenizer("13a").tokenize
    tokenize = {None: None, "upper": str.upper, "split": lambda w: " x ".join(w),
                "empty": lambda w: "", "13a": lambda w: thirteen_a(w),
                "13a rules": thirteen_a}[tokenizer]
    numbering = (native.Numbering(rules="13a") if tokenizer == "13a rules"
                 else native.Numbering(tokenize))
    ours = [tuple(np.frombuffer(a, np.int64).tolist() for a in numbering.number(lines))
            for lines in calls]
    assert ours == python_numbering(calls, tokenize)
    tokens = numbering.tokens
    tokens.clear()  # a copy: the numbering keeps its own
    assert len(numbering.tokens) == len(numbering)


@FUZZ
@given(data=st.data())
def test_libm_map_with_hostile_buffers(native, data):
    """Arrays of any dtype, shape, order and length for ``values`` and ``out``: math's
    numbers where both are float64 of as many items (C-contiguous), else a refusal."""
    dtypes = st.sampled_from([np.float64, np.float64, np.float32, np.int64, np.uint8])

    def array() -> np.ndarray:
        shape = data.draw(st.lists(st.integers(0, 4), max_size=3))
        made = np.asarray(np.random.default_rng(len(shape)).uniform(-5, 5, shape),
                          dtype=data.draw(dtypes))
        return made.T if data.draw(st.booleans()) else made

    values, out = array(), array()
    function = data.draw(st.sampled_from(["log", "exp", "", "lo"]))
    try:
        unusual = native.libm_map(function, values, out)
    except REFUSALS:
        return
    assert values.dtype == out.dtype == np.float64 and values.size == out.size
    import math

    want = [getattr(math, function)(v) if function == "exp" or v > 0 else None
            for v in values.reshape(-1).tolist()]
    assert unusual == sum(w is None for w in want)
    assert all(w is None or g == w for g, w in zip(out.reshape(-1).tolist(), want, strict=True))


def test_numbering_refuses_bad_input_by_name(native):
    with pytest.raises(TypeError, match="lines must be a list"):
        native.Numbering().number("a b")
    with pytest.raises(TypeError, match=r"lines\[1\] must be a str"):
        native.Numbering().number(["a", b"b"])
    with pytest.raises(TypeError, match="tokenize must be a callable"):
        native.Numbering(3)
    with pytest.raises(TypeError, match="tokenize must return a str"):
        native.Numbering(lambda w: 3).number(["a"])
    with pytest.raises(ValueError, match="not initialised"):
        native.Numbering.__new__(native.Numbering).number(["a"])


def test_numbering_survives_a_tokenizer_that_misbehaves(native):
    """A tokenizer that raises, or that calls the numbering back, or that changes the list
    being numbered: a clean error or a consistent result, never a crash."""
    lines = ["a b", "c d"]

    def calls_back(word: str) -> str:
        return " ".join(numbering.number([word]) and [word])

    numbering = native.Numbering(calls_back)
    with pytest.raises(RuntimeError, match="already running"):
        numbering.number(["a"])

    def shrinks(word: str) -> str:
        lines.clear()
        return word

    shrinking = native.Numbering(shrinks)
    ids, counts = shrinking.number(lines)
    assert np.frombuffer(counts, np.int64).tolist() == [2]  # the list had one line left

    def fails(word: str) -> str:
        if word == "bad":
            raise KeyError(word)
        return word

    failing = native.Numbering(fails)
    with pytest.raises(KeyError):
        failing.number(["ok bad"])
    ids, _ = failing.number(["ok fine ok"])
    assert np.frombuffer(ids, np.int64).tolist() == [0, 1, 0]
    assert failing.tokens == ["ok", "fine"]


def test_many_tokens_and_growth(native):
    numbering = native.Numbering()
    words = [f"w{i}" for i in range(50_000)]
    ids, _ = numbering.number([" ".join(chunk) for chunk in itertools.batched(words, 1000)]
                              if hasattr(itertools, "batched") else [" ".join(words)])
    assert np.frombuffer(ids, np.int64).tolist() == list(range(50_000))
    assert numbering.tokens == words


def test_the_type_stub_says_what_the_module_takes(native):
    """``bleusuite/_native.pyi`` gives each function and method the parameters of the
    compiled part's own signatures (it once gave clipped_matches 4 of its 5 arguments)."""
    import ast
    import inspect
    from pathlib import Path

    stub = ast.parse((Path(native.__file__).parent / "_native.pyi").read_text())

    def parameters(function: ast.FunctionDef) -> list[str]:
        arguments = function.args
        names = [a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]
        return [name for name in names if name != "self"]

    checked = 0
    for node in stub.body:
        if isinstance(node, ast.FunctionDef):
            runtime = inspect.signature(getattr(native, node.name))
            assert parameters(node) == list(runtime.parameters), node.name
            checked += 1
        elif isinstance(node, ast.ClassDef):
            cls = getattr(native, node.name)
            for member in node.body:
                if isinstance(member, ast.FunctionDef) and member.name == "__init__":
                    assert parameters(member) == list(inspect.signature(cls).parameters)
                    checked += 1
                elif isinstance(member, ast.FunctionDef) and not member.name.startswith("__"):
                    attribute = getattr(cls, member.name)
                    if callable(attribute):
                        runtime = inspect.signature(attribute)
                        assert parameters(member) == [p for p in runtime.parameters
                                                      if p != "self"], member.name
                    checked += 1
    assert checked >= 4
    public = {name for name in dir(native) if not name.startswith("_")}
    stubbed = {node.name for node in stub.body if isinstance(node, ast.FunctionDef | ast.ClassDef)}
    assert public == stubbed
