"""bleusuite side by side with every peer (issue 7), on 256 sentences x 1024 token ids
(Zipf, vocabulary 50k) with 1 and with 4 references per sentence.

One group per task and number of references (``BLEU per-sentence 256x1024, 1 ref``, ...):
every implementation in a group gets the same sentences, converted beforehand into the form
it takes (conversions are not timed), and its scores are asserted equal to bleusuite's
under the same definition: to 1e-12 for NLTK, sacrebleu, pytorch-ignite and the
TensorBLEU-style pipeline, to 1e-6 for torchmetrics (float32 arithmetic by design). NLTK is
each group's baseline; in the 1-reference groups the TensorBLEU-style pipeline is a second
reference (the extra ratio column).

The implementations (how each library is called, which bleusuite settings give its
numbers) are those of ``bleusuite bench`` (:mod:`bleusuite.bench`), plus the
TensorBLEU-style pipeline (:mod:`bleusuite.bench.tensorbleu`, benchmark-only). This file
took over ``bench_core.py`` (issue 2) and the torch CPU / CUDA groups of
``bench_backends.py`` (issue 3): every measurement they made is made here, in these groups.

Left out, and why:

* TensorBLEU-style with 4 references and for GLEU: the pipeline as written takes one
  reference and counts BLEU's clipped matches only.
* torchmetrics with 4 references: about a minute a call here (Python ``Counter`` updates of
  torch scalars); its 1-reference timings show the ratio.

Run with ``tox -e bench`` or ``pytest benchmarks/bench_peers.py``; ``-k "1ref and bleu"``
picks groups. Nothing here asserts a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from bleusuite.bench.peers import bleusuite_entry, entries
from bleusuite.bench.tasks import BACKENDS, Entry, Inputs, Task
from bleusuite.bench.tensorbleu import TENSORBLEU, TENSORBLEU_CUDA, tensorbleu_entries
from conftest import zipf_batch

BATCH, LENGTH = 256, 1024
REFS = (1, 4)
INPUTS = {refs: Inputs(*zipf_batch(BATCH, LENGTH, refs=refs)) for refs in REFS}


def _cases() -> list[Any]:
    cases = []
    for refs in REFS:
        for task in (Task("bleu", "sentence"), Task("bleu", "corpus"), Task("gleu", "sentence"),
                     Task("gleu", "corpus")):
            chosen = [bleusuite_entry(task, backend) for backend in BACKENDS]
            chosen += entries([task], backends_=())
            chosen += [e for e in tensorbleu_entries() if e.task == task]
            for entry in chosen:
                if refs > 1 and entry.library in ("tensorbleu-style", "torchmetrics"):
                    continue  # see the module docstring
                slug = entry.name.replace(" ", "_").replace(",", "").replace("(", "")
                slug = slug.replace(")", "").replace("=", "")
                task_id = f"{task.metric}-{task.scope}-{refs}ref"
                cases.append(pytest.param(refs, entry, id=f"{task_id}-{slug}"))
    return cases


def group_name(task: Task, refs: int) -> str:
    """``"BLEU per-sentence 256x1024, 1 ref"``, ..."""
    return f"{task.label} {BATCH}x{LENGTH}, {refs} ref{'s' if refs > 1 else ''}"


def rounds_of(entry: Entry, refs: int) -> tuple[int, int]:
    """(timed rounds, warm-up calls): many for bleusuite, few for the pure-Python peers
    (0.5 - 7 s a call here), one for torchmetrics and TensorBLEU-style on the CPU
    (15 - 30 s a call)."""
    if entry.library == "bleusuite":
        if "CUDA" in entry.name or "cupy" in entry.name:
            return 20, 2
        if "torch kernels" in entry.name:
            return (5 if refs == 1 else 3), 1
        return (10 if refs == 1 else 5), 1
    if entry.name == TENSORBLEU_CUDA:
        return 5, 1
    if entry.library in ("torchmetrics", "tensorbleu-style"):
        return 1, 0
    return (3 if refs == 1 else 2), 0


@pytest.mark.parametrize(("refs", "entry"), _cases())
def test_side_by_side(timed: Callable[..., Any], refs: int, entry: Entry) -> None:
    """Time one implementation in its group, then check its scores against bleusuite's."""
    reason = entry.unavailable()
    if reason is not None:
        pytest.skip(reason)
    inputs = INPUTS[refs]
    call = entry.build(inputs)
    rounds, warmup = rounds_of(entry, refs)
    result = timed(group_name(entry.task, refs), entry.name, call, rounds=rounds,
                   baseline=entry.baseline, warmup=warmup, reference=entry.name == TENSORBLEU)
    np.testing.assert_allclose(entry.scores(result), entry.expected(inputs), rtol=0,
                               atol=entry.atol, err_msg=f"{entry.name}: {entry.note}")
