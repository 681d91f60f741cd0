"""torchmetrics metrics: drop-in replacements for ``torchmetrics.text.BLEUScore`` and
``SacreBLEUScore``, NLTK's GLEU, ``TranslationEditRate`` with sacrebleu's TER, ``ROUGEScore``,
the error rates ``WordErrorRate``, ``CharErrorRate``, ``MatchErrorRate``, ``WordInfoLost``
and ``WordInfoPreserved``, ``EditDistance`` and ``ExtendedEditDistance``, and CIDEr-D
(``CIDErScore``). Each keeps the summed integer statistics of every sentence seen as its
state (``dist_reduce_fx="sum"``), so the corpus score is exact whatever the batches and
processes (``docs/integrations.md``). Needs torch and torchmetrics
(``pip install "bleusuite[torchmetrics]"``); ``import bleusuite`` does not import it.

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
