"""The add-one BLEU arithmetic of torchmetrics' ``BLEUScore`` and of the tensorflow/nmt script
(``compute_bleu``, which evaluate's ``bleu`` runs), the one place it is written.

Both add one to the numerator and the denominator of an order's precision (Lin and Och 2004),
and differ in where:

* ``"torchmetrics_smooth"``: torchmetrics ``BLEUScore(smooth=True)`` /
  ``bleu_score(..., smooth=True)``: every order but the first; the score is 0 as soon as
  an order has no match, smoothing or not (torchmetrics checks ``min(numerator) == 0``
  first). Its ``smooth=False`` is pytorch-ignite's ``"no_smooth"``; its reference length is
  ``ref_length="closest_first"``.
* ``"nmt_smooth"``: evaluate's ``bleu`` with ``smooth=True``, which runs the tensorflow/nmt
  script (``compute_bleu``, from its master branch): every order, the first one included,
  so no precision is 0. Its ``smooth=False`` is ignite's ``"no_smooth"`` wherever it gives
  a number; its reference length is ``ref_length="shortest"``. Where the script divides by
  zero (no reference or no hypothesis token in the whole corpus) the score here is the
  shared brevity penalty's (0 for empty hypotheses).

Element-wise over the leading axes of (summed) statistics, on any backend, 0-1 scale; the
denominators are the plain n-gram counts (``totals``: neither library floors them).

>>> import numpy as np
>>> from bleusuite import bleu_statistics, bleu_score
>>> hyp, ref = np.array([[1, 2, 3, 4, 5, 6]]), np.array([[1, 2, 3, 4, 9, 6]])
>>> stats = bleu_statistics(hyp, ref).sum()
>>> [round(float(bleu_score(stats, smooth=name)), 6) for name in NAMES]
[0.638943, 0.643459]
"""

from __future__ import annotations

from typing import Any

from bleusuite.backends.base import Backend
from bleusuite.scores.bleu.smoothing import NMT_METHODS, TORCHMETRICS_METHODS, gated_score

__all__ = ["NAMES", "addone_bleu", "addone_precisions"]

#: every smoothing name this module scores (its two families')
NAMES = TORCHMETRICS_METHODS + NMT_METHODS


def addone_precisions(be: Backend, matches: Any, totals: Any, smooth: str) -> Any:
    """The precisions ``(..., N)`` of the integer ``matches`` and ``totals`` ``(..., N)``
    (float64, 0-1): ``(m + 1) / (t + 1)`` on the orders ``smooth`` adds one to, ``m / t``
    (0 where ``t == 0``) on the others. For ``"nmt_smooth"`` these are the ``precisions``
    evaluate's ``bleu`` reports.

    >>> import numpy as np
    >>> from bleusuite import backends
    >>> be = backends.get_backend(np.zeros(1))
    >>> m, t = np.array([3, 1, 0, 0]), np.array([4, 3, 2, 0])
    >>> [addone_precisions(be, m, t, name).round(4).tolist() for name in NAMES]
    [[0.75, 0.5, 0.3333, 1.0], [0.8, 0.5, 0.3333, 1.0]]
    """
    numer, denom = be.to_float64(matches), be.to_float64(totals)
    added = (numer + 1.0) / (denom + 1.0)
    if smooth in NMT_METHODS:
        return added
    plain = numer / be.where(totals > 0, denom, 1.0)
    later = be.arange(int(matches.shape[-1]), like=matches) > 0
    return be.where(later, added, plain)


def addone_bleu(be: Backend, stats: Any, weights: Any, order: int, smooth: str) -> Any:
    """BLEU of (summed) statistics with one of :data:`NAMES`, element-wise."""
    matches = stats.matches[..., :order]
    precisions = addone_precisions(be, matches, stats.totals[..., :order], smooth)
    if smooth in NMT_METHODS:  # the script: 0 unless min(precisions) > 0 (always, here)
        scorable = be.sum_(be.to_int64(precisions <= 0), axis=-1) == 0
    else:  # torchmetrics: 0 as soon as min(numerator) == 0
        scorable = be.sum_(be.to_int64(matches == 0), axis=-1) == 0
    safe = be.where(scorable[..., None], precisions, 1.0)
    return gated_score(be, stats, be.sum_(weights * be.log(safe), axis=-1), scorable)
