"""Hostile input for the compiled part's ``cider_sums`` and ``cider_text_sums``
(``bleusuite/csrc/cider_sums.c``).

Batches of few distinct token values (n-grams repeated within and across sentences and
images, so that some are pruned as occurring once and others are not), extreme values,
empty sentences, images of one to several references, slices that overlap or share a
buffer: each call gives the CIDEr-D of its NumPy twin
(:func:`bleusuite.scores.cider.sorted_orders.cider_scores`) to 1e-12, or refuses with a
TypeError or ValueError, and never reads or writes outside its buffers. Captions of
Unicode spaces, long and short words of one-, two- and four-byte str give
``cider_text_sums`` the NumPy path's CIDEr-D (``Cider`` with the compiled part off).
``tox -e sanitize`` (tools/sanitize.py) runs this file under AddressSanitizer and
UndefinedBehaviorSanitizer.
"""

from __future__ import annotations

import numpy as np
import pytest
from compiled_part import compiled_on, require_compiled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleusuite.pycocoevalcap import Cider
from bleusuite.scores.cider.compiled_sums import (
    compiled_cider_scores,
    compiled_cider_text_scores,
)
from bleusuite.scores.cider.formula import runs
from bleusuite.scores.cider.sorted_orders import cider_scores

FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
VALUES = st.sampled_from([0, 1, 2, 3, 1, 2, 2**63 - 1, -(2**63), -1])


@pytest.fixture(scope="module")
def native():
    return require_compiled()


def twin(hyp_ids, hyp_starts, hyp_len, ref_ids, ref_starts, ref_len, ref_counts, order):
    ref_image = np.repeat(np.arange(len(hyp_len)), ref_counts)
    return cider_scores(runs(hyp_ids, hyp_starts, hyp_len), hyp_len,
                        runs(ref_ids, ref_starts, ref_len), ref_len, ref_image,
                        max_order=order, sigma=6.0, lookup=None, documents=None)


@FUZZ
@given(data=st.data(), images=st.integers(1, 5), order=st.sampled_from([1, 2, 4, 5]))
def test_cider_sums_are_the_twins(native, data, images, order):
    ids = np.array(data.draw(st.lists(VALUES, max_size=60)), dtype=np.int64)
    size = len(ids)
    counts = np.array([data.draw(st.integers(1, 4)) for _ in range(images)], dtype=np.int64)

    def slices(rows: int) -> tuple[np.ndarray, np.ndarray]:
        starts = data.draw(st.lists(st.integers(0, size), min_size=rows, max_size=rows))
        lengths = [data.draw(st.integers(0, min(size - s, 14))) for s in starts]
        return np.array(starts, dtype=np.int64), np.array(lengths, dtype=np.int64)

    hyp_starts, hyp_len = slices(images)
    ref_starts, ref_len = slices(int(counts.sum()))
    with compiled_on(True):
        got = compiled_cider_scores(ids, hyp_starts, hyp_len, ids, ref_starts, ref_len, counts,
                                    max_order=order, sigma=6.0)
    want = twin(ids, hyp_starts, hyp_len, ids, ref_starts, ref_len, counts, order)
    assert got is not None
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def arguments(hyp_len=(2,), ref_len=(2,), counts=(1,), order=4, log_size=None):
    ids = np.array([1, 2, 1, 2], dtype=np.int64)
    hyp_len = np.array(hyp_len, dtype=np.int64)
    ref_len = np.array(ref_len, dtype=np.int64)
    images, refs = len(hyp_len), len(ref_len)
    log_table = np.zeros(images + 1 if log_size is None else log_size)
    return [ids, np.zeros(images, dtype=np.int64), hyp_len, ids,
            np.zeros(refs, dtype=np.int64), ref_len, np.array(counts, dtype=np.int64), order,
            log_table, 0.0, np.zeros((images, order)), np.zeros((refs, order)),
            np.zeros((refs, order))]


@pytest.mark.parametrize("change", [
    {"hyp_len": (5,)}, {"ref_len": (-1,)}, {"counts": (0,)}, {"counts": (2,)},
    {"hyp_len": (2, 2), "counts": (1, 0), "ref_len": (2,)}, {"log_size": 1}, {"order": 0},
    {"order": 17},
])
def test_bad_input_is_refused(native, change):
    with pytest.raises((TypeError, ValueError)):
        native.cider_sums(*arguments(**change))


def test_bad_buffers_are_refused(native):
    for index, bad in [(0, np.zeros(4, dtype=np.int32)), (2, np.zeros(2, dtype=np.int64)),
                       (8, [0.0, 0.0]), (10, np.zeros((2, 4))), (12, np.zeros((1, 4))[:, ::2]),
                       (9, "log"), (7, 2.5)]:
        call = arguments()
        call[index] = bad
        with pytest.raises((TypeError, ValueError)):
            native.cider_sums(*call)
    with pytest.raises(TypeError):
        native.cider_sums(*arguments()[:12])
    read_only = arguments()
    read_only[10].flags.writeable = False
    with pytest.raises((TypeError, ValueError)):
        native.cider_sums(*read_only)


def test_empty_batch(native):
    call = arguments(hyp_len=(), ref_len=(), counts=())
    native.cider_sums(*call)
    assert call[10].shape == (0, 4)


#: words and separators that test cider_text_sums' split (str.split(): every Unicode space,
#: runs of them, the ends) and its keys (8 and 9+ code points, one- two- and four-byte str)
PIECES = st.sampled_from(["a", "b", "a", "ab", "abcdefgh", "abcdefghi", "abcdefghj", "é", "Ā",
                          "ĀĀĀĀĀĀĀĀĀ", "😀", "x\u200by", " ", " ", "  ", "\t", "\n", "\x85",
                          "\xa0", "\u2003", "\x1c", "a\x01b", "\x1b", "é\x7f"])
CAPTIONS = st.lists(PIECES, max_size=14).map("".join)


@FUZZ
@given(data=st.data(), images=st.integers(1, 5), order=st.sampled_from([1, 3, 4]))
def test_cider_text_sums_are_the_twins(native, data, images, order):
    hyps = [[data.draw(CAPTIONS)] for _ in range(images)]
    refs = [data.draw(st.lists(CAPTIONS, min_size=1, max_size=4)) for _ in range(images)]
    with compiled_on(True):
        got = compiled_cider_text_scores(hyps, refs, max_order=order, sigma=6.0)
    assert got is not None
    gts = {b: refs[b] for b in range(images)}
    res = {b: hyps[b] for b in range(images)}
    with compiled_on(False):
        want = Cider(n=order).compute_score(gts, res)[1]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


class Text(str):
    pass


@pytest.mark.parametrize("hyps, refs", [
    ([["a"]], [[]]), ([["a", "b"]], [["a"]]), ([("a",)], [["a"]]), ([["a"]], [("a",)]),
    ([[b"a"]], [["a"]]), ([["a"]], [["a", 3]]), ([[Text("a")]], [["a"]]),
])
def test_cider_text_sums_refuse_malformed_images(native, hyps, refs):
    refs_count = sum(len(r) for r in refs if isinstance(r, (list, tuple)))
    with pytest.raises(ValueError):
        native.cider_text_sums(hyps, refs, 4, np.zeros(2), 0.0, np.zeros(1, dtype=np.int64),
                               np.zeros(refs_count, dtype=np.int64), np.zeros((1, 4)),
                               np.zeros((refs_count, 4)), np.zeros((refs_count, 4)))
    with compiled_on(True):
        assert compiled_cider_text_scores(hyps, refs, max_order=4, sigma=6.0) is None


def test_cider_text_sums_refuse_bad_arguments(native):
    def call(**change):
        arguments = dict(hyps=[["a b"]], refs=[["a", "b"]], order=4, table=np.zeros(2),
                         hyp_len=np.zeros(1, dtype=np.int64),
                         ref_len=np.zeros(2, dtype=np.int64), hyp_norm2=np.zeros((1, 4)),
                         ref_norm2=np.zeros((2, 4)), dot=np.zeros((2, 4)))
        arguments.update(change)
        native.cider_text_sums(arguments["hyps"], arguments["refs"], arguments["order"],
                               arguments["table"], 0.0, arguments["hyp_len"],
                               arguments["ref_len"], arguments["hyp_norm2"],
                               arguments["ref_norm2"], arguments["dot"])

    call()
    for change in [{"order": 0}, {"order": 17}, {"table": np.zeros(1)},
                   {"ref_len": np.zeros(1, dtype=np.int64)},
                   {"ref_len": np.zeros(3, dtype=np.int64)}, {"dot": np.zeros((1, 4))},
                   {"hyp_len": np.zeros(2, dtype=np.int64)}, {"refs": [["a"], ["b"]]},
                   {"hyps": iter([["a"]])}, {"hyp_norm2": np.zeros((1, 4), dtype=np.float32)}]:
        with pytest.raises((TypeError, ValueError)):
            call(**change)


def _outputs(images, refs, order):
    return [np.zeros(images, dtype=np.int64), np.zeros(refs, dtype=np.int64),
            np.zeros((images, order)), np.zeros((refs, order)), np.zeros((refs, order))]


@pytest.mark.parametrize("order", [1, 4])
def test_the_sums_are_the_same_on_any_number_of_threads(native, order):
    # enough images for several blocks (256 images at least each), uneven reference counts,
    # empty captions, n-grams shared across images: the sums bit for bit on 1 to 7 threads
    rng = np.random.default_rng(45)
    images = 1800
    words = [f"w{k}" for k in range(60)]

    def caption():
        return " ".join(words[int(rng.zipf(1.5)) % 60] for _ in range(int(rng.integers(0, 14))))

    hyps = [[caption()] for _ in range(images)]
    refs = [[caption() for _ in range(int(rng.integers(1, 6)))] for _ in range(images)]
    count = sum(map(len, refs))
    table = np.log(np.maximum(1.0, np.arange(images + 1, dtype=np.float64)))
    results = []
    for workers in (1, 2, 3, 7):
        out = _outputs(images, count, order)
        native.cider_text_sums(hyps, refs, order, table, float(np.log(images)), *out, workers)
        results.append(out)
    for other in results[1:]:
        for a, b in zip(results[0], other, strict=True):
            np.testing.assert_array_equal(a, b)
    # the ids' entry point: the same sums as from the captions
    vocabulary = {word: k for k, word in enumerate(words)}
    flat = [[vocabulary[w] for w in c.split()] for c in [h[0] for h in hyps]]
    ref_flat = [[vocabulary[w] for w in c.split()] for r in refs for c in r]

    def packed(rows):
        lengths = np.array([len(row) for row in rows], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
        return np.array([t for row in rows for t in row], dtype=np.int64), starts, lengths

    hyp_ids, hyp_starts, hyp_len = packed(flat)
    ref_ids, ref_starts, ref_len = packed(ref_flat)
    counts = np.array([len(r) for r in refs], dtype=np.int64)
    for workers in (1, 3):
        norms = [np.zeros((images, order)), np.zeros((count, order)), np.zeros((count, order))]
        native.cider_sums(hyp_ids, hyp_starts, hyp_len, ref_ids, ref_starts, ref_len, counts,
                          order, table, float(np.log(images)), *norms, workers)
        for a, b in zip(results[0][2:], norms, strict=True):
            np.testing.assert_array_equal(a, b)
    with compiled_on(True):
        got = compiled_cider_text_scores(hyps, refs, max_order=order, sigma=6.0)
    want = twin(hyp_ids, hyp_starts, hyp_len, ref_ids, ref_starts, ref_len, counts, order)
    assert got is not None
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("workers", [0, -1, 2.0, "2"])
def test_bad_workers_are_refused(native, workers):
    with pytest.raises((TypeError, ValueError)):
        native.cider_sums(*arguments(), workers)
    with pytest.raises((TypeError, ValueError)):
        native.cider_text_sums([["a b"]], [["a"]], 4, np.zeros(2), 0.0, *_outputs(1, 1, 4),
                               workers)


def test_captions_split_between_threads_give_the_same_sums(native):
    # the words of the images' two halves are numbered apart (two tables) and merged: the
    # same word in a one-byte and in a two-byte str, words of more than 8 code points
    # (hashed keys), words met in one half only
    rng = np.random.default_rng(46)
    words = ["a", "ab", "abcdefgh", "abcdefghi", "abcdefghij", "é", "Ā", "ĀĀĀĀĀĀĀĀĀ", "😀",
             "x\u200by", "caf\xe9", "lemonade-stand", "z"]
    images = 1200

    def caption(half: int) -> str:
        pool = words if half == 0 else [*words[3:], "only-in-the-second-half"]
        picked = [pool[int(rng.integers(len(pool)))] for _ in range(int(rng.integers(0, 9)))]
        text = " ".join(picked)
        return text + " Ā" if rng.random() < 0.1 else text  # some str of two bytes a point

    hyps = [[caption(b * 2 // images)] for b in range(images)]
    refs = [[caption(b * 2 // images) for _ in range(int(rng.integers(1, 5)))]
            for b in range(images)]
    count = sum(map(len, refs))
    table = np.log(np.maximum(1.0, np.arange(images + 1, dtype=np.float64)))
    results = []
    for workers in (1, 2):
        out = _outputs(images, count, 4)
        native.cider_text_sums(hyps, refs, 4, table, float(np.log(images)), *out, workers)
        results.append(out)
    for a, b in zip(results[0], results[1], strict=True):
        np.testing.assert_array_equal(a, b)
    with compiled_on(True):
        got = compiled_cider_text_scores(hyps, refs, max_order=4, sigma=6.0)
    with compiled_on(False):
        want = Cider().compute_score(dict(enumerate(refs)), dict(enumerate(hyps)))[1]
    assert got is not None
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
