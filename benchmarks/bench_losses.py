"""Forward + backward of the differentiable BLEU / GLEU losses at B=32, T=50, V=32000.

Softmax + cross-entropy on the same logits is timed beside them, so that the numbers read
as a ratio to the loss every sequence model already pays for.

    pytest benchmarks/bench_losses.py            # pytest-benchmark timings + peak memory
    pytest benchmarks                            # all benchmarks (tox -e bench)
    python benchmarks/bench_losses.py            # a plain table (add --device cuda on a GPU)

Peak memory is the high-water mark of one forward + backward above what the inputs already
hold: ``torch.cuda.max_memory_allocated`` on CUDA; on the CPU (Linux) the peak resident set
size (``VmHWM``, reset with ``/proc/self/clear_refs``) above the resident size before the
step, in a fresh process so that memory cached by earlier steps does not hide it. For
scale, one float32 (B, T, V) tensor is 205 MB; a (B, T, T, V) one would be 10 GB.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch
from torch.nn.functional import cross_entropy

try:
    from bleusuite.losses import BleuLoss, GleuLoss
except ImportError:  # a source checkout without an installed package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bleusuite.losses import BleuLoss, GleuLoss

BATCH, LENGTH, VOCAB = 32, 50, 32000
EOS_ID, PAD_ID = 2, 0
LOSSES = ("bleu", "gleu", "cross_entropy")


def make_inputs(device: str = "cpu", seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Logits (B, T, V) and id references (B, T) that end in eos and padding."""
    generator = torch.Generator().manual_seed(seed)
    logits = torch.randn(BATCH, LENGTH, VOCAB, generator=generator)
    refs = torch.randint(3, VOCAB, (BATCH, LENGTH), generator=generator)
    lengths = torch.randint(LENGTH // 2, LENGTH, (BATCH, 1), generator=generator)
    positions = torch.arange(LENGTH)
    refs[positions > lengths] = PAD_ID
    refs[positions == lengths] = EOS_ID
    return logits.to(device).requires_grad_(), refs.to(device)


def make_step(name: str, logits: torch.Tensor, refs: torch.Tensor) -> Callable[[], float]:
    """One forward + backward of loss ``name``; returns the loss value."""
    if name == "bleu":
        loss_fn: Callable[[torch.Tensor], torch.Tensor] = lambda x: BleuLoss(  # noqa: E731
            eos_id=EOS_ID, pad_id=PAD_ID
        )(x.softmax(-1), refs)
    elif name == "gleu":
        loss_fn = lambda x: GleuLoss(eos_id=EOS_ID, pad_id=PAD_ID)(x.softmax(-1), refs)  # noqa: E731
    else:
        loss_fn = lambda x: cross_entropy(  # noqa: E731
            x.reshape(-1, VOCAB), refs.reshape(-1), ignore_index=PAD_ID
        )

    def step() -> float:
        logits.grad = None
        loss = loss_fn(logits)
        loss.backward()
        if logits.is_cuda:
            torch.cuda.synchronize()
        return loss.item()

    return step


def peak_memory_mb(name: str, device: str = "cpu") -> float:
    """Peak memory of one forward + backward above the inputs, in MB (see module doc)."""
    if device.startswith("cuda"):
        logits, refs = make_inputs(device)
        step = make_step(name, logits, refs)
        step()  # warm-up: the grad buffer and cuBLAS workspaces exist from now on
        logits.grad = None
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        step()
        return (torch.cuda.max_memory_allocated() - base) / 1e6
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); import bench_losses as b; "
        "print(json.dumps(b._cpu_peak_in_this_process(sys.argv[2])))"
    )
    here = str(Path(__file__).resolve().parent)
    out = subprocess.run(
        [sys.executable, "-c", code, here, name], capture_output=True, text=True, check=True
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def _cpu_peak_in_this_process(name: str) -> float:
    """Linux: reset the peak RSS to the current RSS (clear_refs 5), step, read VmHWM."""
    logits, refs = make_inputs("cpu")
    step = make_step(name, logits, refs)
    try:
        Path("/proc/self/clear_refs").write_text("5")
        before = _status_kib("VmRSS")
    except OSError:  # not Linux: no way to reset the high-water mark
        return float("nan")
    step()
    return (_status_kib("VmHWM") - before) * 1024 / 1e6


def time_step(step: Callable[[], float], repeats: int) -> list[float]:
    step()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return times


# ---------------------------------------------------------------------------------------
# pytest-benchmark entry points (this file is not named test_*: plain test runs skip it)
# ---------------------------------------------------------------------------------------


GROUP = f"differentiable losses: forward + backward, B={BATCH} T={LENGTH} V={VOCAB}"
_PEAKS: dict[str, float] = {}


@pytest.mark.parametrize("name", LOSSES)
def test_forward_backward(timed: Any, name: str) -> None:
    """Times via the ``timed`` fixture of benchmarks/conftest.py (ratios to cross-entropy)."""
    from conftest import add_summary_table

    logits, refs = make_inputs()
    value = timed(GROUP, name, make_step(name, logits, refs), 3, name == "cross_entropy")
    assert math.isfinite(value)
    assert logits.grad is not None and bool(torch.isfinite(logits.grad).all())
    _PEAKS[name] = peak_memory_mb(name)
    add_summary_table(
        "differentiable losses: peak memory of one forward + backward (bench_losses.py)",
        [f"    {loss:40s} {peak:10.0f} MB" for loss, peak in _PEAKS.items()],
    )


# ---------------------------------------------------------------------------------------
# script mode
# ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    logits, refs = make_inputs(args.device)
    rows = []
    for name in LOSSES:
        times = sorted(time_step(make_step(name, logits, refs), args.repeats))
        rows.append((name, times[len(times) // 2], times[0], peak_memory_mb(name, args.device)))
    baseline = rows[-1][1]
    print(
        f"forward + backward, B={BATCH} T={LENGTH} V={VOCAB}, float32, {args.device}, "
        f"{torch.get_num_threads()} threads"
    )
    print("| loss | median ms | best ms | x cross-entropy | peak memory MB |")
    print("|---|---:|---:|---:|---:|")
    for name, median, best, peak in rows:
        print(
            f"| {name} | {median * 1e3:.0f} | {best * 1e3:.0f} | {median / baseline:.1f} "
            f"| {peak:.0f} |"
        )


if __name__ == "__main__":
    main()
