"""evaluate's ``cer`` module on bleusuite: ``evaluate.load(module_path("cer"))``.

The inputs, argument and number of evaluate 0.4.6's ``cer`` script on jiwer 4.0 (its
branch for jiwers without ``compute_measures``): one reference string per prediction; a
float, the substitutions, deletions and insertions of every pair (jiwer's
``process_characters(reference, prediction)``: the ends stripped, every inner space a
character) summed, divided by the reference characters summed; with
``concatenate_texts=True`` jiwer's ``process_characters(references, predictions).cer``.
Counted by :func:`bleusuite.wer_statistics` with ``characters=True``
(:func:`bleusuite.evaluate.edits.error_rate`), without jiwer. (With a jiwer < 4 the script
runs its own transform instead, which also makes runs of spaces one: other numbers.)
Without ``evaluate`` installed this script defines nothing; evaluate's loader needs it.
"""

from __future__ import annotations

from bleusuite.evaluate import base
from bleusuite.evaluate.edits import JIWER_SCRIPT_INFO, error_rate

__all__ = ["Cer"] if base.INSTALLED else []

if base.INSTALLED:  # the script is evaluate's: without it there is nothing to define
    class Cer(base.ScriptMetric,
              description="Character error rate (jiwer's, evaluate's cer), counted by "
                          "bleusuite",
              **JIWER_SCRIPT_INFO):
        """jiwer's CER as evaluate's ``cer`` computes it.

        ``compute(predictions=[...], references=[...], concatenate_texts=False)``: one
        reference string per prediction; returns the CER, a float (0 is perfect).
        """

        def _compute(self, predictions: list[str], references: list[str],
                     concatenate_texts: bool = False) -> float:
            return error_rate(predictions, references, characters=True,
                              concatenate_texts=concatenate_texts)
