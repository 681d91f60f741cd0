"""The Triton counting strategy (``bleusuite/counting/triton.py``, issue 43's first slice),
proved on the CPU in Triton's interpreter.

- counts equal to the compiled kernel's and a brute-force ``Counter``'s: 1-8 rows, lengths
  up to 64 (and rows of several tiles), 1-4 references, absent references, hypotheses
  shorter than the order, ids from 6 values to the whole int64 range, strided tensors;
- ``BLEUSUITE_COUNTING=triton``: the default strategy's scores, bit for bit, in the same
  input form (NumPy, torch CPU via NumPy, the torch pipeline CUDA tensors take):
  ``sentence_bleu`` (several smoothings), ``corpus_bleu``, ``bleu_statistics``,
  ``sentence_gleu``, ``corpus_gleu``, self-BLEU, pairwise BLEU, ROUGE-N of ids;
- the kernel compiles for CUDA (sm_80, sm_90) without a GPU (a subprocess);
- device launches of one ``sentence_bleu`` call (aten operations that are not views, plus
  Triton launches), the Triton strategy against the fixed path, as a table.

Triton's interpreter needs ``TRITON_INTERPRET=1`` in the environment before ``triton`` is
imported (its own functions, ``tl.sum`` among them, are made for the interpreter or the
compiler then) and while kernels run. tox's ``triton`` environment sets it for the run;
elsewhere (where the variable must not leak into other tests)
:func:`test_this_file_in_the_interpreter` runs this file in a subprocess that has it.
Skipped where triton is not installed.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import subprocess
import sys
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from backend_fixtures import no_host_reads
from cases import VOCABULARIES, as_arrays, brute_force, random_batch
from compiled_part import require_compiled

import bleusuite
from bleusuite import backends
from bleusuite.counting import count_matches, counting_strategy, kernel
from bleusuite.inputs import normalize_batch
from bleusuite.inputs.batch import RaggedPairs

pytest.importorskip("triton", reason="triton is not installed (tox -e triton installs it)")
torch = pytest.importorskip("torch")

from bleusuite.counting import triton as triton_strategy  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: this process runs Triton's interpreter (else the subprocess test runs this file in one)
IN_INTERPRETER = os.environ.get("TRITON_INTERPRET") == "1"
in_interpreter = pytest.mark.skipif(
    not IN_INTERPRETER, reason="runs in test_this_file_in_the_interpreter's subprocess")


def test_this_file_in_the_interpreter():
    """This file's tests, in a pytest subprocess with ``TRITON_INTERPRET=1``."""
    if IN_INTERPRETER:
        pytest.skip("this process is the interpreter's: the tests run here")
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    env.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider",
         "-n", "0", "-q", "-rs", __file__,
         # this process compiles the kernel for CUDA (it is not the interpreter's)
         "--deselect", f"{__file__}::test_the_kernel_compiles_for_cuda_without_a_gpu"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    print(result.stdout[-6000:])
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]


@pytest.fixture(scope="module")
def kernels() -> Iterator[Any]:
    """The kernel module, in Triton's interpreter."""
    module = importlib.import_module("bleusuite.counting.triton_kernels")
    if not module.interpreted():
        pytest.fail("TRITON_INTERPRET=1 but the kernels are not interpreted: was triton "
                    "imported before it was set?")
    yield module


@pytest.fixture
def launches(kernels: Any, monkeypatch: Any) -> list[tuple[int, ...]]:
    """The grid of every launch of the counting kernel during the test."""
    grids: list[tuple[int, ...]] = []
    kernel_fn = kernels.clipped_counts_kernel
    original = type(kernel_fn).run

    def run(self: Any, *args: Any, grid: Any, **kwargs: Any) -> Any:
        grids.append(tuple(grid))
        return original(self, *args, grid=grid, **kwargs)

    monkeypatch.setattr(type(kernel_fn), "run", run)
    return grids


def _reference_counts(hyp: np.ndarray, hyp_len: np.ndarray, refs: np.ndarray,
                      ref_len: np.ndarray, max_order: int) -> tuple[np.ndarray, np.ndarray]:
    """The compiled kernel's counts (the test is skipped where it is not built)."""
    require_compiled()
    counts = kernel.count_pairs(RaggedPairs.from_padded(hyp, hyp_len, refs, ref_len),
                                max_order, per_reference=True)
    return counts.clipped, counts.per_reference


def _launch(hyp: np.ndarray, hyp_len: np.ndarray, refs: np.ndarray, ref_len: np.ndarray,
            max_order: int) -> tuple[np.ndarray, np.ndarray]:
    clipped, per_ref = triton_strategy.launch_counts(
        *(torch.from_numpy(a) for a in (hyp, hyp_len, refs, ref_len)), max_order, True)
    return clipped.numpy(), per_ref.numpy()


def _generated(seed: int, vocab: int, max_len: int = 64) -> tuple[np.ndarray, ...]:
    """A padded batch whose references are edited copies of pieces of the hypothesis: 1-8
    rows, 1-4 references (some absent: length 0), hypotheses of 0..max_len tokens (many
    shorter than the order), random tokens past every length (never read)."""
    rng = np.random.default_rng(seed)
    rows, num_refs = int(rng.integers(1, 9)), int(rng.integers(1, 5))
    hyp_width, ref_width = int(rng.integers(2, max_len + 1)), int(rng.integers(2, max_len + 1))
    hyp = rng.integers(0, vocab, (rows, hyp_width))
    refs = rng.integers(0, vocab, (rows, num_refs, ref_width))
    hyp_len = rng.integers(0, hyp_width + 1, rows)
    hyp_len[rng.random(rows) < 0.2] = int(rng.integers(0, 3))  # short hypotheses
    ref_len = rng.integers(0, ref_width + 1, (rows, num_refs))
    ref_len[rng.random((rows, num_refs)) < 0.2] = 0  # absent references
    for b in range(rows):
        for r in range(num_refs):
            piece = hyp[b, : hyp_len[b]][rng.integers(0, hyp_width):]
            piece = piece[: ref_len[b, r]].copy()
            edits = rng.random(len(piece)) < 0.2
            piece[edits] = rng.integers(0, vocab, int(edits.sum()))
            start = int(rng.integers(0, ref_len[b, r] - len(piece) + 1))
            refs[b, r, start : start + len(piece)] = piece
    return hyp, hyp_len, refs, ref_len


@in_interpreter
@pytest.mark.parametrize("vocab", [6, 50_000])
@pytest.mark.parametrize("seed", range(8))
def test_counts_equal_the_compiled_kernel(seed, vocab):
    hyp, hyp_len, refs, ref_len = _generated(zlib.crc32(f"triton{seed}{vocab}".encode()), vocab)
    max_order = 4 if seed % 4 else 1 + seed % 7
    got = _launch(hyp, hyp_len, refs, ref_len, max_order)
    want = _reference_counts(hyp, hyp_len, refs, ref_len, max_order)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


@in_interpreter
@pytest.mark.parametrize("vocab_name", list(VOCABULARIES))
def test_counts_match_brute_force_over_every_id_range(vocab_name):
    """Ids up to the int64 extremes are compared as they are (no numbering, no hash)."""
    rng = np.random.default_rng(zlib.crc32(f"triton-brute{vocab_name}".encode()))
    vocab = VOCABULARIES[vocab_name]
    hyps, refs = random_batch(rng, 6, vocab, 12, 4)
    pad = int(vocab.max()) + 1 if vocab.max() < 2**63 - 1 else int(vocab.min()) - 1
    hyp, ref = as_arrays(hyps, refs, pad)
    hyp_len = np.array([len(h) for h in hyps])
    ref_len = np.array([[len(r) for r in row] + [0] * (ref.shape[1] - len(row))
                        for row in refs])
    clipped, per_ref = _launch(hyp, hyp_len, ref, ref_len, 5)
    want_clipped, want_per_ref = brute_force(hyps, refs, 5)
    np.testing.assert_array_equal(clipped, want_clipped)
    np.testing.assert_array_equal(per_ref, want_per_ref[:, : per_ref.shape[1]])


@in_interpreter
def test_rows_of_several_tiles():
    """Rows longer than one tile (64 positions): repeated n-grams whose occurrences fall in
    different tiles of the hypothesis and the references."""
    rng = np.random.default_rng(43)
    width = 3 * triton_strategy.BLOCK_SIZE + 7
    hyp = rng.integers(0, 3, (2, width))
    refs = np.stack([hyp[:, ::-1], np.roll(hyp, 70, axis=1)], axis=1).copy()
    hyp_len = np.array([width, width - 65])
    ref_len = np.array([[width, width - 3], [0, width]])
    got = _launch(hyp, hyp_len, refs, ref_len, 4)
    want = _reference_counts(hyp, hyp_len, refs, ref_len, 4)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    assert got[0][0, 0] == width  # every unigram of row 0 matches its reversed copy


@in_interpreter
def test_strided_empty_and_meta_inputs(monkeypatch):
    """Strides are passed to the kernel (no copy); empty batches and widths launch nothing,
    nor do torch ``meta`` tensors (results of the right shape)."""
    hyp = torch.tensor([[1, 2, 3, 1, 2, 3]]).repeat(3, 1)[::2, ::2]  # (2, 3), strided
    refs = torch.tensor([[1, 9, 3, 9, 2, 9, 3, 9]]).repeat(2, 2, 1)[:, :, ::2]  # (2, 2, 4)
    ref_len = torch.tensor([[4, 2], [0, 4]]).t()  # column-major
    hyp_len = torch.tensor([3, 2])
    clipped, per_ref = triton_strategy.launch_counts(hyp, hyp_len, refs, ref_len, 2, True)
    want = _reference_counts(hyp.contiguous().numpy(), hyp_len.numpy(),
                             refs.contiguous().numpy(), ref_len.contiguous().numpy(), 2)
    np.testing.assert_array_equal(clipped.numpy(), want[0])
    np.testing.assert_array_equal(per_ref.numpy(), want[1])
    for shape in ((0, 4), (2, 0)):
        empty = torch.zeros(shape, dtype=torch.int64)
        refs = torch.zeros((shape[0], 1, shape[1]), dtype=torch.int64)
        lengths = torch.zeros(shape[0], dtype=torch.int64)
        clipped, per_ref = triton_strategy.launch_counts(
            empty, lengths, refs, lengths[:, None], 3, True)
        assert clipped.shape == (shape[0], 3) and not clipped.any()
        assert per_ref.shape == (shape[0], 1, 3) and not per_ref.any()
    monkeypatch.setenv("BLEUSUITE_COUNTING", "triton")
    meta = torch.empty((2, 5), dtype=torch.int64, device="meta")  # shapes only: no launch
    with backends.use_numpy_for_torch_cpu(False):
        assert bleusuite.sentence_bleu(meta, meta[:, None]).shape == (2,)


# ------------------------------------------------------------------- scores, by dispatch


def _scores(hyp: Any, ref: Any, smooth: str) -> list[np.ndarray]:
    results = [
        bleusuite.sentence_bleu(hyp, ref, pad_id=0, smooth=smooth),
        bleusuite.corpus_bleu(hyp, ref, pad_id=0, smooth=smooth),
        bleusuite.bleu_statistics(hyp, ref, pad_id=0).to_array(),
        bleusuite.sentence_gleu(hyp, ref, pad_id=0),
    ]
    return [r.numpy() if isinstance(r, torch.Tensor) else np.asarray(r) for r in results]


@in_interpreter
@pytest.mark.parametrize("form", ["numpy", "torch-cpu-via-numpy", "torch-pipeline"])
@pytest.mark.parametrize(("seed", "smooth"), [(0, "no_smooth"), (1, "method1"), (2, "method4"),
                                              (3, "exp"), (4, "floor"), (5, "smooth1")])
def test_scores_equal_the_default_bit_for_bit(seed, smooth, form, launches, monkeypatch):
    """Padding (pad_id 0), absent references (all-padding rows), hypotheses shorter than
    4 tokens; every row keeps a reference (NumPy raises for one without)."""
    rng = np.random.default_rng(zlib.crc32(f"triton-scores{seed}".encode()))
    hyps, refs = random_batch(rng, int(rng.integers(1, 9)), np.arange(1, 7 if seed % 2 else
                                                                         50_001), 24, 4)
    hyp, ref = as_arrays(hyps, refs, 0)
    convert = (lambda a: a) if form == "numpy" else torch.from_numpy
    with backends.use_numpy_for_torch_cpu(form != "torch-pipeline"):
        # the default strategy in the same form: the formula after the counts is the same
        # code on the same backend, so the scores are the same bits
        monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)
        want = _scores(convert(hyp), convert(ref), smooth)
        monkeypatch.setenv("BLEUSUITE_COUNTING", "triton")
        got = _scores(convert(hyp), convert(ref), smooth)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)
    assert launches, "the Triton kernel was not launched"


_OTHER_SCORES = {
    "self_bleu": lambda c, hyp, ref, grp: bleusuite.self_bleu(c(grp), pad_id=0),
    "pairwise_sentence_bleu": lambda c, hyp, ref, grp: bleusuite.pairwise_sentence_bleu(
        c(grp), c(grp), pad_id=0, smooth="method1"),
    "rouge_scores": lambda c, hyp, ref, grp: bleusuite.rouge_scores(
        c(hyp), c(ref), pad_id=0, rouge_types=("rouge1", "rouge2", "rouge4")),
    "corpus_gleu": lambda c, hyp, ref, grp: bleusuite.corpus_gleu(c(hyp), c(ref), pad_id=0),
}


@in_interpreter
@pytest.mark.parametrize("via_numpy", [True, False], ids=["torch-cpu-via-numpy",
                                                          "torch-pipeline"])
@pytest.mark.parametrize("name", list(_OTHER_SCORES))
def test_other_scores_that_count_through_it(name, via_numpy, launches, monkeypatch):
    """Self-BLEU and pairwise BLEU (their gathered pairs), ROUGE-N (per-reference counts),
    corpus GLEU: the same scores, bit for bit, as the default strategy's."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    hyp, ref = rng.integers(1, 6, (4, 12)), rng.integers(1, 6, (4, 2, 12))
    hyp[1, 7:], ref[0, 1, 5:] = 0, 0
    grp = rng.integers(1, 6, (2, 4, 10))
    grp[0, 1, 6:] = 0

    def scores() -> np.ndarray:
        got = _OTHER_SCORES[name](torch.from_numpy, hyp, ref, grp)
        parts = [v.to_array() for v in got.values()] if isinstance(got, dict) else [got]
        return np.concatenate([np.asarray(p, dtype=np.float64).ravel() for p in parts])

    with backends.use_numpy_for_torch_cpu(via_numpy):
        monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)
        want = scores()
        monkeypatch.setenv("BLEUSUITE_COUNTING", "triton")
        got = scores()
    np.testing.assert_array_equal(got, want)
    assert launches


@in_interpreter
def test_the_strategy_is_chosen_only_when_asked(monkeypatch, launches):
    be = backends.get_backend(np.zeros(1))
    monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)
    assert counting_strategy(be, np.zeros(1)) != "triton"
    with backends.use_numpy_for_torch_cpu(False):
        tensor = torch.zeros(1)
        assert counting_strategy(backends.get_backend(tensor), tensor) == "fixed"
    monkeypatch.setenv("BLEUSUITE_COUNTING", "Triton")
    assert counting_strategy(be, np.zeros(1)) == "triton"
    # ragged rows (token lists) are counted in padded batches of similar length
    got = bleusuite.sentence_bleu([[1, 2, 3], [4, 5]], [[[1, 2, 3]], [[4, 5, 6], [4]]],
                                  smooth="method1")
    assert len(launches) == 1
    monkeypatch.delenv("BLEUSUITE_COUNTING")
    want = bleusuite.sentence_bleu([[1, 2, 3], [4, 5]], [[[1, 2, 3]], [[4, 5, 6], [4]]],
                                   smooth="method1")
    np.testing.assert_array_equal(got, want)


@in_interpreter
def test_clear_errors_without_triton_or_the_interpreter(monkeypatch, kernels):
    hyp, ref = np.array([[1, 2, 3]]), np.array([[1, 2, 3]])
    monkeypatch.setenv("BLEUSUITE_COUNTING", "triton")
    monkeypatch.setattr(kernels, "interpreted", lambda: False)
    with pytest.raises(ImportError, match="TRITON_INTERPRET=1"):
        bleusuite.sentence_bleu(hyp, ref)
    monkeypatch.setattr(triton_strategy, "available", lambda: False)
    with pytest.raises(ImportError, match="BLEUSUITE_COUNTING=triton needs the triton"):
        bleusuite.sentence_bleu(hyp, ref)


# ------------------------------------------------------------- compiled for CUDA, no GPU

_COMPILE = """
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from bleusuite.counting.triton_kernels import clipped_counts_kernel as k, interpreted
assert not interpreted()
names = k.arg_names
constants = {"BLOCK_I": 64, "BLOCK_J": 64, "BLOCK_R": 4}
for per_reference, arch, integers in ((False, 80, "i32"), (True, 80, "i64"),
                                      (False, 90, "i64"), (True, 90, "i32")):
    consts = dict(constants, PER_REFERENCE=per_reference)
    signature = {n: "constexpr" if n in consts else "*i64" if i < 6 else integers
                 for i, n in enumerate(names)}
    source = ASTSource(fn=k, signature=signature,
                       constexprs={(names.index(c),): v for c, v in consts.items()})
    compiled = triton.compile(source, target=GPUTarget("cuda", arch, 32))
    assert compiled.asm["cubin"], arch
print("compiled")
"""


def test_the_kernel_compiles_for_cuda_without_a_gpu():
    """Outside the interpreter (a subprocess), Triton compiles the kernel to cubins for
    sm_80 and sm_90, with int32 and int64 sizes and strides (a launch passes either): what
    the interpreter cannot check (types, loops, masks as the compiler sees them)."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    env.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    result = subprocess.run([sys.executable, "-c", _COMPILE], env=env, capture_output=True,
                            text=True, timeout=240)
    assert result.returncode == 0 and "compiled" in result.stdout, result.stderr[-3000:]


# ------------------------------------------------------------------------ launch counts


class _DeviceOps:
    """Counts, inside :meth:`measure`, the aten operations that are not views (each a kernel
    launch on a device) and the Triton launches; the interpreter's own tensor copies during
    a launch are not counted (on a GPU the launch is one kernel)."""

    def __init__(self, kernels: Any, monkeypatch: Any) -> None:
        from torch.utils._python_dispatch import TorchDispatchMode

        counter = self
        self.aten: Counter[str] = Counter()
        self.triton = 0
        self._counting = False

        class Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
                if counter._counting and not func.is_view:
                    counter.aten[str(func.overloadpacket.__name__)] += 1
                return func(*args, **(kwargs or {}))

        self._mode = Mode
        kernel_type = type(kernels.clipped_counts_kernel)
        original = kernel_type.run

        def run(fn: Any, *args: Any, **kwargs: Any) -> Any:
            counting, self._counting = self._counting, False
            self.triton += counting
            try:
                return original(fn, *args, **kwargs)
            finally:
                self._counting = counting

        monkeypatch.setattr(kernel_type, "run", run)

    @contextlib.contextmanager
    def measure(self) -> Iterator[None]:
        """Count from zero within the block."""
        self.aten.clear()
        self.triton = 0
        self._counting = True
        try:
            with self._mode():
                yield
        finally:
            self._counting = False

    def row(self) -> tuple[int, int, int]:
        """(aten, triton, total) of the last block measured."""
        aten = sum(self.aten.values())
        return aten, self.triton, aten + self.triton


@in_interpreter
def test_launch_counts_of_one_sentence_bleu_call(kernels, monkeypatch, capsys):
    """torch CPU tensors on the torch pipeline, treated as a device (CUDA's code path): one
    ``sentence_bleu`` call (4 orders, 1 reference, 16 x 64 tokens) with the fixed-shape
    counting and with the Triton strategy. The counts are the call's device operations;
    the formula after them is the same on both paths."""
    rng = np.random.default_rng(7)
    hyp = torch.from_numpy(rng.integers(1, 50, (16, 64)))
    ref = torch.from_numpy(rng.integers(1, 50, (16, 1, 64)))
    ops = _DeviceOps(kernels, monkeypatch)
    calls, counting, scores, used = {}, {}, {}, {}
    with no_host_reads(monkeypatch):
        for strategy in ("fixed", "triton"):
            monkeypatch.setenv("BLEUSUITE_COUNTING", strategy)
            bleusuite.sentence_bleu(hyp, ref, pad_id=0)  # warm: settings checked and kept
            with ops.measure():
                scores[strategy] = bleusuite.sentence_bleu(hyp, ref, pad_id=0)
            calls[strategy] = ops.row()
            batch = normalize_batch(hyp, ref, pad_id=0)
            with ops.measure():
                count_matches(batch, 4)
            counting[strategy] = ops.row()
            used[strategy] = dict(ops.aten)
    torch.testing.assert_close(scores["triton"], scores["fixed"], rtol=0, atol=0)
    with capsys.disabled():
        print("\n\nDevice launches, torch pipeline on the CPU (CUDA's code path), 16 x 64 "
              "tokens, 1 reference, max_order 4\n(aten operations that are not views + Triton "
              "launches)")
        print(f"{'counting':<9} {'sentence_bleu: aten':>19} {'triton':>7} {'total':>6}   "
              f"{'counts alone: aten':>18} {'triton':>7} {'total':>6}")
        for name in calls:
            print(f"{name:<9} {calls[name][0]:>19} {calls[name][1]:>7} {calls[name][2]:>6}   "
                  f"{counting[name][0]:>18} {counting[name][1]:>7} {counting[name][2]:>6}")
        print("the counts alone, triton:", used["triton"])
    assert counting["triton"][1] == 1 and counting["fixed"][1] == 0
    assert counting["triton"][2] <= 3
    assert calls["triton"][2] < calls["fixed"][2]

