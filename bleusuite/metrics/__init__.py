"""pytorch-ignite metrics: drop-in replacements for ``ignite.metrics.Bleu``, ``Rouge``,
``RougeN``, ``RougeL`` and ``CharacterErrorRate``, an NLTK GLEU metric and jiwer's WER,
computed from summable statistics (macro and micro averages, distributed)."""

from bleusuite.metrics.edits import CharacterErrorRate, WordErrorRate
from bleusuite.metrics.ignite import Bleu, Gleu
from bleusuite.metrics.rouge import Rouge, RougeL, RougeN

__all__ = ["Bleu", "CharacterErrorRate", "Gleu", "Rouge", "RougeL", "RougeN", "WordErrorRate"]
