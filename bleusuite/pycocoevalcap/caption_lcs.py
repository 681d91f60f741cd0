"""pycocoevalcap's ROUGE-L inputs straight from its dictionaries: per image, the best
precision and the best recall over its references of the longest common subsequence of the
hypothesis's words and the reference's, each caption split with ``split(" ")``.

The compiled part (``caption_rouge``, ``bleusuite/csrc/caption_lcs.c``) reads the str of
``res`` and ``gts`` itself, splits and compares each image's captions in one pass (no
numbering of the call's words: a reference word is looked up among its hypothesis's), with
blocks of images on the worker threads. :func:`best_precision_recall_python` is its Python
twin (pycocoevalcap's own loop); without the compiled part, :class:`Rouge
<bleusuite.pycocoevalcap.Rouge>` numbers the captions and takes the LCS of
:mod:`bleusuite.counting.lcs` instead (the same numbers).

>>> best_precision_recall_python([["a b  c"]], [["a c", "b"]]).tolist()
[[0.5, 1.0]]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from bleusuite import native, threads
from bleusuite.pycocoevalcap.captions import check

__all__ = ["IMAGES_PER_THREAD", "best_precision_recall", "best_precision_recall_python",
           "caption_lists", "rouge_scores"]

#: images each thread of :func:`best_precision_recall` gets at least: below that a
#: thread's hand-over costs about what it saves
IMAGES_PER_THREAD = 512


def best_precision_recall(gts: Mapping[Hashable, list[str]], res: Mapping[Hashable, list[str]],
                          workers: int | None = None) -> np.ndarray | None:
    """``(B, 2)`` float64: per image of ``gts`` (in its order), the best precision and the
    best recall of pycocoevalcap's ROUGE-L, from the compiled part on up to ``workers``
    threads; None where the compiled part is not built or the captions are lists or str of
    subclasses (which pycocoevalcap's checks let through: the caller takes its slower
    path).

    Raises:
        TypeError, ValueError: what :func:`bleusuite.pycocoevalcap.captions.check` raises.
    """
    module = native.module()
    if module is None:
        return None
    hypotheses, references = caption_lists(gts, res)
    rows = len(references)
    best = np.zeros((rows, 2), dtype=np.float64)
    workers = threads.worker_threads() if workers is None else workers
    blocks = 1 if rows < IMAGES_PER_THREAD * 2 else min(workers * threads.BLOCKS_PER_THREAD,
                                                          rows // IMAGES_PER_THREAD)
    bounds = [rows * k // blocks for k in range(blocks + 1)]

    def block(index: int) -> None:
        module.caption_rouge(hypotheses, references, best, bounds[index], bounds[index + 1])

    try:
        threads.run_blocks(block, range(blocks), workers)
    except ValueError:
        check(gts, res)  # raises where pycocoevalcap's checks fail, naming the image
        return None
    return best


def caption_lists(gts: Mapping[Hashable, list[str]], res: Mapping[Hashable, list[str]]
                  ) -> tuple[list[Any], list[Any]]:
    """``(hypotheses, references)``: the values of ``res`` and ``gts`` in ``gts``' order,
    unchecked but for what :func:`bleusuite.pycocoevalcap.captions.check` raises first
    (not dictionaries, not the same image ids); the compiled part checks the rest."""
    if not isinstance(gts, Mapping) or not isinstance(res, Mapping) \
            or gts.keys() != res.keys():
        check(gts, res)  # raises
    references = list(gts.values())
    hypotheses = list(res.values()) if list(res) == list(gts) else [res[k] for k in gts]
    return hypotheses, references


def best_precision_recall_python(hypotheses: Sequence[list[str]],
                                 references: Sequence[list[str]]) -> np.ndarray:
    """The Python twin of ``caption_rouge``: pycocoevalcap's ``Rouge.calc_score`` up to its
    maxima (its ``my_lcs`` as a bit-parallel LCS on Python integers)."""
    best = np.zeros((len(hypotheses), 2), dtype=np.float64)
    for b, (hypothesis, refs) in enumerate(zip(hypotheses, references, strict=True)):
        token_c = hypothesis[0].split(" ")
        masks: dict[str, int] = {}
        for k, word in enumerate(token_c):
            masks[word] = masks.get(word, 0) | 1 << k
        ones = (1 << len(token_c)) - 1
        precisions, recalls = [], []
        for reference in refs:
            token_r = reference.split(" ")
            v = ones
            for word in token_r:
                u = v & masks.get(word, 0)
                v = ((v + u) | (v - u)) & ones
            lcs = len(token_c) - bin(v).count("1")
            precisions.append(lcs / float(len(token_c)))
            recalls.append(lcs / float(len(token_r)))
        best[b] = max(precisions), max(recalls)
    return best


def rouge_scores(precision: np.ndarray, recall: np.ndarray, beta: float) -> Any:
    """pycocoevalcap's score of each image from its best precision and recall:
    ``((1 + beta**2) * p * r) / (r + beta**2 * p)``, 0 where either is 0."""
    both = (precision != 0) & (recall != 0)
    beta2 = beta ** 2
    return np.where(both, ((1 + beta2) * precision * recall)
                    / np.where(both, recall + beta2 * precision, 1.0), 0.0)
