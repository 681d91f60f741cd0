"""pycocoevalcap's CIDEr-D (the batch's own document frequencies) of a host batch of
token ids, or of its captions, by the compiled part's ``cider_sums`` and
``cider_text_sums`` (``bleusuite/csrc/cider_sums.c``): the n-grams numbered by hash
tables, each image's sums made in one pass (on up to
:func:`bleusuite.threads.worker_threads` threads: helper threads sum the orders numbered
while the caller's numbers the next; the same numbers whatever their number), instead of
:func:`bleusuite.scores.cider.sorted_orders.cider_scores`' NumPy sorts (its twin: the same
sums in the same order, the rest of the formula shared, :func:`sorted_orders.combined`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bleusuite import native, threads
from bleusuite.scores.cider.sorted_orders import combined

__all__ = ["MAX_ORDER", "compiled_cider_scores", "compiled_cider_text_scores"]

#: the highest order ``cider_sums`` counts (higher ones take the NumPy path)
MAX_ORDER = 16


def compiled_cider_scores(hyp_ids: np.ndarray, hyp_starts: np.ndarray, hyp_len: np.ndarray,
                          ref_ids: np.ndarray, ref_starts: np.ndarray, ref_len: np.ndarray,
                          ref_counts: np.ndarray, *, max_order: int, sigma: float
                          ) -> np.ndarray | None:
    """CIDEr-D of each image: hypothesis b ``hyp_ids[hyp_starts[b]:][:hyp_len[b]]``, its
    ``ref_counts[b]`` (>= 1) references one after another in ``ref_starts``/``ref_len``;
    None where the compiled part is not built or ``max_order`` is above
    :data:`MAX_ORDER` (the caller takes the NumPy path)."""
    module = native.module()
    if module is None or not 1 <= max_order <= MAX_ORDER:
        return None
    arrays = [np.ascontiguousarray(a, dtype=np.int64) for a in (
        hyp_ids, hyp_starts, hyp_len, ref_ids, ref_starts, ref_len, ref_counts)]
    images, refs = arrays[1].shape[0], arrays[4].shape[0]
    # the logs of sorted_orders.py: NumPy's log of max(1, df), log(N) of the images
    log_table = np.log(np.maximum(1.0, np.arange(images + 1, dtype=np.float64)))
    log_documents = float(np.log(float(images)))
    hyp_norm2 = np.zeros((images, max_order))
    ref_norm2 = np.zeros((refs, max_order))
    dot = np.zeros((refs, max_order))
    module.cider_sums(*arrays, max_order, log_table, log_documents, hyp_norm2, ref_norm2, dot,
                      threads.worker_threads())
    ref_image = np.repeat(np.arange(images, dtype=np.int64), arrays[6])
    return combined(hyp_norm2, ref_norm2, dot, arrays[2], arrays[5], ref_image, sigma)


def compiled_cider_text_scores(hypotheses: list[Any], references: list[Any], *,
                               max_order: int, sigma: float) -> np.ndarray | None:
    """CIDEr-D of each image of pycocoevalcap's captions: ``hypotheses[b]`` a list of one
    str, ``references[b]`` a non-empty list of str, each split with ``str.split()`` and
    numbered by the compiled part (``cider_text_sums``); None where the compiled part is
    not built, ``max_order`` is above :data:`MAX_ORDER`, or a caption is not of those
    exact types (the caller numbers the captions itself)."""
    module = native.module()
    if module is None or not 1 <= max_order <= MAX_ORDER:
        return None
    images = len(hypotheses)
    try:
        refs = sum(map(len, references))
    except TypeError:
        return None
    log_table = np.log(np.maximum(1.0, np.arange(images + 1, dtype=np.float64)))
    log_documents = float(np.log(float(images)))
    hyp_len = np.zeros(images, dtype=np.int64)
    ref_len = np.zeros(refs, dtype=np.int64)
    hyp_norm2 = np.zeros((images, max_order))
    ref_norm2 = np.zeros((refs, max_order))
    dot = np.zeros((refs, max_order))
    try:
        module.cider_text_sums(hypotheses, references, max_order, log_table, log_documents,
                               hyp_len, ref_len, hyp_norm2, ref_norm2, dot,
                               threads.worker_threads())
    except ValueError:
        return None
    counts = np.fromiter(map(len, references), dtype=np.int64, count=images)
    ref_image = np.repeat(np.arange(images, dtype=np.int64), counts)
    return combined(hyp_norm2, ref_norm2, dot, hyp_len, ref_len, ref_image, sigma)
