"""Every input form becomes a :class:`Batch`: the entry point and the padded-array path.

Whatever the caller passes (arrays of token ids with padding and end-of-sentence markers,
ragged lists of arrays, or NLTK-style nested Python lists of any hashable tokens), the rest
of the library sees a :class:`Batch`: left-aligned int64 token matrices with explicit
lengths, on the caller's array backend. Lists are first packed into padded arrays by
:mod:`bleusuite.sequences` (token lists) or :mod:`bleusuite.ragged` (ragged and mixed
calls); every path then ends with the same steps here (padding, eos, absent references).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from bleusuite import backends, checks, threads
from bleusuite.backends.base import Backend
from bleusuite.ragged import _array_inside, _from_mixed, pack_sentences
from bleusuite.sequences import Padded, _from_sequences
from bleusuite.token_checks import (
    SCORING_ARGNAMES,
    ArgNames,
    _check_batch,
    _check_int_array,
    _check_special,
    _plain_array,
    _three_dimensional,
    _two_dimensional,
)

__all__ = ["Batch", "mark_unreferenced", "normalize_batch", "pack_sentences"]


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
    argnames: ArgNames = SCORING_ARGNAMES,
) -> Batch:
    """Check the inputs of a scoring call and bring them to the :class:`Batch` form.

    ``argnames`` are the caller's names of its two inputs, which every error message uses
    (an Ignite metric's are ``("y_pred", "y")``).

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
        return _from_arrays(be, hypotheses, references, pad_id, eos_id, argnames)
    like = _array_inside(hypotheses, references)
    if like is not None:
        padded = _from_mixed(hypotheses, references, pad_id, eos_id, like, argnames)
    else:
        padded = _from_sequences(hypotheses, references, pad_id, eos_id, argnames)
    return _from_padded(padded, argnames)


def _from_padded(padded: Padded, names: ArgNames) -> Batch:
    """The array path's last steps for a batch packed from lists (padding, eos, absent
    references)."""
    be, pad, eos = padded.backend, padded.pad, padded.eos
    present = padded.exists & _present(be, padded.refs, padded.ref_len, pad)
    hyp, hyp_len = _sentences(be, padded.hyp, padded.hyp_len, pad, eos)
    refs, ref_len = _sentences(be, padded.refs, padded.ref_len, pad, eos)
    to_caller = padded.to_caller or _identity
    return _finish(be, hyp, hyp_len, refs, ref_len, present, to_caller, names[1])


# ----------------------------------------------------------------------------- arrays


def _from_arrays(
    be: Backend, hyp: Any, refs: Any, pad_id: Any, eos_id: Any, names: ArgNames
) -> Batch:
    hyp_name, ref_name = names
    hyp, refs = _plain_array(hyp, hyp_name), _plain_array(refs, ref_name)
    if be.device_of(hyp) != be.device_of(refs):
        raise ValueError(
            f"{hyp_name} and {ref_name} must be on the same device; got {hyp_name} on "
            f"{be.device_of(hyp)} and {ref_name} on {be.device_of(refs)}"
        )
    hyp = _check_int_array(be, hyp, hyp_name)
    refs = _check_int_array(be, refs, ref_name)
    to_caller = _identity
    host_hyp, host_refs = be.host_view(hyp), be.host_view(refs)
    if host_hyp is not None and host_refs is not None:
        caller = be
        be = backends.get_backend(host_hyp)

        def to_caller(a: Any) -> Any:
            return caller.from_host(a, like=None)

        hyp, refs = be.to_int64(host_hyp), be.to_int64(host_refs)
    hyp = _two_dimensional(hyp, hyp_name)
    refs = _three_dimensional(refs, ref_name)
    _check_batch(hyp.shape[0], refs.shape[0], "rows of references", names)
    pad = _check_special(pad_id, "pad_id", be)
    eos = _check_special(eos_id, "eos_id", be)
    if be.reads_are_free(hyp) and be.compact_counting:
        hyp, hyp_len, refs, ref_len, present = _normalized_on_threads(be, hyp, refs, pad, eos)
    else:
        run = be.compiled(_normalized, static_argnums=(0, 3, 4))  # one program on JAX
        hyp, hyp_len, refs, ref_len, present = run(be, hyp, refs, pad, eos)
    return _finish(be, hyp, hyp_len, refs, ref_len, present, to_caller, ref_name)


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



def _present(be: Backend, tokens: Any, lengths: Any | None, pad: int | None) -> Any:
    """References that exist: a row of nothing but padding is an absent reference.
    ``lengths`` None: every row is the array's whole width (no length mask to build)."""
    whole = lengths is None
    if lengths is None:
        lengths = be.full(tokens.shape[:-1], tokens.shape[-1], be.int64, like=tokens)
    if pad is None:
        return lengths >= 0
    non_pad = tokens != pad
    if not whole:
        non_pad = non_pad & (be.arange(tokens.shape[-1], like=tokens) < lengths[..., None])
    return be.any_(non_pad, axis=-1) | (lengths == 0)


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
    ref_name: str = SCORING_ARGNAMES[1],
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
                f"{ref_name}: hypothesis {int(missing[0])} has no reference (every reference "
                f"row is padding or the list is empty); {len(missing)} such row(s) in all"
            )
    return Batch(be, to_caller, hyp, hyp_len, refs, ref_len, present, unchecked)
