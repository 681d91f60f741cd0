"""Validation and normalisation of every accepted input form, in one place.

Whatever the caller passes (arrays of token ids with padding and end-of-sentence markers,
or NLTK-style nested Python lists of any hashable tokens), the rest of the library sees a
:class:`Batch`: left-aligned int64 token matrices with explicit lengths, on the caller's
array backend.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleusuite import backends, checks, threads
from bleusuite.backends.base import Backend

__all__ = ["Batch", "mark_unreferenced", "normalize_batch", "pack_sentences"]

_INT64_MAX = np.iinfo(np.int64).max


@dataclass(frozen=True)
class Batch:
    """A normalised batch: every sentence left-aligned, with its length.

    Attributes:
        backend: the backend module that owns the arrays.
        hyp: (B, Lh) int64 hypothesis tokens; positions ``>= hyp_len`` are meaningless.
        hyp_len: (B,) int64 hypothesis lengths.
        refs: (B, R, Lr) int64 reference tokens.
        ref_len: (B, R) int64 reference lengths (0 for absent references).
        ref_present: (B, R) bool, False where a row carries fewer than R references.
        has_reference: (B,) bool on devices, where checking that every hypothesis has a
            reference would need a host read (scores are NaN where it is False); None when
            the check was made (and raised) at once.
    """

    backend: Backend
    to_caller: Any  # maps a result array back to the caller's array type (and device)
    hyp: Any
    hyp_len: Any
    refs: Any
    ref_len: Any
    ref_present: Any
    has_reference: Any = None

    @property
    def size(self) -> int:
        return int(self.hyp.shape[0])

    def rows(self, start: int, stop: int) -> Batch:
        """The sentences ``start:stop`` (views, no copy)."""
        return Batch(
            self.backend, self.to_caller, self.hyp[start:stop], self.hyp_len[start:stop],
            self.refs[start:stop], self.ref_len[start:stop], self.ref_present[start:stop],
            None if self.has_reference is None else self.has_reference[start:stop],
        )


def mark_unreferenced(batch: Batch, scores: Any, corpus: bool = False) -> Any:
    """Scores with NaN where a hypothesis has no reference (for a corpus score: NaN if any
    has none). Only on devices, where the check is not made at once (see
    :attr:`Batch.has_reference`); elsewhere such input has already raised."""
    if batch.has_reference is None:
        return scores
    be = batch.backend
    missing = ~batch.has_reference
    if corpus:
        missing = be.any_(missing)
    return be.where(missing, float("nan"), scores)


def _identity(a: Any) -> Any:
    return a


def normalize_batch(
    hypotheses: Any,
    references: Any,
    *,
    pad_id: Any = None,
    eos_id: Any = None,
) -> Batch:
    """Check the inputs of a scoring call and bring them to the :class:`Batch` form.

    Padded arrays on both sides go to the array path as they are. Where either side holds
    arrays (a padded array, or a Python list of 1-D arrays: ragged sentences, or NLTK-form
    lists of them), the other side's token lists and arrays are packed once into padded
    arrays with explicit lengths on that array's device (see :func:`pack_sentences`). Lists
    of Python tokens on both sides take the list path.

    Raises:
        TypeError: wrong kinds of objects (float arrays, strings where token sequences are
            expected, arrays from two libraries, non-integer tokens beside id arrays).
        ValueError: wrong shapes, batch-size mismatch, or a hypothesis without reference.
    """
    checks.check_environment()
    hyp_is_array = backends.backend_name(hypotheses) is not None
    ref_is_array = backends.backend_name(references) is not None
    if hyp_is_array and ref_is_array:
        be = backends.get_backend(hypotheses, references)
        return _from_arrays(be, hypotheses, references, pad_id, eos_id)
    like = _array_inside(hypotheses, references)
    if like is not None:
        return _from_mixed(hypotheses, references, pad_id, eos_id, like)
    return _from_sequences(hypotheses, references, pad_id, eos_id)


def _kind(obj: object) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}".replace("builtins.", "")


# ----------------------------------------------------------------------------- arrays


def _check_int_array(be: Backend, a: Any, argname: str) -> Any:
    if not be.is_integer_dtype(a):
        hint = " (did you pass logits or probabilities?)" if be.is_floating_dtype(a) else ""
        raise TypeError(
            f"{argname} must be an array of integer token ids; got dtype "
            f"{be.describe_dtype(a)}{hint}"
        )
    # ids above 2**63 - 1 would wrap to negative int64 values: still one distinct value per
    # id (the counts stay exact), but refused where the check costs no device read
    unsigned_64 = be.describe_dtype(a) in ("uint64", "torch.uint64")
    if (unsigned_64 and be.numel(a) and be.reads_are_free(a)
            and be.to_int(be.max_(a)) > _INT64_MAX):
        raise ValueError(f"{argname} holds token ids above 2**63 - 1, which int64 cannot hold")
    return be.to_int64(a)


def _plain_array(a: Any, argname: str) -> Any:
    """NumPy subclasses as plain arrays: an ``np.matrix`` is a 2-D batch like any other; a
    masked array is refused (its mask would be silently dropped)."""
    if not isinstance(a, np.ndarray) or type(a) is np.ndarray:
        return a
    if isinstance(a, np.ma.MaskedArray):
        raise TypeError(
            f"{argname} must be a plain array of token ids, not a masked array: fill the "
            "masked positions with a padding id (a.filled(pad_id)) and pass pad_id"
        )
    return np.asarray(a)


def _from_arrays(be: Backend, hyp: Any, refs: Any, pad_id: Any, eos_id: Any) -> Batch:
    hyp, refs = _plain_array(hyp, "hypotheses"), _plain_array(refs, "references")
    if be.device_of(hyp) != be.device_of(refs):
        raise ValueError(
            "hypotheses and references must be on the same device; got hypotheses on "
            f"{be.device_of(hyp)} and references on {be.device_of(refs)}"
        )
    hyp = _check_int_array(be, hyp, "hypotheses")
    refs = _check_int_array(be, refs, "references")
    to_caller = _identity
    host_hyp, host_refs = be.host_view(hyp), be.host_view(refs)
    if host_hyp is not None and host_refs is not None:
        caller = be
        be = backends.get_backend(host_hyp)

        def to_caller(a: Any) -> Any:
            return caller.from_host(a, like=None)

        hyp, refs = be.to_int64(host_hyp), be.to_int64(host_refs)
    if hyp.ndim != 2:
        raise ValueError(
            f"hypotheses must be a 2-D array (batch, length); got shape {tuple(hyp.shape)}"
        )
    refs = _three_dimensional(refs)
    if refs.shape[0] != hyp.shape[0]:
        raise ValueError(
            f"hypotheses and references must have the same batch size; got {hyp.shape[0]} "
            f"hypotheses and {refs.shape[0]} rows of references"
        )
    pad = _check_special(pad_id, "pad_id", be)
    eos = _check_special(eos_id, "eos_id", be)
    if be.reads_are_free(hyp) and be.compact_counting:
        hyp, hyp_len, refs, ref_len, present = _normalized_on_threads(be, hyp, refs, pad, eos)
    else:
        run = be.compiled(_normalized, static_argnums=(0, 3, 4))  # one program on JAX
        hyp, hyp_len, refs, ref_len, present = run(be, hyp, refs, pad, eos)
    return _finish(be, hyp, hyp_len, refs, ref_len, present, to_caller)


def _normalized(
    be: Backend, hyp: Any, refs: Any, pad: int | None, eos: int | None
) -> tuple[Any, Any, Any, Any, Any]:
    """Left-aligned (B, Lh) hypotheses and (B, R, Lr) references, their lengths, and which
    references are present."""
    # every row starts as the array's whole width (None): no length mask to build
    hyp, hyp_len = _sentences(be, hyp, None, pad, eos)
    present = _present(be, refs, None, pad)
    refs, ref_len = _sentences(be, refs, None, pad, eos)
    return hyp, hyp_len, refs, ref_len, present


#: token positions from which input normalisation splits the rows over the worker threads
THREADED_NORMALIZE_ENTRIES = 1 << 20


def _normalized_on_threads(
    be: Backend, hyp: Any, refs: Any, pad: int | None, eos: int | None
) -> tuple[Any, Any, Any, Any, Any]:
    """:func:`_normalized` on blocks of rows, one per worker thread, where reads are free
    (NumPy releases the GIL in each pass). A block whose rows are already left-aligned
    comes back as the view it was given; when every block does, the input array is kept
    as it is rather than copied together."""
    rows = hyp.shape[0]
    entries = rows * (hyp.shape[1] + refs.shape[1] * refs.shape[2])
    workers = threads.worker_threads()
    if workers <= 1 or rows < 2 or entries < THREADED_NORMALIZE_ENTRIES:
        return _normalized(be, hyp, refs, pad, eos)
    bounds = [rows * block // workers for block in range(workers + 1)]
    given = [(hyp[a:b], refs[a:b]) for a, b in itertools.pairwise(bounds)]
    done = threads.run_blocks(lambda parts: _normalized(be, *parts, pad, eos), given, workers)

    def joined(index: int, whole: Any = None) -> Any:
        pieces = [out[index] for out in done]
        if whole is not None and all(
            piece is parts[index // 2] for piece, parts in zip(pieces, given, strict=True)
        ):
            return whole
        return be.concat(pieces, axis=0)

    return joined(0, hyp), joined(1), joined(2, refs), joined(3), joined(4)


def _three_dimensional(refs: Any) -> Any:
    """(B, R, L) references from a (B, L) array (one reference each) or a (B, R, L) one."""
    if refs.ndim == 2:
        return refs.reshape(refs.shape[0], 1, refs.shape[1])
    if refs.ndim != 3:
        raise ValueError(
            "references must be a 2-D array (batch, length) with one reference per hypothesis "
            f"or 3-D (batch, references, length); got shape {tuple(refs.shape)}"
        )
    return refs


def _check_special(value: Any, argname: str, be: Backend | None = None) -> int | None:
    token = checks.token_id(value, argname)
    # a backend with narrower integers (JAX without x64) checks the id fits them
    return token if token is None or be is None else be.check_special(token, argname)


def _present(be: Backend, tokens: Any, lengths: Any | None, pad: int | None) -> Any:
    """References that exist: a row of nothing but padding is an absent reference.
    ``lengths`` None: every row is the array's whole width."""
    if lengths is None:
        lengths = be.full(tokens.shape[:-1], tokens.shape[-1], be.int64, like=tokens)
        if pad is None:
            return lengths >= 0
        return be.any_(tokens != pad, axis=-1) | (lengths == 0)
    if pad is None:
        return lengths >= 0
    length = tokens.shape[-1]
    within = be.arange(length, like=tokens) < lengths[..., None]
    non_pad = be.any_(within & (tokens != pad), axis=-1)
    return non_pad | (lengths == 0)


def _sentences(
    be: Backend, tokens: Any, lengths: Any | None, pad: int | None, eos: int | None
) -> tuple[Any, Any]:
    """Drop padding, cut at the first eos after the leading padding, and left-align what is
    left. Every shape follows from the input's, so this runs without a host read.
    ``lengths`` None: every row is the array's whole width (no length mask to build).

    The eos search starts at the first token that is not padding: with ``pad_id ==
    eos_id`` (GPT-2 style), left padding is padding and the first pad/eos after the
    sentence ends it, with left or right padding alike.
    """
    length = tokens.shape[-1]
    if pad is None and eos is None:
        if lengths is None:
            lengths = be.full(tokens.shape[:-1], length, be.int64, like=tokens)
        return tokens, lengths
    keep = None if lengths is None else be.arange(length, like=tokens) < lengths[..., None]
    if pad is not None:
        not_pad = tokens != pad
        if eos is not None:
            started = be.cumsum(not_pad, axis=-1) > 0
        keep = not_pad if keep is None else keep & not_pad
    if eos is not None:
        hit = tokens == eos
        if pad is not None:
            hit = hit & started
        before_eos = be.cumsum(hit, axis=-1) == 0
        keep = before_eos if keep is None else keep & before_eos
    assert keep is not None  # pad or eos is set
    new_lengths = be.to_int64(be.sum_(keep, axis=-1))
    if length == 0:
        return tokens, new_lengths
    # right-padded rows (the usual case) are left-aligned already: a cheap check where a
    # read is free (7.7 -> 0.3 ms for 256 x 1024) saves the scatter. A row is left-aligned
    # when its first dropped position comes after all of its kept ones (or it drops none).
    if be.reads_are_free(keep) and (not be.numel(keep) or be.to_bool(be.min_(
        (new_lengths == length) | (be.first_true(~keep, axis=-1) == new_lengths)
    ))):
        return tokens, new_lengths
    # every kept token goes to its new place in its row; the others to one extra slot
    size = be.numel(tokens)
    new_position = be.cumsum(keep, axis=-1) - 1
    row_start = (be.arange(size // length, like=tokens) * length).reshape(
        (*tokens.shape[:-1], 1)
    )
    destination = be.where(keep, row_start + new_position, size).reshape(1, -1)
    packed = be.scatter_last((1, size + 1), destination, tokens.reshape(1, -1))
    return packed[0, :size].reshape(tokens.shape), new_lengths


def _finish(
    be: Backend,
    hyp: Any,
    hyp_len: Any,
    refs: Any,
    ref_len: Any,
    present: Any,
    to_caller: Any = _identity,
) -> Batch:
    ref_len = be.where(present, ref_len, 0)
    unchecked = None
    if hyp.shape[0]:
        has_ref = be.any_(present, axis=1)
        if not be.reads_are_free(has_ref):
            # on a device the check would wait for the GPU: scores mark such rows NaN instead
            unchecked = has_ref
        elif not be.to_bool(be.min_(has_ref)):
            missing = be.to_numpy(be.flatnonzero(~has_ref))
            raise ValueError(
                f"references: hypothesis {int(missing[0])} has no reference (every reference "
                f"row is padding or the list is empty); {len(missing)} such row(s) in all"
            )
    return Batch(be, to_caller, hyp, hyp_len, refs, ref_len, present, unchecked)


# ----------------------------------------------------------------------- Python lists


def _is_token_sequence(obj: object) -> bool:
    if isinstance(obj, str | bytes):
        return False
    if isinstance(obj, np.ndarray):
        return obj.ndim == 1
    return isinstance(obj, Sequence)


def _check_sentence(sentence: object, argname: str) -> None:
    if isinstance(sentence, str | bytes):
        raise TypeError(
            f"{argname} must be a sequence of tokens, not a string ({sentence!r:.40}); "
            "split it into tokens first, or pass tokenize='13a' (sacrebleu's tokenizers) to "
            "score text"
        )
    if not _is_token_sequence(sentence):
        raise TypeError(f"{argname} must be a sequence of tokens; got {_kind(sentence)}")
    first = sentence[0] if len(sentence) else None  # type: ignore[arg-type,index]
    # a list or array where a token should be is nesting gone wrong; a tuple is a token
    if isinstance(first, list | np.ndarray):
        raise ValueError(
            f"{argname} must be a sequence of tokens, but its first token is itself a "
            "sequence: the nesting is one level too deep"
        )


def _from_sequences(hyps: Any, refs: Any, pad_id: Any, eos_id: Any) -> Batch:
    if not _is_token_sequence(hyps):
        raise TypeError(
            f"hypotheses must be an integer array or a list of token sequences; got {_kind(hyps)}"
        )
    if not _is_token_sequence(refs):
        raise TypeError(
            "references must be an integer array or a list (one entry per hypothesis) of lists "
            f"of token sequences; got {_kind(refs)}"
        )
    if len(hyps) != len(refs):
        raise ValueError(
            f"hypotheses and references must have the same batch size; got {len(hyps)} "
            f"hypotheses and {len(refs)} entries of references"
        )
    for row, hyp in enumerate(hyps):
        _check_sentence(hyp, f"hypotheses[{row}]")
    slots: list[tuple[int, int]] = []
    ref_sentences: list[Any] = []
    for row, row_refs in enumerate(refs):
        if isinstance(row_refs, str | bytes) or not _is_token_sequence(row_refs):
            raise TypeError(
                f"references[{row}] must be a list of reference token sequences; got "
                f"{_kind(row_refs)}"
            )
        if len(row_refs) and not _is_token_sequence(row_refs[0]):
            raise ValueError(
                f"references[{row}] must be a list of reference token sequences (NLTK form: "
                "one list of references per hypothesis), but it holds tokens: wrap a single "
                "reference in a list"
            )
        for position, ref in enumerate(row_refs):
            _check_sentence(ref, f"references[{row}][{position}]")
            slots.append((row, position))
            ref_sentences.append(ref)

    hyp_lengths = np.fromiter((len(s) for s in hyps), dtype=np.int64, count=len(hyps))
    ref_lengths = np.fromiter((len(s) for s in ref_sentences), np.int64, count=len(ref_sentences))
    flat = list(itertools.chain.from_iterable(itertools.chain(hyps, ref_sentences)))
    try:
        ids, mapping = _token_ids(flat)
    except TypeError as error:
        names = [f"hypotheses[{row}]" for row in range(len(hyps))]
        names += [f"references[{row}][{position}]" for row, position in slots]
        raise TypeError(_unhashable(itertools.chain(hyps, ref_sentences), names, error)) from None
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

    be = backends.get_backend()
    present = exists & _present(be, refs_arr, ref_len, pad)
    hyp, hyp_lengths = _sentences(be, hyp, hyp_lengths, pad, eos)
    refs_arr, ref_len = _sentences(be, refs_arr, ref_len, pad, eos)
    return _finish(be, hyp, hyp_lengths, refs_arr, ref_len, present)


def _unhashable(sentences: Any, names: list[str], error: TypeError) -> str:
    """Where the first unhashable token is, for the message."""
    for name, sentence in zip(names, sentences, strict=True):
        for position, token in enumerate(sentence):
            try:
                hash(token)
            except TypeError:
                return (f"{name}[{position}] must be a hashable token (str, int, tuple, ...); "
                        f"got {_kind(token)}")
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


# ------------------------------------------------------- ragged and mixed array inputs


def _is_integer_array(obj: object) -> bool:
    """An array of any library whose tokens are ids (NumPy arrays of str stay token lists)."""
    name = backends.backend_name(obj)
    if name is None:
        return False
    return name != "numpy" or obj.dtype.kind not in "OUSV"  # type: ignore[attr-defined]


def _first_item(obj: Any) -> Any:
    if backends.backend_name(obj) is not None or isinstance(obj, str | bytes):
        return None
    if not isinstance(obj, Sequence) or not len(obj):
        return None
    return obj[0]


def _array_inside(hypotheses: Any, references: Any) -> Any:
    """An array that fixes the backend and device of a mixed or ragged call, or None.

    Looked for, in order: a padded array on either side, the first hypothesis, the first
    row of references, and that row's first reference (only the first items are looked
    at: the others are checked when packed).
    """
    first_ref_row = _first_item(references)
    candidates = (
        hypotheses, references, _first_item(hypotheses), first_ref_row,
        _first_item(first_ref_row),
    )
    for candidate in candidates:
        if _is_integer_array(candidate):
            return candidate
        if backends.backend_name(candidate) is not None:
            return None  # a NumPy array of strings: tokens, the list path reads them
    return None


@dataclass(frozen=True)
class _Packed:
    """Sentences packed into one padded matrix on the backend: (N, L) tokens, (N,) lengths."""

    tokens: Any
    lengths: Any


def pack_sentences(sentences: Sequence[Any], like: Any, argname: str = "sentences") -> tuple[
        Any, Any]:
    """Pack ragged sentences into a padded ``(N, L)`` int64 array and ``(N,)`` lengths.

    The sentences are all 1-D integer arrays of ``like``'s library on its device (a list of
    tensors from ``generate``, say), or all Python sequences of int token ids (moved to
    ``like``'s device in one transfer). Positions past a sentence's length hold 0. The
    arrays are concatenated once and scattered into place by flat index: no Python loop
    per token.

    >>> import numpy as np
    >>> tokens, lengths = pack_sentences([np.array([5, 6, 7]), np.array([8])], like=np.zeros(1))
    >>> tokens.tolist(), lengths.tolist()
    ([[5, 6, 7], [8, 0, 0]], [3, 1])

    Raises:
        TypeError: a sentence of another kind (a string, a float array, an array of another
            library, non-integer tokens), or arrays mixed with Python lists.
        ValueError: a sentence that is not 1-D, or on another device than ``like``.
    """
    packed = _pack(backends.get_backend(like), list(sentences), like,
                   lambda i: f"{argname}[{i}]", argname)
    return packed.tokens, packed.lengths


def _pack(be: Backend, sentences: list[Any], like: Any, where: Any, side: str) -> _Packed:
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
            f"{_kind(sentences[first_list])}: give the sentences of one side all as arrays "
            "or all as token lists"
        )
    else:
        for position, sentence in enumerate(sentences):
            _check_sentence(sentence, where(position))
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
        be.scatter_flat(tokens, destination, flat)
    return _Packed(tokens, be.asarray(lengths, like=like))


def _concat_arrays(be: Backend, sentences: list[Any], like: Any, where: Any, side: str) -> Any:
    device = be.device_of(like)
    for position, sentence in enumerate(sentences):
        name = backends.backend_name(sentence)
        if name != be.name:
            raise TypeError(
                f"{where(position)} is a {_kind(sentence)} but the other arrays of the call "
                f"are {be.name} arrays: all arrays in one call must come from the same array "
                "library"
            )
        if sentence.ndim != 1:
            raise ValueError(
                f"{where(position)} must be a 1-D array of token ids (one sentence); got shape "
                f"{tuple(sentence.shape)}"
            )
        if be.device_of(sentence) != device:
            raise ValueError(
                f"{where(position)} is on {be.device_of(sentence)} but the other arrays of the "
                f"call are on {device}: all arrays must be on the same device"
            )
        if not be.is_integer_dtype(sentence):
            if sentence.shape[0] == 0:  # torch.tensor([]) is float32, yet holds no token
                sentences[position] = be.to_int64(sentence)
                continue
            _check_int_array(be, sentence, where(position))
    flat = be.concat(sentences, axis=0)
    return _check_int_array(be, flat, side)


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


def _hypothesis_matrix(be: Backend, hypotheses: Any, like: Any) -> tuple[Any, Any]:
    if backends.backend_name(hypotheses) is not None:
        hyp = _check_side_array(be, hypotheses, like, "hypotheses")
        if hyp.ndim != 2:
            raise ValueError(
                f"hypotheses must be a 2-D array (batch, length); got shape {tuple(hyp.shape)}"
            )
        return hyp, be.full((hyp.shape[0],), hyp.shape[1], be.int64, like=like)
    if not _is_token_sequence(hypotheses):
        raise TypeError(
            "hypotheses must be an integer array, a list of 1-D arrays or a list of token "
            f"sequences; got {_kind(hypotheses)}"
        )
    packed = _pack(be, list(hypotheses), like, lambda i: f"hypotheses[{i}]", "hypotheses")
    return packed.tokens, packed.lengths


def _check_side_array(be: Backend, array: Any, like: Any, argname: str) -> Any:
    if backends.backend_name(array) != be.name:
        raise TypeError(
            f"all arrays in one call must come from the same array library; got {argname} as "
            f"{_kind(array)} and other arrays of the {be.name} library"
        )
    if be.device_of(array) != be.device_of(like):
        raise ValueError(
            f"{argname} is on {be.device_of(array)} but the other arrays of the call are on "
            f"{be.device_of(like)}: all arrays must be on the same device"
        )
    return _check_int_array(be, array, argname)


def _reference_tensor(be: Backend, references: Any, batch: int, like: Any) -> tuple[
        Any, Any, Any]:
    """(B, R, L) references, (B, R) lengths and (B, R) existence of the mixed path."""
    if backends.backend_name(references) is not None:
        refs = _check_side_array(be, references, like, "references")
        refs = _three_dimensional(refs)
        _check_batch(batch, refs.shape[0], "rows of references")
        lengths = be.full(tuple(refs.shape[:2]), refs.shape[2], be.int64, like=like)
        return refs, lengths, be.full(tuple(refs.shape[:2]), True, be.bool_, like=like)
    if isinstance(references, str | bytes) or not _is_token_sequence(references):
        raise TypeError(
            "references must be an integer array, a list of 1-D arrays (one reference per "
            "hypothesis) or a list (one entry per hypothesis) of lists of reference token "
            f"sequences; got {_kind(references)}"
        )
    _check_batch(batch, len(references), "entries of references")
    slots: list[tuple[int, int]] = []
    sentences: list[Any] = []
    names: list[str] = []
    for row, row_refs in enumerate(references):
        if backends.backend_name(row_refs) is not None:  # a 1-D array: the row's one reference
            slots.append((row, 0))
            sentences.append(row_refs)
            names.append(f"references[{row}]")
            continue
        if isinstance(row_refs, str | bytes) or not _is_token_sequence(row_refs):
            raise TypeError(
                f"references[{row}] must be a 1-D array (one reference) or a list of "
                f"references; got {_kind(row_refs)}"
            )
        if len(row_refs) and not (
            _is_token_sequence(row_refs[0]) or backends.backend_name(row_refs[0]) is not None
        ):
            raise ValueError(
                f"references[{row}] must be a list of reference token sequences (NLTK form: "
                "one list of references per hypothesis), but it holds tokens: wrap a single "
                "reference in a list"
            )
        for position, ref in enumerate(row_refs):
            slots.append((row, position))
            sentences.append(ref)
            names.append(f"references[{row}][{position}]")
    packed = _pack(be, sentences, like, names.__getitem__, "references")
    num_refs = max((position + 1 for _, position in slots), default=1)
    width = int(packed.tokens.shape[1])
    slot_index = np.fromiter((r * num_refs + c for r, c in slots), np.int64, count=len(slots))
    refs = be.zeros((batch, num_refs, width), be.int64, like=like)
    if slots and width:
        destination = (be.asarray(slot_index, like=like)[:, None] * width
                       + be.arange(width, like=like)[None, :])
        be.scatter_flat(refs, destination.reshape(-1), packed.tokens.reshape(-1))
    lengths = be.zeros((batch, num_refs), be.int64, like=like)
    be.scatter_flat(lengths, be.asarray(slot_index, like=like), packed.lengths)
    exists = np.zeros(batch * num_refs, dtype=bool)
    exists[slot_index] = True
    return refs, lengths, be.asarray(exists.reshape(batch, num_refs), like=like)


def _check_batch(batch: int, rows: int, what: str) -> None:
    if rows != batch:
        raise ValueError(
            f"hypotheses and references must have the same batch size; got {batch} "
            f"hypotheses and {rows} {what}"
        )


def _host_views(be: Backend, hypotheses: Any, references: Any) -> tuple[Any, Any] | None:
    """The inputs with every array replaced by its NumPy view, or None if one has none.

    ``be.host_view`` gives views only where scoring through NumPy is the faster way (torch
    CPU tensors); NumPy arrays need no view, and GPU arrays have none.
    """
    if be.name == "numpy":
        return None
    failed = False

    def view(item: Any) -> Any:
        nonlocal failed
        name = backends.backend_name(item)
        if name != be.name:
            failed = failed or name is not None  # another library: the checks will say so
            return item
        host = be.host_view(item)
        if host is None:
            failed = True
            return item
        return host

    def view_all(items: Any) -> Any:
        """Arrays in a list of sentences, or of lists of sentences (token lists stay)."""
        if backends.backend_name(items) is not None:
            return view(items)
        if not isinstance(items, list | tuple) or not items:
            return items
        first = items[0]
        if backends.backend_name(first) is None and not isinstance(first, list | tuple):
            return items  # a sentence of tokens
        return [view_all(item) for item in items]

    converted = view_all(hypotheses), view_all(references)
    return None if failed else converted


def _from_mixed(hypotheses: Any, references: Any, pad_id: Any, eos_id: Any, like: Any) -> Batch:
    """Ragged arrays, or arrays on one side and token lists on the other.

    Everything is packed once into padded arrays with explicit lengths on ``like``'s device,
    then takes the steps of the array path (padding, eos, absent references).
    """
    be = backends.get_backend(like)
    pad = _check_special(pad_id, "pad_id")
    eos = _check_special(eos_id, "eos_id")
    to_caller = _identity
    host = _host_views(be, hypotheses, references)
    if host is not None:  # CPU tensors: pack and score through NumPy views, as padded ones
        caller = be

        def to_caller(a: Any) -> Any:
            return caller.from_host(a, like=None)

        hypotheses, references = host
        be = backends.get_backend()
        like = np.zeros(0, dtype=np.int64)
    hyp, hyp_len = _hypothesis_matrix(be, hypotheses, like)
    refs, ref_len, exists = _reference_tensor(be, references, int(hyp.shape[0]), like)
    present = exists & _present(be, refs, ref_len, pad)
    hyp, hyp_len = _sentences(be, hyp, hyp_len, pad, eos)
    refs, ref_len = _sentences(be, refs, ref_len, pad, eos)
    return _finish(be, hyp, hyp_len, refs, ref_len, present, to_caller)
