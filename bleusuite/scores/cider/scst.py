"""Self-critical sequence training (SCST) rewards: CIDEr-D of sampled captions with the
training set's document frequencies, minus a baseline.

SCST (Rennie et al., 2017) fine-tunes a captioner with REINFORCE, the reward of a sampled
caption being its CIDEr-D minus a baseline that needs no learned critic:

- ``baseline="greedy"``: the CIDEr-D of the image's greedy (argmax) caption (the paper's);
- ``baseline="mean"``: the mean CIDEr-D of the other samples of the same image (K samples
  per image; Luo, 2020, "A better variant of self-critical sequence training");
- ``baseline=None``: the scores themselves.

The document frequencies are counted once on the training references
(:func:`bleusuite.cider_document_frequency`): with them a caption's CIDEr-D depends on
itself and its references only, not on the rest of the batch (with the batch's own, as
pycocoevalcap counts them, a batch of one image scores 0).

The K samples of image b are rows ``b * K .. b * K + K - 1`` of ``samples`` (how SCST code
repeats each image's features, e.g. ``seq_per_img``); the references are given once per
image. Token ids on a device are scored there without a host synchronisation (see
:func:`bleusuite.sentence_cider`), baselines included; the rewards come back on the
samples' device, in their array type.

>>> from bleusuite import cider_document_frequency
>>> train = [["a man rides a horse", "a person on a horse"], ["a cat on a couch"],
...          ["a dog in a park", "a dog runs on grass"], ["two people on a beach"]]
>>> frequency = cider_document_frequency(train)
>>> samples = ["a man on a horse", "a horse", "a cat on a couch", "a cat"]   # K = 2
>>> rewards = scst_cider_rewards(samples, train[:2], frequency, baseline="mean")
>>> [round(r, 3) for r in rewards.tolist()]
[0.606, -0.606, 7.175, -7.175]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bleusuite import backends
from bleusuite.inputs.checks import is_text
from bleusuite.scores.cider.score import CiderDocumentFrequency, sentence_cider

__all__ = ["BASELINES", "scst_cider_rewards"]

#: the baselines of :func:`scst_cider_rewards`
BASELINES = ("greedy", "mean", None)


def _batch_size(value: Any, name: str) -> int:
    if isinstance(value, str) or not hasattr(value, "__len__"):
        raise TypeError(f"{name} must be a list or an array with one row per caption; got "
                        f"{type(value).__name__}")
    return int(value.shape[0]) if hasattr(value, "shape") else len(value)


def _repeated(references: Any, times: int) -> Any:
    """Each image's references ``times`` times, image by image (lists, NumPy, torch)."""
    if times == 1:
        return references
    if hasattr(references, "repeat_interleave"):           # torch
        return references.repeat_interleave(times, dim=0)
    if hasattr(references, "shape"):                       # NumPy, CuPy, JAX
        return references.repeat(times, axis=0)
    return [refs for refs in references for _ in range(times)]


def _host(scores: Any) -> np.ndarray:
    if hasattr(scores, "detach"):
        scores = scores.detach().cpu()
    return np.asarray(scores, dtype=np.float64)


def scst_cider_rewards(samples: Any, references: Any,
                       document_frequency: CiderDocumentFrequency, *,
                       baseline: str | None = "greedy", greedy: Any = None,
                       max_order: int = 4, sigma: float = 6.0, pad_id: int | None = None,
                       eos_id: int | None = None) -> Any:
    """The SCST reward of each sampled caption: its CIDEr-D minus the baseline.

    Args:
        samples: the sampled captions, K per image, image by image: text (strings, split
            on whitespace: PTB-tokenise raw text first) or token ids (a padded (B*K, L)
            array, or token lists).
        references: per image, its references (B rows: strings or lists of strings; a
            (B, R, L) array or lists of token sequences).
        document_frequency: the training references' document frequencies
            (:func:`bleusuite.cider_document_frequency`, on the same kind of input).
        baseline: ``"greedy"`` (needs ``greedy``), ``"mean"`` (of the image's other
            samples; needs K >= 2) or None (the plain scores).
        greedy: with ``baseline="greedy"``, each image's greedy caption (B rows, as
            ``samples``).
        max_order, sigma, pad_id, eos_id: as in :func:`bleusuite.sentence_cider`.

    Returns:
        (B*K,) float64 rewards: a NumPy array, or the samples' array type and device.
    """
    if baseline not in BASELINES:
        raise ValueError(f"baseline must be one of {BASELINES}; got {baseline!r}")
    if not isinstance(document_frequency, CiderDocumentFrequency):
        raise TypeError("document_frequency must come from cider_document_frequency (SCST "
                        "rewards use the training set's); got "
                        f"{type(document_frequency).__name__}")
    count, images = _batch_size(samples, "samples"), _batch_size(references, "references")
    if images == 0 or count % images:
        raise ValueError(f"samples must hold K captions per image, image by image: "
                         f"{count} samples for {images} images")
    per_image = count // images
    if baseline == "mean" and per_image < 2:
        raise ValueError("baseline='mean' needs at least 2 samples per image; got 1")
    if baseline == "greedy":
        if greedy is None:
            raise ValueError("baseline='greedy' needs greedy= (each image's greedy caption)")
        if _batch_size(greedy, "greedy") != images:
            raise ValueError(f"greedy must hold one caption per image: {images} images, "
                             f"got {_batch_size(greedy, 'greedy')}")
    elif greedy is not None:
        raise ValueError(f"greedy= is the baseline of baseline='greedy'; baseline is "
                         f"{baseline!r}")
    def scored(hypotheses: Any, refs: Any) -> Any:
        return sentence_cider(hypotheses, refs, document_frequency=document_frequency,
                              max_order=max_order, sigma=sigma, pad_id=pad_id, eos_id=eos_id)

    scores = scored(samples, _repeated(references, per_image))
    if baseline is None:
        return scores
    if is_text(samples) or isinstance(samples, list):
        scores = _host(scores)
    # on the scores' own device: a device batch's rewards wait for nothing on the host
    be = backends.get_backend(scores)
    grid = scores.reshape(images, per_image)
    if baseline == "greedy":
        base = scored(greedy, references)
        if type(base) is not type(scores):
            base = _like(_host(base), scores)
        base = base.reshape(images, 1)
    else:   # the mean of the image's other samples
        base = (be.sum_(grid, axis=1).reshape(images, 1) - grid) / (per_image - 1)
    return (grid - base).reshape(-1)


def _like(values: np.ndarray, like: Any) -> Any:
    """``values`` in ``like``'s array type and device."""
    if hasattr(like, "new_tensor"):                        # torch
        return like.new_tensor(values)
    if isinstance(like, np.ndarray):
        return values
    from bleusuite import backends
    return backends.get_backend(like).asarray(values, like=like)
