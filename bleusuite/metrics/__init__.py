"""pytorch-ignite metrics: drop-in replacements for ``ignite.metrics.Bleu`` and an NLTK GLEU
metric, computed from summable statistics (macro and micro averages, distributed)."""

from bleusuite.metrics.ignite import Bleu, Gleu

__all__ = ["Bleu", "Gleu"]
