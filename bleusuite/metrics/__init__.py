"""pytorch-ignite metrics: drop-in replacements for ``ignite.metrics.Bleu``, ``Rouge``,
``RougeN``, ``RougeL`` and ``CharacterErrorRate``, an NLTK GLEU metric, jiwer's WER and
CIDEr-D (``CiderD``, fixed document frequencies),
computed from summable statistics (macro and micro averages, distributed)."""

try:  # a message that says how to install what is missing, whichever module needs it
    import ignite  # noqa: F401
    import torch  # noqa: F401
except ImportError as _error:
    raise ImportError(
        f"bleusuite.metrics needs torch and pytorch-ignite ({_error}); install them with "
        "pip install 'bleusuite[ignite]'"
    ) from _error

from bleusuite.metrics.cider import CiderD
from bleusuite.metrics.edits import CharacterErrorRate, WordErrorRate
from bleusuite.metrics.ignite import Bleu, Gleu
from bleusuite.metrics.rouge import Rouge, RougeL, RougeN

__all__ = ["Bleu", "CharacterErrorRate", "CiderD", "Gleu", "Rouge", "RougeL", "RougeN",
           "WordErrorRate"]
