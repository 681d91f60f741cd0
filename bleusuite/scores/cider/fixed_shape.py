"""CIDEr-D of a padded token-id batch on its own device, every shape fixed by the input
shapes: on CUDA (torch, CuPy) and JAX with x64 the call reads nothing back to the host, so
it does not wait for the GPU (an RL loop's reward stays queued behind the sampling), and it
runs on torch ``meta`` tensors.

The arithmetic is :mod:`bleusuite.scores.cider.sorted_orders`' (pycocoevalcap 1.2's
``CiderScorer``) without its data-dependent sizes:

1. Each row is laid out as its hypothesis then its R references (``W = Lh + R * Lr``
   positions; B * W in all). The token values are numbered 1..U by one sort of all
   positions.
2. For each order k, every position gets a key: ``id of its (k-1)-gram * (B W + 1) + its
   k-th token's number`` (beyond the end of its sentence: a key above every other). One
   stable sort of the keys puts each n-gram's occurrences together in position order
   (image, hypothesis before references, offset); runs of one key number the k-grams for
   order k + 1, runs of one key and one sentence are a sentence's k-gram with its count
   (tf), and the hypothesis run of the same key and image is the nearest hypothesis run
   before a reference run.
3. Document frequencies: the batch's own (distinct images among the reference runs of a
   key, pycocoevalcap's), or a fixed table (:class:`DeviceTable`: the n-grams of
   :func:`bleusuite.cider_document_frequency` sorted by an exact 62-bit hash, found by a
   binary search and checked token by token, so a hash collision can never count).
4. Each run's value lands at its first position (squared, for the norms) or at its
   hypothesis run's first position in a (B, R, Lh) grid (the clipped products), and one sum
   along the last axis makes each sentence's sums: every fixed-shape array, each image's
   numbers computed from its own row only.

The sums are the library's own reductions, not pycocoevalcap's one-by-one additions: the
scores equal the host path's to about 1e-15 relative (tested to 1e-12), not to the bit.
A row without any reference scores NaN (checking would read a value back to the host).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleusuite.backends.base import Backend

__all__ = ["HASH_PRIMES", "DeviceTable", "fits", "fixed_cider_scores", "ngram_hashes",
           "scores_on_device"]

#: (multiplier, modulus) of the two 31-bit polynomial hashes whose pair is an n-gram's
#: 62-bit hash: every product stays below 2**62 in int64 (no wrap-around on any backend).
#: A table whose n-grams collide under one choice takes the next (checked when it is built).
HASH_PRIMES = (((1_000_003, 2_147_483_647), (92_821, 2_147_483_629)),
               ((1_299_709, 2_147_483_587), (15_485_863, 2_147_483_579)),
               ((179_424_673, 2_147_483_563), (2_038_074_743, 2_147_483_549)))


def fits(rows: int, width: int, key_bits: int) -> bool:
    """Whether a batch of ``rows`` x ``width`` positions fits the keys (two numbers below
    ``rows * width + 1`` packed in one int64): fewer than 2**31 positions, and int64."""
    return key_bits >= 62 and rows * width < 2 ** 31 - 1


def ngram_hashes(values: Any, order: int, primes: Any, shifted: Any) -> Any:
    """The 62-bit hash of the ``order``-gram starting at each position of the 1-D token
    values (``shifted(a, j)``: ``a`` moved j positions to the left, zero-filled); the same
    integers on the host (NumPy, for the tables) and on every device (the device path's
    lookups take the same steps, :class:`_RollingHash`)."""
    rolling = _RollingHash(values, primes, shifted)
    for _ in range(order - 1):
        rolling.advance()
    return rolling.hashes()


def _numpy_shifted(a: np.ndarray, j: int) -> np.ndarray:
    return np.concatenate([a[j:], np.zeros(min(j, a.shape[0]), dtype=a.dtype)])


@dataclass(frozen=True)
class _OrderTable:
    hashes: Any     # (T,) int64, increasing
    ngrams: Any     # (T, k) int64: the n-gram of each hash
    counts: Any     # (T,) float64 document frequencies


@dataclass(frozen=True)
class DeviceTable:
    """Fixed document frequencies of token ids, laid out for :func:`fixed_cider_scores`:
    per order, the n-grams sorted by their hash (:func:`ngram_hashes`), no two alike.

    Made once per :class:`~bleusuite.CiderDocumentFrequency` on the host
    (:meth:`from_counts`), then copied once to each device that uses it (:meth:`on`)."""

    primes: Any
    orders: tuple[_OrderTable, ...]

    @classmethod
    def from_counts(cls, counts: Any, max_order: int) -> DeviceTable:
        """From a mapping of n-grams (tuples of ints) to their document frequencies."""
        grouped: list[list[tuple[int, ...]]] = [[] for _ in range(max_order)]
        frequency: list[list[int]] = [[] for _ in range(max_order)]
        for ngram, count in counts.items():
            if 1 <= len(ngram) <= max_order:
                grouped[len(ngram) - 1].append(ngram)
                frequency[len(ngram) - 1].append(count)
        for primes in HASH_PRIMES:
            orders = []
            for k in range(1, max_order + 1):
                ngrams = np.array(grouped[k - 1], dtype=np.int64).reshape(-1, k)
                hashes = np.zeros(0, dtype=np.int64)
                if ngrams.shape[0]:
                    # the hash of row i's k-gram: the rows laid end to end, every k-th start
                    flat = ngrams.reshape(-1)
                    hashes = ngram_hashes(flat, k, primes, _numpy_shifted)[::k]
                order = np.argsort(hashes, kind="stable")
                hashes = hashes[order]
                if hashes.shape[0] > 1 and not bool(np.all(hashes[1:] != hashes[:-1])):
                    break       # two n-grams share a hash: the next primes
                orders.append(_OrderTable(hashes, ngrams[order], np.asarray(
                    frequency[k - 1], dtype=np.float64)[order]))
            else:
                return cls(primes, tuple(orders))
        raise ValueError("document_frequency: its n-grams collide under every hash tried "
                         "(never seen; please report it)")

    def on(self, be: Backend, like: Any) -> DeviceTable:
        """This table's arrays on ``like``'s device."""
        def move(a: np.ndarray) -> Any:
            return be.asarray(a, like=like, dtype=be.float64 if a.dtype.kind == "f"
                              else be.int64)
        return DeviceTable(self.primes, tuple(
            _OrderTable(move(t.hashes), move(t.ngrams), move(t.counts)) for t in self.orders))


def fixed_cider_scores(be: Backend, hyp: Any, hyp_len: Any, refs: Any, ref_len: Any,
                       present: Any, *, max_order: int, sigma: float,
                       table: DeviceTable | None, documents: int | None) -> Any:
    """CIDEr-D of each row: hypothesis ``hyp[b, :hyp_len[b]]``, references ``refs[b, r,
    :ref_len[b, r]]`` where ``present[b, r]``; ``table`` (on the arrays' device) and
    ``documents``: fixed document frequencies, else (None) the batch's own. (B,) float64
    on the arrays' device; NaN for a row without a reference."""
    rows, hyp_width = int(hyp.shape[0]), int(hyp.shape[1])
    num_refs, ref_width = int(refs.shape[1]), int(refs.shape[2])
    width = hyp_width + num_refs * ref_width
    total = rows * width
    f64 = be.float64
    count = be.sum_(be.to_float64(present), axis=1)              # references per row
    if rows == 0 or total == 0 or num_refs == 0:
        return be.zeros((rows,), f64, like=hyp) / count * 10.0
    log_documents = math.log(float(rows if documents is None else documents))
    present_len = be.where(present, ref_len, 0 * ref_len)
    tokens = be.concat([hyp, refs.reshape(rows, num_refs * ref_width)], axis=1).reshape(-1)

    # where each position is: its sentence (row * (R + 1) + 0 hypothesis / 1 + r), offset
    column = be.arange(width, like=hyp)
    in_ref = column >= hyp_width
    ref_column = be.maximum(column - hyp_width, 0)
    within = be.where(in_ref, 1 + ref_column // max(ref_width, 1), 0 * column)
    offset = be.where(in_ref, ref_column % max(ref_width, 1), column)
    lengths = be.concat([hyp_len.reshape(rows, 1), present_len], axis=1)   # (B, R + 1)
    left = (lengths[:, within] - offset.reshape(1, width)).reshape(-1)
    sentence = (be.arange(rows, like=hyp).reshape(rows, 1) * (num_refs + 1)
                + within.reshape(1, width)).reshape(-1)
    offset = (offset.reshape(1, width) + 0 * be.arange(rows, like=hyp).reshape(rows, 1)
              ).reshape(-1)

    # constants made once (each a launch on a device)
    i64 = be.int64
    zero_tail = be.zeros((max(max_order, 1),), i64, like=hyp)
    true_head = be.full((1,), True, be.bool_, like=hyp)
    false_head = be.full((1,), False, be.bool_, like=hyp)
    base = total + 1
    beyond = base * base                 # the key past a sentence's end: above every other
    grid = rows * num_refs * hyp_width   # the clipped products' (B, R, Lh) slots
    past_keys = be.full((total,), beyond, i64, like=hyp)
    past_positions = be.full((total,), total, i64, like=hyp)
    past_slots = be.full((total,), grid, i64, like=hyp)
    none_before = be.full((total,), -1, i64, like=hyp)
    zero_ids = be.zeros((total,), i64, like=hyp)
    zero_values = be.zeros((total,), f64, like=hyp)
    position = be.arange(total, like=hyp)
    # a reference entry's slot is (sentence - image - 1) * Lh + its hypothesis run's offset
    hyp_offset = offset - hyp_width

    def shifted(a: Any, j: int) -> Any:
        return be.concat([a[j:], zero_tail[:j]], axis=0) if j else a

    def sort(keys: Any) -> tuple[Any, Any]:
        values, order = be.sort_last_with_index(keys.reshape(1, total))
        return values.reshape(-1), order.reshape(-1)

    def changes(a: Any) -> Any:        # where a run of equal values starts
        return be.concat([true_head, a[1:] != a[:-1]], axis=0)

    values, order = sort(tokens)
    number = be.scatter_last((1, total), order.reshape(1, total),
                             be.cumsum(changes(values), 0).reshape(1, total)).reshape(-1)
    ids = number
    hashes = None if table is None else _RollingHash(tokens, table.primes, shifted)
    hyp_norm2, ref_norm2, dots = [], [], []
    for k in range(1, max_order + 1):
        valid = left >= k
        key = number if k == 1 else ids * base + shifted(number, k - 1)
        keys, order = sort(be.where(valid, key, past_keys))
        new_key = changes(keys)
        group = be.cumsum(new_key, 0)                           # 1.. per distinct key
        ids = be.scatter_last((1, total), order.reshape(1, total),
                              group.reshape(1, total)).reshape(-1)
        listed = keys != beyond
        in_sentence = sentence[order]
        in_image = in_sentence // (num_refs + 1)
        hyp_run = in_sentence == in_image * (num_refs + 1)
        ref_run = listed & ~hyp_run
        run_start = new_key | changes(in_sentence)
        run = be.cumsum(run_start, 0) - 1
        tf = be.to_float64(be.count_into(run, total)[run])
        if table is None:        # distinct images among the key's reference runs
            first_of_image = ref_run & (new_key | changes(in_image)
                                        | be.concat([false_head, hyp_run[:-1]], axis=0))
            df = be.count_into(be.where(first_of_image, group, zero_ids), total + 1)[group]
        else:
            assert hashes is not None
            if k > 1:
                hashes.advance()
            df = hashes.looked_up(be, table.orders[k - 1], valid)[order]
        value = tf * (log_documents - be.log(be.maximum(be.to_float64(df), 1.0)))
        start = run_start & listed
        squares = be.scatter_flat(be.zeros((total + 1,), f64, like=hyp),
                                  be.where(start, order, past_positions),
                                  be.where(start, value * value, zero_values))[:total]
        squares = squares.reshape(rows, width)
        hyp_norm2.append(be.sum_(squares[:, :hyp_width], axis=1))
        ref_norm2.append(be.sum_(squares[:, hyp_width:].reshape(rows, num_refs, ref_width),
                                 axis=2))
        # each reference run meets the last hypothesis run before it: same key and image?
        last = be.running_max(be.where(start & hyp_run, position, none_before
                                       ).reshape(1, total)).reshape(-1)
        hyp_at = be.maximum(last, 0)
        met = (run_start & ref_run & (last >= 0) & (group[hyp_at] == group)
               & (in_image[hyp_at] == in_image))
        slot = (in_sentence - in_image) * hyp_width + hyp_offset[order[hyp_at]]
        terms = be.scatter_flat(be.zeros((grid + 1,), f64, like=hyp),
                                be.where(met, slot, past_slots),
                                be.where(met, be.minimum(value[hyp_at], value) * value,
                                         zero_values))[:grid]
        dots.append(be.sum_(terms.reshape(rows, num_refs, hyp_width), axis=2))
    stack = [a.reshape(*a.shape, 1) for a in hyp_norm2]
    hyp_norm = be.concat(stack, axis=1) ** 0.5                             # (B, K)
    ref_norm = be.concat([a.reshape(*a.shape, 1) for a in ref_norm2], axis=2) ** 0.5
    dot = be.concat([a.reshape(*a.shape, 1) for a in dots], axis=2)        # (B, R, K)
    hyp_norm = hyp_norm.reshape(rows, 1, max_order)
    both = (hyp_norm != 0) & (ref_norm != 0)
    val = be.where(both, dot / be.where(both, hyp_norm * ref_norm, 1.0 + 0.0 * dot), dot)
    delta = be.to_float64(be.maximum(hyp_len - 1, 0).reshape(rows, 1)
                          - be.maximum(present_len - 1, 0))
    val = val * (math.e ** (-(delta ** 2) / (2 * sigma ** 2))).reshape(rows, num_refs, 1)
    val = be.where(present.reshape(rows, num_refs, 1), val, 0.0 * val)
    per_image = be.sum_(val, axis=1)                                        # (B, K)
    return be.sum_(per_image, axis=1) / max_order / count * 10.0


def scores_on_device(be: Backend, hyp: Any, hyp_len: Any, refs: Any, ref_len: Any,
                     present: Any, max_order: int, sigma: float, table: DeviceTable | None,
                     documents: int | None) -> Any:
    """:func:`fixed_cider_scores`, one compiled program where the backend compiles
    (``jax.jit``: one program per batch shape instead of some 400 dispatched operations)."""
    arrays = () if table is None else tuple((t.hashes, t.ngrams, t.counts)
                                            for t in table.orders)
    run = be.compiled(_of_arrays, static_argnums=(0, 6, 7, 8, 10))
    return run(be, hyp, hyp_len, refs, ref_len, present, max_order, sigma,
               None if table is None else table.primes, arrays, documents)


def _of_arrays(be: Backend, hyp: Any, hyp_len: Any, refs: Any, ref_len: Any, present: Any,
               max_order: int, sigma: float, primes: Any, arrays: Any,
               documents: int | None) -> Any:
    table = None if primes is None else DeviceTable(primes, tuple(
        _OrderTable(*entry) for entry in arrays))
    return fixed_cider_scores(be, hyp, hyp_len, refs, ref_len, present, max_order=max_order,
                              sigma=sigma, table=table, documents=documents)


class _RollingHash:
    """:func:`ngram_hashes` of every position, one order after another (order k from order
    k - 1: two multiply-adds), and the table lookups they serve."""

    def __init__(self, tokens: Any, primes: Any, shifted: Any) -> None:
        (self.mul1, self.mod1), (self.mul2, self.mod2) = primes
        self.tokens, self.shifted = tokens, shifted
        self.first, self.second = tokens % self.mod1, tokens % self.mod2
        self.h1, self.h2 = self.first, self.second
        self.order = 1
        self.columns = [tokens]                 # the tokens moved 0, 1, ... positions left

    def advance(self) -> None:
        """From the hashes of the ``order``-grams to those of the next order's."""
        k = self.order
        self.h1 = (self.h1 * self.mul1 + self.shifted(self.first, k)) % self.mod1
        self.h2 = (self.h2 * self.mul2 + self.shifted(self.second, k)) % self.mod2
        self.columns.append(self.shifted(self.tokens, k))
        self.order += 1

    def hashes(self) -> Any:
        """The 62-bit hash of the ``order``-gram at each position."""
        return self.h1 * self.mod2 + self.h2

    def looked_up(self, be: Backend, entries: _OrderTable, valid: Any) -> Any:
        """The table's document frequency of the n-gram of ``order`` at each position (0
        where it is not in the table, or past its sentence's end)."""
        size = int(entries.hashes.shape[0])
        if size == 0:
            return 0.0 * be.to_float64(self.tokens)
        hashes = self.hashes()
        at = be.minimum(be.searchsorted(entries.hashes, hashes), size - 1 + 0 * hashes)
        found = valid & (entries.hashes[at] == hashes)
        for j, column in enumerate(self.columns):
            found = found & (entries.ngrams[at, j] == column)
        counts = entries.counts[at]
        return be.where(found, counts, 0.0 * counts)
