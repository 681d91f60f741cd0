"""Shared case generators for the parity suite.

A *case* is ``(hyp, refs)``: ``hyp`` a list of int token ids, ``refs`` a list of 1..4
non-empty lists of int token ids (the NLTK form of one sentence).  ``make_cases`` builds a
seeded batch of them; ``to_arrays`` / ``to_lists`` turn a batch into the two input forms of
the bleusuite API.  The tests get these functions through the fixtures of the same name.

``tests/`` itself is put on ``sys.path`` by ``pythonpath = ["tests"]`` in pyproject.toml
(that is how ``from reference import ...`` works); the repository root is added below so
that ``import bleusuite`` works without installing the package.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

Case = tuple[list[int], list[list[int]]]

# Ids that never occur as ordinary tokens, so any of them can serve as pad_id / eos_id.
SPECIAL_IDS = (0, -1, 1, 2**63 - 1, -(2**63))

# Huge / negative ids, including pairs that agree in their low 32 bits (catches truncation
# to int32 and naive n-gram packing).
_HUGE_POOL = sorted(
    set(
        [
            v + d
            for v in (2**31, 2**32, 2**40, 2**62, 2**63 - 64, -(2**31), -(2**62), -(2**63) + 2)
            for d in range(2, 34)
        ]
        + [7, 7 + 2**32, 7 + 2**33, 7 - 2**32, 7 + 2**62, -7, -7 - 2**32, 2**31 - 1, -(2**31) + 1]
    )
)


class _Rng:
    """A seeded numpy Generator read through a buffer of uniforms (scalar numpy draws are
    slow, and generation would otherwise cost as much as the reference libraries)."""

    def __init__(self, seed: int) -> None:
        self._gen = np.random.default_rng(seed)
        self._buf: list[float] = []

    def u(self) -> float:
        if not self._buf:
            self._buf = self._gen.random(4096).tolist()
        return self._buf.pop()

    def int(self, lo: int, hi: int) -> int:  # lo <= x < hi
        return lo + int(self.u() * (hi - lo))

    def ints(self, lo: int, hi: int, n: int) -> list[int]:
        return self._gen.integers(lo, hi, size=n).tolist()

    def choice(self, seq: list, k: int) -> list:  # k distinct elements
        return [seq[i] for i in self._gen.choice(len(seq), size=k, replace=False).tolist()]

    def pick(self, seq):
        return seq[int(self.u() * len(seq))]

    def picks(self, seq, n: int) -> list:
        return [seq[int(self.u() * len(seq))] for _ in range(n)]

    def sample(self, n: int, k: int) -> list[int]:  # k distinct sorted ints from range(n)
        keys = [self.u() for _ in range(n)]
        return sorted(sorted(range(n), key=keys.__getitem__)[:k])


def _vocab(rng: _Rng) -> list[int]:
    """Distinct token ids: tiny (2-6, forces repeats and many matches), large, or huge."""
    size = rng.int(2, 7) if rng.u() < 0.5 else rng.int(7, 400)
    if rng.u() < 0.3:
        return rng.choice(_HUGE_POOL, min(size, len(_HUGE_POOL)))
    hi = 10 if size <= 6 and rng.u() < 0.5 else 100_000
    return list(dict.fromkeys(rng.ints(2, max(hi, size + 2), 2 * size)))[:size]


def _perturb(rng: _Rng, hyp: list[int], vocab: list[int], length: int | None) -> list[int]:
    """A reference made from the hypothesis by substitutions, deletions and insertions."""
    out = list(hyp)
    for _ in range(rng.int(1, 5)):  # at least one edit ("identical" covers none)
        op, pos = rng.int(0, 3), rng.int(0, len(out) + 1)
        if op == 0 and out:
            out[min(pos, len(out) - 1)] = rng.pick(vocab)
        elif op == 1 and out:
            del out[min(pos, len(out) - 1)]
        else:
            out.insert(pos, rng.pick(vocab))
    if length is not None:
        out = out[:length] + rng.picks(vocab, max(0, length - len(out)))
    return out or rng.picks(vocab, 1)


_KINDS = ["random", "perturb", "disjoint", "tie", "identical", "repeat", "short"]
_KIND_CDF = np.cumsum([0.25, 0.35, 0.07, 0.1, 0.05, 0.08, 0.1]).tolist()


def _case(rng: _Rng, max_len: int, n_refs: int | None, min_hyp_len: int, max_refs: int) -> Case:
    vocab = _vocab(rng)
    u = rng.u()
    hyp_len = 0 if u < 0.05 else rng.int(1, 4) if u < 0.2 else rng.int(4, max_len + 1)
    hyp_len = max(hyp_len, min_hyp_len)
    k = n_refs if n_refs is not None else rng.int(1, max_refs + 1)
    u = rng.u()
    kind = next((kd for kd, c in zip(_KINDS, _KIND_CDF, strict=True) if u < c), "short")
    if kind == "tie" and n_refs is None:
        k = max(k, min(2, max_refs))
    if kind == "repeat":
        pattern = rng.picks(vocab, rng.int(1, 4))
        hyp = (pattern * max_len)[: max(hyp_len, 1)]
    else:
        hyp = rng.picks(vocab, hyp_len)

    def rand_ref() -> list[int]:
        return rng.picks(vocab, rng.int(1, max_len + 1))

    if kind == "random":
        refs = [rand_ref() for _ in range(k)]
    elif kind == "disjoint":  # no token shared with the hypothesis
        other = [rng.int(100_001, 200_000) for _ in range(rng.int(1, 8))]  # never in vocab
        refs = [rng.picks(other, rng.int(1, max_len + 1)) for _ in range(k)]
    elif kind == "identical":
        refs = [list(hyp) or rand_ref()] + [_perturb(rng, hyp, vocab, None) for _ in range(k - 1)]
    elif kind == "tie":  # two references equally far from the hypothesis length
        d = rng.int(1, 4)
        lo, hi = max(1, len(hyp) - d), min(max_len, len(hyp) + d)
        refs = [_perturb(rng, hyp, vocab, lo), _perturb(rng, hyp, vocab, hi)]
        refs = (refs + [_perturb(rng, hyp, vocab, None) for _ in range(k - 2)])[:k]
    elif kind == "short":  # very short references (shorter than the n-gram order)
        refs = [_perturb(rng, hyp, vocab, rng.int(1, 4)) for _ in range(k)]
    else:  # perturb / repeat
        refs = [_perturb(rng, hyp, vocab, None) if rng.u() < 0.8 else rand_ref() for _ in range(k)]
    refs = [r[:max_len] for r in refs]
    keys = [rng.u() for _ in refs]  # shuffle the references
    return hyp, [r for _, r in sorted(zip(keys, refs, strict=True), key=lambda kr: kr[0])]


def make_cases(
    seed: int,
    n: int,
    *,
    max_len: int = 40,
    n_refs: int | None = None,
    min_hyp_len: int = 0,
    max_refs: int = 4,
) -> list[Case]:
    """``n`` seeded cases; ``n_refs`` fixes the number of references of every case."""
    rng = _Rng(seed)
    return [_case(rng, max_len, n_refs, min_hyp_len, max_refs) for _ in range(n)]


def _row(rng: _Rng, tokens, width, pad_id, eos_id, layout) -> list[int]:
    row = list(tokens)
    if eos_id is not None:  # a sentence ends before its first eos: junk after it is ignored
        row += [eos_id, *rng.picks([*tokens, eos_id], rng.int(0, 4))]
    row = row[:width]
    fill = width - len(row)
    if not fill:
        return row
    if pad_id is None:  # eos-only arrays: fill with more junk after the eos
        return row + [eos_id] * fill
    if layout == "right":
        return row + [pad_id] * fill
    if layout == "left":
        return [pad_id] * fill + row
    # "scatter": padding tokens interleaved anywhere in the row
    for _ in range(fill):
        row.insert(rng.int(0, len(row) + 1), pad_id)
    return row


def to_arrays(
    cases: list[Case],
    seed: int = 0,
    *,
    pad_id: int | None = 0,
    eos_id: int | None = None,
    layout: str = "right",
    squeeze: bool = False,
    dtype=np.int64,
) -> tuple[np.ndarray, np.ndarray]:
    """Array form: hyp (B, L) and refs (B, R, L), or (B, L) when ``squeeze`` and R == 1.

    Rows with fewer than R references get all-padding (absent) rows at random positions.
    ``layout`` is "right", "left" or "scatter" (pads anywhere).  With ``pad_id=None`` every
    case must have the same number of references and ``eos_id`` must be given.
    """
    rng = _Rng(seed)
    n_refs = max((len(r) for _, r in cases), default=1)
    if pad_id is None:
        assert eos_id is not None and all(len(r) == n_refs for _, r in cases)
    longest = max([len(h) for h, _ in cases] + [len(x) for _, r in cases for x in r] + [0])
    width = longest + (4 if eos_id is not None else 0) + rng.int(0, 3)
    width = max(width, 1)
    hyps = np.array(
        [_row(rng, h, width, pad_id, eos_id, layout) for h, _ in cases], dtype=dtype
    ).reshape(len(cases), width)
    refs = np.full((len(cases), n_refs, width), pad_id if pad_id is not None else 0, dtype=dtype)
    for b, (_, rs) in enumerate(cases):
        slots = rng.sample(n_refs, len(rs))
        for slot, r in zip(slots, rs, strict=True):
            refs[b, slot] = _row(rng, r, width, pad_id, eos_id, layout)
    if squeeze and n_refs == 1:
        refs = refs[:, 0]
    return hyps, refs


def to_lists(cases: list[Case], *, as_str: bool = False) -> tuple[list, list]:
    """List form (NLTK layout); ``as_str`` turns every id into a string token."""
    f = (lambda t: f"w{t}") if as_str else int
    return (
        [[f(t) for t in h] for h, _ in cases],
        [[[f(t) for t in r] for r in rs] for _, rs in cases],
    )


# The array encodings the parity tests cycle through: (to_arrays keyword arguments).
ENCODINGS = (
    dict(pad_id=0, layout="right"),
    dict(pad_id=-1, layout="left"),
    dict(pad_id=2**63 - 1, layout="scatter"),
    dict(pad_id=0, eos_id=1, layout="right"),
    dict(pad_id=-(2**63), eos_id=2**63 - 1, layout="left"),
    dict(pad_id=1, eos_id=-1, layout="scatter"),
)


def encode(cases: list[Case], i: int) -> tuple[np.ndarray, np.ndarray, dict]:
    """Array form of ``cases`` in the ``i``-th encoding (cyclic), plus the pad/eos kwargs."""
    enc = dict(ENCODINGS[i % len(ENCODINGS)])
    hyps, refs = to_arrays(cases, seed=i, **enc)
    enc.pop("layout")
    return hyps, refs, enc


def split_corpora(cases: list[Case], seed: int, max_size: int = 60) -> list[list[Case]]:
    """Cut ``cases`` into consecutive corpora of random sizes 1..max_size."""
    rng = np.random.default_rng(seed)
    out, i = [], 0
    while i < len(cases):
        n = int(rng.integers(1, max_size + 1))
        out.append(cases[i : i + n])
        i += n
    return out


@pytest.fixture(name="encode", scope="session")
def _encode_fixture():
    return encode


@pytest.fixture(name="split_corpora", scope="session")
def _split_corpora_fixture():
    return split_corpora


@pytest.fixture(name="make_cases", scope="session")
def _make_cases_fixture():
    return make_cases


@pytest.fixture(name="to_arrays", scope="session")
def _to_arrays_fixture():
    return to_arrays


@pytest.fixture(name="to_lists", scope="session")
def _to_lists_fixture():
    return to_lists
