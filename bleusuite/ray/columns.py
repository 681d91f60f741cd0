"""Columns of a batch of rows as bleusuite's inputs: lines of text, or token ids.

A batch (a ``pyarrow.Table``, a ``pandas.DataFrame`` or a dict of NumPy arrays) holds text
(strings) or token ids (integer lists of any Arrow or NumPy form), kept ragged
(:class:`IdRows`) so that a block is never padded to its longest row. A null cell is an
error: an empty reference is ``""`` or an empty list.

>>> import numpy as np
>>> columns = read_columns({"hyp": np.array([[5, 6, 0]]), "ref": np.array([[5, 7, 0]])},
...                        ["hyp"], ["ref"])
>>> columns.kind, columns.rows, columns.systems[0]
('ids', 1, IdRows(values=array([5, 6, 0]), offsets=array([0, 3])))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pyarrow as pa

__all__ = ["Column", "Columns", "IdRows", "checked_column_names", "column_kind", "column_names",
           "one_kind", "read_columns"]


@dataclass(frozen=True)
class IdRows:
    """Token ids of ``B`` rows: row ``b`` is ``values[offsets[b]:offsets[b + 1]]`` (int64)."""

    values: np.ndarray
    offsets: np.ndarray

    def width(self) -> int | None:
        """The length every row has, or None where rows differ (or there are none)."""
        lengths = np.diff(self.offsets)
        if not len(lengths) or lengths.min() != lengths.max() or lengths[0] == 0:
            return None
        return int(lengths[0])


#: one column: lines of text, or the token ids of its rows
Column = list[str] | IdRows


@dataclass(frozen=True)
class Columns:
    """The hypothesis columns (one per system) and reference columns of a batch."""

    kind: Literal["text", "ids"]
    systems: list[Column]
    references: list[Column]
    rows: int


def column_names(batch: Any) -> list[str]:
    """The column names of a batch of any of Ray Data's formats."""
    if isinstance(batch, pa.Table):
        return list(batch.column_names)
    if isinstance(batch, Mapping):
        return list(batch)
    if hasattr(batch, "columns"):  # a pandas DataFrame
        return [str(name) for name in batch.columns]
    raise TypeError(f"batch must be a pyarrow.Table, a pandas.DataFrame or a dict of NumPy "
                    f"arrays (Ray Data's batch formats); got {type(batch).__name__}")


def checked_column_names(value: Any, argname: str) -> tuple[str, ...]:
    """``value`` as column names: a non-empty list of strings, or an error that names
    ``argname``."""
    if isinstance(value, str):
        raise TypeError(f"{argname} must be a list of column names; got the string {value!r} "
                        f"(write [{value!r}])")
    if not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"{argname} must be a list of column names; got {value!r}")
    if not value:
        raise ValueError(f"{argname}: give at least one column")
    return tuple(value)


def one_kind(kinds: Mapping[str, str]) -> Literal["text", "ids"]:
    """The one kind of the columns ``kinds`` (name -> kind), or a TypeError naming them."""
    if len(set(kinds.values())) > 1:
        described = ", ".join(f"{name!r} ({kind})" for name, kind in kinds.items())
        raise TypeError(f"hypotheses and references must all be text or all token ids; got "
                        f"{described}")
    return "ids" if "ids" in kinds.values() else "text"


def read_columns(batch: Any, hypotheses: Sequence[str], references: Sequence[str]) -> Columns:
    """The columns ``hypotheses`` and ``references`` of ``batch``, all text or all ids
    (ValueError: a missing column, null cells; TypeError: other types, or both kinds)."""
    names = column_names(batch)
    read: dict[str, Column] = {}
    for argname, columns in (("hypotheses", hypotheses), ("references", references)):
        for name in columns:
            if name not in names:
                raise ValueError(f"{argname}: the batch has no column {name!r}; its columns "
                                 f"are {', '.join(map(repr, names))}")
            if name not in read:
                read[name] = _column(batch, name, argname)
    kind = one_kind({name: "text" if isinstance(column, list) else "ids"
                     for name, column in read.items()})
    first = read[hypotheses[0]]
    rows = len(first) if isinstance(first, list) else len(first.offsets) - 1
    return Columns(kind, [read[name] for name in hypotheses],
                   [read[name] for name in references], rows)


def _column(batch: Any, name: str, argname: str) -> Column:
    if isinstance(batch, pa.Table):
        return _arrow_column(batch.column(name), name, argname)
    values = batch[name]
    if hasattr(values, "to_numpy") and not isinstance(values, np.ndarray):  # a pandas Series
        values = values.to_numpy()
    return _numpy_column(np.asarray(values), name, argname)


def column_kind(kind: pa.DataType, where: str) -> Literal["text", "ids"]:
    """What an Arrow column of type ``kind`` holds: text (strings) or token ids (lists of
    integers, or Ray's tensor columns of them).

    >>> column_kind(pa.list_(pa.int32()), "x"), column_kind(pa.large_string(), "x")
    ('ids', 'text')
    """
    if isinstance(kind, pa.ExtensionType):  # Ray's tensor columns: a list type underneath
        kind = kind.storage_type
    is_string_view = getattr(pa.types, "is_string_view", None)  # pyarrow 16 and later
    if pa.types.is_string(kind) or pa.types.is_large_string(kind) or (
            is_string_view is not None and is_string_view(kind)):
        return "text"
    if not (pa.types.is_list(kind) or pa.types.is_large_list(kind)
            or pa.types.is_fixed_size_list(kind)):
        raise TypeError(f"{where} must hold strings (text) or lists of integer token ids; "
                        f"got Arrow type {kind}")
    if not pa.types.is_integer(kind.value_type):
        raise TypeError(f"{where} must hold integer token ids; got lists of {kind.value_type}")
    return "ids"


def _arrow_column(chunked: pa.ChunkedArray, name: str, argname: str) -> Column:
    where = f"{argname}: column {name!r}"
    _check_nulls(chunked.null_count, where)
    kind = chunked.type
    if isinstance(kind, pa.ExtensionType):
        chunked = pa.chunked_array([chunk.storage for chunk in chunked.chunks],
                                   type=kind.storage_type)
        kind = kind.storage_type
    if column_kind(kind, where) == "text":
        lines: list[str] = chunked.to_pylist()
        return lines
    array = chunked.combine_chunks()
    if pa.types.is_fixed_size_list(kind):
        width = kind.list_size
        values = array.flatten().to_numpy()
        offsets = np.arange(len(array) + 1, dtype=np.int64) * width
    else:
        offsets = array.offsets.to_numpy().astype(np.int64)
        values = array.values.to_numpy()[offsets[0] : offsets[-1]]  # a sliced array's rows
        offsets = offsets - offsets[0]
    return IdRows(_int64(values, where), offsets)


def _numpy_column(values: np.ndarray, name: str, argname: str) -> Column:
    where = f"{argname}: column {name!r}"
    if values.dtype.kind == "U":
        return [str(line) for line in values.tolist()]
    if values.ndim == 2 and values.dtype.kind in "iu":
        rows, width = values.shape
        return IdRows(_int64(values.reshape(-1), where),
                      np.arange(rows + 1, dtype=np.int64) * width)
    if values.ndim != 1 or values.dtype.kind != "O":
        raise TypeError(f"{where} must hold strings (text) or integer token ids; got a "
                        f"{values.ndim}-D array of dtype {values.dtype}")
    cells = values.tolist()
    _check_nulls(sum(cell is None for cell in cells), where)
    if all(isinstance(cell, str) for cell in cells):
        return list(cells)
    if any(isinstance(cell, str) for cell in cells):
        raise TypeError(f"{where} mixes strings and token ids")
    arrays = [np.asarray(cell) for cell in values]
    if any(a.ndim != 1 for a in arrays):
        raise TypeError(f"{where} must hold one sentence (a 1-D list of token ids) per row")
    lengths = np.fromiter(map(len, arrays), dtype=np.int64, count=len(arrays))
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    flat = np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.int64)
    if not len(flat):
        flat = flat.astype(np.int64)
    return IdRows(_int64(flat, where), offsets)


def _check_nulls(nulls: int, where: str) -> None:
    if nulls:
        raise ValueError(f"{where} has {nulls} null cell(s); an empty line is '' (text) or "
                         "[] (token ids)")


def _int64(values: np.ndarray, where: str) -> np.ndarray:
    if values.dtype.kind not in "iu":
        raise TypeError(f"{where} must hold integer token ids; got dtype {values.dtype}")
    if values.dtype == np.uint64 and len(values) and values.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{where} holds token ids above 2**63 - 1, which int64 cannot hold")
    return values.astype(np.int64, copy=False)
