"""The counting pipeline, path by path, against a brute-force Counter count.

The batch-wide lookup table, the per-row alphabet (wide token ranges), the dense
renumbering (ids spread over the whole int64 range) and the order-by-order fallback (orders
whose packed keys would overflow 62 bits) must all give the same exact counts, on every
backend the tests can run here.
"""

from __future__ import annotations

import os
import zlib

import numpy as np
import pytest
from cases import VOCABULARIES, as_arrays, brute_force, random_batch
from compiled_part import require_compiled

import bleusuite
from bleusuite import backends, native
from bleusuite.counting import count_matches, count_pairs, kernel, ragged_rows
from bleusuite.inputs import normalize_batch


@pytest.mark.parametrize("vocab_name", list(VOCABULARIES))
@pytest.mark.parametrize("max_order", [1, 4, 9])
def test_counts_match_brute_force(vocab_name, max_order, pipeline):
    rng = np.random.default_rng(zlib.crc32(f"{vocab_name}{max_order}".encode()))
    vocab = VOCABULARIES[vocab_name]
    hyps, refs = random_batch(rng, 40, vocab, 14, 3)
    pad = int(vocab.min()) - 1 if vocab.min() > -(2**63) + 1 else int(vocab.max()) + 1
    hyp, ref = as_arrays(hyps, refs, pad)
    batch = normalize_batch(pipeline(hyp), pipeline(ref), pad_id=pad)
    counts = count_matches(batch, max_order, per_reference=True)
    clipped, per_ref = brute_force(hyps, refs, max_order)
    np.testing.assert_array_equal(backends.get_backend(counts.clipped).to_numpy(counts.clipped),
                                  clipped)
    got = backends.get_backend(counts.per_reference).to_numpy(counts.per_reference)
    np.testing.assert_array_equal(got[:, : per_ref.shape[1]], per_ref)


def test_order_by_order_fallback_on_long_sentences(pipeline):
    """Orders 1..12 on 300-token sentences: 12 ids of 9+ bits overflow a packed key, so the
    pipeline extends and renumbers n-gram ids order by order."""
    rng = np.random.default_rng(7)
    hyp = rng.integers(0, 400, size=(3, 300))
    ref = hyp.copy()
    ref[:, ::37] = 999  # break some long n-grams
    ref = ref[:, None, :]
    batch = normalize_batch(pipeline(hyp), pipeline(ref))
    counts = count_matches(batch, 12)
    clipped, _ = brute_force(hyp.tolist(), [[r] for r in ref[:, 0].tolist()], 12)
    np.testing.assert_array_equal(backends.get_backend(counts.clipped).to_numpy(counts.clipped),
                                  clipped)


def test_empty_hypotheses_and_empty_batch(pipeline):
    hyp = np.zeros((2, 5), dtype=np.int64)
    ref = np.array([[0, 0, 0, 0, 0], [3, 4, 0, 0, 0]])[:, None, :]
    ref[0, 0, 0] = 3  # row 0 needs a present reference
    scores = bleusuite.sentence_bleu(pipeline(hyp), pipeline(ref), pad_id=0, smooth="method1")
    assert backends.get_backend(scores).to_numpy(scores).tolist() == [0.0, 0.0]
    empty = bleusuite.sentence_bleu(pipeline(np.zeros((0, 4), np.int64)),
                                    pipeline(np.zeros((0, 4), np.int64)))
    assert tuple(empty.shape) == (0,)


def test_memory_grows_with_ngrams_not_vocabulary():
    """Token ids up to 2**40 (a 'vocabulary' of 10**12) cost no more than ids below 50k."""
    import tracemalloc

    rng = np.random.default_rng(0)
    small = rng.integers(0, 50_000, size=(64, 256))
    wide = small * 20_000_003 + 2**39  # same structure, ids spread over ~2**40

    def peak(arr):
        tracemalloc.start()
        bleusuite.sentence_bleu(arr, arr[:, ::-1].copy())
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    tokens_bytes = small.nbytes * 2
    assert peak(small) < 40 * tokens_bytes
    assert peak(wide) < 40 * tokens_bytes


@pytest.mark.parametrize("threads", ["1", "3"])
@pytest.mark.parametrize("block_entries", [1, 40, 200])
def test_row_blocks_give_the_same_counts(block_entries, threads, monkeypatch):
    """CPU backends count in blocks of rows, on several threads; any block size and thread
    count give the same exact counts."""
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", threads)
    monkeypatch.setenv("BLEUSUITE_COUNTING", "compact")  # the blocks of the NumPy pipeline
    rng = np.random.default_rng(11)
    hyps, refs = random_batch(rng, 30, np.arange(2, 9), 12, 3)
    hyp, ref = as_arrays(hyps, refs, pad=0)
    batch = normalize_batch(hyp, ref, pad_id=0)
    monkeypatch.setattr(batch.backend, "block_entries", block_entries)
    counts = count_matches(batch, 5, per_reference=True)
    clipped, per_ref = brute_force(hyps, refs, 5)
    np.testing.assert_array_equal(counts.clipped, clipped)
    np.testing.assert_array_equal(counts.per_reference[:, : per_ref.shape[1]], per_ref)
    scores = bleusuite.sentence_gleu(hyp, ref, pad_id=0)
    monkeypatch.setattr(batch.backend, "block_entries", None)
    np.testing.assert_array_equal(scores, bleusuite.sentence_gleu(hyp, ref, pad_id=0))


def test_thread_setting_is_checked(monkeypatch):
    from bleusuite.threads import worker_threads

    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "2")
    assert worker_threads() == 2
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "0")
    with pytest.raises(ValueError, match="BLEUSUITE_NUM_THREADS"):
        worker_threads()
    monkeypatch.delenv("BLEUSUITE_NUM_THREADS")
    # every CPU this process may use, with no cap below the machine's cores
    available = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                 else os.cpu_count())
    assert worker_threads() == available


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize("layout", ["right", "left", "mixed", "eos", "none"])
def test_normalisation_on_threads_equals_one_pass(monkeypatch, threads, layout):
    """Rows split over worker threads normalise exactly as in one pass; right-padded input
    is kept as it is (no copy), other layouts are joined from the blocks."""
    from bleusuite import inputs

    rng = np.random.default_rng(threads)
    rows, width = 37, 23
    hyp = rng.integers(3, 40, size=(rows, width))
    refs = rng.integers(3, 40, size=(rows, 2, width + 4))
    hyp_len = rng.integers(0, width + 1, size=rows)
    cut = np.arange(width) >= hyp_len[:, None]
    if layout == "right":
        hyp[cut] = 0
    elif layout == "left":
        hyp[cut[:, ::-1]] = 0
    elif layout == "mixed":
        hyp[cut[:, ::-1] & (np.arange(rows) % 2 == 0)[:, None]] = 0
        hyp[cut & (np.arange(rows) % 2 == 1)[:, None]] = 0
    elif layout == "eos":
        hyp[np.arange(rows), np.minimum(hyp_len, width - 1)] = 2
    refs[:, 1, 10:] = 0
    refs[5, 0] = 0  # one absent reference
    pad, eos = (None, None) if layout == "none" else (0, 2 if layout == "eos" else None)
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "1")
    one = inputs.normalize_batch(hyp, refs, pad_id=pad, eos_id=eos)
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", str(threads))
    monkeypatch.setattr(inputs.arrays, "THREADED_NORMALIZE_ENTRIES", 0)
    split = inputs.normalize_batch(hyp, refs, pad_id=pad, eos_id=eos)
    for name in ("hyp_len", "ref_len", "ref_present"):
        np.testing.assert_array_equal(getattr(split, name), getattr(one, name), err_msg=name)
    for name in ("hyp", "refs"):  # the same sentences, ragged
        np.testing.assert_array_equal(getattr(split.padded(), name), getattr(one.padded(), name),
                                      err_msg=name)
    if layout in ("right", "none"):  # read in place: the host batch's rows are views of it
        assert np.shares_memory(split.pairs.hyp_ids, hyp)
    if layout in ("left", "mixed"):  # re-aligned, joined from the blocks
        assert not np.shares_memory(split.pairs.hyp_ids, hyp)
    threaded = bleusuite.sentence_bleu(hyp, refs, pad_id=pad, eos_id=eos, smooth="method1")
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "1")
    np.testing.assert_array_equal(
        threaded, bleusuite.sentence_bleu(hyp, refs, pad_id=pad, eos_id=eos, smooth="method1")
    )


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs os.fork")
def test_forked_child_scores_after_the_parent_used_threads(monkeypatch):
    """A child forked after the parent ran the thread pool gets a pool of its own (an
    inherited pool has no threads, and a call would hang)."""
    import multiprocessing

    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "2")
    rng = np.random.default_rng(5)
    hyp = rng.integers(0, 50, size=(400, 700))  # several row blocks: the pool is used
    ref = rng.integers(0, 50, size=(400, 700))
    expected = bleusuite.sentence_bleu(hyp, ref, smooth="method1")
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        result = pool.apply_async(_score_in_child, (hyp, ref))
        np.testing.assert_array_equal(result.get(timeout=60), expected)


def _score_in_child(hyp, ref):
    return bleusuite.sentence_bleu(hyp, ref, smooth="method1")


# ------------------------------------------------------------------ counting strategies
#
# ``count_matches`` picks how it counts NumPy batches (``BLEUSUITE_COUNTING``): the compiled
# per-row kernel of bleusuite's C part ("compiled", where it is built), the NumPy pipeline
# ("compact") or the fixed-shape strategy of the GPU path ("fixed", forced). Every strategy
# must give the brute-force counts, clipped and per reference.

STRATEGIES = ["compact", "compiled", "fixed"]


@pytest.fixture(params=STRATEGIES)
def strategy(request, monkeypatch):
    """Run the test with ``BLEUSUITE_COUNTING`` set to each strategy (compiled: skipped where
    the C part is not built or is turned off, failed where ``BLEUSUITE_NATIVE=1``)."""
    if request.param == "compiled":
        require_compiled()
        if not native.compiled():
            pytest.skip("the compiled part is turned off (BLEUSUITE_NATIVE=0)")
    monkeypatch.setenv("BLEUSUITE_COUNTING", request.param)
    return request.param


def _check_strategy(hyps, refs, max_order, pad, *, eos=None, hyp=None, ref=None):
    if hyp is None:
        hyp, ref = as_arrays(hyps, refs, pad)
    batch = normalize_batch(hyp, ref, pad_id=pad, eos_id=eos)
    counts = count_matches(batch, max_order, per_reference=True)
    clipped, per_ref = brute_force(hyps, refs, max_order)
    np.testing.assert_array_equal(counts.clipped, clipped)
    np.testing.assert_array_equal(counts.per_reference[:, : per_ref.shape[1]], per_ref)
    assert counts.clipped.dtype == np.int64 and counts.per_reference.dtype == np.int64
    only = count_matches(batch, max_order)
    assert only.per_reference is None
    np.testing.assert_array_equal(only.clipped, clipped)


@pytest.mark.parametrize("vocab_name", list(VOCABULARIES))
@pytest.mark.parametrize("max_order", [1, 2, 4, 7])
@pytest.mark.parametrize("seed", [0, 1])
def test_strategies_match_brute_force(strategy, vocab_name, max_order, seed):
    """Random rows (empty hypotheses, absent and empty references, up to 4 references,
    shared pieces so that long n-grams match) on every kind of token values."""
    rng = np.random.default_rng(zlib.crc32(f"{vocab_name}{max_order}{seed}".encode()))
    vocab = VOCABULARIES[vocab_name]
    hyps, refs = random_batch(rng, 50, vocab, 18, 4)
    pad = int(vocab.min()) - 1 if vocab.min() > -(2**63) + 1 else int(vocab.max()) + 1
    _check_strategy(hyps, refs, max_order, pad)


@pytest.mark.parametrize("max_order", [12, 64, 256])
def test_strategies_at_high_orders(strategy, max_order):
    """Orders up to 256 on sentences of up to 300 tokens (a few distinct tokens, so long
    repeated n-grams match), with ids around 2**40."""
    rng = np.random.default_rng(max_order)
    hyps, refs = [], []
    for row in range(6):
        base = rng.integers(0, 3, size=int(rng.integers(1, 300))) + 2**40
        hyp = base.tolist()
        ref = base.copy()
        ref[rng.random(len(ref)) < 0.02 * row] = 2**40 + 7  # break some long n-grams
        hyps.append(hyp)
        refs.append([ref.tolist(), np.roll(base, row).tolist()])
    _check_strategy(hyps, refs, max_order, pad=0)


def test_strategies_on_extreme_ids(strategy):
    """Token ids at both ends of int64, and the padding id among the values."""
    big = [2**63 - 1, -(2**63), 0, 1, -1, 2**62 + 3]
    rng = np.random.default_rng(3)
    hyps, refs = random_batch(rng, 30, np.array(big[:4] + big[5:]), 12, 3)
    _check_strategy(hyps, refs, 4, pad=-1)


def test_strategies_on_padding_everywhere(strategy):
    """Padding inside sentences, on both sides, and eos cuts: counts follow the sentences
    that remain."""
    hyp = np.array([[0, 5, 6, 0, 7, 9, 8], [5, 5, 5, 9, 5, 5, 0], [0, 0, 0, 0, 0, 0, 0]])
    ref = np.array([[[5, 6, 7, 0, 0, 0, 0], [0, 0, 6, 7, 8, 0, 0]],
                    [[5, 5, 5, 5, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]],
                    [[3, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]]])
    hyps = [[5, 6, 7], [5, 5, 5], []]  # eos 9 cuts, pads 0 dropped
    refs = [[[5, 6, 7], [6, 7, 8]], [[5, 5, 5, 5]], [[3]]]
    _check_strategy(hyps, refs, 3, pad=0, eos=9, hyp=hyp, ref=ref)


def test_strategies_on_mt_like_batches(strategy):
    """The benchmarks' MT-like rows (long, mostly matching), 1 and 3 references."""
    from workloads import mt_like_batch

    for refs_per_row in (1, 3):
        hyp, ref = mt_like_batch(12, 120, refs=refs_per_row, vocab=300, seed=refs_per_row)
        hyps = [[t for t in row if t] for row in hyp.tolist()]
        refs = [[[t for t in r if t] for r in row] for row in ref.tolist()]
        _check_strategy(hyps, refs, 5, pad=0, hyp=hyp, ref=ref)


@pytest.mark.parametrize("threads", ["1", "2", "5"])
def test_strategies_with_threads(strategy, threads, monkeypatch):
    """Any number of threads (and so of row blocks) gives the same counts."""
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", threads)
    rng = np.random.default_rng(int(threads))
    hyps, refs = random_batch(rng, 37, np.arange(2, 12), 20, 2)
    _check_strategy(hyps, refs, 4, pad=0)


def test_counting_setting_is_checked(monkeypatch):
    hyp = np.array([[3, 4, 5, 6]])
    monkeypatch.setenv("BLEUSUITE_COUNTING", "fastest")
    with pytest.raises(ValueError, match="BLEUSUITE_COUNTING"):
        bleusuite.sentence_bleu(hyp, hyp)
    monkeypatch.setenv("BLEUSUITE_COUNTING", "compiled")
    monkeypatch.setenv("BLEUSUITE_NATIVE", "0")  # as if the C part were not built
    with pytest.raises(ImportError, match="BLEUSUITE_COUNTING=compiled needs bleusuite's "
                                          "compiled part"):
        bleusuite.sentence_bleu(hyp, hyp)
    monkeypatch.setenv("BLEUSUITE_COUNTING", "auto")
    assert bleusuite.sentence_bleu(hyp, hyp).tolist() == [1.0]  # the NumPy pipeline


def test_ragged_rows_follow_the_setting_too(strategy, monkeypatch):
    """``count_pairs`` (ragged rows: the command, chrF, the sacrebleu adapter, Ray) counts
    with the strategy ``BLEUSUITE_COUNTING`` forces, with the same meaning and the same
    checks as batches (issue 35, item 5)."""
    from bleusuite.counting import compact, fixed

    calls = []
    for module, name in ((compact, "count_matches_compact"), (fixed, "count_matches_fixed")):
        original = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _f=original, _n=name, **k: (
            calls.append(_n), _f(*a, **k))[1])
    rng = np.random.default_rng(5)
    hyps, refs = random_batch(rng, 23, np.arange(2, 12), 20, 2)
    hyp, ref = as_arrays(hyps, refs, 0)
    batch = normalize_batch(hyp, ref, pad_id=0)
    counts = count_pairs(ragged_rows(batch), 4, per_reference=True)
    clipped, per_ref = brute_force(hyps, refs, 4)
    assert counts.clipped.tolist() == clipped.tolist()
    assert counts.per_reference is not None
    assert counts.per_reference.tolist() == per_ref.tolist()
    expected = {"compact": {"count_matches_compact"}, "fixed": {"count_matches_fixed"},
                "compiled": set()}[strategy]
    assert set(calls) == expected
    monkeypatch.setenv("BLEUSUITE_COUNTING", "fastest")
    with pytest.raises(ValueError, match="BLEUSUITE_COUNTING must be one of"):
        count_pairs(ragged_rows(batch), 4)


@pytest.mark.parametrize("setting", ["", "auto"])
def test_compiled_is_the_default_where_built(setting, monkeypatch):
    """NumPy batches are counted by the compiled kernel where it is built (unset or
    ``auto``), by the NumPy pipeline where it is turned off or ``compact`` is asked for."""
    require_compiled()
    monkeypatch.delenv("BLEUSUITE_NATIVE", raising=False)
    calls = []
    original = kernel.count_pairs
    monkeypatch.setattr(kernel, "count_pairs",
                        lambda *args: calls.append(1) or original(*args))
    monkeypatch.setenv("BLEUSUITE_COUNTING", setting)
    hyp, ref = np.array([[3, 4, 5]]), np.array([[3, 4, 6]])
    want = bleusuite.sentence_bleu(hyp, ref, smooth="method1")
    assert calls == [1]
    monkeypatch.setenv("BLEUSUITE_COUNTING", "compact")
    np.testing.assert_array_equal(bleusuite.sentence_bleu(hyp, ref, smooth="method1"), want)
    monkeypatch.setenv("BLEUSUITE_COUNTING", setting)
    monkeypatch.setenv("BLEUSUITE_NATIVE", "0")
    np.testing.assert_array_equal(bleusuite.sentence_bleu(hyp, ref, smooth="method1"), want)
    assert calls == [1]


def test_strategies_on_many_distinct_wide_values(strategy):
    """Rows of 1500 tokens over 700 distinct values spread over all of int64, and over
    values that differ only in their high bits: long probe sequences in any table keyed
    by values, every count still exact."""
    rng = np.random.default_rng(17)
    spread = rng.integers(-(2**63), 2**63 - 1, size=700, endpoint=True)
    high_bits = (np.arange(1, 701, dtype=np.int64) << 52) | 5
    hyps, refs = [], []
    for vocab in (spread, high_bits):
        for _ in range(2):
            hyp = rng.choice(vocab, size=1500)
            ref = hyp.copy()
            ref[rng.random(1500) < 0.3] = rng.choice(vocab, size=1)[0]
            hyps.append(hyp.tolist())
            refs.append([ref.tolist(), rng.permutation(hyp).tolist()])
    pad = int(np.setdiff1d(np.arange(-5, 5), np.concatenate([spread, high_bits]))[0])
    _check_strategy(hyps, refs, 4, pad=pad)
