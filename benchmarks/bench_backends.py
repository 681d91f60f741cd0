"""Backends (issue 3): the TensorBLEU-style pipeline, and peak memory in the worst case.

The TensorBLEU-style pipeline lives in :mod:`bleusuite.bench.tensorbleu`, written from the
paper's description (unfold -> ``torch.unique(dim=0, return_inverse=True)`` over all n-grams
of the batch -> offset ``bincount`` of size batch x unique n-grams -> clip -> sum). Its
counts are scored with bleusuite's own formulas, so the scores must be identical for the
same smoothing.

Its timings against bleusuite on torch tensors (CPU, and CUDA where present) are in
``bench_peers.py``, in the per-sentence and corpus BLEU groups with every other peer; the
scaling of both is in ``bench_scaling.py``.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch")


WORST_CASE = textwrap.dedent(
    """
    import resource, sys, time
    import numpy as np
    import bleusuite
    batch, length = 1024, 4096
    # every token of the batch distinct: every n-gram of every order is distinct
    hyp = np.arange(batch * length, dtype=np.int64).reshape(batch, length)
    ref = hyp[:, ::-1] + batch * length
    ref[:, : length // 2] = hyp[:, : length // 2]  # half the n-grams match
    if sys.argv[1] == "torch":
        import torch
        hyp, ref = torch.from_numpy(hyp), torch.from_numpy(ref)

    def high_water_kib():
        # the peak resident set since the last reset (ru_maxrss would include the parent's
        # peak inherited through fork)
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))

    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")  # reset the high-water mark
    before = high_water_kib()
    start = time.perf_counter()
    scores = bleusuite.sentence_bleu(hyp, ref)
    seconds = time.perf_counter() - start
    peak = high_water_kib()
    print(f"{peak / 2**20:.2f} {(peak - before) / 2**20:.2f} {seconds:.2f}")
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_worst_case_memory(backend):
    """1024 x 4096 tokens, every n-gram distinct: peak resident memory of the process."""
    out = subprocess.run([sys.executable, "-c", WORST_CASE, backend], capture_output=True,
                         text=True, check=True).stdout.split()
    peak_gib, growth_gib, seconds = map(float, out)
    print(f"\nworst case 1024x4096 ({backend}): peak RSS {peak_gib:.2f} GiB "
          f"(+{growth_gib:.2f} GiB during the call), {seconds:.2f} s")
    assert peak_gib < 4.0
