"""Clipped n-gram match counts with a compiled per-row kernel (numba), exact.

Used by :func:`bleusuite.ngrams.count_matches` for batches scored through NumPy (NumPy
arrays, and CPU torch tensors through zero-copy views) when numba is installed
(``pip install bleusuite[numba]``); ``BLEUSUITE_COUNTING=compact`` turns it off. It gives
the same counts as the NumPy pipeline of :mod:`bleusuite.counting_compact`, the default
without numba.

Each row is counted on its own, without returning to the interpreter, order by order:

1. **Alphabet and unigrams.** Every token value of the row's hypothesis gets an id 1..U
   from a lookup table over its block of rows' token values (reset after the row); a reference
   token whose value is not in the hypothesis gets 0: no n-gram through it can match.
   Counting ids per source gives the unigram counts.
2. **Order n > 1.** Each position still alive holds the id of its (n-1)-gram; the pair
   ((n-1)-gram id, next token id) is the n-gram, packed exactly into one int64 key (both
   are below the row length). The hypothesis positions enter their keys into a table
   (open addressing over the *full* keys: two keys share a slot only to be told apart by
   comparison, so a collision costs a probe, never a wrong count) and get dense n-gram ids;
   a reference position whose key is not in the table dies.
3. **Counts.** Per n-gram, ``min(hypothesis count, max reference count)`` (BLEU's clipped
   matches) and, per reference, ``min(hypothesis count, reference count)`` (GLEU).
4. **Pruning.** An (n+1)-gram can match only where the n-grams at p and p + 1 can: a
   hypothesis n-gram that no reference holds, or a reference n-gram the hypothesis does not
   hold, ends both positions' part in the higher orders. Orders stop once nothing is alive.

Exact for any token values: a block of rows whose values spread wider than a few times its
number of tokens numbers each row's values with the same kind of table over full values
instead of the lookup table.
The memory of a call is a few arrays of one row's width per thread, plus the lookup table
(at most four entries per token of the block, or 65536). The kernel releases the GIL
(``nogil``), so blocks of rows run on the threads of
:func:`bleusuite.threads.worker_threads` in parallel.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["count_matches_numba"]


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: spreads consecutive keys


@numba.njit(nogil=True, cache=True)
def _log2(power: int) -> int:
    bits = 0
    while (1 << bits) < power:
        bits += 1
    return bits


@numba.njit(nogil=True, cache=True)
def _table_slots(keys: int) -> int:
    """A power of two at least twice ``keys`` (load <= 1/2) and at least 16."""
    return 1 << max(_log2(2 * keys), 4)


@numba.njit(nogil=True, cache=True)
def _value_range(
    hyp: Any, hyp_len: Any, refs: Any, ref_len: Any, start: int, stop: int
) -> tuple[int, int]:
    """The smallest token value of rows ``start:stop`` and the size of a lookup table from
    it to the largest: 0 when that exceeds a few entries per token (or 65536)."""
    low = np.iinfo(np.int64).max
    high = np.iinfo(np.int64).min
    tokens = 0
    for row in range(start, stop):
        for i in range(hyp_len[row]):
            low = min(low, hyp[row, i])
            high = max(high, hyp[row, i])
        tokens += hyp_len[row]
        for r in range(refs.shape[1]):
            for j in range(ref_len[row, r]):
                low = min(low, refs[row, r, j])
                high = max(high, refs[row, r, j])
            tokens += ref_len[row, r]
    if tokens == 0:
        return 0, 1
    limit = max(4 * tokens, 1 << 16)
    if low < 0 <= high:  # high - low may not fit in int64; low + limit does
        return low, (high - low + 1) if high < low + limit else 0
    return low, (high - low + 1) if high - low < limit else 0


@numba.njit(nogil=True, cache=True)
def _count_rows(
    hyp: Any, hyp_len: Any, refs: Any, ref_len: Any, max_order: int,
    start: int, stop: int, clipped: Any, per_ref: Any, want_per_ref: bool,
) -> None:
    """Count rows ``start:stop`` into ``clipped`` (B, K) and ``per_ref`` (B, R, K).

    Positions are flat: the hypothesis at ``[0, Lh)``, reference r at
    ``[Lh + r * Lr, Lh + (r + 1) * Lr)``.
    """
    hyp_width = hyp.shape[1]
    num_refs = refs.shape[1]
    ref_width = refs.shape[2]
    width = hyp_width + num_refs * ref_width
    low, span = _value_range(hyp, hyp_len, refs, ref_len, start, stop)
    wide = span == 0  # values too spread for a lookup table: the hash table below instead
    ident = np.zeros(1 if wide else span, np.int32)  # value - low -> id in the hypothesis
    token = np.zeros(width, np.int64)  # token id at each flat position (0: not in hyp)
    gram = np.zeros(width, np.int64)  # id of the n-gram starting at the position
    source = np.zeros(width, np.int64)  # 0 for the hypothesis, r + 1 for reference r
    for r in range(num_refs):
        source[hyp_width + r * ref_width : hyp_width + (r + 1) * ref_width] = r + 1
    end = np.empty(num_refs + 1, np.int64)  # flat end of each sentence of the row
    hyp_alive = np.empty(hyp_width, np.int64)  # positions that may still match
    ref_alive = np.empty(max(width - hyp_width, 1), np.int64)
    ids = hyp_width + 2
    hyp_count = np.zeros(ids, np.int64)
    ref_count = np.zeros(ids * num_refs, np.int64)  # (n-gram id, reference)
    useful = np.zeros(ids, np.bool_)  # some reference holds the n-gram
    # live[p]: the current n-gram at p may be part of a match (hypothesis: some reference
    # holds it; reference: the hypothesis holds it). An (n+1)-gram can only match where
    # the n-grams at p and p + 1 are both live.
    live = np.zeros(width, np.bool_)
    # open addressing over full keys (exact): slot s holds key + 1 at 2s (0: empty) and the
    # n-gram id at 2s + 1; sized per order from the alive hypothesis positions
    table = np.zeros(2 * _table_slots(hyp_width), np.int64)
    used = np.zeros(_table_slots(hyp_width), np.bool_)  # (wide values) the slot holds one
    for row in range(start, stop):
        length = hyp_len[row]
        if length == 0:
            continue
        live[:] = False
        # 1. alphabet, and the unigram counts with it
        distinct = 0
        if wide:  # the same open addressing, over the values themselves
            slots = _table_slots(length)
            mask = slots - 1
            shift = np.uint64(64 - _log2(slots))
            used[:slots] = False
            for i in range(length):
                value = hyp[row, i]
                slot = np.int64((np.uint64(value) * _GOLDEN) >> shift)
                while used[slot] and table[2 * slot] != value:
                    slot = (slot + 1) & mask
                if not used[slot]:
                    used[slot] = True
                    table[2 * slot] = value
                    distinct += 1
                    table[2 * slot + 1] = distinct
                token[i] = table[2 * slot + 1]
        else:
            for i in range(length):
                value = hyp[row, i] - low
                found = ident[value]
                if found == 0:
                    distinct += 1
                    found = distinct
                    ident[value] = found
                token[i] = found
        hyp_count[: distinct + 1] = 0
        ref_count[: (distinct + 1) * num_refs] = 0
        for i in range(length):
            hyp_count[token[i]] += 1
            gram[i] = token[i]
        end[0] = length
        num_ref = 0
        for r in range(num_refs):
            base = hyp_width + r * ref_width
            ref_length = ref_len[row, r]
            end[r + 1] = base + ref_length
            for j in range(ref_length):
                if wide:
                    value = refs[row, r, j]
                    slot = np.int64((np.uint64(value) * _GOLDEN) >> shift)
                    while used[slot] and table[2 * slot] != value:
                        slot = (slot + 1) & mask
                    found = table[2 * slot + 1] if used[slot] else 0
                else:
                    found = ident[refs[row, r, j] - low]
                token[base + j] = found
                if found != 0:
                    ref_count[found * num_refs + r] += 1
                    gram[base + j] = found
                    if j > 0 and token[base + j - 1] != 0:  # a bigram of hypothesis tokens
                        ref_alive[num_ref] = base + j - 1
                        live[base + j - 1] = True
                        num_ref += 1
        if not wide:
            for i in range(length):
                ident[hyp[row, i] - low] = 0
        grams = distinct + 1  # n-gram ids 1..distinct
        num_hyp = 0
        for order in range(1, max_order + 1):
            if order > 1:
                if num_hyp == 0 or num_ref == 0:
                    break  # nothing of this order or above can match
                # 2. the n-gram id of each alive position: its (n-1)-gram id and the next
                # token, looked up in a table of full keys (hypothesis positions add them)
                slots = _table_slots(num_hyp)
                mask = slots - 1
                shift = np.uint64(64 - _log2(slots))
                table[: 2 * slots] = 0
                new_grams = 1
                for k in range(num_hyp):
                    position = hyp_alive[k]
                    key = gram[position] * ids + token[position + order - 1] + 1
                    slot = np.int64((np.uint64(key) * _GOLDEN) >> shift)
                    while table[2 * slot] != key and table[2 * slot] != 0:
                        slot = (slot + 1) & mask
                    if table[2 * slot] == 0:
                        table[2 * slot] = key
                        table[2 * slot + 1] = new_grams
                        hyp_count[new_grams] = 0
                        for r in range(num_refs):
                            ref_count[new_grams * num_refs + r] = 0
                        new_grams += 1
                    made = table[2 * slot + 1]
                    hyp_count[made] += 1
                    gram[position] = made
                alive = num_ref
                num_ref = 0
                for k in range(alive):
                    position = ref_alive[k]
                    key = gram[position] * ids + token[position + order - 1] + 1
                    slot = np.int64((np.uint64(key) * _GOLDEN) >> shift)
                    while table[2 * slot] != key and table[2 * slot] != 0:
                        slot = (slot + 1) & mask
                    if table[2 * slot] == 0:
                        live[position] = False  # not an n-gram of the hypothesis
                        continue
                    made = table[2 * slot + 1]
                    ref_count[made * num_refs + source[position] - 1] += 1
                    gram[position] = made
                    ref_alive[num_ref] = position
                    num_ref += 1
                # 3. the reference positions that may start a longer match
                found = num_ref
                num_ref = 0
                for k in range(found):
                    position = ref_alive[k]
                    if position + order < end[source[position]] and live[position + 1]:
                        ref_alive[num_ref] = position
                        num_ref += 1
                    else:
                        live[position] = False
                grams = new_grams
            total = 0
            for made in range(1, grams):
                best = 0
                for r in range(num_refs):
                    seen = ref_count[made * num_refs + r]
                    best = max(best, seen)
                    if want_per_ref:
                        per_ref[row, r, order - 1] += min(hyp_count[made], seen)
                total += min(hyp_count[made], best)
                useful[made] = best > 0
            clipped[row, order - 1] = total
            # 3. the hypothesis positions that may start a longer match
            if order == max_order:
                break
            if order == 1:
                for i in range(length):
                    live[i] = useful[gram[i]]
                num_hyp = 0
                for i in range(length):
                    if live[i] and i + 1 < length and live[i + 1]:
                        hyp_alive[num_hyp] = i
                        num_hyp += 1
                    else:
                        live[i] = False
            else:
                for k in range(num_hyp):
                    live[hyp_alive[k]] = useful[gram[hyp_alive[k]]]
                alive = num_hyp
                num_hyp = 0
                for k in range(alive):
                    position = hyp_alive[k]
                    if live[position] and position + order < length and live[position + 1]:
                        hyp_alive[num_hyp] = position
                        num_hyp += 1
                    else:
                        live[position] = False


def count_matches_numba(batch: Any, max_order: int, per_reference: bool = False) -> Any:
    """:func:`bleusuite.ngrams.count_matches` on a NumPy batch, with the compiled kernel.

    Rows are split into blocks, run on :func:`bleusuite.threads.worker_threads` threads.
    """
    from bleusuite import ngrams, threads

    hyp = np.ascontiguousarray(batch.hyp)
    refs = np.ascontiguousarray(batch.refs)
    hyp_len = np.ascontiguousarray(batch.hyp_len)
    ref_len = np.ascontiguousarray(batch.ref_len)
    num_rows, num_refs = hyp.shape[0], refs.shape[1]
    clipped = np.zeros((num_rows, max_order), dtype=np.int64)
    per_ref = np.zeros((num_rows, num_refs if per_reference else 0, max_order), dtype=np.int64)
    if num_rows == 0 or hyp.shape[1] == 0 or refs.shape[2] == 0 or max_order == 0:
        return ngrams.MatchCounts(clipped, per_ref if per_reference else None)
    workers = threads.worker_threads()
    blocks = min(num_rows, workers * 4 if workers > 1 else 1)
    bounds = np.linspace(0, num_rows, blocks + 1).astype(np.int64)

    def block(index: int) -> None:
        _count_rows(hyp, hyp_len, refs, ref_len, max_order, int(bounds[index]),
                    int(bounds[index + 1]), clipped, per_ref, per_reference)

    threads.run_blocks(block, range(blocks), workers)
    return ngrams.MatchCounts(clipped, per_ref if per_reference else None)
