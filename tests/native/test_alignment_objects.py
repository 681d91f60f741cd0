"""The compiled part's jiwer objects (``bleusuite/csrc/alignment.c``): ``AlignmentChunk``
behaves as jiwer's dataclass (construction, repr, equality, fields that can be set, no
hash) and ``alignment_chunks`` / ``word_lists`` check what they are given."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from bleusuite import jiwer as ours
from bleusuite.jiwer import _PythonAlignmentChunk
from bleusuite.scores.wer.edits import TAGS

jiwer = pytest.importorskip("jiwer")
native = pytest.importorskip("bleusuite._native")

ARGS = ("substitute", 0, 2, 1, 3)


def test_the_chunk_looks_like_jiwers():
    ours_chunk, theirs = native.AlignmentChunk(*ARGS), jiwer.AlignmentChunk(*ARGS)
    assert repr(ours_chunk) == repr(theirs)
    assert repr(_PythonAlignmentChunk(*ARGS)) == repr(theirs)
    keywords = native.AlignmentChunk(type="substitute", ref_start_idx=0, ref_end_idx=2,
                                     hyp_start_idx=1, hyp_end_idx=3)
    assert keywords == ours_chunk
    assert (keywords != ours_chunk) is False  # tp_richcompare's NE
    assert native.AlignmentChunk("equal", 0, 2, 1, 3) != ours_chunk
    assert ours_chunk != ARGS  # a tuple is not a chunk, as for the dataclass
    with pytest.raises(TypeError):
        hash(ours_chunk)
    ours_chunk.ref_end_idx = 5
    assert ours_chunk.ref_end_idx == 5


def test_fields_hold_a_str_and_ints():
    chunk = native.AlignmentChunk(*ARGS)
    with pytest.raises(TypeError, match="type must be a str"):
        chunk.type = 1
    with pytest.raises(TypeError, match="hyp_end_idx must be an int"):
        chunk.hyp_end_idx = [chunk]  # a cycle could not be collected: refused
    with pytest.raises(TypeError, match="ref_start_idx must be an int"):
        native.AlignmentChunk("equal", 1.0, 2, 1, 3)
    with pytest.raises(AttributeError, match="cannot delete"):
        del chunk.type
    with pytest.raises(TypeError):
        native.AlignmentChunk("equal", 0, 1)
    empty = native.AlignmentChunk.__new__(native.AlignmentChunk)
    with pytest.raises(AttributeError, match="has no type"):
        _ = empty.type
    assert "unset" in repr(empty)


def test_process_words_chunks_equal_jiwers():
    refs = ["the cat sat on the mat", "a b", "", "x y z"]
    hyps = ["the cat sit on mat mat", "b c", "hello", "x y z"]
    refs, hyps = refs * 3, hyps * 3  # more rows than a small call
    refs[2], hyps[2] = "one", "hello"  # jiwer refuses an empty reference in a list
    got, want = ours.process_words(refs, hyps), jiwer.process_words(refs, hyps)
    assert [[repr(c) for c in row] for row in got.alignments] == \
        [[repr(c) for c in row] for row in want.alignments]
    assert got.references == want.references and got.hypotheses == want.hypotheses
    assert pickle.loads(pickle.dumps(got.references)) == want.references


def _opcodes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    chunks = np.array([[0, 0, 1, 0, 1], [3, 1, 1, 1, 2], [1, 0, 1, 0, 1]], dtype=np.int64)
    return chunks, np.array([0, 2], dtype=np.int64), np.array([2, 1], dtype=np.int64)


def test_alignment_chunks_checks_its_arguments():
    chunks, starts, counts = _opcodes()
    rows = native.alignment_chunks(chunks, starts, counts, TAGS)
    assert [[c.type for c in row] for row in rows] == [["equal", "insert"], ["substitute"]]
    with pytest.raises(ValueError, match="row 1: its opcodes are outside chunks"):
        native.alignment_chunks(chunks, starts, np.array([2, 2], dtype=np.int64), TAGS)
    bad = chunks.copy()
    bad[1, 0] = 7
    with pytest.raises(ValueError, match="tag is 7"):
        native.alignment_chunks(bad, starts, counts, TAGS)
    with pytest.raises(TypeError, match="tags must be a tuple of 4"):
        native.alignment_chunks(chunks, starts, counts, TAGS[:3])
    with pytest.raises(TypeError, match="counts must be"):
        native.alignment_chunks(chunks, starts, counts.astype(np.int32), TAGS)


def test_word_lists_shares_the_tokens():
    tokens = ["a", "b"]
    ids, counts = np.array([0, 1, 0], dtype=np.int64), np.array([2, 0, 1], dtype=np.int64)
    rows = native.word_lists(ids, counts, tokens)
    assert rows == [["a", "b"], [], ["a"]] and rows[2][0] is tokens[0]
    with pytest.raises(ValueError, match="2 is not an index of tokens"):
        native.word_lists(np.array([2], dtype=np.int64), np.array([1], dtype=np.int64), tokens)
    with pytest.raises(ValueError, match="line 0 goes past the ids"):
        native.word_lists(ids, np.array([4], dtype=np.int64), tokens)
    with pytest.raises(TypeError, match="tokens must be a list"):
        native.word_lists(ids, counts, tuple(tokens))
