"""Generated test inputs shared by several test folders.

* :func:`brute_force`: clipped and per-reference n-gram matches counted with ``Counter``;
* :func:`random_batch`, :func:`as_arrays`, :data:`VOCABULARIES`: seeded batches whose
  references share pieces of the hypothesis, as padded arrays, over vocabularies that take
  every numbering path (lookup table, row alphabet, dense ids over the int64 range);
* :func:`make_groups`, :func:`padded`: groups of samples of one prompt (edits of one
  sentence, with empty members and exact copies) for the group and reward scores.
"""

from __future__ import annotations

from collections import Counter

import numpy as np


def _ngrams(tokens: list[int], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def brute_force(hyps: list[list[int]], refs: list[list[list[int]]], max_order: int):
    clipped = np.zeros((len(hyps), max_order), dtype=np.int64)
    width = max((len(r) for r in refs), default=1)
    per_ref = np.zeros((len(hyps), width, max_order), dtype=np.int64)
    for b, (hyp, row_refs) in enumerate(zip(hyps, refs, strict=True)):
        for n in range(1, max_order + 1):
            counts = _ngrams(hyp, n)
            ref_counts = [_ngrams(r, n) for r in row_refs]
            clipped[b, n - 1] = sum(
                min(c, max((rc[g] for rc in ref_counts), default=0)) for g, c in counts.items()
            )
            for r, rc in enumerate(ref_counts):
                per_ref[b, r, n - 1] = sum((counts & rc).values())
    return clipped, per_ref


def random_batch(rng: np.random.Generator, batch: int, vocab: np.ndarray, max_len: int,
                 max_refs: int):
    hyps, refs = [], []
    for _ in range(batch):
        hyp = list(rng.choice(vocab, size=rng.integers(0, max_len + 1)).tolist())
        row = []
        for r in range(rng.integers(1, max_refs + 1)):
            # references share pieces of the hypothesis, so long n-grams match too; the
            # first is never empty (an all-padding row is an absent reference)
            ref = list(rng.choice(vocab, size=rng.integers(r == 0, max_len + 1)).tolist())
            if hyp and rng.random() < 0.7:
                start = rng.integers(0, len(hyp))
                ref[0:0] = hyp[start : start + rng.integers(1, len(hyp) + 1)]
            row.append(ref)
        hyps.append(hyp)
        refs.append(row)
    return hyps, refs


def as_arrays(hyps, refs, pad: int):
    """Right-padded arrays; absent references are all-padding rows."""
    width = max([len(h) for h in hyps] + [len(r) for row in refs for r in row] + [1])
    num_refs = max(len(row) for row in refs)
    hyp = np.full((len(hyps), width), pad, dtype=np.int64)
    ref = np.full((len(hyps), num_refs, width), pad, dtype=np.int64)
    for b, (h, row) in enumerate(zip(hyps, refs, strict=True)):
        hyp[b, : len(h)] = h
        for r, tokens in enumerate(row):
            ref[b, r, : len(tokens)] = tokens
    return hyp, ref


VOCABULARIES = {
    "small ids (lookup table)": np.arange(2, 7),
    "50k ids (lookup table)": np.arange(2, 50_000, 997),
    "wide ids (row alphabet)": np.array([3, 2**40, 2**41 + 5, 2**45, 7 + 2**32, 9]),
    "full int64 range (dense ids)": np.array(
        [-(2**63) + 1, -(2**62), -5, 3, 2**62, 2**63 - 2, 7 + 2**32]
    ),
}


Group = list[list[int]]
Case = tuple[list[int], list[list[int]]]


def _edit(rng: np.random.Generator, base: list[int], rate: float, vocab: int,
          max_len: int) -> list[int]:
    out: list[int] = []
    for token in base:
        draw = rng.random()
        if draw < rate / 2:
            out.append(int(rng.integers(1, vocab + 1)))
        elif draw < 3 * rate / 4:
            continue
        else:
            out.append(token)
            if draw < rate:
                out.append(int(rng.integers(1, vocab + 1)))
    return out[:max_len]


def make_groups(seed: int, rows: int, members: int, max_len: int, vocab: int = 10,
                empty: float = 0.08, copies: float = 0.15) -> list[Group]:
    """Seeded groups: each member an edit of the group's sentence (so members share
    n-grams, like samples of one prompt), with empty members and exact copies."""
    rng = np.random.default_rng(seed)
    groups = []
    for _ in range(rows):
        base = rng.integers(1, vocab + 1, int(rng.integers(0, max_len + 1))).tolist()
        group: Group = []
        for _ in range(members):
            draw = rng.random()
            if draw < empty:
                group.append([])
            elif draw < empty + copies and group:
                group.append(list(group[int(rng.integers(len(group)))]))
            else:
                group.append(_edit(rng, base, float(rng.uniform(0.05, 0.6)), vocab, max_len))
        groups.append(group)
    return groups


def padded(groups: list[Group], pad: int = 0, left: bool = False, eos: int | None = None,
           width: int | None = None) -> np.ndarray:
    """(B, K, L) with ``pad`` on the right (or left); ``eos`` and junk after each sentence."""
    rows = [[(s + ([eos, 5, 6] if eos is not None else [])) for s in g] for g in groups]
    width = width or max([len(s) for g in rows for s in g] + [1])
    out = np.full((len(groups), len(groups[0]) if groups else 0, width), pad, dtype=np.int64)
    for b, group in enumerate(rows):
        for k, sentence in enumerate(group):
            sentence = sentence[:width]
            if left:
                out[b, k, width - len(sentence):] = sentence
            else:
                out[b, k, : len(sentence)] = sentence
    return out
