"""pytorch-ignite metrics: drop-in replacements for ``ignite.metrics.Bleu``, ``Rouge``,
``RougeN`` and ``RougeL``, and an NLTK GLEU metric, computed from summable statistics
(macro and micro averages, distributed)."""

from bleusuite.metrics.ignite import Bleu, Gleu
from bleusuite.metrics.rouge import Rouge, RougeL, RougeN

__all__ = ["Bleu", "Gleu", "Rouge", "RougeL", "RougeN"]
