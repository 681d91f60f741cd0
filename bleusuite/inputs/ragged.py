"""Ragged sentences (Python lists of 1-D arrays) and mixed calls (a padded array on one
side, token lists or 1-D arrays on the other): on the host by the compiled ``gather``, else
(devices, or lists it does not take) packed once into padded arrays for the array path."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from bleusuite import backends, native
from bleusuite.backends.base import Backend
from bleusuite.inputs import arrays, lists
from bleusuite.inputs.batch import Batch, RaggedPairs, identity
from bleusuite.inputs.checks import (
    ArgNames,
    check_batch,
    check_int_array,
    check_reference_list,
    check_same_arrays,
    check_sentence,
    check_special,
    is_token_sequence,
    kind_of,
    three_dimensional,
    two_dimensional,
)

__all__ = ["array_inside", "from_mixed", "pack_sentences"]


def _first_item(obj: Any) -> Any:
    if backends.backend_name(obj) is not None or isinstance(obj, str | bytes):
        return None
    if not isinstance(obj, Sequence) or not len(obj):
        return None
    return obj[0]


def array_inside(hypotheses: Any, references: Any) -> Any:
    """An array that fixes the backend and device of a mixed or ragged call, or None: a
    padded side, the first hypothesis, the first row of references or its first reference
    (the others are checked when packed)."""
    first_ref_row = _first_item(references)
    candidates = (
        hypotheses, references, _first_item(hypotheses), first_ref_row,
        _first_item(first_ref_row),
    )
    for candidate in candidates:
        name = backends.backend_name(candidate)
        if name is not None:  # a NumPy array of strings holds tokens: the list path reads it
            return None if name == "numpy" and candidate.dtype.kind in "OUSV" else candidate
    return None


def pack_sentences(sentences: Sequence[Any], like: Any, argname: str = "sentences") -> tuple[
        Any, Any]:
    """Pack ragged sentences into a padded ``(N, L)`` int64 array and ``(N,)`` lengths.

    The sentences are all 1-D integer arrays of ``like``'s library on its device (a list of
    tensors from ``generate``, say), or all Python sequences of int token ids (moved to
    ``like``'s device in one transfer). Positions past a sentence's length hold 0.

    >>> import numpy as np
    >>> tokens, lengths = pack_sentences([np.array([5, 6, 7]), np.array([8])], like=np.zeros(1))
    >>> tokens.tolist(), lengths.tolist()
    ([[5, 6, 7], [8, 0, 0]], [3, 1])

    Raises:
        TypeError: a sentence of another kind (a string, a float array, an array of another
            library, non-integer tokens), or arrays mixed with Python lists.
        ValueError: a sentence that is not 1-D, or on another device than ``like``.
    """
    return _pack(backends.get_backend(like), list(sentences), like,
                 lambda i: f"{argname}[{i}]", argname)


def _pack(be: Backend, sentences: list[Any], like: Any, where: Any, side: str) -> tuple[Any, Any]:
    """``(N, L)`` padded tokens and ``(N,)`` lengths of ``sentences`` on ``like``'s device."""
    count = len(sentences)
    arrays = [backends.backend_name(s) is not None for s in sentences]
    if count and all(arrays):
        flat = _concat_arrays(be, sentences, like, where, side)
        lengths = np.fromiter((int(s.shape[0]) for s in sentences), np.int64, count=count)
    elif any(arrays):
        first_array = arrays.index(True)
        first_list = arrays.index(False)
        raise TypeError(
            f"{where(first_array)} is an array but {where(first_list)} is a "
            f"{kind_of(sentences[first_list])}: give the sentences of one side all as arrays "
            "or all as token lists"
        )
    else:
        for position, sentence in enumerate(sentences):
            check_sentence(sentence, where(position))
        lengths = np.fromiter((len(s) for s in sentences), np.int64, count=count)
        flat = be.asarray(_int_tokens(sentences, where, side), like=like)
    total = int(lengths.sum())
    width = int(lengths.max()) if count else 0
    tokens = be.zeros((count, width), be.int64, like=like)
    if total:
        # token t of the flat array belongs to the row whose end is the first one above t
        # (a search, not a repeat: CuPy's repeat takes no device array of counts)
        device_lengths = be.asarray(lengths, like=like)
        ends = be.cumsum(device_lengths, axis=0)
        position = be.arange(total, like=like)
        row = be.searchsorted(ends, position + 1)
        destination = row * width + position - (ends - device_lengths)[row]
        tokens = be.scatter_flat(tokens, destination, flat)
    return tokens, be.asarray(lengths, like=like)


def _concat_arrays(be: Backend, sentences: list[Any], like: Any, where: Any, side: str) -> Any:
    for position, sentence in enumerate(sentences):
        check_same_arrays(be, sentence, like, where(position))
        if sentence.ndim != 1:
            raise ValueError(
                f"{where(position)} must be a 1-D array of token ids (one sentence); got shape "
                f"{tuple(sentence.shape)}"
            )
        if not be.is_integer_dtype(sentence):
            if sentence.shape[0] == 0:  # torch.tensor([]) is float32, yet holds no token
                sentences[position] = be.to_int64(sentence)
                continue
            check_int_array(be, sentence, where(position))
    if len({str(s.dtype) for s in sentences}) > 1:
        # integer arrays of different dtypes (widths, signs, byte orders) concatenate to
        # float64 where one is uint64: each becomes int64 ids first
        sentences = [check_int_array(be, s, where(position))
                     for position, s in enumerate(sentences)]
    flat = be.concat(sentences, axis=0)
    return check_int_array(be, flat, side)


def _int_tokens(sentences: list[Any], where: Any, side: str) -> np.ndarray:
    """The tokens of Python sentences, flat; beside id arrays they must be int ids."""
    chain = itertools.chain.from_iterable
    kinds = set(map(type, chain(sentences)))
    wrong = {k for k in kinds if not issubclass(k, int | np.integer) or issubclass(k, bool)}
    if wrong:
        row = next(i for i, s in enumerate(sentences) if any(type(t) in wrong for t in s))
        raise TypeError(
            f"{where(row)} must hold int token ids when the other side of the call is an "
            f"array of token ids; got {sorted(k.__name__ for k in wrong)} tokens (encode "
            "text with the same tokenizer, or pass token lists on both sides)"
        )
    try:
        return np.fromiter(chain(sentences), np.int64)
    except OverflowError:
        raise ValueError(f"{side} holds token ids outside the int64 range") from None


def _reference_tensor(be: Backend, references: Any, batch: int, like: Any,
                      names: ArgNames) -> tuple[Any, Any, Any]:
    """(B, R, L) references, (B, R) lengths and (B, R) existence of the mixed path; messages
    call the two sides ``names``."""
    name = names[1]
    if backends.backend_name(references) is not None:
        check_same_arrays(be, references, like, name)
        refs = three_dimensional(check_int_array(be, references, name), name)
        check_batch(batch, refs.shape[0], "rows of references", names)
        lengths = be.full(tuple(refs.shape[:2]), refs.shape[2], be.int64, like=like)
        return refs, lengths, be.full(tuple(refs.shape[:2]), True, be.bool_, like=like)
    if not is_token_sequence(references):
        raise TypeError(
            f"{name} must be an integer array, a list of 1-D arrays (one reference per "
            "hypothesis) or a list (one entry per hypothesis) of lists of reference token "
            f"sequences; got {kind_of(references)}"
        )
    check_batch(batch, len(references), "entries of references", names)
    slots: list[tuple[int, int, Any, str]] = []  # row, position, reference, its name
    for row, row_refs in enumerate(references):
        if backends.backend_name(row_refs) is not None:  # a 1-D array: the row's one reference
            slots.append((row, 0, row_refs, f"{name}[{row}]"))
            continue
        check_reference_list(
            row_refs, f"{name}[{row}]", "a 1-D array (one reference) or a list of references",
            lambda ref: is_token_sequence(ref) or backends.backend_name(ref) is not None)
        slots += [(row, position, ref, f"{name}[{row}][{position}]")
                  for position, ref in enumerate(row_refs)]
    tokens, token_lengths = _pack(be, [slot[2] for slot in slots], like,
                                  lambda i: slots[i][3], name)
    num_refs = max((slot[1] + 1 for slot in slots), default=1)
    width = int(tokens.shape[1])
    slot_index = np.fromiter((r * num_refs + c for r, c, _, _ in slots), np.int64,
                             count=len(slots))
    refs = be.zeros((batch, num_refs, width), be.int64, like=like)
    if slots and width:
        destination = (be.asarray(slot_index, like=like)[:, None] * width
                       + be.arange(width, like=like)[None, :])
        refs = be.scatter_flat(refs, destination.reshape(-1), tokens.reshape(-1))
    lengths = be.zeros((batch, num_refs), be.int64, like=like)
    lengths = be.scatter_flat(lengths, be.asarray(slot_index, like=like), token_lengths)
    exists = np.zeros(batch * num_refs, dtype=bool)
    exists[slot_index] = True
    return refs, lengths, be.asarray(exists.reshape(batch, num_refs), like=like)


def _host_views(be: Backend, hypotheses: Any, references: Any) -> tuple[Any, Any] | None:
    """The inputs with every array as its NumPy view (:meth:`Backend.host_view`), or None."""
    if be.name == "numpy":
        return None
    failed = False

    def view_all(items: Any) -> Any:
        nonlocal failed
        name = backends.backend_name(items)
        if name is not None:  # an array of another library: the checks will say so
            host = be.host_view(items) if name == be.name else None
            failed = failed or host is None
            return items if host is None else host
        if not isinstance(items, list | tuple) or not items:
            return items
        first = items[0]
        if backends.backend_name(first) is None and not isinstance(first, list | tuple):
            return items  # a sentence of tokens
        return [view_all(item) for item in items]

    converted = view_all(hypotheses), view_all(references)
    return None if failed else converted


def from_mixed(hypotheses: Any, references: Any, pad_id: Any, eos_id: Any, like: Any,
               names: ArgNames) -> Batch:
    """The batch of a ragged or mixed call; ``like`` is an array of the call
    (:func:`array_inside`)."""
    be = backends.get_backend(like)
    pad = check_special(pad_id, "pad_id")
    eos = check_special(eos_id, "eos_id")
    to_caller: Any = identity
    host = _host_views(be, hypotheses, references)
    if host is not None:  # CPU tensors: scored through NumPy views, as padded ones
        to_caller = functools.partial(be.from_host, like=None)
        hypotheses, references = host
        be = backends.get_backend()
        like = np.zeros(0, dtype=np.int64)
    if be.name == "numpy":
        batch = _host_gathered(hypotheses, references, pad, eos, names, to_caller)
        if batch is not None:
            return batch
    name = names[0]
    if backends.backend_name(hypotheses) is not None:
        check_same_arrays(be, hypotheses, like, name)
        hyp = two_dimensional(check_int_array(be, hypotheses, name), name)
        hyp_len = be.full((hyp.shape[0],), hyp.shape[1], be.int64, like=like)
    elif not is_token_sequence(hypotheses):
        raise TypeError(
            f"{name} must be an integer array, a list of 1-D arrays or a list of token "
            f"sequences; got {kind_of(hypotheses)}"
        )
    else:
        hyp, hyp_len = _pack(be, list(hypotheses), like, lambda i: f"{name}[{i}]", name)
    refs, ref_len, exists = _reference_tensor(be, references, int(hyp.shape[0]), like, names)
    present = exists & arrays.present_rows(be, refs, ref_len, pad)
    hyp, hyp_len = arrays.sentences(be, hyp, hyp_len, pad, eos)
    refs, ref_len = arrays.sentences(be, refs, ref_len, pad, eos)
    return arrays.finish(be, hyp, hyp_len, refs, ref_len, present, to_caller, names[1])


def _host_gathered(hypotheses: Any, references: Any, pad: int | None, eos: int | None,
                   names: ArgNames, to_caller: Any) -> Batch | None:
    """The host batch of a ragged or mixed call: the list sides by ``gather``, a padded side
    by the array path; None where ``gather`` does not take the lists."""
    compiled = native.module()
    if compiled is None:
        return None
    hyp_padded = backends.backend_name(hypotheses) is not None
    ref_padded = backends.backend_name(references) is not None
    if not hyp_padded and not ref_padded:
        gathered = compiled.gather(hypotheses, references, None, False, pad, eos, None, False)
        if gathered is None:
            return None
        return lists.gathered_batch(gathered, len(hypotheses), names[1], to_caller=to_caller)
    listed_side = references if hyp_padded else hypotheses
    if not is_token_sequence(listed_side):
        return None
    be = backends.get_backend()
    if hyp_padded:
        rows = int(two_dimensional(hypotheses, names[0]).shape[0])
        check_batch(rows, len(references), "entries of references", names)
        padded = arrays.from_arrays(be, hypotheses, np.zeros((rows, 1, 0), np.int64), pad, eos,
                                    names)
    else:
        rows = int(three_dimensional(references, names[1]).shape[0])
        check_batch(len(hypotheses), rows, "rows of references", names)
        padded = arrays.from_arrays(be, np.zeros((rows, 0), np.int64), references, pad, eos,
                                    names)
    empty = [()] * rows
    gathered = compiled.gather(empty if hyp_padded else hypotheses,
                               references if hyp_padded else empty, None, False, pad, eos, None,
                               False)
    if gathered is None:
        return None
    listed = lists.gathered_batch(gathered, rows, names[1], check=hyp_padded)
    hyp_side, ref_side = (padded, listed) if hyp_padded else (listed, padded)
    hyps, refs = hyp_side.pairs, ref_side.pairs
    assert hyps is not None and refs is not None
    pairs = RaggedPairs(hyps.hyp_ids, hyps.hyp_starts, hyps.hyp_lengths, refs.ref_ids,
                        refs.ref_starts, refs.ref_lengths)
    return Batch(padded.backend, to_caller, pairs.hyp_lengths, pairs.ref_lengths,
                 ref_side.ref_present, pairs, hyp_width=hyp_side.hyp_width)
