"""Every call size and input form (issue 36): one sentence per call against the peer a user
would otherwise call that way, one batch in every input form against padded arrays, the
front ends' updates, and the memory of a corpus of text.

* **One sentence per call**: the 100 WMT15 en-ru pairs shipped with bleusuite (a real
  system output and its reference), each round on fresh sentences (a word of the round
  put before each line, so that no cache of either library is reused: sacrebleu keeps its
  13a tokenisation of lines it has seen), the time per call. Every bleusuite score is
  checked against the peer's (1e-12; the sacrebleu API's bit for bit).
* **Input forms**: 20,000 MT-like lines (:func:`workloads.mt_like_batch`, 1
  reference, words ``w<id>`` with some punctuation for the text form), corpus BLEU
  (``smooth="exp"``) of the same sentences as padded int64 arrays (the baseline), token-id
  lists, ragged NumPy arrays, ragged torch tensors (a labelled extra row), string token
  lists and text (``tokenize="13a"``, tokenising included); and the text's corpus BLEU
  against bleuscore (a Rust crate with Python bindings; ``ref_length="shortest"``, the
  same number).
* **Front ends**: an Ignite ``Bleu`` update and a torchmetrics ``BLEUScore`` update of 32
  rows, as token lists or strings against padded arrays of the same ids.
* **Memory**: peak resident memory of ``corpus_bleu`` on 1,000,000 lines of text against
  ``bleusuite score`` on the same lines in files (each in a process of its own).

Run with ``tox -e bench`` or ``pytest benchmarks/bench_calls.py``; the ratios and an
"issue 36 acceptance" table are printed at the end of the run. Nothing asserts a time.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from workloads import mt_like_batch

import bleusuite
from conftest import _RESULTS, add_summary_table

DATA = Path(bleusuite.__file__).resolve().parent / "data"
HYPS = (DATA / "sample-hyp.txt").read_text(encoding="utf-8").splitlines()
REFS = (DATA / "sample-ref.txt").read_text(encoding="utf-8").splitlines()
ROUNDS = 7


def _rounds(count: int) -> Iterator[tuple[list[str], list[str]]]:
    """Fresh lines for each round: a word of the round before each line."""
    for k in range(count):
        yield [f"r{k} {h}" for h in HYPS], [f"r{k} {r}" for r in REFS]


class Calls:
    """One sentence per call: ``fn(hypothesis, reference)`` over the 100 pairs of a fresh
    round at each timed call."""

    def __init__(self, fn: Callable[[Any, Any], Any], prepare: Callable[[str], Any]):
        self.fn = fn
        self.data = [[(prepare(h), prepare(r)) for h, r in zip(hs, rs, strict=True)]
                     for hs, rs in _rounds(ROUNDS + 2)]
        self.round = 0

    def __call__(self) -> list[Any]:
        pairs = self.data[self.round % len(self.data)]
        self.round += 1
        return [self.fn(h, r) for h, r in pairs]

    def first(self) -> list[Any]:
        return [self.fn(h, r) for h, r in self.data[0]]


def _nltk_bleu() -> tuple[Callable[[Any, Any], Any], Callable[[Any, Any], Any]]:
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    method1 = SmoothingFunction().method1
    return (lambda h, r: sentence_bleu([r], h, smoothing_function=method1),
            lambda h, r: bleusuite.sentence_bleu([h], [[r]], smooth="method1")[0])


def _nltk_gleu() -> tuple[Callable[[Any, Any], Any], Callable[[Any, Any], Any]]:
    from nltk.translate.gleu_score import sentence_gleu

    return (lambda h, r: sentence_gleu([r], h),
            lambda h, r: bleusuite.sentence_gleu([h], [[r]])[0])


def _sacrebleu_bleu() -> tuple[Callable[[Any, Any], Any], Callable[[Any, Any], Any]]:
    import sacrebleu

    return (lambda h, r: sacrebleu.sentence_bleu(h, [r]).score / 100,
            lambda h, r: bleusuite.sentence_bleu([h], [r], tokenize="13a")[0])


def _sacrebleu_chrf() -> tuple[Callable[[Any, Any], Any], Callable[[Any, Any], Any]]:
    import sacrebleu

    return (lambda h, r: sacrebleu.sentence_chrf(h, [r]).score / 100,
            lambda h, r: bleusuite.sentence_chrf([h], [r])[0])


def _verl() -> tuple[Callable[[Any, Any], Any], Callable[[Any, Any], Any]]:
    import sacrebleu

    from bleusuite.rewards.verl import compute_score

    return (lambda h, r: sacrebleu.sentence_bleu(h, [r]).score / 100,
            lambda h, r: compute_score("wmt", h, r))


def _sacrebleu_api() -> tuple[Callable[[Any, Any], Any], Callable[[Any, Any], Any]]:
    import sacrebleu

    import bleusuite.sacrebleu as ours

    theirs_metric = sacrebleu.BLEU(effective_order=True)
    our_metric = ours.BLEU(effective_order=True)
    return (lambda h, r: theirs_metric.sentence_score(h, [r]).score,
            lambda h, r: our_metric.sentence_score(h, [r]).score)


#: name -> (peer's name, the two calls, how a line is given, the tolerance, the target)
ONE_SENTENCE: dict[str, tuple[str, Callable[[], Any], Callable[[str], Any], float, float]] = {
    "sentence_bleu, token lists (method1)": ("NLTK sentence_bleu", _nltk_bleu, str.split,
                                             1e-12, 2.0),
    "sentence_gleu, token lists": ("NLTK sentence_gleu", _nltk_gleu, str.split, 1e-12, 1.5),
    "sentence_bleu, text (13a)": ("sacrebleu.sentence_bleu", _sacrebleu_bleu, str, 1e-12, 3.0),
    "sentence_chrf, text": ("sacrebleu.sentence_chrf", _sacrebleu_chrf, str, 1e-12, 3.0),
    "rewards.verl.compute_score": ("sacrebleu.sentence_bleu", _verl, str, 1e-12, 3.0),
    "bleusuite.sacrebleu BLEU.sentence_score": ("sacrebleu BLEU.sentence_score",
                                                _sacrebleu_api, str, 0.0, 3.0),
}


@pytest.mark.parametrize("side", ["peer", "bleusuite"])
@pytest.mark.parametrize("case", list(ONE_SENTENCE))
def test_one_sentence_per_call(timed: Any, case: str, side: str) -> None:
    pytest.importorskip("nltk")
    pytest.importorskip("sacrebleu")
    peer_name, make, prepare, tolerance, _ = ONE_SENTENCE[case]
    peer_fn, our_fn = make()
    peer, ours = Calls(peer_fn, prepare), Calls(our_fn, prepare)
    np.testing.assert_allclose(ours.first(), peer.first(), rtol=0, atol=tolerance)
    group = f"one sentence per call: {case} (100 calls)"
    if side == "peer":
        timed(group, peer_name, peer, rounds=ROUNDS, baseline=True)
    else:
        timed(group, "bleusuite", ours, rounds=ROUNDS)


# ------------------------------------------------------------------------ input forms

ROWS, WIDTH = 20_000, 40
_PUNCTUATION = {7: ",", 11: ".", 13: "!", 17: "(a)", 19: "U.S.", 23: "don't"}


def _word(token: int) -> str:
    return _PUNCTUATION.get(token % 29, f"w{token}")


def _forms() -> dict[str, tuple[Any, Any, dict[str, Any]]]:
    hyp, refs = mt_like_batch(ROWS, WIDTH, refs=1, seed=1)
    hyp_lists = [row[row > 0].tolist() for row in hyp]
    ref_lists = [[row[0][row[0] > 0].tolist()] for row in refs]
    forms: dict[str, tuple[Any, Any, dict[str, Any]]] = {
        "padded int64 arrays": (hyp, refs, {"pad_id": 0}),
        "token-id lists": (hyp_lists, ref_lists, {}),
        "ragged NumPy arrays": ([np.array(h) for h in hyp_lists],
                                [np.array(r[0]) for r in ref_lists], {}),
        "string token lists": ([[f"w{t}" for t in h] for h in hyp_lists],
                               [[[f"w{t}" for t in r[0]]] for r in ref_lists], {}),
        "text, tokenize='13a'": ([" ".join(map(_word, h)) for h in hyp_lists],
                                 [[" ".join(map(_word, r[0]))] for r in ref_lists],
                                 {"tokenize": "13a"}),
    }
    try:
        import torch
    except ImportError:
        return forms
    forms["ragged torch tensors (extra row)"] = (
        [torch.tensor(h) for h in hyp_lists], [torch.tensor(r[0]) for r in ref_lists], {})
    return forms


_FORMS: dict[str, tuple[Any, Any, dict[str, Any]]] = {}


def _form(name: str) -> tuple[Any, Any, dict[str, Any]]:
    if not _FORMS:
        _FORMS.update(_forms())
    return _FORMS[name]


FORM_NAMES = ["padded int64 arrays", "token-id lists", "ragged NumPy arrays",
              "string token lists", "text, tokenize='13a'", "ragged torch tensors (extra row)"]
FORM_GROUP = f"one batch, every input form: corpus BLEU of {ROWS:,} MT-like lines"


@pytest.mark.parametrize("form", FORM_NAMES)
def test_input_forms(timed: Any, form: str) -> None:
    if form.startswith("ragged torch"):
        pytest.importorskip("torch")
    hyps, refs, options = _form(form)
    want = float(bleusuite.corpus_bleu(*_form("padded int64 arrays")[:2], pad_id=0,
                                       smooth="exp"))
    got = timed(FORM_GROUP, form, lambda: float(bleusuite.corpus_bleu(
        hyps, refs, smooth="exp", **options)), rounds=7, baseline=form == FORM_NAMES[0])
    if not form.startswith("text"):  # the text's words are others (punctuation split)
        assert got == want


@pytest.mark.parametrize("side", ["bleuscore", "bleusuite"])
def test_text_against_bleuscore(timed: Any, side: str) -> None:
    bleuscore = pytest.importorskip("bleuscore")
    hyps, refs, _ = _form("text, tokenize='13a'")
    streams = [[r[0]] for r in refs]

    def theirs() -> float:
        return float(bleuscore.compute(streams, hyps, 4, False)["bleu"])

    def ours() -> float:
        return float(bleusuite.corpus_bleu(hyps, refs, tokenize="13a", smooth="no_smooth",
                                           ref_length="shortest"))

    assert abs(ours() - theirs()) <= 1e-12
    group = f"corpus BLEU of {ROWS:,} lines of text (13a, shortest reference, no smoothing)"
    if side == "bleuscore":
        timed(group, "bleuscore.compute", theirs, rounds=5, baseline=True)
    else:
        timed(group, "bleusuite.corpus_bleu", ours, rounds=7)


# ------------------------------------------------------------------------- front ends

FRONT_ROWS = 32


def _front_batch() -> tuple[np.ndarray, np.ndarray, list[list[int]], list[list[list[int]]]]:
    hyp, refs = mt_like_batch(FRONT_ROWS, WIDTH, refs=1, seed=2)
    return (hyp, refs, [row[row > 0].tolist() for row in hyp],
            [[row[0][row[0] > 0].tolist()] for row in refs])


@pytest.mark.parametrize("form", ["padded id tensors", "token lists"])
def test_ignite_update(timed: Any, form: str) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("ignite")
    from bleusuite.metrics import Bleu

    hyp, refs, hyp_lists, ref_lists = _front_batch()
    metric = Bleu(pad_id=0 if form.startswith("padded") else None)
    batch = ((torch.from_numpy(hyp), torch.from_numpy(refs)) if form.startswith("padded")
             else (hyp_lists, ref_lists))
    timed(f"Ignite Bleu.update, {FRONT_ROWS} rows (x100)", form,
          lambda: [metric.update(batch) for _ in range(100)], rounds=7,
          baseline=form.startswith("padded"))


@pytest.mark.parametrize("form", ["padded id tensors", "strings"])
def test_torchmetrics_update(timed: Any, form: str) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("torchmetrics")
    from bleusuite.torchmetrics import BLEUScore

    hyp, refs, hyp_lists, ref_lists = _front_batch()
    if form.startswith("padded"):
        metric = BLEUScore(pad_id=0)
        preds, target = torch.from_numpy(hyp), torch.from_numpy(refs)
    else:
        metric = BLEUScore()
        preds = [" ".join(f"w{t}" for t in h) for h in hyp_lists]
        target = [[" ".join(f"w{t}" for t in r[0])] for r in ref_lists]
    timed(f"torchmetrics BLEUScore.update, {FRONT_ROWS} rows (x100)", form,
          lambda: [metric.update(preds, target) for _ in range(100)], rounds=7,
          baseline=form.startswith("padded"))


# ----------------------------------------------------------------------------- memory

MEMORY_LINES = 1_000_000
_MEMORY: dict[str, float] = {}


def _peak_gib(code: str) -> float:
    """Peak resident memory (GiB) of a Python process running ``code``: its ``VmHWM``
    (``ru_maxrss`` would not do: Linux keeps it across ``exec``, so a child started by
    this test, which holds the generated lines, would report this process's peak)."""
    script = "\n".join([textwrap.dedent(code).strip(),
                         "print([line.split()[1] for line in open('/proc/self/status')",
                         "       if line.startswith('VmHWM:')][0])"])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    return int(done.stdout.split()[-1]) / 2**20


def test_memory_of_a_million_lines(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    words = np.array([f"w{i}" for i in range(50_000)])
    for name in ("hyp", "ref"):
        lengths = rng.integers(5, 40, size=MEMORY_LINES)
        tokens = words[rng.zipf(1.3, size=int(lengths.sum())) % len(words)]
        cuts = np.cumsum(lengths)[:-1]
        lines = [" ".join(line) for line in np.split(tokens, cuts)]
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    library = _peak_gib(f"""
        import bleusuite
        hyps = open({str(tmp_path / 'hyp.txt')!r}, encoding="utf-8").read().splitlines()
        refs = open({str(tmp_path / 'ref.txt')!r}, encoding="utf-8").read().splitlines()
        print(float(bleusuite.corpus_bleu(hyps, [[r] for r in refs], tokenize="13a")))
    """)
    command = _peak_gib(f"""
        import sys
        from bleusuite import cli
        sys.argv = ["bleusuite", "score", {str(tmp_path / 'ref.txt')!r}, "-i",
                    {str(tmp_path / 'hyp.txt')!r}, "-b"]
        cli.main(sys.argv[1:])
    """)
    _MEMORY.update(library=library, command=command)
    add_summary_table("memory: 1,000,000 lines of text, peak resident memory", [
        f"    library corpus_bleu(tokenize='13a'): {library:.2f} GiB",
        f"    bleusuite score:                     {command:.2f} GiB",
        f"    ratio {library / command:.2f} (target <= 1.3)",
    ])
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 0


def test_acceptance_table() -> None:
    """The issue's targets beside the ratios of this run (the README reads them here)."""
    lines = ["    one sentence per call (peer's time / bleusuite's), target:"]
    for case, (peer, *_, target) in ONE_SENTENCE.items():
        group = _RESULTS.get(f"one sentence per call: {case} (100 calls)", {})
        if peer in group and "bleusuite" in group:
            ratio = group[peer] / group["bleusuite"]
            lines.append(f"      {case:45s} {ratio:6.2f}x  (>= {target}x; "
                         f"{group['bleusuite'] * 1e4:.1f} us a call)")
    forms = _RESULTS.get(FORM_GROUP, {})
    base = forms.get(FORM_NAMES[0])
    targets = {"token-id lists": 1.5, "ragged NumPy arrays": 1.5, "string token lists": 2.0,
               "text, tokenize='13a'": 3.0}
    if base:
        lines.append("    input forms (time / padded arrays' time), target:")
        for form in FORM_NAMES[1:]:
            if form in forms:
                target = f"<= {targets[form]}x" if form in targets else "extra"
                lines.append(f"      {form:45s} {forms[form] / base:6.2f}x  ({target})")
    if not lines[1:]:
        pytest.skip("run with the other benchmarks of this file")
    add_summary_table("issue 36 acceptance", lines)
