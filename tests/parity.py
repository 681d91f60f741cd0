"""The parity suite's cases, and its one chunk-and-compare helper.

A *case* is ``(hyp, refs)``: ``hyp`` a list of int token ids, ``refs`` a list of 1..4
non-empty lists of int token ids (the NLTK form of one sentence). ``make_cases`` builds a
seeded batch of them; ``to_arrays`` / ``to_lists`` turn a batch into the two input forms of
the bleusuite API (the tests also get these functions through the fixtures of the same
name, see ``conftest.py``).

:func:`check_sentences` and :func:`check_corpora` are the parity tests' loop, written once:
cases cut into chunks (or corpora), one reference-library setting per chunk, one bleusuite
call per chunk in one of the array encodings on every backend (``on_every_backend``), each
case compared with the reference library to 1e-12, and the list form (int or str tokens)
compared with the array form bit for bit.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from backend_fixtures import on_every_backend
from reference import assert_corpus_match, assert_scores_match

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


# ----------------------------------------------------------------- chunk and compare


#: a reference library on a list of cases: one float64 score per case (sentence level) or
#: one float (corpus level)
Reference = Callable[[list[Case]], Any]
#: our keyword arguments and the reference library's function for the same setting
Setting = tuple[dict[str, Any], Reference]


def chunks(cases: list[Case], n: int) -> list[list[Case]]:
    """``cases`` cut into exactly ``n`` consecutive chunks of (nearly) equal size."""
    return [cases[i * len(cases) // n : (i + 1) * len(cases) // n] for i in range(n)]


def check_chunk(
    score: Callable[..., Any],
    chunk: list[Case],
    theirs: Any,
    k: int,
    kwargs: dict[str, Any],
    *,
    list_form: bool = True,
    as_str: bool | None = None,
) -> np.ndarray:
    """``score`` (a sentence-level function) on ``chunk`` equals ``theirs`` case by case to
    1e-12: on the padded arrays of the ``k``-th encoding, on every backend; and, with
    ``list_form``, the token lists (str tokens if ``as_str``, by default for odd ``k``)
    give the arrays' scores exactly. Returns our scores."""
    hyps, refs, enc = encode(chunk, k)
    what = f"{score.__name__} {kwargs} {enc}"
    ours = on_every_backend(score, hyps, refs, **kwargs, **enc)
    assert_scores_match(ours, theirs, chunk, what=what)
    if list_form:
        as_str = bool(k % 2) if as_str is None else as_str
        hyp_list, ref_list = to_lists(chunk, as_str=as_str)
        assert_scores_match(score(hyp_list, ref_list, **kwargs), ours, chunk, tol=0.0,
                            what=f"list form (str={as_str}) vs array form, {what}")
    return ours


def check_corpus(
    score: Callable[..., Any],
    corpus: list[Case],
    theirs: float,
    k: int,
    kwargs: dict[str, Any],
    *,
    list_form: bool = False,
) -> None:
    """``score`` (a corpus-level function) on ``corpus`` equals ``theirs`` to 1e-12, on the
    padded arrays of the ``k``-th encoding on every backend; with ``list_form``, the token
    lists (str tokens for ``k % 8``) give the arrays' score exactly."""
    hyps, refs, enc = encode(corpus, k)
    what = f"corpus #{k} {score.__name__} {kwargs} {enc}"
    ours = on_every_backend(score, hyps, refs, **kwargs, **enc)
    assert_corpus_match(ours, theirs, corpus, what=what)
    if list_form:
        hyp_list, ref_list = to_lists(corpus, as_str=bool(k % 8))
        assert_corpus_match(score(hyp_list, ref_list, **kwargs), float(ours), corpus, tol=0.0,
                            what=f"list form vs array form, {what}")


def sampled(k: int) -> bool:
    """Whether chunk or corpus ``k`` of a parity test is checked: all of them, or with
    ``BLEUSUITE_PARITY_SAMPLE=N`` every N-th one (the first always, so every test, smoothing
    and input form still runs). tox's JAX environment samples: it re-runs the suite the
    other environments run in full, on JAX arrays."""
    every = int(os.environ.get("BLEUSUITE_PARITY_SAMPLE", "1") or 1)
    return k % max(every, 1) == 0


def check_sentences(
    score: Callable[..., Any],
    cases: list[Case],
    settings: Sequence[Setting],
    *,
    first_encoding: int = 0,
    unscorable: bool = False,
) -> None:
    """Sentence-level parity: ``cases`` cut into one chunk per setting, chunk ``k`` checked
    by :func:`check_chunk` in encoding ``first_encoding + k`` (its list form with str tokens
    for odd ``k``). With ``unscorable``, the cases the reference library cannot score (NaN:
    NLTK's method6 raises) are left out."""
    for k, ((kwargs, reference), chunk) in enumerate(
        zip(settings, chunks(cases, len(settings)), strict=True)
    ):
        if not sampled(k):
            continue
        theirs = np.asarray(reference(chunk), dtype=np.float64)
        if unscorable:
            chunk = [case for case, t in zip(chunk, theirs, strict=True) if not np.isnan(t)]
            theirs = theirs[~np.isnan(theirs)]
        check_chunk(score, chunk, theirs, first_encoding + k, kwargs, as_str=bool(k % 2))


def check_corpora(
    score: Callable[..., Any],
    corpora: list[list[Case]],
    setting: Callable[[int, list[Case]], Setting],
    *,
    list_form_every: int | None = 4,
) -> None:
    """Corpus-level parity: corpus ``k`` with the setting ``setting(k, corpus)``, checked by
    :func:`check_corpus` in encoding ``k``, and in list form every ``list_form_every``-th
    (None: never)."""
    for k, corpus in enumerate(corpora):
        if not sampled(k):
            continue
        kwargs, reference = setting(k, corpus)
        list_form = list_form_every is not None and k % list_form_every == 0
        check_corpus(score, corpus, float(reference(corpus)), k, kwargs, list_form=list_form)
