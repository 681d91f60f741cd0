"""CIDEr-D's formula, and the n-gram table of a reference corpus (its document frequencies).

pycocoevalcap's CIDEr-D (``cider_scorer.py``), for each image (one hypothesis, its
references):

1. Each sentence is its counts of 1..4-grams (``tf``); the length of a sentence is its
   number of bigrams (``counts2vec`` counts ``term_freq`` where ``n == 1``).
2. Each n-gram weighs ``tf * (log(N) - log(max(1, df)))``: ``N`` the number of documents
   (images), ``df`` the number of images whose references hold it.
3. For each reference and order: the sum over the hypothesis's n-grams of ``min(weight_hyp,
   weight_ref) * weight_ref`` (clipped), divided by both vectors' norms where neither is 0,
   times ``e ** (-(len_hyp - len_ref) ** 2 / (2 sigma ** 2))``.
4. Per image: the orders' values summed over its references, their mean over orders,
   divided by the number of references, times 10.

:mod:`bleusuite.scores.cider.sorted_orders` computes it on a batch. Here, for
:func:`bleusuite.cider_document_frequency`: :class:`NgramTable` (every sentence one run of
tokens, its n-grams rows of token ids, -1 beyond the order, numbered by one ``np.unique``)
and :func:`document_counts`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["NgramTable", "document_counts", "ngram_table", "runs"]

def runs(ids: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The tokens ``ids[starts[i]:starts[i] + lengths[i]]`` of every i, one after another."""
    lengths = lengths.astype(np.int64, copy=False)
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(lengths) - lengths
    position = np.arange(total, dtype=np.int64) - np.repeat(offsets, lengths)
    return ids[np.repeat(starts.astype(np.int64, copy=False), lengths) + position]


class NgramTable:
    """The n-grams of sentences (token runs): ``entry_sentence``, ``entry_key``,
    ``entry_count`` (one entry per distinct n-gram of a sentence: its tf), ``rows`` (the
    distinct n-grams as rows of token ids, -1 beyond their order, key order) and
    ``key_order`` (0-based order of each key)."""

    def __init__(self, tokens: np.ndarray, lengths: np.ndarray, max_order: int) -> None:
        lengths = lengths.astype(np.int64, copy=False)
        sentences = lengths.shape[0]
        sentence = np.repeat(np.arange(sentences, dtype=np.int64), lengths)
        position = np.arange(tokens.shape[0], dtype=np.int64) - np.repeat(
            np.cumsum(lengths) - lengths, lengths)
        left = lengths[sentence] - position          # tokens from here to the sentence's end
        vocabulary, dense = np.unique(tokens, return_inverse=True)
        dense = dense.reshape(-1).astype(np.int64) + 1       # 0: no token (beyond the order)
        base = int(vocabulary.shape[0]) + 1
        starts = [np.flatnonzero(left >= order) for order in range(1, max_order + 1)]
        owner = np.concatenate([sentence[start] for start in starts])
        if base ** max_order < 2 ** 62:     # each n-gram one int64: a 1-D unique
            packed = np.concatenate([_packed(dense, start, order, max_order, base)
                                     for order, start in enumerate(starts, 1)])
            distinct, key = np.unique(packed, return_inverse=True)
            rows = np.empty((distinct.shape[0], max_order), dtype=np.int64)
            for column in range(max_order - 1, -1, -1):
                rows[:, column] = distinct % base
                distinct = distinct // base
        else:
            matrix = np.concatenate([_rows(dense, start, order, max_order)
                                     for order, start in enumerate(starts, 1)])
            rows, key = np.unique(matrix, axis=0, return_inverse=True)
        key = key.reshape(-1).astype(np.int64)
        # rows of the caller's token ids, -1 beyond each n-gram's order
        self.rows = np.where(rows > 0, np.concatenate([[-1], vocabulary])[rows], -1)
        self.entry_sentence, self.entry_key, self.entry_count = _entries(
            owner, key, max(self.rows.shape[0], 1))
        self.key_order = (rows > 0).sum(axis=1) - 1
        self.sentences = sentences


def _entries(owner: np.ndarray, key: np.ndarray, keys: int
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct (sentence, n-gram) pairs of the occurrences ``owner``/``key`` (listed
    order by order, position by position) with their counts, each sentence's in the order
    its n-grams first occur: pycocoevalcap's dictionary order, which its sums follow, so
    that a sentence's numbers do not depend on the other sentences of the batch."""
    occurrences = owner.shape[0]
    if occurrences == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    generation = np.arange(occurrences, dtype=np.int64)
    span = int(owner.max() + 1) * keys * occurrences
    if span < 2 ** 62:      # two sorts of packed values (fast), not argsorts
        ordered = np.sort((owner * keys + key) * occurrences + generation)
        group, generation_sorted = ordered // occurrences, ordered % occurrences
        new = np.concatenate([[True], group[1:] != group[:-1]])
    else:
        order = np.lexsort((generation, key, owner))
        owner_sorted, key_sorted, generation_sorted = owner[order], key[order], generation[order]
        new = np.concatenate([[True], (owner_sorted[1:] != owner_sorted[:-1])
                              | (key_sorted[1:] != key_sorted[:-1])])
    first = np.flatnonzero(new)
    counts = np.diff(np.append(first, occurrences)).astype(np.int64)
    first_generation = generation_sorted[first]        # the smallest: sorted within groups
    sentence = owner[first_generation]
    width = int(counts.max()) + 1
    if int(sentence.max() + 1) * occurrences * width < 2 ** 62:
        ordered = np.sort((sentence * occurrences + first_generation) * width + counts)
        counts, rest = ordered % width, ordered // width
        first_generation = rest % occurrences
    else:
        order = np.lexsort((first_generation, sentence))
        counts, first_generation = counts[order], first_generation[order]
    return owner[first_generation], key[first_generation], counts


def _packed(dense: np.ndarray, start: np.ndarray, order: int, max_order: int,
            base: int) -> np.ndarray:
    packed = np.zeros(start.shape[0], dtype=np.int64)
    for j in range(max_order):
        packed = packed * base + (dense[start + j] if j < order else 0)
    return packed


def _rows(dense: np.ndarray, start: np.ndarray, order: int, max_order: int) -> np.ndarray:
    rows = np.zeros((start.shape[0], max_order), dtype=np.int64)
    for j in range(order):
        rows[:, j] = dense[start + j]
    return rows


def ngram_table(tokens: np.ndarray, lengths: np.ndarray, max_order: int) -> NgramTable:
    return NgramTable(tokens, lengths, max_order)


def document_counts(table: NgramTable, documents: np.ndarray) -> np.ndarray:
    """For each key of ``table``: the number of distinct documents (``documents[s]``: the
    document of sentence s) whose sentences hold it."""
    document = documents[table.entry_sentence]
    distinct = max(table.rows.shape[0], 1)
    pairs = _counted(document * distinct + table.entry_key)[0]
    return np.bincount(pairs % distinct, minlength=table.rows.shape[0]).astype(np.int64)


def _counted(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values (sorted) and how often each occurs: ``np.unique(values,
    return_counts=True)`` by one ``np.sort`` (NumPy 2's hash-based ``unique`` is slower)."""
    ordered = np.sort(values)
    if ordered.shape[0] == 0:
        return ordered, np.zeros(0, dtype=np.int64)
    first = np.flatnonzero(np.concatenate([[True], ordered[1:] != ordered[:-1]]))
    return ordered[first], np.diff(np.append(first, ordered.shape[0])).astype(np.int64)
