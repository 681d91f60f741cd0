"""Adapters around the real reference libraries (NLTK, pytorch-ignite, sacrebleu).

Every adapter takes a list of cases ``(hyp, refs)`` (hyp: list of tokens, refs: list of
token lists, the NLTK form) and returns float64 numbers on bleusuite's 0..1 scale: a numpy
array (one score per case) for the ``*_sentence_*`` adapters, a Python float for the corpus
ones.  ``assert_scores_match`` compares our scores with them and, on failure, reports the
first mismatching case.
"""

from __future__ import annotations

import logging
import math
import warnings
from collections.abc import Sequence

import numpy as np
from nltk.translate import bleu_score as nltk_bleu
from nltk.translate import gleu_score as nltk_gleu

# ignite (which imports torch) and sacrebleu are imported on first use: importing torch
# costs seconds, and only the ignite tests need it.
logging.getLogger("sacrebleu").setLevel(logging.ERROR)  # "use effective_order" chatter

NLTK_METHODS = tuple(f"method{k}" for k in range(8))
IGNITE_SMOOTHS = ("no_smooth", "smooth1", "nltk_smooth2", "smooth2")
SACRE_SMOOTHS = ("none", "floor", "add-k", "exp")
DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)


# ----------------------------------------------------------------------------- NLTK BLEU
def _nltk_smoother(method: str):
    return getattr(nltk_bleu.SmoothingFunction(), method)


def nltk_sentence_bleu(cases, weights=None, method="method0") -> np.ndarray:
    """nltk sentence_bleu per case.  For method6, a case on which NLTK raises its
    AssertionError (no trigram match) gives NaN, so the caller can split those off."""
    weights = tuple(weights or DEFAULT_WEIGHTS)
    smooth = _nltk_smoother(method)
    out = np.empty(len(cases))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # method0 warns about zero counts
        for i, (hyp, refs) in enumerate(cases):
            try:
                out[i] = float(nltk_bleu.sentence_bleu(refs, hyp, weights, smooth))
            except AssertionError:
                if method != "method6":
                    raise
                out[i] = math.nan
    return out


def nltk_corpus_bleu(cases, weights=None, method="method0") -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(
            nltk_bleu.corpus_bleu(
                [r for _, r in cases],
                [h for h, _ in cases],
                tuple(weights or DEFAULT_WEIGHTS),
                _nltk_smoother(method),
            )
        )


# ----------------------------------------------------------------------------- NLTK GLEU
def nltk_sentence_gleu(cases, min_len=1, max_len=4) -> np.ndarray:
    return np.array(
        [float(nltk_gleu.sentence_gleu(r, h, min_len, max_len)) for h, r in cases], dtype=np.float64
    )


def nltk_corpus_gleu(cases, min_len=1, max_len=4) -> float:
    return float(
        nltk_gleu.corpus_gleu([r for _, r in cases], [h for h, _ in cases], min_len, max_len)
    )


# ---------------------------------------------------------------------------- ignite BLEU
def ignite_sentence_bleu(cases, ngram=4, smooth="no_smooth") -> np.ndarray:
    """Per-sentence ignite BLEU.

    Computed as a micro-average over a one-sentence corpus: that is the same formula as
    ``Bleu._sentence_bleu``, but with ignite's float64 accumulators.  ``_sentence_bleu``
    itself accumulates in float32 tensors and, for ``no_smooth``, divides by a float32
    tensor, so its precisions are only float32-accurate (errors ~2e-8): it is checked to
    1e-6 through the macro average instead.
    """
    from ignite.metrics import Bleu as IgniteBleu

    metric = IgniteBleu(ngram=ngram, smooth=smooth, average="micro")
    out = np.empty(len(cases))
    for i, (hyp, refs) in enumerate(cases):
        metric.reset()
        metric.update(([hyp], [refs]))
        out[i] = float(metric.compute())
    return out


def ignite_macro_bleu(cases, ngram=4, smooth="no_smooth") -> float:
    from ignite.metrics import Bleu as IgniteBleu

    metric = IgniteBleu(ngram=ngram, smooth=smooth, average="macro")
    metric.update(([h for h, _ in cases], [r for _, r in cases]))
    return float(metric.compute())


def ignite_micro_bleu(cases, ngram=4, smooth="no_smooth") -> float:
    from ignite.metrics import Bleu as IgniteBleu

    metric = IgniteBleu(ngram=ngram, smooth=smooth, average="micro")
    metric.update(([h for h, _ in cases], [r for _, r in cases]))
    return float(metric.compute())


# ------------------------------------------------------------------------- sacrebleu BLEU
def _sacre(smooth, smooth_value, effective_order, max_order):
    from sacrebleu.metrics import BLEU as SacreBLEU

    return SacreBLEU(
        tokenize="none",
        smooth_method=smooth,
        smooth_value=smooth_value,
        effective_order=effective_order,
        max_ngram_order=max_order,
    )


def _line(tokens) -> str:
    return " ".join(str(t) for t in tokens)


def sacrebleu_sentence_bleu(
    cases, smooth="exp", smooth_value=None, effective_order=False, max_order=4
) -> np.ndarray:
    """``BLEU.sentence_score(hyp, refs).score / 100`` per case (any number of refs)."""
    bleu = _sacre(smooth, smooth_value, effective_order, max_order)
    return np.array(
        [bleu.sentence_score(_line(h), [_line(r) for r in refs]).score / 100 for h, refs in cases],
        dtype=np.float64,
    )


def sacrebleu_corpus_bleu(
    cases, smooth="exp", smooth_value=None, effective_order=False, max_order=4
) -> float:
    """``BLEU.corpus_score / 100``.  sacrebleu takes R reference *streams*; a sentence with
    fewer references gets ``None`` in the remaining streams, which sacrebleu drops
    (``Metric._cache_references``).  Note that ``""`` would NOT be dropped: it is a present
    reference of length 0."""
    n_streams = max(len(r) for _, r in cases)
    streams = [
        [_line(refs[j]) if j < len(refs) else None for _, refs in cases] for j in range(n_streams)
    ]
    bleu = _sacre(smooth, smooth_value, effective_order, max_order)
    return bleu.corpus_score([_line(h) for h, _ in cases], streams).score / 100


# ----------------------------------------------------------------------------- comparison
def _show(case) -> str:
    hyp, refs = case
    return f"hyp={list(hyp)!r}\n  refs={[list(r) for r in refs]!r}"


def assert_scores_match(
    ours, theirs, cases: Sequence, *, tol: float = 1e-12, what: str = ""
) -> None:
    """Sentence scores: ``ours`` must be a float64 array of shape (len(cases),) within
    ``tol`` (absolute) of ``theirs``; the message shows the first mismatching case."""
    assert isinstance(ours, np.ndarray), f"{what}: expected numpy array, got {type(ours)}"
    assert ours.dtype == np.float64, f"{what}: dtype {ours.dtype}"
    assert ours.shape == (len(cases),), f"{what}: shape {ours.shape} != ({len(cases)},)"
    theirs = np.asarray(theirs, dtype=np.float64)
    bad = np.flatnonzero(~(np.abs(ours - theirs) <= tol))
    if bad.size:
        i = int(bad[0])
        raise AssertionError(
            f"{what}: {bad.size}/{len(cases)} mismatches (tol {tol:g}); first is case {i}:\n"
            f"  {_show(cases[i])}\n  ours={float(ours[i])!r} reference={float(theirs[i])!r} "
            f"diff={float(ours[i] - theirs[i])!r}"
        )


def assert_corpus_match(
    ours, theirs: float, cases: Sequence, *, tol: float = 1e-12, what: str = ""
) -> None:
    """Corpus score: ``ours`` must be a 0-d float64 array within ``tol`` of ``theirs``."""
    assert isinstance(ours, np.ndarray), f"{what}: expected numpy array, got {type(ours)}"
    assert ours.shape == () and ours.dtype == np.float64, f"{what}: {ours.shape} {ours.dtype}"
    if not abs(float(ours) - theirs) <= tol:
        shown = "\n  ".join(_show(c) for c in cases[:4])
        more = f"\n  ... ({len(cases)} sentences in all)" if len(cases) > 4 else ""
        raise AssertionError(
            f"{what}: corpus of {len(cases)} sentences: ours={float(ours)!r} "
            f"reference={theirs!r} diff={float(ours) - theirs!r}\n  {shown}{more}"
        )
