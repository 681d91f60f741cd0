"""Longest common subsequences of every hypothesis and each of its references (ROUGE-L), and
rouge-score's summary-level union-LCS hits (ROUGE-Lsum), exact, by the counting's strategy
(:func:`bleusuite.counting.counting_strategy`): ``compiled``, the C kernel
(``bleusuite/csrc/lcs.c``, bit-parallel); ``compact``, the fixed-shape program below on NumPy
batches for ROUGE-L and rouge-score's own tables in Python for ROUGE-Lsum; ``fixed``
(devices, JAX), the LCS table row by row in fixed shapes.

Row i of the table is ``T[i][j] = max(T[i-1][j], T[i][j-1], T[i-1][j-1] + 1 where reference
token i is hypothesis token j)``: the running maximum of ``x[j] = max(T[i-1][j],
T[i-1][j-1] + 1 where they match)``.

>>> pairs = RaggedPairs.from_padded(np.array([[1, 2, 3, 4]]), np.array([4]),
...                                 np.array([[[1, 3, 2, 4]]]), np.array([[4]]))
>>> lcs_pairs(pairs).tolist()
[[3]]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from bleusuite import backends, native, threads
from bleusuite.backends.base import Backend
from bleusuite.counting import counting_strategy
from bleusuite.counting.ragged import padded_batches
from bleusuite.inputs.batch import RaggedPairs

if TYPE_CHECKING:
    from bleusuite.inputs.batch import Batch

__all__ = ["MIN_WORK_PER_THREAD", "lcs_fixed", "lcs_of_batch", "lcs_pairs", "union_hits"]

#: hypothesis-token x reference-word steps (a bit-parallel step does 64 columns) that each
#: thread of a call gets at least: below that a thread's hand-over costs what it saves
MIN_WORK_PER_THREAD = 1 << 16


def lcs_of_batch(batch: Batch) -> Any:
    """``(B, R)`` int64: the LCS of each hypothesis of ``batch`` and each of its references
    (0 for an absent one), on the batch's backend by the counting strategy."""
    be = batch.backend
    if batch.pairs is not None and counting_strategy(be, batch.hyp_len) != "fixed":
        return lcs_pairs(batch.pairs)
    run = be.compiled(_lcs_of_batch_fixed, static_argnums=())
    return run(batch.padded())


def _lcs_of_batch_fixed(batch: Batch) -> Any:
    return lcs_fixed(batch.backend, batch.hyp, batch.hyp_len, batch.refs, batch.ref_len)


def lcs_fixed(be: Backend, hyp: Any, hyp_len: Any, refs: Any, ref_len: Any) -> Any:
    """``(B, R)`` LCS of left-aligned hypotheses and references, in fixed shapes: ``Lr``
    steps of a running maximum over ``(B, R, Lh)``, no host read."""
    rows, width = hyp.shape
    refs_per_row, ref_width = refs.shape[1], refs.shape[2]
    if width == 0:
        return be.zeros((rows, refs_per_row), be.int64, like=hyp)
    valid = (be.arange(width, like=hyp) < hyp_len[:, None])[:, None, :]  # (B, 1, Lh)
    hyp_tokens = hyp[:, None, :]
    before = be.zeros((rows, refs_per_row, 1), be.int64, like=hyp)

    def next_row(i: Any, row: Any) -> Any:
        match = (hyp_tokens == refs[:, :, i][..., None]) & valid
        diagonal = be.concat([before, row[..., :-1]], axis=-1) + 1
        grown = be.running_max(be.maximum(row, be.where(match, diagonal, 0)))
        return be.where((i < ref_len)[..., None], grown, row)

    first = be.zeros((rows, refs_per_row, width), be.int64, like=hyp)
    return be.fold(next_row, first, ref_width)[..., -1]


def lcs_pairs(pairs: RaggedPairs, workers: int | None = None) -> np.ndarray:
    """``(B, R)`` int64: the LCS of each hypothesis and each reference of ragged rows, by the
    compiled kernel on up to ``workers`` threads where it is built, else by
    :func:`lcs_fixed` on NumPy batches of similar length."""
    if native.module() is not None:
        return _compiled(pairs, True, False, None, workers)[0]
    be = backends.get_backend(pairs.hyp_lengths)
    out = np.zeros((pairs.rows, pairs.references), dtype=np.int64)
    for rows, batch in padded_batches(pairs):
        out[rows] = lcs_fixed(be, batch.hyp, batch.hyp_len, batch.refs, batch.ref_len)
    return out


def union_hits(pairs: RaggedPairs, marks: np.ndarray | None, with_lcs: bool = False,
               workers: int | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """ROUGE-Lsum's hits ``(B, R)`` int64 (rouge-score's ``_summary_level_lcs``) of ragged
    rows in one id array, each document's sentences starting where ``marks`` is not 0 (None:
    one sentence each); ``with_lcs``: the LCS of the whole documents too, in the same pass.

    >>> ids = np.array([1, 2, 3, 1, 2, 3])      # "1 2 | 3" against "1 | 2 3"
    >>> marks = np.array([1, 0, 1, 1, 1, 0])
    >>> pairs = RaggedPairs(ids, np.array([0]), np.array([3]), ids, np.array([[3]]),
    ...                     np.array([[3]]))
    >>> union_hits(pairs, marks)[0].tolist()
    [[3]]
    """
    if pairs.hyp_ids is not pairs.ref_ids:
        raise ValueError("pairs: hypotheses and references must be slices of one id array")
    if native.module() is not None:
        hits, lcs = _compiled(pairs, with_lcs, True, marks, workers)[::-1]
        return hits, lcs
    hits = _union_hits_python(pairs, marks)
    return hits, (lcs_pairs(pairs, workers) if with_lcs else None)


def _compiled(pairs: RaggedPairs, lengths: bool, union: bool, marks: np.ndarray | None,
              workers: int | None) -> tuple[Any, Any]:
    module = native.module()
    assert module is not None
    shape = (pairs.rows, pairs.references)
    lcs = np.empty(shape, dtype=np.int64) if lengths else None
    hits = np.empty(shape, dtype=np.int64) if union else None
    if marks is not None:
        marks = np.ascontiguousarray(marks, dtype=np.int64)
    bounds, workers = _blocks(pairs, threads.worker_threads() if workers is None else workers)

    def block(index: int) -> None:
        module.lcs_matches(pairs.hyp_ids, pairs.hyp_starts, pairs.hyp_lengths, pairs.ref_ids,
                           pairs.ref_starts, pairs.ref_lengths, lcs, hits, marks, marks,
                           bounds[index], bounds[index + 1])

    threads.run_blocks(block, range(len(bounds) - 1), workers)
    return lcs, hits


def _blocks(pairs: RaggedPairs, most: int) -> tuple[list[int], int]:
    """Row bounds of blocks of about equal work (hypothesis words x reference tokens)."""
    reference_tokens = pairs.ref_lengths.sum(axis=1)
    work = np.cumsum((pairs.hyp_lengths // 64 + 1) * reference_tokens + pairs.hyp_lengths)
    return threads.work_blocks(work, most, MIN_WORK_PER_THREAD)


# ------------------------------------------------------------- ROUGE-Lsum without C


def _sentences(ids: np.ndarray, marks: np.ndarray | None, start: int, length: int
               ) -> list[list[int]]:
    tokens = ids[start : start + length].tolist()
    if not tokens:
        return []
    starts = [0]
    if marks is not None:
        starts += [k + 1 for k in np.flatnonzero(marks[start + 1 : start + length]).tolist()]
    return [tokens[a:b] for a, b in zip(starts, [*starts[1:], length], strict=True)]


def _lcs_positions(ref: list[int], hyp: list[int]) -> list[int]:
    """rouge-score's ``lcs_ind``: the reference positions its ``_backtrack_norec`` takes,
    from the LCS table filled row by row (running maxima)."""
    table = np.zeros((len(ref) + 1, len(hyp) + 1), dtype=np.int64)
    columns = np.asarray(hyp, dtype=np.int64)
    for i, token in enumerate(ref, start=1):
        above = table[i - 1]
        grown = np.maximum(above[1:], np.where(columns == token, above[:-1] + 1, 0))
        table[i, 1:] = np.maximum.accumulate(grown)
    i, j, taken = len(ref), len(hyp), []
    while i > 0 and j > 0:
        if ref[i - 1] == hyp[j - 1]:
            taken.append(i - 1)
            i, j = i - 1, j - 1
        elif table[i, j - 1] > table[i - 1, j]:
            j -= 1
        else:
            i -= 1
    return taken


def _union_hits_python(pairs: RaggedPairs, marks: np.ndarray | None) -> np.ndarray:
    ids = pairs.hyp_ids
    hits = np.zeros((pairs.rows, pairs.references), dtype=np.int64)
    for b in range(pairs.rows):
        hyp = _sentences(ids, marks, int(pairs.hyp_starts[b]), int(pairs.hyp_lengths[b]))
        counts: dict[int, int] = {}
        for sentence in hyp:
            for token in sentence:
                counts[token] = counts.get(token, 0) + 1
        for r in range(pairs.references):
            ref = _sentences(ids, marks, int(pairs.ref_starts[b, r]),
                             int(pairs.ref_lengths[b, r]))
            left, total = dict(counts), 0
            for sentence in ref:
                union = sorted(set().union(*(_lcs_positions(sentence, t) for t in hyp)))
                for position in union:
                    token = sentence[position]
                    if left.get(token, 0) > 0:
                        total += 1
                        left[token] -= 1
            hits[b, r] = total
    return hits
