"""GPU per-sentence BLEU (issue 12): bleusuite eager and under CUDA-graph replay against
TensorBLEU's published code, on MT-like batches, with peak GPU memory.

Skipped without a CUDA device. TensorBLEU's ``tensor_sentence_bleu`` is loaded from the
one file ``rxlm/metrics/tensorbleu.py`` of an installed ``rxlm`` package (only that file:
the package's other imports are not needed), or from the path in ``TENSORBLEU_FILE``; its
rows are left out when neither is there. Nothing of it is copied into this repository.

Workload (the GPU issue's): references of Zipf token ids (vocabulary 50k), each row's
length drawn in L/2..L with tail padding (id 0); the hypothesis is the first reference
with 30% of its tokens replaced; 1 or 4 references. Every timing is the median of many
calls, each measured with CUDA events after warm-up. ``graph`` is one CUDA graph captured
per batch shape and replayed (what ``torch.compile(mode="reduce-overhead")`` does for you);
``compact`` is the compacting strategy forced by ``BLEUSUITE_COUNTING=compact`` (the GPU
path before the fixed-shape one); ``triton`` the Triton counting kernel forced by
``BLEUSUITE_COUNTING=triton`` (issue 43's first slice: one launch for the counts, the same
formula after them), eager and under graph replay, on rows of at most
:data:`TRITON_LONGEST` tokens (its comparisons grow with the square of the length), where
triton imports; its scores must equal the fixed path's bit for bit (the same counts, the
same formula on the same device). The graph replay's scores are checked equal to eager's,
bit for bit; every bleusuite variant's scores are checked within 1e-12 of NumPy's (the
library's tolerance: the counts are the same, but CUDA's ``exp`` and ``log`` are not the
CPU's, so a score's last bit can differ), and the largest difference is printed. Run with
``tox -e gpu -- benchmarks/bench_gpu.py -s`` or
``pytest benchmarks/bench_gpu.py -s``; the table is printed at the end of the run.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import bleusuite
from conftest import add_summary_table, mt_like

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device: the GPU benchmarks need one", allow_module_level=True)

SHAPES = [  # (rows, length, references)
    (16, 1024, 1), (64, 1024, 1), (256, 1024, 1), (1024, 1024, 1),
    (256, 256, 1), (256, 4096, 1), (1024, 4096, 1),
    (16, 1024, 4), (256, 1024, 4), (1024, 1024, 4),
]
_ROWS: list[str] = []
# TensorBLEU's code ran out of the H100's 80 GB at 1024 x 4096 x 1 and broke the CUDA context
# (illegal memory access) at 1024 x 1024 x 4: it is not run on more tokens than this
TENSORBLEU_LARGEST = 1024 * 1024
#: the longest rows the Triton column is measured on (O(L^2) comparisons per row and order)
TRITON_LONGEST = 1024


def load_tensorbleu() -> Callable[..., Any] | None:
    path = os.environ.get("TENSORBLEU_FILE")
    if not path:
        spec = importlib.util.find_spec("rxlm")
        if spec is None or not spec.submodule_search_locations:
            return None
        path = str(Path(next(iter(spec.submodule_search_locations))) / "metrics" /
                   "tensorbleu.py")
    if not Path(path).is_file():
        return None
    module_spec = importlib.util.spec_from_file_location("tensorbleu_published", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    fn: Callable[..., Any] = module.tensor_sentence_bleu
    return fn


def gpu_time(fn: Callable[[], Any], calls: int = 30) -> tuple[float, float]:
    """Median milliseconds of ``fn`` (CUDA events) and its peak extra GPU memory in MiB."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    times = []
    for _ in range(calls):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times), (torch.cuda.max_memory_allocated() - base) / 2**20


def off_numpy(got: Any, want: np.ndarray) -> float:
    """The largest |got - want| (``got`` a CUDA tensor or CuPy array); fails above 1e-12."""
    got_numpy = got.cpu().numpy() if isinstance(got, torch.Tensor) else got.get()
    np.testing.assert_allclose(got_numpy, want, rtol=0, atol=1e-12)
    return float(np.max(np.abs(got_numpy - want), initial=0.0))


def captured(fn: Callable[[], Any]) -> tuple[Callable[[], Any], Any]:
    """A CUDA graph of ``fn`` (static inputs): the replay and the output it writes."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(2):
            fn()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn()
    return graph.replay, out


@pytest.mark.parametrize(("rows", "length", "refs"), SHAPES)
def test_gpu_sentence_bleu(rows, length, refs, monkeypatch):
    hyp, ref = mt_like(rows, length, refs)
    want = bleusuite.sentence_bleu(hyp, ref, pad_id=0)
    hyp_t, ref_t = torch.from_numpy(hyp).cuda(), torch.from_numpy(ref).cuda()

    def ours() -> Any:
        return bleusuite.sentence_bleu(hyp_t, ref_t, pad_id=0)

    eager = ours()
    worst = off_numpy(eager, want)
    eager_ms, eager_mib = gpu_time(ours)
    replay, out = captured(ours)
    replay()
    assert torch.equal(out, eager), "graph replay differs from eager"
    graph_ms, _ = gpu_time(replay)
    monkeypatch.setenv("BLEUSUITE_COUNTING", "compact")
    worst = max(worst, off_numpy(ours(), want))
    compact_ms, compact_mib = gpu_time(ours, calls=10)
    monkeypatch.delenv("BLEUSUITE_COUNTING")
    triton_cell, triton_failure = _triton_cell(ours, eager, length, monkeypatch)
    cupy_cell = "-"
    try:
        import cupy

        hyp_c, ref_c = cupy.asarray(hyp), cupy.asarray(ref)
        worst = max(worst, off_numpy(bleusuite.sentence_bleu(hyp_c, ref_c, pad_id=0), want))
        cupy_ms, _ = gpu_time(lambda: bleusuite.sentence_bleu(hyp_c, ref_c, pad_id=0))
        cupy_cell = f"{cupy_ms:.2f}"
    except ImportError:
        pass
    tensorbleu = load_tensorbleu()
    theirs_cell = "not installed"
    if tensorbleu is not None and rows * length * refs > TENSORBLEU_LARGEST:
        theirs_cell = "not run (out of memory or crash at this size)"
    elif tensorbleu is not None:
        try:
            theirs_ms, theirs_mib = gpu_time(lambda: tensorbleu(hyp_t, ref_t, pad_token_id=0),
                                             calls=10)
            theirs_cell = (f"{theirs_ms:.2f} ms, {theirs_mib:.0f} MiB "
                           f"({theirs_ms / eager_ms:.1f}x eager, {theirs_ms / graph_ms:.1f}x "
                           "graph)")
        except torch.OutOfMemoryError:
            theirs_cell = "out of memory"
            torch.cuda.empty_cache()
    _ROWS.append(
        f"| {rows} x {length}, {refs} ref{'s' if refs > 1 else ''} | {eager_ms:.2f} ms, "
        f"{eager_mib:.0f} MiB | {graph_ms:.2f} | {compact_ms:.2f} ms, {compact_mib:.0f} MiB | "
        f"{triton_cell} | {cupy_cell} | {theirs_cell} | {worst:.1e} |"
    )
    add_summary_table(
        f"GPU per-sentence BLEU, MT-like ({torch.cuda.get_device_name()})",
        ["| batch | bleusuite eager (fixed) | graph replay (ms) | compact strategy | triton "
         "counting: eager, graph | CuPy eager (ms) | TensorBLEU's code | max \\|diff\\| vs "
         "NumPy |", "|---|---|---|---|---|---|---|---|", *_ROWS],
    )
    if triton_failure is not None:
        raise triton_failure


def _triton_cell(ours: Callable[[], Any], fixed: Any, length: int,
                 monkeypatch: Any) -> tuple[str, BaseException | None]:
    """The Triton column's cell (eager and graph-replay milliseconds, peak MiB) and the
    failure to raise once the row is in the table (a wrong score among them)."""
    if importlib.util.find_spec("triton") is None:
        return "not installed", None
    if length > TRITON_LONGEST:
        return f"not run (rows over {TRITON_LONGEST} tokens)", None
    monkeypatch.setenv("BLEUSUITE_COUNTING", "triton")
    try:
        got = ours()
        assert torch.equal(got, fixed), "the triton path's scores differ from the fixed path's"
        eager_ms, eager_mib = gpu_time(ours)
        replay, out = captured(ours)
        replay()
        assert torch.equal(out, fixed), "the triton path's graph replay differs"
        graph_ms, _ = gpu_time(replay)
        return f"{eager_ms:.2f} ms, {eager_mib:.0f} MiB; {graph_ms:.2f} ms", None
    except Exception as error:  # the row still goes in the table, then the test fails
        return f"failed: {type(error).__name__}", error
    finally:
        monkeypatch.delenv("BLEUSUITE_COUNTING")
