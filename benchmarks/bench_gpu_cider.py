"""CIDEr-D on the GPU (issue 45): SCST rewards of caption batches without leaving the
device, against the route a user had before (copy the token ids to the host and score
them there, the compiled CPU path).

Skipped without a CUDA device. Workload (COCO-like captions as token ids): a vocabulary of
10,000 Zipf-drawn ids (from 1), 5 references per image of 8-20 tokens, padded with 0; the
training set's document frequencies (:func:`bleusuite.cider_document_frequency`) from
5,000 such images, the batch's images among them; K = 5 samples per image, each a
reference with 30% of its tokens replaced (as sampled captions share n-grams with their
references). Rows: the sampled captions of 10, 50 and 200 images (50, 250 and 1,000
captions). Columns: ``sentence_cider`` eager on CUDA tensors (the fixed-shape path, no
host synchronisation), the same under CUDA-graph replay, ``scst_cider_rewards`` with the
mean baseline eager, and the host route (``.cpu()`` of both inputs, then
``sentence_cider`` on the CPU tensors, then the scores back on the GPU). Every time is the
median of CUDA-event timings after warm-up; the device scores are checked within 1e-12 of
the host path's. Run with ``pytest benchmarks/bench_gpu_cider.py -s``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import bleusuite
from bleusuite.rewards import scst_cider_rewards
from conftest import add_summary_table

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device: the GPU benchmarks need one", allow_module_level=True)

from bench_gpu import captured, gpu_time  # noqa: E402

IMAGES = [10, 50, 200]
SAMPLES = 5
_ROWS: list[str] = []


def captions(rng: np.random.Generator, images: int, per_image: int) -> np.ndarray:
    """(images, per_image, 20) Zipf token ids, 8-20 tokens each, padded with 0."""
    ids = (rng.zipf(1.3, size=(images, per_image, 20)) % 10_000 + 1).astype(np.int64)
    lengths = rng.integers(8, 21, size=(images, per_image))
    ids[np.arange(20) >= lengths[..., None]] = 0
    return ids


def scst_batch(images: int) -> tuple[np.ndarray, np.ndarray, Any]:
    rng = np.random.default_rng(45)
    train = captions(rng, 5000, 5)
    frequency = bleusuite.cider_document_frequency(train, pad_id=0)
    refs = train[:images]
    samples = np.repeat(refs[:, 0], SAMPLES, axis=0)
    replace = (rng.random(samples.shape) < 0.3) & (samples != 0)
    samples[replace] = rng.integers(1, 10_000, size=int(replace.sum()))
    return samples, refs, frequency


@pytest.mark.parametrize("images", IMAGES)
def test_gpu_cider(images):
    samples, refs, frequency = scst_batch(images)
    repeated = np.repeat(refs, SAMPLES, axis=0)
    want = bleusuite.sentence_cider(samples, repeated, pad_id=0, document_frequency=frequency)
    hyp_t = torch.from_numpy(samples).cuda()
    ref_t = torch.from_numpy(repeated).cuda()
    image_refs = torch.from_numpy(refs).cuda()

    def ours() -> Any:
        return bleusuite.sentence_cider(hyp_t, ref_t, pad_id=0, document_frequency=frequency)

    got = ours()
    worst = float(np.max(np.abs(got.cpu().numpy() - want)))
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=0, atol=1e-12)
    eager_ms, eager_mib = gpu_time(ours)
    replay, out = captured(ours)
    replay()
    assert torch.equal(out, got), "graph replay differs from eager"
    graph_ms, _ = gpu_time(replay)
    rewards_ms, _ = gpu_time(lambda: scst_cider_rewards(
        hyp_t, image_refs, frequency, baseline="mean", pad_id=0))

    def host_route() -> Any:
        scores = bleusuite.sentence_cider(hyp_t.cpu(), ref_t.cpu(), pad_id=0,
                                          document_frequency=frequency)
        return scores.cuda()

    host_ms, _ = gpu_time(host_route, calls=10)
    _ROWS.append(f"| {images} x {SAMPLES} ({images * SAMPLES} captions) | {eager_ms:.2f} ms, "
                 f"{eager_mib:.0f} MiB | {graph_ms:.3f} | {rewards_ms:.2f} | {host_ms:.2f} "
                 f"({host_ms / eager_ms:.1f}x eager, {host_ms / graph_ms:.1f}x graph) | "
                 f"{worst:.1e} |")
    add_summary_table(
        f"GPU CIDEr-D, SCST batches with fixed document frequencies "
        f"({torch.cuda.get_device_name()})",
        ["| images x samples | sentence_cider eager | graph replay (ms) | scst_cider_rewards "
         "(mean baseline, ms) | host route: copy, CPU path, copy back (ms) | max \\|diff\\| "
         "vs host |", "|---|---|---|---|---|---|", *_ROWS])
