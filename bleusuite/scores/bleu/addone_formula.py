"""The add-one BLEU arithmetic of torchmetrics' ``BLEUScore`` and of the tensorflow/nmt script
(``compute_bleu``, which evaluate's ``bleu`` runs), the one place it is written. Both add one
to an order's matches and n-grams (Lin and Och 2004), on plain ``totals``:

* ``"torchmetrics_smooth"`` (``BLEUScore(smooth=True)``; ``ref_length="closest_first"``):
  every order but the first; 0 as soon as an order has no match.
* ``"nmt_smooth"`` (evaluate's ``bleu`` with ``smooth=True``; ``ref_length="shortest"``):
  every order; where the script divides by zero the score is the brevity penalty's.

Their ``smooth=False`` is ignite's ``"no_smooth"``.

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
    """The precisions ``(..., N)`` (float64, 0-1) of the integer ``matches`` and ``totals``:
    ``(m + 1) / (t + 1)`` on the orders ``smooth`` adds one to, ``m / t`` (0 where ``t == 0``)
    on the others (for ``"nmt_smooth"``, the ``precisions`` evaluate's ``bleu`` reports).

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
