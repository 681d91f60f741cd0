"""Padded arrays of token ids: padding dropped, each sentence cut at its first eos and
left-aligned, in fixed shapes on every backend (no host read on devices)."""

from __future__ import annotations

import functools
import itertools
from typing import Any

from bleusuite import backends, threads
from bleusuite.backends.base import Backend
from bleusuite.inputs.batch import Batch, RaggedPairs, identity
from bleusuite.inputs.checks import (
    SCORING_ARGNAMES,
    ArgNames,
    check_batch,
    check_int_array,
    check_missing,
    check_same_arrays,
    check_special,
    plain_array,
    three_dimensional,
    two_dimensional,
    warn_if_padded,
)

__all__ = ["finish", "from_arrays", "present_rows", "sentences"]


def from_arrays(
    be: Backend, hyp: Any, refs: Any, pad_id: Any, eos_id: Any, names: ArgNames
) -> Batch:
    """The batch of padded arrays on both sides; messages call the two sides ``names``."""
    hyp_name, ref_name = names
    hyp, refs = plain_array(hyp, hyp_name), plain_array(refs, ref_name)
    check_same_arrays(be, refs, hyp, ref_name)
    hyp = check_int_array(be, hyp, hyp_name)
    refs = check_int_array(be, refs, ref_name)
    to_caller: Any = identity
    host_hyp, host_refs = be.host_view(hyp), be.host_view(refs)
    if host_hyp is not None and host_refs is not None:
        to_caller = functools.partial(be.from_host, like=None)
        be = backends.get_backend(host_hyp)
        hyp, refs = be.to_int64(host_hyp), be.to_int64(host_refs)
    hyp = two_dimensional(hyp, hyp_name)
    refs = three_dimensional(refs, ref_name)
    check_batch(hyp.shape[0], refs.shape[0], "rows of references", names)
    pad = check_special(pad_id, "pad_id", be)
    eos = check_special(eos_id, "eos_id", be)
    if pad is None and eos is None and be.name == "numpy":
        warn_if_padded(hyp, refs, names)
    if be.reads_are_free(hyp) and be.compact_counting:
        hyp, hyp_len, refs, ref_len, present = normalized_on_threads(be, hyp, refs, pad, eos)
    else:
        run = be.compiled(_normalized, static_argnums=(0, 3, 4))  # one program on JAX
        hyp, hyp_len, refs, ref_len, present = run(be, hyp, refs, pad, eos)
    return finish(be, hyp, hyp_len, refs, ref_len, present, to_caller, ref_name)


def _normalized(
    be: Backend, hyp: Any, refs: Any, pad: int | None, eos: int | None
) -> tuple[Any, Any, Any, Any, Any]:
    # every row starts as the array's whole width (None): no length mask to build
    hyp, hyp_len = sentences(be, hyp, None, pad, eos)
    present = present_rows(be, refs, None, pad)
    refs, ref_len = sentences(be, refs, None, pad, eos)
    return hyp, hyp_len, refs, ref_len, present


#: token positions from which input normalisation splits the rows over the worker threads
THREADED_NORMALIZE_ENTRIES = 1 << 20


def normalized_on_threads(
    be: Backend, hyp: Any, refs: Any, pad: int | None, eos: int | None
) -> tuple[Any, Any, Any, Any, Any]:
    """:func:`_normalized` on blocks of rows on the worker threads; where every block comes
    back as the view it was given (rows left-aligned already), the input is kept uncopied."""
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


def present_rows(be: Backend, tokens: Any, lengths: Any | None, pad: int | None) -> Any:
    """References that exist (a row of nothing but padding is absent); ``lengths`` None:
    every row is the array's whole width."""
    whole = lengths is None
    if lengths is None:
        lengths = be.full(tokens.shape[:-1], tokens.shape[-1], be.int64, like=tokens)
    if pad is None:
        return lengths >= 0
    non_pad = tokens != pad
    if not whole:
        non_pad = non_pad & (be.arange(tokens.shape[-1], like=tokens) < lengths[..., None])
    return be.any_(non_pad, axis=-1) | (lengths == 0)


def sentences(
    be: Backend, tokens: Any, lengths: Any | None, pad: int | None, eos: int | None
) -> tuple[Any, Any]:
    """Drop padding, cut at the first eos after the leading padding (so that with ``pad_id
    == eos_id``, GPT-2 style, left padding stays padding), and left-align what is left,
    without a host read; ``lengths`` None: every row is the array's whole width."""
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


def finish(
    be: Backend,
    hyp: Any,
    hyp_len: Any,
    refs: Any,
    ref_len: Any,
    present: Any,
    to_caller: Any = identity,
    ref_name: str = SCORING_ARGNAMES[1],
) -> Batch:
    """The batch of left-aligned sentences: ragged on the host (NumPy), padded elsewhere."""
    ref_len = be.where(present, ref_len, 0)
    unchecked = None
    if hyp.shape[0]:
        has_ref = be.any_(present, axis=1)
        if not be.reads_are_free(has_ref):
            # on a device the check would wait for the GPU: scores mark such rows NaN instead
            unchecked = has_ref
        elif not be.to_bool(be.min_(has_ref)):
            missing = be.to_numpy(be.flatnonzero(~has_ref))
            check_missing(int(missing[0]), len(missing), ref_name)
    if be.name == "numpy":
        # the rows read in place; the matrices kept too, for the NumPy pipeline (compact)
        pairs = RaggedPairs.from_padded(hyp, hyp_len, refs, ref_len)
        return Batch(be, to_caller, pairs.hyp_lengths, pairs.ref_lengths, present, pairs,
                     hyp, refs, hyp_width=int(hyp.shape[1]))
    return Batch(be, to_caller, hyp_len, ref_len, present, None, hyp, refs, unchecked)
