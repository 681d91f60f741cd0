"""NLTK-style Python token lists (any hashable tokens) as padded int64 id arrays.

The first step of the list path of :func:`bleusuite.inputs.normalize_batch`: the lists are
checked, their tokens numbered (ints keep their value, other tokens are numbered by a
dictionary, so they compare as Python's ``==`` does) and packed into a :class:`Padded`
batch, which :mod:`bleusuite.inputs` finishes as it does padded arrays.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleusuite import backends
from bleusuite.backends.base import Backend
from bleusuite.inputs.checks import (
    ArgNames,
    check_batch,
    check_sentence,
    is_token_sequence,
    kind_of,
)

__all__ = ["Padded"]


@dataclass(frozen=True)
class Padded:
    """A batch packed into padded arrays, before padding and eos tokens are dropped.

    Attributes:
        backend: the backend of the arrays.
        hyp, hyp_len: (B, Lh) hypothesis tokens and (B,) lengths.
        refs, ref_len: (B, R, Lr) reference tokens and (B, R) lengths.
        exists: (B, R) bool, False for the slots of a row with fewer than R references.
        pad, eos: the padding and end-of-sentence ids in the arrays' id space (None: none).
        to_caller: maps a result back to the caller's array type (None: it is one already).
    """

    backend: Backend
    hyp: Any
    hyp_len: Any
    refs: Any
    ref_len: Any
    exists: Any
    pad: int | None
    eos: int | None
    to_caller: Callable[[Any], Any] | None = None


def from_sequences(
    hyps: Any, refs: Any, pad_id: Any, eos_id: Any, names: ArgNames
) -> Padded:
    """Checked token lists as a :class:`Padded` NumPy batch (pad and eos as ids); messages
    call the two sides ``names``."""
    hyp_name, ref_name = names
    if not is_token_sequence(hyps):
        raise TypeError(
            f"{hyp_name} must be an integer array or a list of token sequences; got {kind_of(hyps)}"
        )
    if not is_token_sequence(refs):
        raise TypeError(
            f"{ref_name} must be an integer array or a list (one entry per hypothesis) of lists "
            f"of token sequences; got {kind_of(refs)}"
        )
    check_batch(len(hyps), len(refs), "entries of references", names)
    for row, hyp in enumerate(hyps):
        check_sentence(hyp, f"{hyp_name}[{row}]")
    slots: list[tuple[int, int]] = []
    ref_sentences: list[Any] = []
    for row, row_refs in enumerate(refs):
        if isinstance(row_refs, str | bytes) or not is_token_sequence(row_refs):
            raise TypeError(
                f"{ref_name}[{row}] must be a list of reference token sequences; got "
                f"{kind_of(row_refs)}"
            )
        if len(row_refs) and not is_token_sequence(row_refs[0]):
            raise ValueError(
                f"{ref_name}[{row}] must be a list of reference token sequences (NLTK form: "
                "one list of references per hypothesis), but it holds tokens: wrap a single "
                "reference in a list"
            )
        for position, ref in enumerate(row_refs):
            check_sentence(ref, f"{ref_name}[{row}][{position}]")
            slots.append((row, position))
            ref_sentences.append(ref)

    hyp_lengths = np.fromiter((len(s) for s in hyps), dtype=np.int64, count=len(hyps))
    ref_lengths = np.fromiter((len(s) for s in ref_sentences), np.int64, count=len(ref_sentences))
    flat = list(itertools.chain.from_iterable(itertools.chain(hyps, ref_sentences)))
    try:
        ids, mapping = _token_ids(flat)
    except TypeError as error:
        where = [f"{hyp_name}[{row}]" for row in range(len(hyps))]
        where += [f"{ref_name}[{row}][{position}]" for row, position in slots]
        raise TypeError(_unhashable(itertools.chain(hyps, ref_sentences), where, error)) from None
    pad = _map_special(pad_id, mapping)
    eos = _map_special(eos_id, mapping)

    num_hyp_tokens = int(hyp_lengths.sum())
    hyp = _pad_ragged(ids[:num_hyp_tokens], hyp_lengths)
    ref_rows = _pad_ragged(ids[num_hyp_tokens:], ref_lengths)
    batch = len(hyps)
    num_refs = max((position + 1 for _, position in slots), default=1)
    slot_rows = np.fromiter((r for r, _ in slots), np.int64, count=len(slots))
    slot_cols = np.fromiter((c for _, c in slots), np.int64, count=len(slots))
    refs_arr = np.zeros((batch, num_refs, ref_rows.shape[1]), dtype=np.int64)
    refs_arr[slot_rows, slot_cols] = ref_rows
    ref_len = np.zeros((batch, num_refs), dtype=np.int64)
    ref_len[slot_rows, slot_cols] = ref_lengths
    exists = np.zeros((batch, num_refs), dtype=bool)
    exists[slot_rows, slot_cols] = True

    return Padded(backends.get_backend(), hyp, hyp_lengths, refs_arr, ref_len, exists, pad, eos)


def _unhashable(sentences: Any, names: list[str], error: TypeError) -> str:
    """Where the first unhashable token is, for the message."""
    for name, sentence in zip(names, sentences, strict=True):
        for position, token in enumerate(sentence):
            try:
                hash(token)
            except TypeError:
                return (f"{name}[{position}] must be a hashable token (str, int, tuple, ...); "
                        f"got {kind_of(token)}")
    return f"tokens must be hashable (str, int, tuple, ...): {error}"


def _token_ids(tokens: list[Any]) -> tuple[np.ndarray, dict[Any, int] | None]:
    """int64 ids for a flat list of tokens, and the vocabulary used (None: ids are the ints).

    Integer tokens keep their value. Anything else (strings, mixtures) is numbered by a
    dictionary, so tokens compare exactly as Python's ``==``/``hash`` do, as in NLTK.
    """
    if not tokens:
        return np.zeros(0, dtype=np.int64), None
    if isinstance(tokens[0], int | np.integer) and not isinstance(tokens[0], bool):
        try:
            as_array = np.asarray(tokens)
        except (ValueError, OverflowError):
            as_array = None
        if as_array is not None and as_array.ndim == 1 and as_array.dtype.kind == "i":
            return as_array.astype(np.int64, copy=False), None
    # a token's id is the position of its first occurrence: one dict operation per token,
    # run by map at C speed (ids need to be distinct, not dense)
    vocabulary: dict[Any, int] = {}
    try:
        ids = np.fromiter(map(vocabulary.setdefault, tokens, range(len(tokens))),
                          dtype=np.int64, count=len(tokens))
    except TypeError as error:
        raise TypeError(f"tokens must be hashable (str, int, ...): {error}") from None
    return ids, vocabulary


def _map_special(value: Any, mapping: dict[Any, int] | None) -> int | None:
    """The id of a pad/eos token in the id space of a list input (None: it never occurs)."""
    if value is None:
        return None
    if mapping is None:
        if isinstance(value, int | np.integer) and not isinstance(value, bool):
            return int(value)
        return None
    return mapping.get(value)


def _pad_ragged(flat: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    rows = len(lengths)
    width = int(lengths.max()) if rows else 0
    out = np.zeros((rows, width), dtype=np.int64)
    if flat.size:
        row_of_token = np.repeat(np.arange(rows), lengths)
        starts = np.cumsum(lengths) - lengths
        column = np.arange(flat.size) - np.repeat(starts, lengths)
        out[row_of_token, column] = flat
    return out
