"""TER's edits of hypotheses against references, as sacrebleu's ``lib_ter`` counts them:
the compiled kernel (``bleusuite/csrc/ter.c``) on the worker threads, or the same steps in
Python where the compiled part is not built (the same numbers, slower).

sacrebleu's ``translation_edit_rate`` (tercom's algorithm) shifts blocks of hypothesis
words while a shift lowers the edit distance, then counts the shifts plus the edit distance
of the shifted hypothesis:

1. The edit distance is a beam search: row ``i`` of the matrix (the first ``i``
   hypothesis words) is computed only within 25 positions of ``floor(i * m / n)`` (more
   where ``m / n > 50``), the last row whole; on ties a cell prefers a match or
   substitution, then a deletion, then an insertion, and the trace of the best path says
   which words are errors and which hypothesis word each reference word is aligned with.
2. A shift candidate is a hypothesis block of 1..10 words equal to a reference block that
   starts at most 50 positions away, where both blocks hold an error and the reference
   block is not aligned inside the hypothesis block, moved before each distinct position
   aligned with the reference block (or the word before it).
3. The best candidate has the largest gain in edit distance, then the longest block, the
   earliest block, the earliest target. It is made while it gains; once 1000 candidates
   have been tried for a pair the search ends, that shift unmade.

A candidate's distance starts from the current hypothesis' row where the two first differ;
the Levenshtein distance without the band (Myers' bit-parallel algorithm, on machine words
in C, on Python integers here) is the beam's where the band covers the whole matrix and a
lower bound elsewhere, so that most candidates never take the beam rows (see
``bleusuite/csrc/ter.c``).

Rows are counted on :func:`bleusuite.threads.worker_threads` threads in blocks of about
equal work, the GIL released; a call too small to repay a thread's hand-over runs in the
caller's thread.

>>> ids = np.array([1, 2, 3, 4, 3, 4, 1, 2])  # hypothesis "a b c d", reference "c d a b"
>>> ter_edits(ids, np.array([0]), np.array([4]), ids, np.array([[4]]), np.array([[4]])).tolist()
[[1]]
"""

from __future__ import annotations

import math

import numpy as np

from bleusuite import native, threads

__all__ = ["MIN_WORK_PER_THREAD", "pair_edits", "ter_edits"]

#: word pairs (hypothesis words x reference words, summed over the rows) that each thread of
#: a call gets at least: below that a thread's hand-over costs about what it saves
MIN_WORK_PER_THREAD = 1 << 16

_MAX_SHIFT_SIZE = 10
_MAX_SHIFT_DIST = 50
_BEAM_WIDTH = 25
_MAX_SHIFT_CANDIDATES = 1000
_FAR = 1 << 30
_MATCH, _SUB, _INS, _DEL, _NONE = range(5)


def ter_edits(hyp_ids: np.ndarray, hyp_starts: np.ndarray, hyp_lengths: np.ndarray,
              ref_ids: np.ndarray, ref_starts: np.ndarray, ref_lengths: np.ndarray,
              workers: int | None = None) -> np.ndarray:
    """The edits ``(B, R)`` int64 of each hypothesis against each of its references, from
    ragged rows (the layout of :class:`~bleusuite.counting.RaggedPairs`; a reference length
    of -1 is an absent reference, whose edits are -1), on up to ``workers`` threads
    (default :func:`bleusuite.threads.worker_threads`)."""
    arrays = [np.ascontiguousarray(a, dtype=np.int64) for a in (
        hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths)]
    hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths = arrays
    edits = np.empty(ref_lengths.shape, dtype=np.int64)
    module = native.module()
    if module is None:
        for b in range(len(hyp_starts)):
            hyp = hyp_ids[hyp_starts[b] : hyp_starts[b] + hyp_lengths[b]].tolist()
            for r in range(ref_lengths.shape[1]):
                length = int(ref_lengths[b, r])
                edits[b, r] = -1 if length == -1 else pair_edits(
                    hyp, ref_ids[ref_starts[b, r] : ref_starts[b, r] + length].tolist())
        return edits
    bounds, workers = _blocks(hyp_lengths, ref_lengths,
                              threads.worker_threads() if workers is None else workers)

    def block(index: int) -> None:
        module.ter_edits(hyp_ids, hyp_starts, hyp_lengths, ref_ids, ref_starts, ref_lengths,
                         edits, bounds[index], bounds[index + 1])

    threads.run_blocks(block, range(len(bounds) - 1), workers)
    return edits


def _blocks(hyp_lengths: np.ndarray, ref_lengths: np.ndarray, most: int) -> tuple[
        list[int], int]:
    """Row bounds of the blocks of a call and the threads to count them on (see
    :data:`MIN_WORK_PER_THREAD`): the work of a row is its hypothesis length times its
    references' lengths."""
    work = np.cumsum(hyp_lengths * np.maximum(ref_lengths, 0).sum(axis=1) + 1)
    return threads.work_blocks(work, most, MIN_WORK_PER_THREAD)


# ------------------------------------------------------------------ the Python twin


class _Pair:
    """One hypothesis against one reference: the band, the current hypothesis' matrix
    (costs and how each cell was reached), its trace, and its rows' bit vectors
    (bleusuite/csrc/ter.c's steps)."""

    def __init__(self, hyp: list[int], ref: list[int]) -> None:
        self.ref, self.n, self.m = ref, len(hyp), len(ref)
        self.words = list(hyp)
        ratio = self.m / self.n
        beam = math.ceil(ratio / 2 + _BEAM_WIDTH) if ratio / 2 > _BEAM_WIDTH else _BEAM_WIDTH
        self.band = [(0, self.m + 1)]
        for i in range(1, self.n + 1):
            diagonal = math.floor(i * ratio)
            hi = self.m + 1 if i == self.n else min(self.m + 1, diagonal + beam)
            self.band.append((max(0, diagonal - beam), hi))
        self.full = all(band == (0, self.m + 1) for band in self.band)
        self.cost = [list(range(self.m + 1))]
        self.how = [[_INS] * (self.m + 1)]
        self.fill_rows(0)
        # Myers' vectors: the reference word j at bit j; rows (plus, minus, last cell)
        positions: dict[int, int] = {}
        for j, word in enumerate(ref):
            positions[word] = positions.get(word, 0) | 1 << j
        self.masks = [positions.get(word, 0) for word in hyp]  # by hypothesis position
        self.origin = list(range(self.n))
        self.all_bits = (1 << self.m) - 1
        self.bits = [(self.all_bits, 0, self.m)]
        self.fill_bits(0)

    def advance(self, plus: int, minus: int, mask: int) -> tuple[int, int, int]:
        """One hypothesis word more (Hyyrö's form of Myers' algorithm, one block as wide
        as the reference): the next row's vertical deltas, and how its last cell changes."""
        x = mask | minus
        d0 = (((x & plus) + plus) ^ plus) | x | minus
        hp = (minus | ~(d0 | plus)) & self.all_bits
        hn = d0 & plus
        change = (hp >> (self.m - 1)) - (hn >> (self.m - 1) & 1)
        hp = ((hp << 1) | 1) & self.all_bits
        hn = (hn << 1) & self.all_bits
        return (hn | ~(d0 | hp)) & self.all_bits, hp & d0, change

    def fill_bits(self, start: int) -> None:
        del self.bits[start + 1 :]
        for i in range(start, self.n):
            plus, minus, last = self.bits[i]
            plus, minus, change = self.advance(plus, minus, self.masks[self.origin[i]])
            self.bits.append((plus, minus, last + change))

    def levenshtein(self, origin: list[int], start: int) -> int:
        """The distance without the band of the hypothesis whose words come from
        ``origin`` (equal to the current one before ``start``)."""
        plus, minus, last = self.bits[start]
        for i in range(start, self.n):
            plus, minus, change = self.advance(plus, minus, self.masks[origin[i]])
            last += change
        return last

    def row(self, i: int, word: int, prev: list[int], how: list[int] | None) -> tuple[
            list[int], int]:
        """Row ``i`` from row ``i - 1``, and the least cost any path through it can end
        with (see compute_row in the C file)."""
        lo, hi = self.band[i]
        ref, rest = self.ref, self.n - i
        row = [_FAR] * (self.m + 1)
        left, bound = _FAR, _FAR * 4
        for j in range(lo, hi):
            if j == 0:
                value, op = prev[0] + 1, _DEL
            else:
                differs = word != ref[j - 1]
                value, op = prev[j - 1] + differs, _SUB if differs else _MATCH
                if value >= _FAR:
                    value, op = _FAR, _NONE
                if prev[j] + 1 < value:
                    value, op = prev[j] + 1, _DEL
                if left + 1 < value:
                    value, op = left + 1, _INS
            row[j] = value
            if how is not None:
                how[j] = op
            left = value
            bound = min(bound, value + abs(self.m - j - rest))
        return row, bound

    def fill_rows(self, start: int) -> None:
        del self.cost[start + 1 :], self.how[start + 1 :]
        for i in range(start + 1, self.n + 1):
            how = [_NONE] * (self.m + 1)
            row, _ = self.row(i, self.words[i - 1], self.cost[i - 1], how)
            self.cost.append(row)
            self.how.append(how)

    def trace(self) -> tuple[list[int], list[int], list[int]]:
        """The aligned hypothesis position of each reference word, and the running error
        counts of the hypothesis and the reference."""
        ops = []
        i, j = self.n, self.m
        while i > 0 or j > 0:
            op = self.how[i][j]
            ops.append(op)
            if op in (_MATCH, _SUB):
                i, j = i - 1, j - 1
            elif op == _INS:
                j -= 1
            elif op == _DEL:
                i -= 1
            else:
                raise RuntimeError("the edit trace left the beam (sacrebleu raises 'unknown "
                                   "operation' there)")
        align, hyp_errors, ref_errors = [0] * self.m, [0], [0]
        hyp = -1
        for op in reversed(ops):
            if op == _DEL:
                hyp += 1
                hyp_errors.append(hyp_errors[-1] + 1)
                continue
            if op != _INS:
                hyp += 1
                hyp_errors.append(hyp_errors[-1] + (op == _SUB))
            align[len(ref_errors) - 1] = hyp
            ref_errors.append(ref_errors[-1] + (op != _MATCH))
        return align, hyp_errors, ref_errors

    def distance(self, shifted: list[int], start: int, bound: float) -> float:
        """The edit distance of ``shifted`` (equal to the current hypothesis before
        ``start``), or infinity as soon as it is proven above ``bound``."""
        prev = self.cost[start]
        for i in range(start + 1, self.n + 1):
            prev, least = self.row(i, shifted[i - 1], prev, None)
            if least > bound:
                return math.inf
        return prev[self.m]

    def best_shift(self, checked: int) -> tuple[tuple[int, int, int, int] | None, int]:
        """sacrebleu's ``_shift``: the best ``(gain, length, -start, -target)`` (None: no
        candidate), and the candidates tried for the pair so far."""
        words, ref, n, m = self.words, self.ref, self.n, self.m
        score = self.cost[n][m]
        align, hyp_errors, ref_errors = self.trace()
        best = None
        for start in range(n):
            for ref_start in range(max(0, start - _MAX_SHIFT_DIST),
                                   min(m, start + _MAX_SHIFT_DIST + 1)):
                for length in range(1, _MAX_SHIFT_SIZE + 1):
                    if words[start + length - 1] != ref[ref_start + length - 1]:
                        break
                    aligned = align[ref_start]
                    if (hyp_errors[start + length] != hyp_errors[start]
                            and ref_errors[ref_start + length] != ref_errors[ref_start]
                            and not start <= aligned < start + length):
                        best, checked = self.try_targets(score, start, ref_start, length,
                                                         align, checked, best)
                        if checked >= _MAX_SHIFT_CANDIDATES:
                            return best, checked
                    if start + length == n or ref_start + length == m:
                        break
        return best, checked

    def try_targets(self, score: int, start: int, ref_start: int, length: int,
                    align: list[int], checked: int, best: tuple[int, int, int, int] | None
                    ) -> tuple[tuple[int, int, int, int] | None, int]:
        previous = -1
        for offset in range(-1, length):
            target = 0 if ref_start + offset == -1 else align[ref_start + offset] + 1
            if target == previous:
                continue
            previous = target
            bound = math.inf
            if best is not None:
                bound = score - best[0] - ((length, -start, -target) <= best[1:])
            first = min(start, target)
            distance: float = self.levenshtein(
                _perform_shift(self.origin, start, length, target), first)
            if not self.full and distance <= bound:  # a lower bound of the beam's
                shifted = _perform_shift(self.words, start, length, target)
                distance = self.distance(shifted, first, bound)
            checked += 1
            if distance <= bound:
                candidate = (score - int(distance), length, -start, -target)
                if best is None or candidate > best:
                    best = candidate
        return best, checked

    def edits(self) -> int:
        checked, shifts = 0, 0
        while True:
            best, checked = self.best_shift(checked)
            if checked >= _MAX_SHIFT_CANDIDATES or best is None or best[0] <= 0:
                break
            _, length, negated_start, negated_target = best
            start, target = -negated_start, -negated_target
            self.words = _perform_shift(self.words, start, length, target)
            self.origin = _perform_shift(self.origin, start, length, target)
            self.fill_rows(min(start, target))
            self.fill_bits(min(start, target))
            shifts += 1
        return shifts + self.cost[self.n][self.m]


def _perform_shift(words: list[int], start: int, length: int, target: int) -> list[int]:
    """sacrebleu's ``_perform_shift``: the ``length`` words at ``start`` moved before
    ``target``."""
    if target < start:
        return (words[:target] + words[start : start + length] + words[target:start]
                + words[start + length :])
    if target > start + length:
        return (words[:start] + words[start + length : target] + words[start : start + length]
                + words[target:])
    return (words[:start] + words[start + length : length + target]
            + words[start : start + length] + words[length + target :])


def pair_edits(hyp: list[int], ref: list[int]) -> int:
    """sacrebleu's ``translation_edit_rate(hyp, ref)[0]`` on lists of hashable words, in
    Python (the compiled kernel's twin).

    >>> pair_edits([1, 2, 3, 4], [3, 4, 1, 2]), pair_edits([], [1, 2]), pair_edits([1], [])
    (1, 2, 1)
    """
    if not ref or not hyp:
        return len(hyp) if not ref else len(ref)
    return _Pair(list(hyp), list(ref)).edits()
