"""The compiled part's ROUGE entry points: ``porter_stem`` (NLTK's Porter stemmer),
``Numbering(rules="rouge" / "rouge-porter")`` (rouge-score's tokenizer) and
``lcs_matches`` (the bit-parallel LCS and rouge-score's summary-level union LCS), against
plain Python, with hostile input for each (``tox -e sanitize`` runs this file under
AddressSanitizer and UndefinedBehaviorSanitizer).
"""

from __future__ import annotations

import contextlib
import random
import re
from collections import Counter

import numpy as np
import pytest
from compiled_part import require_compiled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REFUSALS = (TypeError, ValueError, OverflowError)
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def native():
    return require_compiled()


# ------------------------------------------------------------------------ porter_stem

SUFFIXES = ("", "s", "es", "ies", "ied", "ed", "eed", "ing", "ly", "er", "ation", "ational",
            "tional", "ness", "ment", "ful", "fulness", "ive", "iveness", "iviti", "biliti",
            "aliti", "alli", "alize", "icate", "ative", "iciti", "ical", "ous", "ousli", "ize",
            "izer", "ization", "enci", "anci", "bli", "entli", "eli", "ator", "alism", "logi",
            "fulli", "ance", "ence", "able", "ible", "ant", "ement", "ent", "ion", "tion", "ou",
            "ism", "ate", "iti", "y", "ll", "e", "sses", "ss", "*d", "ying")


def _words(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    words = ["sky", "skies", "dying", "news", "innings", "howe", "succeed", "İstanbul", "ΣΑΣ",
             "Straße", "MAKING", "a", "ab", "", "yyyy", "yyyyed", "ab*d", "*d", "ing", "ed"]
    for _ in range(count):
        stem = "".join(rng.choice("aeiouybcdlmnpstvwxz") for _ in range(rng.randint(0, 6)))
        words.append(stem + rng.choice(SUFFIXES))
    return words


def test_porter_stem_is_nltks(native):
    porter = pytest.importorskip("nltk.stem.porter")
    stemmer = porter.PorterStemmer()
    words = _words(1, 6000)
    assert native.porter_stem(words) == [stemmer.stem(word) for word in words]


def test_porter_stem_refuses_by_name(native):
    with pytest.raises(TypeError, match="words must be a list of str"):
        native.porter_stem(("a",))
    with pytest.raises(TypeError, match=r"words\[1\] must be a str"):
        native.porter_stem(["a", 3])
    with pytest.raises(TypeError, match="takes 1 argument"):
        native.porter_stem()
    assert native.porter_stem([]) == []


# -------------------------------------------------------------------- rouge numbering

NON_ALPHANUMERIC = re.compile(r"[^a-z0-9]+")


def rouge_tokens(line: str) -> list[str]:
    """rouge-score's ``tokenize.tokenize(line, None)``, written out."""
    return [t for t in re.split(r"\s+", NON_ALPHANUMERIC.sub(" ", line.lower()))
            if re.fullmatch("[a-z0-9]+", t)]


LINE = st.text(alphabet=st.sampled_from([*"aAzZ09 \t.,;-'İKΣé東ß_()x", "\u212a", "\u0307"]),
               max_size=30)


@FUZZ
@given(lines=st.lists(LINE, max_size=8))
def test_rouge_rules_are_rouge_scores_tokenizer(native, lines):
    numbering = native.Numbering(rules="rouge")
    ids, counts = numbering.number(lines)
    ids, counts = np.frombuffer(ids, np.int64), np.frombuffer(counts, np.int64)
    tokens, position = numbering.tokens, 0
    for line, count in zip(lines, counts, strict=True):
        assert [tokens[i] for i in ids[position : position + count]] == rouge_tokens(line)
        position += count


def test_rouge_porter_rules_stem_the_long_tokens(native):
    porter = pytest.importorskip("nltk.stem.porter")
    stemmer = porter.PorterStemmer()
    lines = [" ".join(_words(seed, 12)) + " Relational, RUNNING!" for seed in range(200)]
    numbering = native.Numbering(rules="rouge-porter")
    ids, counts = numbering.number(lines)
    ids, counts = np.frombuffer(ids, np.int64), np.frombuffer(counts, np.int64)
    tokens, position = numbering.tokens, 0
    for line, count in zip(lines, counts, strict=True):
        expected = [stemmer.stem(t) if len(t) > 3 else t for t in rouge_tokens(line)]
        assert [tokens[i] for i in ids[position : position + count]] == expected
        position += count
    with pytest.raises(ValueError, match="rules must be None, '13a', 'char', 'punctuation', "
                                         "'rouge' or 'rouge-porter'"):
        native.Numbering(rules="porter")


# ------------------------------------------------------------------------ lcs_matches

def lcs_table(ref: list[int], hyp: list[int]) -> list[list[int]]:
    table = [[0] * (len(hyp) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(hyp) + 1):
            table[i][j] = table[i - 1][j - 1] + 1 if ref[i - 1] == hyp[j - 1] else \
                max(table[i - 1][j], table[i][j - 1])
    return table


def union_hits(ref_sentences: list[list[int]], hyp_sentences: list[list[int]]) -> int:
    """rouge-score's ``_summary_level_lcs`` hits, written out."""
    hyp_counts = Counter(t for s in hyp_sentences for t in s)
    ref_counts = Counter(t for s in ref_sentences for t in s)
    hits = 0
    for ref in ref_sentences:
        union: set[int] = set()
        for hyp in hyp_sentences:
            table, i, j = lcs_table(ref, hyp), len(ref), len(hyp)
            while i > 0 and j > 0:
                if ref[i - 1] == hyp[j - 1]:
                    union.add(i - 1)
                    i, j = i - 1, j - 1
                elif table[i][j - 1] > table[i - 1][j]:
                    j -= 1
                else:
                    i -= 1
        for position in sorted(union):
            token = ref[position]
            if hyp_counts[token] > 0 and ref_counts[token] > 0:
                hits += 1
                hyp_counts[token] -= 1
                ref_counts[token] -= 1
    return hits


def sentences(ids: np.ndarray, marks: np.ndarray, start: int, length: int) -> list[list[int]]:
    out: list[list[int]] = []
    for p in range(start, start + length):
        if p == start or marks[p]:
            out.append([])
        out[-1].append(int(ids[p]))
    return out


VALUES = st.sampled_from([0, 1, 2, 3, -1, 2**63 - 1, -(2**63), 7, 7, 7])


@FUZZ
@given(data=st.data(), rows=st.integers(0, 4), refs=st.integers(0, 3),
       scratch=st.sampled_from([1, 2, 5, 1 << 18]))
def test_lcs_matches_with_valid_slices_is_exact(native, data, rows, refs, scratch):
    """Slices anywhere (overlapping, shared, empty), sentence marks anywhere, and scratch
    budgets that force the mask lists and the thinned rows: plain Python's numbers."""
    ids = np.array(data.draw(st.lists(VALUES, max_size=40)), dtype=np.int64)
    marks = np.array(data.draw(st.lists(st.sampled_from([0, 0, 1, -5]), min_size=len(ids),
                                        max_size=len(ids))), dtype=np.int64)
    size = len(ids)

    def slices(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        count = int(np.prod(shape))
        starts = np.array(data.draw(st.lists(st.integers(0, size), min_size=count,
                                             max_size=count)), dtype=np.int64)
        lengths = np.array([data.draw(st.integers(0, size - s)) for s in starts],
                           dtype=np.int64)
        return starts.reshape(shape), lengths.reshape(shape)

    hyp_starts, hyp_lengths = slices((rows,))
    ref_starts, ref_lengths = slices((rows, refs))
    lcs = np.full((rows, refs), -7, dtype=np.int64)
    hits = np.full((rows, refs), -7, dtype=np.int64)
    begin = data.draw(st.integers(0, rows))
    end = data.draw(st.integers(begin, rows))
    native.lcs_matches(ids, hyp_starts, hyp_lengths, ids, ref_starts, ref_lengths, lcs, hits,
                       marks, marks, begin, end, scratch)
    for row in range(rows):
        if not begin <= row < end:
            assert (lcs[row] == -7).all() and (hits[row] == -7).all()
            continue
        hyp = ids[hyp_starts[row] : hyp_starts[row] + hyp_lengths[row]].tolist()
        hyp_sentences = sentences(ids, marks, int(hyp_starts[row]), int(hyp_lengths[row]))
        for r in range(refs):
            start, length = int(ref_starts[row, r]), int(ref_lengths[row, r])
            ref = ids[start : start + length].tolist()
            assert lcs[row, r] == lcs_table(ref, hyp)[-1][-1]
            assert hits[row, r] == union_hits(sentences(ids, marks, start, length),
                                              hyp_sentences)


def test_long_rows_with_every_scratch_budget(native):
    """Rows of hundreds of tokens (several words of bits, carries across them) in one and
    in many sentences, with the masks in a table and in lists, the rows kept and thinned."""
    rng = np.random.default_rng(0)
    ids = rng.integers(0, 5, size=900).astype(np.int64)
    marks = (rng.random(900) < 0.01).astype(np.int64)
    hyp_starts, hyp_lengths = np.array([0, 300]), np.array([300, 150])
    ref_starts, ref_lengths = np.array([[450, 700], [600, 0]]), np.array([[250, 200], [300, 0]])
    results = []
    for scratch in (1, 64, 1 << 18):
        lcs, hits = np.zeros((2, 2), np.int64), np.zeros((2, 2), np.int64)
        native.lcs_matches(ids, hyp_starts, hyp_lengths, ids, ref_starts, ref_lengths, lcs,
                           hits, marks, marks, 0, 2, scratch)
        results.append((lcs.tolist(), hits.tolist()))
    assert results[0] == results[1] == results[2]
    lcs, hits = results[0]
    for row in range(2):
        hyp = ids[hyp_starts[row] : hyp_starts[row] + hyp_lengths[row]].tolist()
        for r in range(2):
            ref = ids[ref_starts[row, r] : ref_starts[row, r] + ref_lengths[row, r]].tolist()
            assert lcs[row][r] == lcs_table(ref, hyp)[-1][-1]
    whole = np.zeros((2, 2), np.int64)
    native.lcs_matches(ids, hyp_starts, hyp_lengths, ids, ref_starts, ref_lengths, None, whole,
                       None, None, 0, 2)
    assert whole.tolist() == lcs  # without marks, a document is one sentence: its LCS


HOSTILE = st.sampled_from([0, 1, 3, -1, -(2**63), 2**63 - 1, 2**31, 40, 41])


@FUZZ
@given(data=st.data())
def test_lcs_matches_refuses_what_does_not_fit(native, data):
    rows, refs = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))
    ids = np.arange(data.draw(st.integers(0, 41)), dtype=np.int64)

    def array(shape: tuple[int, ...], writable: bool = False) -> object:
        kind = data.draw(st.sampled_from(["ok"] * 6 + ["int32", "float", "list", "readonly",
                                                       "shape"]))
        count = int(np.prod(shape))
        values = np.array(data.draw(st.lists(HOSTILE, min_size=count, max_size=count)),
                          dtype=np.int64).reshape(shape)
        if kind == "int32":
            return values.astype(np.int32)
        if kind == "float":
            return values.astype(np.float64)
        if kind == "list":
            return values.tolist()
        if kind == "readonly" and writable:
            values.flags.writeable = False
        if kind == "shape":
            return np.zeros(count + 1, np.int64)
        return values

    marks = data.draw(st.sampled_from([None, "ok", "short"]))
    mark_array = None if marks is None else np.zeros(len(ids) - (marks == "short"), np.int64) \
        if len(ids) or marks == "ok" else np.zeros(0, np.int64)
    arguments = [ids, array((rows,)), array((rows,)), ids, array((rows, refs)),
                 array((rows, refs)), array((rows, refs), True),
                 data.draw(st.sampled_from([None, "out"])), mark_array, mark_array,
                 data.draw(HOSTILE), data.draw(HOSTILE)]
    if arguments[7] == "out":
        arguments[7] = np.zeros((rows, refs), np.int64)
    with contextlib.suppress(REFUSALS):
        native.lcs_matches(*arguments, data.draw(st.sampled_from([1, 0, -3, 2**62])))


def test_lcs_matches_argument_errors_name_the_argument(native):
    ids = np.array([1, 2], dtype=np.int64)
    one, two = np.zeros(1, np.int64), np.zeros((1, 1), np.int64)
    good = [ids, one, one + 2, ids, two, two + 2, two.copy(), two.copy(), None, None, 0, 1]
    native.lcs_matches(*good)
    cases = {6: ("lcs", np.zeros((1, 2), np.int64)), 8: ("hyp_marks", np.zeros(3, np.int64)),
             9: ("ref_marks", [0, 1]), 1: ("hyp_starts", np.zeros(1, np.int32))}
    for position, (name, value) in cases.items():
        bad = list(good)
        bad[position] = value
        with pytest.raises(REFUSALS, match=name):
            native.lcs_matches(*bad)
    with pytest.raises(ValueError, match="outside hyp_ids"):
        native.lcs_matches(ids, one, one + 3, *good[3:])
    with pytest.raises(ValueError, match="outside ref_ids"):
        native.lcs_matches(*good[:4], two - 1, *good[5:])
    with pytest.raises(ValueError, match="begin and end"):
        native.lcs_matches(*good[:10], 1, 0)
    with pytest.raises(TypeError, match="begin must be an integer"):
        native.lcs_matches(*good[:10], "0", 1)
    with pytest.raises(ValueError, match="scratch_words must be at least 1"):
        native.lcs_matches(*good, 0)
    with pytest.raises(TypeError, match="takes 12 or 13 arguments"):
        native.lcs_matches(*good[:5])
