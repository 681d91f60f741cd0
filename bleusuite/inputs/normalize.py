"""Every input form becomes a :class:`Batch`: the entry point and the padded-array path.

Whatever the caller passes (arrays of token ids with padding and end-of-sentence markers,
ragged lists of arrays, or NLTK-style nested Python lists of any hashable tokens), the rest
of the library sees a :class:`Batch`: left-aligned int64 token matrices with explicit
lengths, on the caller's array backend. Lists are first packed into padded arrays by
:mod:`bleusuite.inputs.sequences` (token lists) or :mod:`bleusuite.inputs.ragged` (ragged and mixed
calls); every path then ends with the same steps here (padding, eos, absent references).
"""

from __future__ import annotations

import itertools
from typing import Any

from bleusuite import backends, checks, threads
from bleusuite.backends.base import Backend
from bleusuite.inputs.batch import Batch, identity
from bleusuite.inputs.checks import (
    SCORING_ARGNAMES,
    ArgNames,
    check_batch,
    check_int_array,
    check_special,
    plain_array,
    three_dimensional,
    two_dimensional,
)
from bleusuite.inputs.ragged import array_inside, from_mixed
from bleusuite.inputs.sequences import Padded, from_sequences
from bleusuite.text import encode_pairs

__all__ = ["normalize_batch", "scoring_batch", "scoring_inputs"]



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
    like = array_inside(hypotheses, references)
    if like is not None:
        padded = from_mixed(hypotheses, references, pad_id, eos_id, like, argnames)
    else:
        padded = from_sequences(hypotheses, references, pad_id, eos_id, argnames)
    return _from_padded(padded, argnames)


def _from_padded(padded: Padded, names: ArgNames) -> Batch:
    """The array path's last steps for a batch packed from lists (padding, eos, absent
    references)."""
    be, pad, eos = padded.backend, padded.pad, padded.eos
    present = padded.exists & _present(be, padded.refs, padded.ref_len, pad)
    hyp, hyp_len = _sentences(be, padded.hyp, padded.hyp_len, pad, eos)
    refs, ref_len = _sentences(be, padded.refs, padded.ref_len, pad, eos)
    to_caller = padded.to_caller or identity
    return _finish(be, hyp, hyp_len, refs, ref_len, present, to_caller, names[1])


# ----------------------------------------------------------------------------- arrays


def _from_arrays(
    be: Backend, hyp: Any, refs: Any, pad_id: Any, eos_id: Any, names: ArgNames
) -> Batch:
    hyp_name, ref_name = names
    hyp, refs = plain_array(hyp, hyp_name), plain_array(refs, ref_name)
    if be.device_of(hyp) != be.device_of(refs):
        raise ValueError(
            f"{hyp_name} and {ref_name} must be on the same device; got {hyp_name} on "
            f"{be.device_of(hyp)} and {ref_name} on {be.device_of(refs)}"
        )
    hyp = check_int_array(be, hyp, hyp_name)
    refs = check_int_array(be, refs, ref_name)
    to_caller = identity
    host_hyp, host_refs = be.host_view(hyp), be.host_view(refs)
    if host_hyp is not None and host_refs is not None:
        caller = be
        be = backends.get_backend(host_hyp)

        def to_caller(a: Any) -> Any:
            return caller.from_host(a, like=None)

        hyp, refs = be.to_int64(host_hyp), be.to_int64(host_refs)
    hyp = two_dimensional(hyp, hyp_name)
    refs = three_dimensional(refs, ref_name)
    check_batch(hyp.shape[0], refs.shape[0], "rows of references", names)
    pad = check_special(pad_id, "pad_id", be)
    eos = check_special(eos_id, "eos_id", be)
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
    to_caller: Any = identity,
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


# --------------------------------------------------------------------- text


def scoring_inputs(
    hypotheses: Any,
    references: Any,
    tokenize: str | None,
    lowercase: bool,
    pad_id: Any,
    eos_id: Any,
) -> tuple[Any, Any]:
    """The inputs of a scoring function: text encoded when ``tokenize`` is given, else as is.

    Raises:
        ValueError: ``lowercase`` or ``pad_id``/``eos_id`` where they do not apply.
    """
    if tokenize is None:
        if lowercase is not False:
            raise ValueError(
                "lowercase=True applies to text: give tokenize= too (e.g. tokenize='13a'); "
                "token lists and ids are compared as they are"
            )
        return hypotheses, references
    if pad_id is not None or eos_id is not None:
        raise ValueError(
            "pad_id and eos_id apply to token ids; with tokenize= the inputs are strings"
        )
    return encode_pairs(hypotheses, references, tokenize=tokenize, lowercase=lowercase)


def scoring_batch(
    hypotheses: Any,
    references: Any,
    *,
    pad_id: Any,
    eos_id: Any,
    tokenize: str | None,
    lowercase: bool,
    corpus: str | None = None,
) -> Batch:
    """The normalised batch of a scoring function (text encoded first when ``tokenize`` is
    given). ``corpus``: the name of a corpus function, which needs at least one sentence.

    Raises:
        ValueError: as :func:`scoring_inputs`; an empty batch for a corpus function.
    """
    hypotheses, references = scoring_inputs(hypotheses, references, tokenize, lowercase,
                                            pad_id, eos_id)
    batch = normalize_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id)
    if corpus is not None and batch.size == 0:
        raise ValueError(f"hypotheses: {corpus} needs at least one sentence; got an empty batch")
    return batch
