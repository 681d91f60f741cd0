"""pycocoevalcap 1.2's ``Bleu``, ``Rouge`` and ``Cider``: the same call shapes
(``compute_score(gts, res)``, dictionaries of image id -> list of tokenised captions), the
same return values and digits, computed on whole batches.

- ``Bleu(n)``: its ``BleuScorer`` with ``option="closest"`` (the reference length closest
  to the hypothesis's, the shorter of two equally close), its constants ``tiny = 1e-15``
  and ``small = 1e-9`` (``(correct + tiny) / (guess + small)``, the ratio ``(testlen +
  tiny) / (reflen + small)``), its per-image lists with the brevity penalty of each image,
  and its ``verbose`` prints. The n-gram matches and lengths are
  :func:`bleusuite.bleu_statistics`' (the compiled counting where built).
- ``Rouge()``: the LCS F-measure with ``beta = 1.2`` of the best precision and the best
  recall over the references, each taken on its own; tokens ``split(" ")``. The compiled
  part reads the captions and takes the LCS in one pass
  (:mod:`bleusuite.pycocoevalcap.caption_lcs`); else the LCS of the numbered captions is
  bleusuite's (:mod:`bleusuite.counting.lcs`).
- ``Cider()``: CIDEr-D (:func:`bleusuite.sentence_cider`), document frequencies from the
  call's references.

>>> gts = {1: ["a man riding a horse", "a person on a horse"], 2: ["a cat on a couch"]}
>>> res = {1: ["a man on a horse"], 2: ["a cat sleeping on a couch"]}
>>> score, scores = Bleu(4).compute_score(gts, res, verbose=0)
>>> [round(s, 4) for s in score]
[0.9091, 0.7785, 0.5574, 0.0001]
>>> score, scores = Rouge().compute_score(gts, res)
>>> round(float(score), 4), scores.round(4).tolist()
(0.8621, [0.8, 0.9242])
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from bleusuite.counting.lcs import lcs_of_batch
from bleusuite.pycocoevalcap.caption_lcs import best_precision_recall, caption_lists, rouge_scores
from bleusuite.pycocoevalcap.captions import EncodedCaptions, encode
from bleusuite.scores.bleu.statistics import bleu_statistics_of_batch
from bleusuite.scores.cider.compiled_sums import (
    compiled_cider_scores,
    compiled_cider_text_scores,
)
from bleusuite.scores.cider.formula import runs
from bleusuite.scores.cider.sorted_orders import cider_scores

__all__ = ["Bleu", "Cider", "Rouge"]

Captions = Mapping[Hashable, list[str]]


class Bleu:
    """pycocoevalcap's ``Bleu(n)``: BLEU-1..n of the corpus and of each image."""

    def __init__(self, n: int = 4) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be a positive int; got {n!r}")
        self._n = n

    def compute_score(self, gts: Captions, res: Captions, verbose: int = 1
                      ) -> tuple[list[float], list[list[float]]]:
        """``(score, scores)``: BLEU-1..n of the corpus, and per order the list of the
        images' scores (in ``gts``' order). ``verbose``: pycocoevalcap's prints (1: the
        summed statistics and the length ratio; 2: also each image's)."""
        return self.score_encoded(encode(gts, res), verbose)

    def score_encoded(self, captions: EncodedCaptions, verbose: int = 1
                      ) -> tuple[list[float], list[list[float]]]:
        n, small, tiny = self._n, 1e-9, 1e-15
        # pycocoevalcap cooks every sentence with 4 orders whatever n (its verbose prints
        # show them; its Bleu(n) with n > 4 fails)
        cooked = max(n, 4)
        stats = bleu_statistics_of_batch(captions.words, cooked, "closest")
        cooked_correct = np.asarray(stats.matches, dtype=np.int64)
        cooked_guess = np.asarray(stats.totals, dtype=np.int64)
        correct, guess = cooked_correct[:, :n], cooked_guess[:, :n]
        testlen = np.asarray(stats.hyp_len, dtype=np.int64)
        reflen = np.asarray(stats.ref_len, dtype=np.int64)
        product = np.cumprod((correct + tiny) / (guess + small), axis=1)
        per_image = product ** (1.0 / np.arange(1, n + 1))
        ratio = (testlen + tiny) / (reflen + small)
        short = np.flatnonzero(ratio < 1)
        penalty = np.array([math.exp(1 - 1 / r) for r in ratio[short].tolist()])
        if short.shape[0]:
            per_image[short] *= penalty[:, None]
        if verbose > 1:
            _print_images(captions, testlen, cooked_guess, cooked_correct, reflen)
        total_test, total_ref = int(testlen.sum()), int(reflen.sum())
        totals = {"testlen": total_test, "reflen": total_ref,
                  "guess": guess.sum(axis=0).tolist(), "correct": correct.sum(axis=0).tolist()}
        bleus, bleu = [], 1.0
        for k in range(n):
            bleu *= float(totals["correct"][k] + tiny) / (totals["guess"][k] + small)
            bleus.append(bleu ** (1.0 / (k + 1)))
        corpus_ratio = (total_test + tiny) / (total_ref + small)
        if corpus_ratio < 1:
            bleus = [b * math.exp(1 - 1 / corpus_ratio) for b in bleus]
        if verbose > 0:
            print(totals)
            print("ratio:", corpus_ratio)
        return bleus, [column.tolist() for column in per_image.T]

    def method(self) -> str:
        return "Bleu"


def _print_images(captions: EncodedCaptions, testlen: np.ndarray, guess: np.ndarray,
                  correct: np.ndarray, reflen: np.ndarray) -> None:
    """``verbose > 1``: pycocoevalcap prints each image's cooked test and chosen length."""
    lengths = captions.words.ref_len
    present = captions.words.ref_present
    for b in range(testlen.shape[0]):
        comps = {"reflen": lengths[b][present[b]].tolist(), "testlen": int(testlen[b]),
                 "guess": guess[b].tolist(), "correct": correct[b].tolist()}
        print(comps, int(reflen[b]))


class Rouge:
    """pycocoevalcap's ``Rouge()``: ROUGE-L (beta 1.2) of each image, and their mean."""

    def __init__(self) -> None:
        self.beta = 1.2

    def compute_score(self, gts: Captions, res: Captions) -> tuple[Any, np.ndarray]:
        """``(mean, scores)``: ``np.mean`` of the images' ROUGE-L, and their array."""
        best = best_precision_recall(gts, res)
        if best is None:
            return self.score_encoded(encode(gts, res))
        score = rouge_scores(best[:, 0], best[:, 1], self.beta)
        return np.mean(score), score

    def score_encoded(self, captions: EncodedCaptions) -> tuple[Any, np.ndarray]:
        batch = captions.spaced
        lcs = np.asarray(lcs_of_batch(batch), dtype=np.float64)
        hyp_len = np.asarray(batch.hyp_len, dtype=np.float64)
        ref_len = np.where(batch.ref_present, batch.ref_len, 1).astype(np.float64)
        present = np.asarray(batch.ref_present, dtype=bool)
        precision = np.where(present, lcs / hyp_len[:, None], 0.0).max(axis=1)
        recall = np.where(present, lcs / ref_len, 0.0).max(axis=1)
        score = rouge_scores(precision, recall, self.beta)
        return np.mean(score), score

    def method(self) -> str:
        return "Rouge"


class Cider:
    """pycocoevalcap's ``Cider()``: CIDEr-D of each image (document frequencies from the
    call's references), and their mean."""

    def __init__(self, test: Any = None, refs: Any = None, n: int = 4, sigma: float = 6.0
                 ) -> None:
        self._n = n
        self._sigma = sigma

    def compute_score(self, gts: Captions, res: Captions) -> tuple[Any, np.ndarray]:
        """``(mean, scores)``: ``np.mean`` of the images' CIDEr-D, and their array."""
        hypotheses, references = caption_lists(gts, res)
        scores = compiled_cider_text_scores(hypotheses, references, max_order=self._n,
                                            sigma=float(self._sigma))
        if scores is None:
            return self.score_encoded(encode(gts, res))
        return np.mean(scores), scores

    def score_encoded(self, captions: EncodedCaptions) -> tuple[Any, np.ndarray]:
        batch = captions.words
        pairs = batch.pairs
        if pairs is None:  # pragma: no cover - encode makes host batches
            raise RuntimeError("captions must be a host batch")
        present = np.asarray(batch.ref_present, dtype=bool)
        ref_len = np.asarray(pairs.ref_lengths)[present]
        compiled = compiled_cider_scores(
            pairs.hyp_ids, pairs.hyp_starts, pairs.hyp_lengths, pairs.ref_ids,
            np.asarray(pairs.ref_starts)[present], ref_len, captions.references,
            max_order=self._n, sigma=float(self._sigma))
        if compiled is not None:
            return np.mean(compiled), compiled
        hyp_tokens = runs(pairs.hyp_ids, pairs.hyp_starts, pairs.hyp_lengths)
        ref_tokens = runs(pairs.ref_ids, np.asarray(pairs.ref_starts)[present], ref_len)
        ref_image = np.repeat(np.arange(present.shape[0]), present.sum(axis=1))
        scores = cider_scores(hyp_tokens, np.asarray(pairs.hyp_lengths), ref_tokens, ref_len,
                              ref_image, max_order=self._n, sigma=float(self._sigma),
                              lookup=None, documents=None)
        return np.mean(scores), scores

    def method(self) -> str:
        return "CIDEr"
