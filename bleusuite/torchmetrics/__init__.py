"""torchmetrics metrics: drop-in replacements for ``torchmetrics.text.BLEUScore`` and
``SacreBLEUScore``, NLTK's GLEU as a torchmetrics metric, ``TranslationEditRate`` with
sacrebleu's TER, and the error rates ``WordErrorRate``, ``CharErrorRate``,
``MatchErrorRate``, ``WordInfoLost`` and ``WordInfoPreserved``, ``EditDistance`` and
``ExtendedEditDistance``, and CIDEr-D (``CIDErScore``, with fixed document frequencies).

Each metric keeps one state, the summed integer statistics of every sentence seen
(``add_state(..., dist_reduce_fx="sum")``): the corpus score is a function of that sum, so it
is exact whatever the batches, processes and ``forward`` calls (Lightning logs it as it is),
and the sum is exact too (int64, where torchmetrics' own BLEU sums its counts in float32).
``update`` takes text (a list of strings, and per string a reference string or a list of
them) or token ids (a (B, L) tensor and (B, L) or (B, R, L) references, on any device, with
``pad_id`` / ``eos_id``; or token lists), and runs bleusuite's vectorised counting.

With torchmetrics' arguments the numbers are torchmetrics' own (its ``smooth=True`` is
bleusuite's ``"torchmetrics_smooth"``, its ``smooth=False`` ``"no_smooth"``, and it takes the
first of equally close references: ``ref_length="closest_first"``), in float64.

This module needs torch and torchmetrics (``pip install "bleusuite[torchmetrics]"``);
``import bleusuite`` does not import it.

>>> from bleusuite.torchmetrics import BLEUScore
>>> preds = ["the cat is on the mat"]
>>> target = [["there is a cat on the mat", "a cat is on the mat"]]
>>> bleu = BLEUScore()
>>> bleu(preds, target)                     # torchmetrics' BLEUScore gives tensor(0.7598)
tensor(0.7598, dtype=torch.float64)
"""

try:  # a message that says how to install what is missing
    import torch  # noqa: F401
    import torchmetrics  # noqa: F401
except ImportError as _error:
    raise ImportError(
        f"bleusuite.torchmetrics needs torch and torchmetrics ({_error}); install them with "
        "pip install 'bleusuite[torchmetrics]'"
    ) from _error

from bleusuite.torchmetrics.bleu import BLEUScore, GLEUScore, SacreBLEUScore
from bleusuite.torchmetrics.cider import CIDErScore
from bleusuite.torchmetrics.edit_distance import EditDistance, ExtendedEditDistance
from bleusuite.torchmetrics.error_rates import (
    CharErrorRate,
    MatchErrorRate,
    WordErrorRate,
    WordInfoLost,
    WordInfoPreserved,
)
from bleusuite.torchmetrics.rouge import ROUGEScore
from bleusuite.torchmetrics.ter import TranslationEditRate

__all__ = ["BLEUScore", "CIDErScore", "CharErrorRate", "EditDistance", "ExtendedEditDistance",
           "GLEUScore", "MatchErrorRate", "ROUGEScore", "SacreBLEUScore", "TranslationEditRate",
           "WordErrorRate", "WordInfoLost", "WordInfoPreserved"]
