"""Hostile input for the compiled part's ``ter_edits`` (``bleusuite/csrc/ter.c``).

Random slices of random id buffers (overlapping, shared by hypotheses and references, empty,
absent references), offsets and lengths that do not fit their buffers, wrong types and
shapes, rows out of range: each call either gives the Python twin's edits
(:func:`bleusuite.scores.ter.edits.pair_edits`) or refuses with a TypeError, ValueError or
OverflowError, and never reads or writes outside its buffers. ``tox -e sanitize``
(tools/sanitize.py) runs this file under AddressSanitizer and UndefinedBehaviorSanitizer.
"""

from __future__ import annotations

import numpy as np
import pytest
from compiled_part import require_compiled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleusuite.scores.ter.edits import pair_edits

REFUSALS = (TypeError, ValueError, OverflowError)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: few distinct values (ties, repeated blocks), extreme ones among them
VALUES = st.sampled_from([0, 1, 2, 3, 1, 2, -1, 2**63 - 1, -(2**63)])


@pytest.fixture(scope="module")
def native():
    return require_compiled()


@FUZZ
@given(data=st.data(), rows=st.integers(0, 4), refs=st.integers(0, 3))
def test_ter_edits_with_valid_slices_are_the_twins(native, data, rows, refs):
    ids = np.array(data.draw(st.lists(VALUES, max_size=70)), dtype=np.int64)
    size = len(ids)

    def slices(shape: tuple[int, ...], absent: bool) -> tuple[np.ndarray, np.ndarray]:
        count = int(np.prod(shape))
        starts = data.draw(st.lists(st.integers(0, size), min_size=count, max_size=count))
        lengths = [data.draw(st.integers(0, size - start)) for start in starts]
        if absent:
            lengths = [-1 if data.draw(st.integers(0, 5)) == 0 else n for n in lengths]
        return (np.array(starts, dtype=np.int64).reshape(shape),
                np.array(lengths, dtype=np.int64).reshape(shape))

    hyp_starts, hyp_lengths = slices((rows,), False)
    ref_starts, ref_lengths = slices((rows, refs), True)
    edits = np.full((rows, refs), 12345, dtype=np.int64)
    native.ter_edits(ids, hyp_starts, hyp_lengths, ids, ref_starts, ref_lengths, edits, 0, rows)
    for b in range(rows):
        hyp = ids[hyp_starts[b] : hyp_starts[b] + hyp_lengths[b]].tolist()
        for r in range(refs):
            n = ref_lengths[b, r]
            expected = -1 if n == -1 else pair_edits(
                hyp, ids[ref_starts[b, r] : ref_starts[b, r] + n].tolist())
            assert edits[b, r] == expected


@FUZZ
@given(data=st.data())
def test_ter_edits_refuses_what_does_not_fit(native, data):
    ids = np.arange(data.draw(st.integers(0, 12)), dtype=np.int64)
    rows, refs = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 2))
    big = st.sampled_from([-2, -1, 0, 1, 5, 13, 2**31, 2**62, -(2**63)])
    hyp_starts = np.array(data.draw(st.lists(big, min_size=rows, max_size=rows)), np.int64)
    hyp_lengths = np.array(data.draw(st.lists(big, min_size=rows, max_size=rows)), np.int64)
    cells = rows * refs
    ref_starts = np.array(data.draw(st.lists(big, min_size=cells, max_size=cells)),
                          np.int64).reshape(rows, refs)
    ref_lengths = np.array(data.draw(st.lists(big, min_size=cells, max_size=cells)),
                           np.int64).reshape(rows, refs)
    begin, end = data.draw(st.integers(-1, 4)), data.draw(st.integers(-1, 4))
    edits = np.zeros((rows, refs), dtype=np.int64)
    try:
        native.ter_edits(ids, hyp_starts, hyp_lengths, ids, ref_starts, ref_lengths, edits,
                         begin, end)
    except REFUSALS:
        return
    for b in range(begin, end):  # accepted: every slice read fits
        assert hyp_starts[b] >= 0 and 0 <= hyp_lengths[b] <= len(ids) - hyp_starts[b]
        for r in range(refs):
            n = ref_lengths[b, r]
            assert n == -1 or (ref_starts[b, r] >= 0 and 0 <= n <= len(ids) - ref_starts[b, r])


@pytest.mark.parametrize("change", ["float ids", "2-d ids", "short lengths", "read-only out",
                                    "wrong refs", "arguments", "begin type"])
def test_ter_edits_refuses_malformed_buffers(native, change):
    ids = np.array([1, 2, 3, 1], dtype=np.int64)
    args = [ids, np.array([0]), np.array([2]), ids, np.array([[1]]), np.array([[3]]),
            np.zeros((1, 1), dtype=np.int64), 0, 1]
    if change == "float ids":
        args[0] = ids.astype(float)
    elif change == "2-d ids":
        args[3] = ids.reshape(2, 2)
    elif change == "short lengths":
        args[2] = np.array([2, 2])
    elif change == "read-only out":
        args[6].flags.writeable = False
    elif change == "wrong refs":
        args[5] = np.array([[3, 1]])
    elif change == "arguments":
        args = args[:8]
    else:
        args[7] = 0.5
    with pytest.raises(REFUSALS):
        native.ter_edits(*args)


def test_ter_edits_releases_the_gil_and_gives_each_block_its_rows(native):
    """Rows counted by several blocks on threads (as bleusuite.scores.ter.edits does) give
    the rows counted in one call."""
    from bleusuite.scores.ter.edits import ter_edits

    rng = np.random.default_rng(0)
    lengths = rng.integers(0, 80, size=400)  # enough work for four threads
    ids = rng.integers(0, 50, size=int(lengths.sum()))
    starts = np.cumsum(lengths) - lengths
    hyp = slice(0, 200)
    ref_starts, ref_lengths = starts[200:, None], lengths[200:, None]
    from bleusuite.scores.ter import edits

    assert edits._blocks(lengths[hyp], ref_lengths, 4)[1] == 4
    one = ter_edits(ids, starts[hyp], lengths[hyp], ids, ref_starts, ref_lengths, workers=1)
    four = ter_edits(ids, starts[hyp], lengths[hyp], ids, ref_starts, ref_lengths, workers=4)
    assert np.array_equal(one, four)
