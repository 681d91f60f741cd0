"""Hostile input for the compiled part's ``edit_distances`` and ``eed_grid``
(``bleusuite/csrc/edit_distance.c``).

Random slices of random code-point buffers (overlapping, shared by both sides, empty, long
enough for the beam to matter), offsets and lengths that do not fit their buffers, wrong
types and shapes, pairs out of range: each call either gives the Python twin's numbers
(:func:`bleusuite.scores.eed.levenshtein.pair_distance`,
:func:`bleusuite.scores.eed.extended.pair_grid`) or refuses with a TypeError, ValueError
or OverflowError, and never reads or writes outside its buffers. ``tox -e sanitize``
(tools/sanitize.py) runs this file under AddressSanitizer and UndefinedBehaviorSanitizer.
"""

from __future__ import annotations

import numpy as np
import pytest
from compiled_part import require_compiled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleusuite.scores.eed.extended import pair_grid
from bleusuite.scores.eed.levenshtein import pair_distance

REFUSALS = (TypeError, ValueError, OverflowError)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: few distinct characters (ties everywhere), the space (EED's jumps), extreme values
CHARS = st.sampled_from([32, 97, 98, 99, 32, 97, 0, -1, 0x10FFFF, 2**63 - 1, -(2**63)])
COSTS = st.sampled_from([(2.0, 0.2, 1.0), (0.0, 0.0, 0.0), (0.5, 1.0, 0.1),
                         (float("inf"), 0.2, float("inf")), (1e300, 1e-300, 3.0)])


@pytest.fixture(scope="module")
def native():
    return require_compiled()


def _slices(data, size: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    starts = data.draw(st.lists(st.integers(0, size), min_size=count, max_size=count))
    lengths = [data.draw(st.integers(0, size - start)) for start in starts]
    return np.array(starts, dtype=np.int64), np.array(lengths, dtype=np.int64)


@FUZZ
@given(data=st.data(), pairs=st.integers(0, 5), cost=st.sampled_from([0, 1, 2, 5, 2**40]))
def test_edit_distances_with_valid_slices_are_the_twins(native, data, pairs, cost):
    chars = np.array(data.draw(st.lists(CHARS, max_size=120)), dtype=np.int64)
    hyp_starts, hyp_lengths = _slices(data, len(chars), pairs)
    ref_starts, ref_lengths = _slices(data, len(chars), pairs)
    out = np.full(pairs, 12345, dtype=np.int64)
    native.edit_distances(chars, hyp_starts, hyp_lengths, chars, ref_starts, ref_lengths, cost,
                          out, 0, pairs)
    for k in range(pairs):
        expected = pair_distance(chars[hyp_starts[k] : hyp_starts[k] + hyp_lengths[k]],
                                 chars[ref_starts[k] : ref_starts[k] + ref_lengths[k]], cost)
        assert out[k] == expected


@FUZZ
@given(data=st.data(), pairs=st.integers(0, 4), costs=COSTS)
def test_eed_grid_with_valid_slices_is_the_twin(native, data, pairs, costs):
    chars = np.array(data.draw(st.lists(CHARS, max_size=60)), dtype=np.int64)
    hyp_starts, hyp_lengths = _slices(data, len(chars), pairs)
    ref_starts, ref_lengths = _slices(data, len(chars), pairs)
    last = np.full(pairs, -7.0)
    visited = np.full(pairs, -7, dtype=np.int64)
    native.eed_grid(chars, hyp_starts, hyp_lengths, chars, ref_starts, ref_lengths,
                    np.array(costs), last, visited, 0, pairs)
    for k in range(pairs):
        expected = pair_grid(chars[hyp_starts[k] : hyp_starts[k] + hyp_lengths[k]].tolist(),
                             chars[ref_starts[k] : ref_starts[k] + ref_lengths[k]].tolist(),
                             *costs)
        assert (last[k], visited[k]) == expected


@FUZZ
@given(data=st.data(), grid=st.booleans())
def test_edit_entry_points_refuse_what_does_not_fit(native, data, grid):
    chars = np.arange(data.draw(st.integers(0, 12)), dtype=np.int64)
    pairs = data.draw(st.integers(0, 3))
    big = st.sampled_from([-2, -1, 0, 1, 5, 13, 2**31, 2**62, -(2**63)])
    starts_lengths = [np.array(data.draw(st.lists(big, min_size=pairs, max_size=pairs)),
                               np.int64) for _ in range(4)]
    begin, end = data.draw(st.integers(-1, 4)), data.draw(st.integers(-1, 4))
    try:
        if grid:
            last, visited = np.zeros(pairs), np.zeros(pairs, dtype=np.int64)
            native.eed_grid(chars, starts_lengths[0], starts_lengths[1], chars,
                            starts_lengths[2], starts_lengths[3], np.array([2.0, 0.2, 1.0]),
                            last, visited, begin, end)
        else:
            out = np.zeros(pairs, dtype=np.int64)
            native.edit_distances(chars, starts_lengths[0], starts_lengths[1], chars,
                                  starts_lengths[2], starts_lengths[3], 1, out, begin, end)
    except REFUSALS:
        return
    size = len(chars)
    for k in range(begin, end):  # accepted: every slice read fits
        for start, length in ((starts_lengths[0][k], starts_lengths[1][k]),
                              (starts_lengths[2][k], starts_lengths[3][k])):
            assert 0 <= start <= size and 0 <= length <= size - start


def _arguments(grid: bool) -> list:
    chars = np.array([97, 98, 32], dtype=np.int64)
    one = np.array([0], dtype=np.int64)
    three = np.array([3], dtype=np.int64)
    if grid:
        return [chars, one, three, chars, one, three, np.array([2.0, 0.2, 1.0]),
                np.zeros(1), np.zeros(1, dtype=np.int64), 0, 1]
    return [chars, one, three, chars, one, three, 1, np.zeros(1, dtype=np.int64), 0, 1]


@pytest.mark.parametrize("grid", [False, True])
def test_edit_entry_points_refuse_wrong_arguments(native, grid):
    function = native.eed_grid if grid else native.edit_distances
    function(*_arguments(grid))  # the valid call
    with pytest.raises(TypeError, match="takes"):
        function(*_arguments(grid)[:-1])
    wrong = {
        0: np.array([97.0]), 1: np.array([0], dtype=np.int32), 2: np.array([[3]]),
        4: [0], 9 if grid else 8: "0",
    }
    for position, value in wrong.items():
        arguments = _arguments(grid)
        arguments[position] = value
        with pytest.raises(REFUSALS):
            function(*arguments)
    arguments = _arguments(grid)
    arguments[7] = np.zeros(2) if grid else np.zeros(2, dtype=np.int64)  # not one per pair
    with pytest.raises(ValueError):
        function(*arguments)
    arguments = _arguments(grid)
    if grid:
        arguments[6] = np.array([2.0, 0.2])  # two costs
    else:
        arguments[6] = -1  # a negative substitution cost
    with pytest.raises(ValueError):
        function(*arguments)
    out = np.zeros(1, dtype=np.int64)
    out.flags.writeable = False
    arguments = _arguments(grid)
    arguments[8 if grid else 7] = out
    with pytest.raises(TypeError, match="writable"):
        function(*arguments)


@pytest.mark.parametrize("threads", ["1", "3"])
def test_blocks_on_threads_give_the_twins_numbers(native, monkeypatch, threads):
    """Many pairs, cut into blocks on the worker threads (each writes its own pairs): the
    numbers of the Python twin, whatever the threads."""
    from bleusuite.scores.eed import edit_distances, extended, levenshtein, reference_scores

    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", threads)
    monkeypatch.setattr(levenshtein, "MIN_WORK_PER_THREAD", 64)
    monkeypatch.setattr(extended, "MIN_WORK_PER_THREAD", 64)
    rng = np.random.default_rng(int(threads))
    texts = ["".join(rng.choice(list("ab c"), size=rng.integers(0, 40))) for _ in range(120)]
    hyps, refs = texts[:60], texts[60:]
    chars = [np.array([ord(c) for c in text], dtype=np.int64) for text in texts]
    assert edit_distances(hyps, refs, 2).tolist() == [
        pair_distance(chars[k], chars[60 + k], 2) for k in range(60)]
    grids = [pair_grid(chars[k].tolist(), chars[60 + k].tolist(), 2.0, 0.2, 1.0)
             for k in range(60)]
    scores = reference_scores(hyps, refs)
    for (last, visited), ref, score in zip(grids, refs, scores, strict=True):
        coverage = 0.3 * visited
        expected = (last + coverage) / (len(ref) + coverage)
        assert score == (expected if expected < 1 else 1.0)
