"""The word alignment of WER, MER, WIL, WIP and CER, as jiwer 4.0 takes it from rapidfuzz's
``Levenshtein.opcodes(reference, hypothesis)``: the compiled kernel
(``bleusuite/csrc/edits.c``) on the worker threads, or the same steps in Python where the
compiled part is not built (the same numbers, slower).

Among the alignments of least cost, the counts of hits, substitutions, deletions and
insertions depend on the one picked (reference "a b", hypothesis "b c": two substitutions,
not a deletion, a hit and an insertion). rapidfuzz's pick, step by step:

1. The common prefix and suffix are hits, set aside.
2. The vertical deltas (+1, -1) of every column of the edit-distance matrix of what is
   left, by Myers' bit-parallel algorithm (Hyyrö's form), the reference down the column.
3. The backtrace from the last cell: a deletion where the column's delta above the cell
   is +1; else one hypothesis word back, and an insertion where that column's delta is -1;
   else the diagonal (a substitution, or a hit where the words are equal). What is left at
   an edge is deleted or inserted.
4. Runs of one kind, and the hits between them, are the opcodes.

Rows longer than about a thousand words may be aligned otherwise by rapidfuzz (its banded
and Hirschberg forms); the edit distance, hence WER and CER, never differs.

>>> ids = np.array([1, 2, 2, 3])  # reference "a b", hypothesis "b c"
>>> counts, _ = edit_counts(ids, np.array([2]), np.array([2]), ids, np.array([0]),
...                         np.array([2]))
>>> counts.tolist()  # hits, substitutions, deletions, insertions, opcodes
[[0, 2, 0, 0, 0]]
"""

from __future__ import annotations

import numpy as np

from bleusuite import native, threads

__all__ = ["LINE_ROWS_PER_THREAD", "MIN_WORK_PER_THREAD", "TAGS", "edit_counts",
           "line_edit_counts", "pair_opcodes"]

#: word pairs (reference x hypothesis words, summed over the rows) each thread of a call
#: gets at least: below that a thread's hand-over costs about what it saves
MIN_WORK_PER_THREAD = 1 << 17

#: pairs of lines each thread of :func:`line_edit_counts` gets at least
LINE_ROWS_PER_THREAD = 256

#: the opcode tags by their number in ``chunks``: jiwer's ``AlignmentChunk.type``
TAGS = ("equal", "substitute", "delete", "insert")

_EQUAL, _SUBSTITUTE, _DELETE, _INSERT = range(4)


def edit_counts(hyp_ids: np.ndarray, hyp_starts: np.ndarray, hyp_lengths: np.ndarray,
                ref_ids: np.ndarray, ref_starts: np.ndarray, ref_lengths: np.ndarray,
                alignments: bool = False, workers: int | None = None) -> tuple[
                    np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """``counts`` (B, 5) int64 (hits, substitutions, deletions, insertions, opcodes of
    each row's hypothesis against its reference) and, with ``alignments``, ``(chunks,
    chunk_starts)``: the opcodes of row b are ``chunks[chunk_starts[b]:][:counts[b, 4]]``,
    each ``[tag, ref_start, ref_end, hyp_start, hyp_end]`` (tag: an index of
    :data:`TAGS`). Without ``alignments`` the opcode counts are 0. Rows on up to
    ``workers`` threads (default :func:`bleusuite.threads.worker_threads`)."""
    arrays = [np.ascontiguousarray(a, dtype=np.int64) for a in (
        hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths)]
    hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths = arrays
    rows = len(hyp_starts)
    counts = np.zeros((rows, 5), dtype=np.int64)
    chunks = chunk_starts = None
    if alignments:
        room = hyp_lengths + ref_lengths + 1
        chunk_starts = np.cumsum(room) - room
        chunks = np.zeros((int(room.sum()), 5), dtype=np.int64)
    module = native.module()
    if module is None:
        for b in range(rows):
            ref = ref_ids[ref_starts[b]: ref_starts[b] + ref_lengths[b]].tolist()
            hyp = hyp_ids[hyp_starts[b]: hyp_starts[b] + hyp_lengths[b]].tolist()
            opcodes = pair_opcodes(ref, hyp)
            tally = [0, 0, 0, 0]
            for tag, i1, i2, j1, j2 in opcodes:
                tally[tag] += j2 - j1 if tag == _INSERT else i2 - i1
            counts[b, :4] = tally
            if chunks is not None and chunk_starts is not None:
                counts[b, 4] = len(opcodes)
                if opcodes:
                    chunks[chunk_starts[b]: chunk_starts[b] + len(opcodes)] = opcodes
        return counts, None if chunks is None or chunk_starts is None else (
            chunks, chunk_starts)
    if rows <= 8:  # one call in the caller's thread
        module.edit_counts(hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths,
                           counts, chunks, chunk_starts, 0, rows)
        return counts, None if chunks is None or chunk_starts is None else (
            chunks, chunk_starts)
    work = np.cumsum(hyp_lengths * ref_lengths + hyp_lengths + ref_lengths + 1)
    bounds, workers = threads.work_blocks(
        work, threads.worker_threads() if workers is None else workers, MIN_WORK_PER_THREAD)

    def block(index: int) -> None:
        module.edit_counts(hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths,
                           counts, chunks, chunk_starts, bounds[index], bounds[index + 1])

    threads.run_blocks(block, range(len(bounds) - 1), workers)
    return counts, None if chunks is None or chunk_starts is None else (chunks, chunk_starts)


def line_edit_counts(hypotheses: list[str], references: list[str], jiwer_split: bool,
                     workers: int | None = None) -> np.ndarray | None:
    """:func:`edit_counts`'s ``counts`` of lines of text, each pair split (as jiwer's
    ``wer_default`` with ``jiwer_split``, else as ``str.split()``) and aligned in one pass
    of the compiled part, blocks of rows on up to ``workers`` threads; None where the
    compiled part is not built."""
    module = native.module()
    if module is None:
        return None
    hyps, refs = _exact_str(hypotheses), _exact_str(references)
    rows = len(hyps)
    counts = np.zeros((rows, 5), dtype=np.int64)
    workers = threads.worker_threads() if workers is None else workers
    blocks = 1 if rows < LINE_ROWS_PER_THREAD * 2 else min(workers * 4,
                                                             rows // LINE_ROWS_PER_THREAD)
    if blocks <= 1 or workers <= 1:
        module.line_edit_counts(hyps, refs, jiwer_split, counts, 0, rows)
        return counts
    bounds = [rows * k // blocks for k in range(blocks + 1)]

    def block(index: int) -> None:
        module.line_edit_counts(hyps, refs, jiwer_split, counts, bounds[index],
                                bounds[index + 1])

    threads.run_blocks(block, range(blocks), workers)
    return counts


def _exact_str(lines: list[str]) -> tuple[str, ...]:
    """The lines as a tuple of str (a subclass's items, such as NumPy's ``str_``, as plain
    str: the compiled part reads plain str only)."""
    out = tuple(lines)
    if set(map(type, out)) <= {str}:
        return out
    return tuple(str.__str__(line) for line in out)


def pair_opcodes(ref: list[int], hyp: list[int]) -> list[tuple[int, int, int, int, int]]:
    """rapidfuzz's ``Levenshtein.opcodes(ref, hyp)`` (tags numbered as :data:`TAGS`): the
    Python twin of ``bleusuite/csrc/edits.c`` (Myers' columns on Python integers).

    >>> [(TAGS[t], i1, i2, j1, j2) for t, i1, i2, j1, j2 in pair_opcodes([1, 2], [2, 3])]
    [('substitute', 0, 2, 0, 2)]
    """
    n, m = len(ref), len(hyp)
    prefix = 0
    while prefix < n and prefix < m and ref[prefix] == hyp[prefix]:
        prefix += 1
    suffix = 0
    while (suffix < n - prefix and suffix < m - prefix
           and ref[n - 1 - suffix] == hyp[m - 1 - suffix]):
        suffix += 1
    s1, s2 = ref[prefix: n - suffix], hyp[prefix: m - suffix]
    col, row = len(s1), len(s2)
    edits: list[tuple[int, int, int]] = []  # (tag, reference, hypothesis position), last first
    if s1 and s2:
        masks: dict[int, int] = {}
        for k, word in enumerate(s1):
            masks[word] = masks.get(word, 0) | 1 << k
        ones = (1 << len(s1)) - 1
        plus, minus = ones, 0
        columns = []
        for word in s2:
            x = masks.get(word, 0)
            d0 = (((x & plus) + plus) ^ plus) | x | minus
            hp = minus | ~(d0 | plus)
            hn = d0 & plus
            hp = (hp << 1) | 1
            hn <<= 1
            plus, minus = (hn | ~(d0 | hp)) & ones, hp & d0 & ones
            columns.append((plus, minus))
        while row and col:
            if columns[row - 1][0] >> (col - 1) & 1:
                col -= 1
                edits.append((_DELETE, col, row))
                continue
            row -= 1
            if row and columns[row - 1][1] >> (col - 1) & 1:
                edits.append((_INSERT, col, row))
            else:
                col -= 1
                if s1[col] != s2[row]:
                    edits.append((_SUBSTITUTE, col, row))
    while col:
        col -= 1
        edits.append((_DELETE, col, row))
    while row:
        row -= 1
        edits.append((_INSERT, col, row))
    edits.reverse()
    opcodes = []
    src = dst = k = 0
    while k < len(edits):
        tag, at_src, at_dst = edits[k][0], edits[k][1] + prefix, edits[k][2] + prefix
        if src < at_src or dst < at_dst:
            opcodes.append((_EQUAL, src, at_src, dst, at_dst))
            src, dst = at_src, at_dst
        src_begin, dst_begin = src, dst
        while (k < len(edits) and edits[k][0] == tag and edits[k][1] + prefix == src
               and edits[k][2] + prefix == dst):
            src += tag != _INSERT
            dst += tag != _DELETE
            k += 1
        opcodes.append((tag, src_begin, src, dst_begin, dst))
    if src < n or dst < m:
        opcodes.append((_EQUAL, src, n, dst, m))
    return opcodes
