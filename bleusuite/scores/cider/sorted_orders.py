"""CIDEr-D of a batch of token runs by one ``np.sort`` per n-gram order, with
pycocoevalcap 1.2's ``CiderScorer`` arithmetic (:mod:`bleusuite.scores.cider.formula`'s
docstring gives the formula).

The sentences are laid out image by image (its hypothesis, then its references) in one
array of T tokens. For each order k = 1..max_order:

1. Each position that starts a k-gram gets a key: its token for k = 1, else the id of its
   (k-1)-gram times the vocabulary size plus its k-th token, so a key stays small whatever
   the order. Sorting ``key << bits | sentence << offset_bits | offset`` (NumPy's
   vectorised sort of int64; an argsort and gathers by position are several times
   slower) puts each n-gram's occurrences together in position order, image by image, the
   hypothesis before the references, and gives each occurrence's sentence and offset by
   shifts.
2. Runs of one key are the distinct k-grams (their ids make the keys of order k + 1); runs
   of one key and one sentence are a sentence's k-gram with its count (tf), first met at
   the run's first position; runs of one key and one image among the references give the
   document frequency (df). A reference's k-gram meets its hypothesis's as the nearest
   hypothesis run before it with the same key and image.
3. With the batch's own document frequencies, a k-gram that occurs once in the batch has
   tf 1, weight log(N) (df 0 or 1), and no match, and so has every longer n-gram through
   it: a position goes on to order k + 1 only while its k-gram and the next position's
   both repeat; the others add log(N) squared to their sentence's norm without a sort.
4. pycocoevalcap sums a sentence's values in the order its n-grams first occur (dictionary
   order). Each value is put at its first position in an array of zeros and summed by
   ``np.bincount`` in position order (adding zeros changes no sum): the same additions,
   whatever the other sentences of the batch.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["cider_scores", "combined"]

# The document frequency of n-grams (rows of token ids, -1 beyond the order) -> int64
# counts. None: the batch's own references (pycocoevalcap).
Lookup = Callable[[np.ndarray], np.ndarray]

#: the bits of a sorted int64 value (key and code); keys that would not fit are numbered
#: first (an argsort: slower, for batches of millions of tokens or huge vocabularies)
VALUE_BITS = 62


class _Layout:
    """The batch as one token array, image by image: hypothesis then references."""

    def __init__(self, hyp_tokens: np.ndarray, hyp_len: np.ndarray, ref_tokens: np.ndarray,
                 ref_len: np.ndarray, ref_image: np.ndarray) -> None:
        images, refs = hyp_len.shape[0], ref_len.shape[0]
        refs_before = np.cumsum(np.bincount(ref_image, minlength=images)) - np.bincount(
            ref_image, minlength=images)
        self.hyp_sentence = np.arange(images, dtype=np.int64) + refs_before
        self.ref_sentence = ref_image + np.arange(refs, dtype=np.int64) + 1
        sentences = images + refs
        lengths = np.zeros(sentences, dtype=np.int64)
        lengths[self.hyp_sentence] = hyp_len
        lengths[self.ref_sentence] = ref_len
        starts = np.cumsum(lengths) - lengths
        self.tokens = np.empty(int(lengths.sum()), dtype=np.int64)
        self.tokens[_spans(starts[self.hyp_sentence], hyp_len)] = hyp_tokens
        self.tokens[_spans(starts[self.ref_sentence], ref_len)] = ref_tokens
        self.sentence = np.repeat(np.arange(sentences, dtype=np.int64), lengths)
        self.sentence_image = np.zeros(sentences, dtype=np.int64)
        self.sentence_image[self.hyp_sentence] = np.arange(images)
        self.sentence_image[self.ref_sentence] = ref_image
        self.sentence_is_hyp = np.zeros(sentences, dtype=bool)
        self.sentence_is_hyp[self.hyp_sentence] = True
        self.starts = starts
        # the position within its sentence; tokens from there to the sentence's end
        self.offset = np.arange(self.tokens.shape[0], dtype=np.int64) - starts[self.sentence]
        self.left = lengths[self.sentence] - self.offset
        self.sentences = sentences


def _spans(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The positions ``starts[i] + 0 .. lengths[i] - 1`` of every i, one after another."""
    total = int(lengths.sum())
    offsets = np.cumsum(lengths) - lengths
    return np.arange(total, dtype=np.int64) + np.repeat(starts - offsets, lengths)


def _dense(tokens: np.ndarray) -> tuple[np.ndarray, int]:
    """Token ids in 0..V-1 (the caller's where they already are small and non-negative)."""
    if tokens.shape[0] == 0:
        return tokens, 1
    low, high = int(tokens.min()), int(tokens.max())
    if low >= 0 and high < 4 * tokens.shape[0] + 1024:
        return tokens, high + 1
    vocabulary, dense = np.unique(tokens, return_inverse=True)
    return dense.reshape(-1).astype(np.int64), int(vocabulary.shape[0])


def _new(column: np.ndarray) -> np.ndarray:
    """Where a run of equal values of sorted ``column`` starts."""
    new = np.ones(column.shape[0], dtype=bool)
    np.not_equal(column[1:], column[:-1], out=new[1:])
    return new


def cider_scores(hyp_tokens: np.ndarray, hyp_len: np.ndarray, ref_tokens: np.ndarray,
                 ref_len: np.ndarray, ref_image: np.ndarray, *, max_order: int, sigma: float,
                 lookup: Lookup | None, documents: int | None) -> np.ndarray:
    """CIDEr-D of each of ``hyp_len.shape[0]`` images. ``ref_image``: the image of each
    reference, non-decreasing, every image with at least one. ``lookup``/``documents``:
    fixed document frequencies and their number of documents; None: the batch's
    references (N = the batch's images), as pycocoevalcap."""
    hyp_len = hyp_len.astype(np.int64, copy=False)
    ref_len = ref_len.astype(np.int64, copy=False)
    ref_image = ref_image.astype(np.int64, copy=False)
    images, refs = hyp_len.shape[0], ref_len.shape[0]
    if (lookup is None) != (documents is None):
        raise ValueError("lookup and documents go together")
    log_documents = float(np.log(float(images if documents is None else documents)))
    layout = _Layout(hyp_tokens.astype(np.int64, copy=False), hyp_len,
                     ref_tokens.astype(np.int64, copy=False), ref_len, ref_image)
    tokens, vocabulary = _dense(layout.tokens)
    total = tokens.shape[0]
    # an occurrence is sorted as key << bits | sentence << offset_bits | offset (its
    # sentence and offset come out of the sort: no gather by position)
    offset_bits = max(int(layout.left.max(initial=0)), 1).bit_length()
    bits = offset_bits + max(layout.sentences, 1).bit_length()
    code = (layout.sentence << offset_bits) | layout.offset
    # each reference's slots for its hypothesis's positions (the dot product in that order)
    slot_base = np.cumsum(hyp_len[ref_image]) - hyp_len[ref_image]
    slot_ref = np.repeat(np.arange(refs, dtype=np.int64), hyp_len[ref_image])
    ref_index = np.full(layout.sentences, -1, dtype=np.int64)
    ref_index[layout.ref_sentence] = np.arange(refs)
    norm2 = np.zeros((layout.sentences, max_order))
    dot = np.zeros((refs, max_order))
    ids = np.zeros(total, dtype=np.int64)
    key_range = vocabulary
    alive = np.arange(total, dtype=np.int64)
    for k in range(1, max_order + 1):
        key = tokens[alive] if k == 1 else ids[alive] * vocabulary + tokens[alive + k - 1]
        if key_range.bit_length() + bits > VALUE_BITS:      # huge batches: number the keys first
            key = np.unique(key, return_inverse=True)[1].reshape(-1).astype(np.int64)
            if max(key.shape[0], 1).bit_length() + bits > 63:
                raise ValueError(f"a batch of {layout.sentences} sentences, {total} tokens "
                                 f"and lines of up to {int(layout.left.max())} tokens is "
                                 "beyond what CIDEr here counts in one call")
        ordered = np.sort((key << bits) | code[alive])
        keys = ordered >> bits
        sentence = (ordered >> offset_bits) & ((1 << (bits - offset_bits)) - 1)
        offset = ordered & ((1 << offset_bits) - 1)
        new_key = _new(keys)
        key_first = np.flatnonzero(new_key)
        distinct = key_first.shape[0]
        key_id = np.cumsum(new_key) - 1
        positions = layout.starts[sentence] + offset
        ids[positions] = key_id
        first = np.flatnonzero(new_key | _new(sentence))      # a sentence's k-gram: a run
        tf = np.diff(np.append(first, keys.shape[0])).astype(np.float64)
        run_key, run_sentence = key_id[first], sentence[first]
        run_hyp, run_image = layout.sentence_is_hyp[run_sentence], layout.sentence_image[
            run_sentence]
        if lookup is not None:
            rows = np.full((distinct, max_order), -1, dtype=np.int64)
            for j in range(k):
                rows[:, j] = layout.tokens[positions[key_first] + j]
            df = np.asarray(lookup(rows), dtype=np.float64)
        else:
            ref_key = run_key[~run_hyp]
            per_image = _new(ref_key) | _new(run_image[~run_hyp])
            df = np.bincount(ref_key[per_image], minlength=distinct).astype(np.float64)
        value = tf * (log_documents - np.log(np.maximum(1.0, df)))[run_key]
        squares = np.zeros(total)
        squares[positions[first]] = value * value
        # the positions pruned before this order: singletons, tf 1 and weight log(N)
        if k > 1 and alive.shape[0] != int(np.count_nonzero(layout.left >= k)):
            pruned = layout.left >= k
            pruned[alive] = False
            squares[pruned] = log_documents ** 2
        norm2[:, k - 1] = np.bincount(layout.sentence, weights=squares,
                                      minlength=layout.sentences)
        # each reference run meets the last hypothesis run before it: same key and image?
        last_hyp = np.maximum.accumulate(np.where(run_hyp, np.arange(first.shape[0]), -1))
        on_refs = np.flatnonzero(~run_hyp & (last_hyp >= 0))
        hyp_run = last_hyp[on_refs]
        met = (run_key[hyp_run] == run_key[on_refs]) & (run_image[hyp_run] == run_image[on_refs])
        on_refs, hyp_run = on_refs[met], hyp_run[met]
        ref_value = value[on_refs]
        terms = np.zeros(slot_ref.shape[0])
        terms[slot_base[ref_index[run_sentence[on_refs]]] + offset[first[hyp_run]]] = (
            np.minimum(value[hyp_run], ref_value) * ref_value)
        dot[:, k - 1] = np.bincount(slot_ref, weights=terms, minlength=refs)
        if k == max_order:
            break
        # the next order: positions whose k-gram and the next position's both repeat
        key_range = distinct * vocabulary
        candidates = alive[layout.left[alive] >= k + 1]
        if lookup is not None:
            alive = candidates
        else:
            repeats = np.zeros(total + 1, dtype=bool)
            repeats[positions] = (np.diff(np.append(key_first, keys.shape[0])) > 1)[key_id]
            alive = candidates[repeats[candidates] & repeats[candidates + 1]]
    return combined(norm2[layout.hyp_sentence], norm2[layout.ref_sentence], dot, hyp_len,
                    ref_len, ref_image, sigma)


def combined(hyp_norm2: np.ndarray, ref_norm2: np.ndarray, dot: np.ndarray,
             hyp_len: np.ndarray, ref_len: np.ndarray, ref_image: np.ndarray, sigma: float
             ) -> np.ndarray:
    """pycocoevalcap's ``sim`` of each reference and its per-image mean (steps 3-4 of
    :mod:`bleusuite.scores.cider.formula`), from the squared norms of the hypotheses
    ``(B, K)`` and references ``(R, K)`` and the references' dot products ``(R, K)``."""
    images, max_order = hyp_len.shape[0], dot.shape[1]
    hyp_norm = np.sqrt(hyp_norm2)[ref_image]
    ref_norm = np.sqrt(ref_norm2)
    both = (hyp_norm != 0) & (ref_norm != 0)
    val = np.where(both, dot / np.where(both, hyp_norm * ref_norm, 1.0), dot)
    hyp_bigrams = np.maximum(hyp_len - 1, 0)[ref_image]
    delta = (hyp_bigrams - np.maximum(ref_len - 1, 0)).astype(np.float64)
    val = val * (np.e ** (-(delta ** 2) / (2 * sigma ** 2)))[:, None]
    # summed in reference order, as pycocoevalcap adds them
    per_image = np.stack([np.bincount(ref_image, weights=val[:, n], minlength=images)
                          for n in range(max_order)], axis=1)
    references = np.bincount(ref_image, minlength=images).astype(np.float64)
    return per_image.mean(axis=1) / references * 10.0
