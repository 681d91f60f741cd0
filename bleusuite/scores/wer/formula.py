"""jiwer 4.0's arithmetic of WER, MER, WIL and WIP (``jiwer.process_words``), the one place
it is written, element-wise on summed counts (:class:`~bleusuite.scores.wer.statistics.
WerStats` in their ``to_array`` form): with H hits, S substitutions, D deletions, I
insertions, N = H + S + D reference words and P = H + S + I hypothesis words,

- WER = (S + D + I) / N, MER = (S + D + I) / (N + I), WIP = (H / N) * (H / P) (0 where
  P = 0), WIL = 1 - WIP;
- an empty reference side (N = 0): WER = I, MER = 0 and WIP = 1 where P = 0 too, else
  MER = 1 and WIP = 0.

CER is WER over characters.

>>> measures = edit_measures(np.array([[2, 1, 0, 1], [0, 0, 0, 2], [0, 0, 0, 0]]))
>>> [round(x, 4) for x in measures["wer"].tolist()], measures["mer"].tolist()
([0.6667, 2.0, 0.0], [0.5, 1.0, 0.0])
>>> [round(x, 4) for x in measures["wip"].tolist()]
[0.3333, 0.0, 1.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["MEASURES", "edit_measures", "measures_of_totals"]

#: the measures of :func:`edit_measures`
MEASURES = ("wer", "mer", "wil", "wip")


def edit_measures(table: np.ndarray) -> dict[str, np.ndarray]:
    """WER, MER, WIL and WIP (float64) of each row of summed counts ``(..., 4)``
    (``[hits, substitutions, deletions, insertions]``), as jiwer computes them."""
    table = np.asarray(table, dtype=np.int64)
    hits, subs, dels, ins = (table[..., k] for k in range(4))
    ref_words, hyp_words = hits + subs + dels, hits + subs + ins
    errors = (subs + dels + ins).astype(np.float64)
    empty = ref_words == 0
    n = np.where(empty, 1, ref_words).astype(np.float64)
    p = np.where(hyp_words == 0, 1, hyp_words).astype(np.float64)
    h = hits.astype(np.float64)
    wer = np.where(empty, ins.astype(np.float64), errors / n)
    mer = np.where(empty, np.where(hyp_words == 0, 0.0, 1.0),
                   errors / (n + ins.astype(np.float64)))
    wip = np.where(empty, np.where(hyp_words == 0, 1.0, 0.0),
                   np.where(hyp_words >= 1, (h / n) * (h / p), 0.0))
    return {"wer": wer, "mer": mer, "wil": 1 - wip, "wip": wip}


def measures_of_totals(hits: int, substitutions: int, deletions: int,
                       insertions: int) -> dict[str, Any]:
    """:func:`edit_measures` of one row of Python ints, as jiwer returns them (the same
    float64 operations; ints where jiwer's edge rules give ints): for one call's totals,
    where NumPy's overhead would be most of a small call's time.

    >>> measures_of_totals(2, 1, 0, 1)["mer"], measures_of_totals(0, 0, 0, 2)["wer"]
    (0.5, 2)
    """
    ref_words = hits + substitutions + deletions
    hyp_words = hits + substitutions + insertions
    errors = substitutions + deletions + insertions
    if ref_words == 0:
        empty = hyp_words == 0
        return {"wer": insertions, "mer": 0 if empty else 1, "wil": 0 if empty else 1,
                "wip": 1 if empty else 0}
    wip: Any = (float(hits) / ref_words) * (float(hits) / hyp_words) if hyp_words >= 1 else 0
    return {"wer": float(errors) / float(ref_words),
            "mer": float(errors) / float(ref_words + insertions), "wil": 1 - wip, "wip": wip}
