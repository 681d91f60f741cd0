"""Groups of sentences as the group scores take them (:func:`group_sentences`): a
``(B, K, L)`` array, or ``B`` lists of ``K`` sentences in any input form of
:func:`bleusuite.sentence_bleu` (1-D arrays, token sequences, text with ``tokenize``),
normalised once with one token numbering for every argument of a call.

>>> import numpy as np
>>> from bleusuite.scores.bleu.groups import group_sentences
>>> be, to_caller, (group,) = group_sentences([("group", [[[5, 6], [7]], [[], [8, 9, 9]]])],
...                                           pad_id=None, eos_id=None, tokenize=None,
...                                           lowercase=False)
>>> group.tokens.shape, group.lengths.tolist()
((2, 2, 3), [[2, 1], [0, 3]])
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

import numpy as np

from bleusuite import backends
from bleusuite.backends.base import Backend
from bleusuite.inputs import normalize_batch, text_batch
from bleusuite.inputs.checks import check_sentence, kind_of
from bleusuite.inputs.normalize import check_text_options

__all__ = ["Groups", "Sentences", "group_sentences"]

_A = TypeVar("_A")
#: groups of sentences of array type ``_A`` (the forms of the module's docstring)
Groups: TypeAlias = (
    _A | Sequence[_A] | Sequence[Sequence[_A]] | Sequence[Sequence[Sequence[Hashable]]]
    | Sequence[Sequence[str]]
)


@dataclass(frozen=True)
class Sentences:
    """The sentences of one argument, normalised: ``(B, K, L)`` left-aligned tokens and
    ``(B, K)`` lengths on the batch's backend."""

    tokens: Any
    lengths: Any


def _is_array(obj: object) -> bool:
    name = backends.backend_name(obj)
    return name is not None and (name != "numpy" or obj.dtype.kind not in "OUSV")  # type: ignore[attr-defined]


def _groups_of(value: Any, name: str, tokenize: str | None) -> list[list[Any]]:
    """The groups of a list argument (``B`` groups of ``K`` sentences each), checked."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise TypeError(
            f"{name} must be a (batch, members, length) array or a list with one group (a list "
            f"of sentences) per row; got {kind_of(value)}"
        )
    groups: list[list[Any]] = []
    for row, group in enumerate(value):
        if _is_array(group) and group.ndim == 2:
            group = list(group)  # a padded (K, L) array: its rows
        elif isinstance(group, str | bytes) or not isinstance(group, Sequence):
            raise TypeError(
                f"{name}[{row}] must be a list of sentences (a group); got {kind_of(group)}"
            )
        if groups and len(group) != len(groups[0]):
            raise ValueError(
                f"{name}: every group must have as many members; {name}[0] has "
                f"{len(groups[0])} and {name}[{row}] has {len(group)}"
            )
        for member, sentence in enumerate(group):
            where = f"{name}[{row}][{member}]"
            if tokenize is not None:
                if not isinstance(sentence, str):
                    raise TypeError(f"{where} must be a string when tokenize= is given; got "
                                    f"{kind_of(sentence)}")
            elif not _is_array(sentence):
                check_sentence(sentence, where)
        groups.append(list(group))
    return groups


def group_sentences(
    sides: Sequence[tuple[str, Any]], *, pad_id: Any, eos_id: Any, tokenize: str | None,
    lowercase: bool,
) -> tuple[Backend, Any, list[Sentences]]:
    """Normalise the groups of one or more ``(name, value)`` arguments (of one ``B``) with
    one token numbering: the backend, the map of results back to the caller's array type,
    and each value's :class:`Sentences`."""
    check_text_options(tokenize, lowercase, pad_id, eos_id)
    arrays = [_is_array(value) and value.ndim == 3 for _, value in sides]
    for (name, value), is_array in zip(sides, arrays, strict=True):
        if _is_array(value) and not is_array:
            raise ValueError(f"{name} must be a 3-D array (batch, members, length); got shape "
                             f"{tuple(value.shape)}")
    if all(arrays):
        if tokenize is not None:
            raise TypeError(f"tokenize= scores text: {sides[0][0]} must be lists of strings, "
                            "not arrays of token ids")
        be = backends.get_backend(*(value for _, value in sides))
        result = [_array_sentences(be, name, value, pad_id, eos_id) for name, value in sides]
        _check_rows(sides, [int(value.shape[0]) for _, value in sides])
        return result[0][0], result[0][1], [sentences for _, _, sentences in result]
    groups = [[list(g) for g in value] if is_array else _groups_of(value, name, tokenize)
              for (name, value), is_array in zip(sides, arrays, strict=True)]
    _check_rows(sides, [len(g) for g in groups])
    counts = [len(g[0]) if g else 0 for g in groups]
    flat = [sentence for side in groups for group in side for sentence in group]
    names = (sides[0][0], "references")
    if tokenize is not None:  # an empty reference each: only the sentences are wanted
        batch = text_batch(flat, [""] * len(flat), tokenize=tokenize, lowercase=lowercase,
                           argnames=names, global_ids=True)[0].padded()
    else:
        batch = normalize_batch(_one_kind(flat, sides[0][0]), [[[]]] * len(flat),
                                pad_id=pad_id, eos_id=eos_id, argnames=names,
                                global_ids=True).padded()
    out, start, width = [], 0, int(batch.hyp.shape[-1])
    for side, count in zip(groups, counts, strict=True):
        stop = start + len(side) * count
        out.append(Sentences(batch.hyp[start:stop].reshape(len(side), count, width),
                             batch.hyp_len[start:stop].reshape(len(side), count)))
        start = stop
    return batch.backend, batch.to_caller, out


def _one_kind(flat: list[Any], name: str) -> list[Any]:
    """The sentences all as arrays where some are arrays (a padded side beside token lists):
    the token lists are moved to the arrays' device in one transfer."""
    like = next((sentence for sentence in flat if _is_array(sentence)), None)
    if like is None or all(_is_array(sentence) for sentence in flat):
        return flat
    lists = [sentence for sentence in flat if not _is_array(sentence)]
    try:
        host = np.array([token for sentence in lists for token in sentence], dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"{name}: beside arrays of token ids, token lists must hold int "
                        "ids") from None
    be = backends.get_backend(like)
    moved = be.asarray(host, like=like, dtype=be.int64)
    ends = np.cumsum([len(sentence) for sentence in lists]).tolist()
    pieces = iter([moved[end - len(sentence) : end]
                   for sentence, end in zip(lists, ends, strict=True)])
    return [sentence if _is_array(sentence) else next(pieces) for sentence in flat]


def _array_sentences(be: Backend, name: str, value: Any, pad_id: Any,
                     eos_id: Any) -> tuple[Backend, Any, Sentences]:
    rows, count, width = (int(n) for n in value.shape)
    flat = value.reshape(rows * count, width)
    empty = be.zeros((rows * count, 1, 0), be.int64, like=value)  # an empty reference each
    batch = normalize_batch(flat, empty, pad_id=pad_id, eos_id=eos_id,
                            argnames=(name, name)).padded()
    tokens = batch.hyp.reshape(rows, count, batch.hyp.shape[-1])
    return batch.backend, batch.to_caller, Sentences(tokens, batch.hyp_len.reshape(rows, count))


def _check_rows(sides: Sequence[tuple[str, Any]], rows: list[int]) -> None:
    for (name, _), count in zip(sides[1:], rows[1:], strict=True):
        if count != rows[0]:
            raise ValueError(f"{sides[0][0]} and {name} must have the same batch size; got "
                             f"{rows[0]} and {count} groups")
