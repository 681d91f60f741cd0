"""The row kernels of the compiled part read their ragged rows with one reader and report
every failure with one mapping (``bs_ragged_read`` and ``bs_raise`` in
``bleusuite/csrc/buffers.c``): whichever entry point is called, a slice outside its buffer,
a bad range of rows and a buffer of the wrong kind or shape give the same message, naming
the argument (``tox -e sanitize`` runs this file under AddressSanitizer and
UndefinedBehaviorSanitizer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from compiled_part import require_compiled


@pytest.fixture(scope="module")
def native():
    return require_compiled()


def _ids(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def _call(native: Any, name: str, rows: list[np.ndarray], begin: int = 0,
          end: int = 1) -> Callable[[], object]:
    """A call of entry point `name` on one row (hyp_ids, hyp_starts, hyp_lengths, ref_ids,
    ref_starts, ref_lengths as given; 1-D starts and lengths of the references made (1, 1)
    where the entry point takes several references a row), with outputs of the right shape."""
    hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths = rows
    two_dim = [ref_starts.reshape(1, -1), ref_lengths.reshape(1, -1)]
    one = np.zeros((1, 1), dtype=np.int64)
    calls: dict[str, Callable[[], object]] = {
        "count_matches": lambda: native.count_matches(
            hyp_ids, hyp_starts, hyp_lengths, ref_ids, *two_dim,
            np.zeros((1, 2), dtype=np.int64), None, begin, end),
        "lcs_matches": lambda: native.lcs_matches(
            hyp_ids, hyp_starts, hyp_lengths, ref_ids, *two_dim, one, None, None, None,
            begin, end),
        "ter_edits": lambda: native.ter_edits(
            hyp_ids, hyp_starts, hyp_lengths, ref_ids, *two_dim, one, begin, end),
        "edit_counts": lambda: native.edit_counts(
            hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths,
            np.zeros((1, 5), dtype=np.int64), None, None, begin, end),
        "edit_distances": lambda: native.edit_distances(
            hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths, 1,
            np.zeros(1, dtype=np.int64), begin, end),
        "eed_grid": lambda: native.eed_grid(
            hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths,
            np.array([2.0, 0.2, 1.0]), np.zeros(1), np.zeros(1, dtype=np.int64), begin, end),
    }
    return calls[name]


KERNELS = ["count_matches", "lcs_matches", "ter_edits", "edit_counts", "edit_distances",
           "eed_grid"]
#: the ids' names and what a row is called, by entry point
IDS = {"edit_distances": ("hyp_chars", "ref_chars", "pair"),
       "eed_grid": ("hyp_chars", "ref_chars", "pair")}


def _names(name: str) -> tuple[str, str, str]:
    return IDS.get(name, ("hyp_ids", "ref_ids", "row"))


@pytest.mark.parametrize("name", KERNELS)
def test_a_good_row_is_read(native, name):
    _call(native, name, [_ids(1, 2, 3), _ids(0), _ids(3), _ids(1, 2), _ids(0), _ids(2)])()


@pytest.mark.parametrize("name", KERNELS)
def test_a_hypothesis_outside_its_ids_is_named(native, name):
    hyp, _, unit = _names(name)
    call = _call(native, name, [_ids(1, 2, 3), _ids(1), _ids(3), _ids(1, 2), _ids(0), _ids(2)])
    with pytest.raises(ValueError, match=rf"^hyp_starts/hyp_lengths: {unit} 0 \(start 1, "
                                         rf"length 3\) is outside {hyp} \(3 values\)$"):
        call()


@pytest.mark.parametrize("name", KERNELS)
def test_a_reference_outside_its_ids_is_named(native, name):
    _, ref, unit = _names(name)
    call = _call(native, name, [_ids(1, 2, 3), _ids(0), _ids(3), _ids(1, 2), _ids(-1), _ids(2)])
    where = f"{unit} 0, reference 0" if name in ("count_matches", "lcs_matches",
                                                 "ter_edits") else f"{unit} 0"
    with pytest.raises(ValueError, match=rf"^ref_starts/ref_lengths: {where} \(start -1, "
                                         rf"length 2\) is outside {ref} \(2 values\)$"):
        call()


@pytest.mark.parametrize("name", KERNELS)
def test_a_range_past_the_rows_is_named(native, name):
    unit = _names(name)[2]
    call = _call(native, name, [_ids(1), _ids(0), _ids(1), _ids(1), _ids(0), _ids(1)], 0, 2)
    with pytest.raises(ValueError, match=rf"^begin and end must satisfy 0 <= begin <= end "
                                         rf"<= 1 \(the {unit}s\); got 0 and 2$"):
        call()


@pytest.mark.parametrize("name", KERNELS)
def test_buffers_of_the_wrong_kind_or_shape_are_named(native, name):
    hyp = _names(name)[0]
    rows = [_ids(1).astype(np.int32), _ids(0), _ids(1), _ids(1), _ids(0), _ids(1)]
    with pytest.raises(TypeError, match=f"^{hyp} must be an int64 array, not of format i$"):
        _call(native, name, rows)()
    rows = [_ids(1), _ids(0), _ids(1, 1), _ids(1), _ids(0), _ids(1)]
    with pytest.raises(ValueError, match=r"^hyp_lengths: axis 0 has 2 entries where 1 are "
                                         r"needed$"):
        _call(native, name, rows)()


def test_edit_counts_names_its_chunk_starts(native):
    ids = _ids(1, 2, 3)
    with pytest.raises(ValueError, match=r"^chunk_starts: row 0 \(from 2, 7 entries\) is "
                                         r"outside its output$"):
        native.edit_counts(ids, _ids(0), _ids(3), ids, _ids(0), _ids(3),
                           np.zeros((1, 5), dtype=np.int64), np.zeros((8, 5), dtype=np.int64),
                           _ids(2), 0, 1)
