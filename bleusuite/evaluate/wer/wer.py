"""evaluate's ``wer`` module on bleusuite: ``evaluate.load(module_path("wer"))``.

The inputs, argument and number of evaluate 0.4.6's ``wer`` script on jiwer 4.0: one
reference string per prediction; a float, the substitutions, deletions and insertions of
every pair (jiwer's ``process_words(reference, prediction)``) summed, divided by the
reference words summed; with ``concatenate_texts=True`` jiwer's
``process_words(references, predictions).wer``. Counted by :func:`bleusuite.wer_statistics`
(:func:`bleusuite.evaluate.edits.error_rate`), without jiwer.

evaluate's script calls ``jiwer.compute_measures`` where jiwer has it (jiwer < 4, which
removed it); scripts older than evaluate's support of jiwer 4 (June 2025) import it
unconditionally and fail to load with jiwer 4. This module needs no jiwer at all. Without
``evaluate`` installed this script defines nothing; evaluate's loader needs it.
"""

from __future__ import annotations

from bleusuite.evaluate import base
from bleusuite.evaluate.edits import JIWER_SCRIPT_INFO, error_rate

__all__ = ["Wer"] if base.INSTALLED else []

if base.INSTALLED:  # the script is evaluate's: without it there is nothing to define
    class Wer(base.ScriptMetric,
              description="Word error rate (jiwer's, evaluate's wer), counted by bleusuite",
              **JIWER_SCRIPT_INFO):
        """jiwer's WER as evaluate's ``wer`` computes it.

        ``compute(predictions=[...], references=[...], concatenate_texts=False)``: one
        reference string per prediction; returns the WER, a float (0 is perfect; above 1
        where the insertions outnumber the reference words).
        """

        def _compute(self, predictions: list[str], references: list[str],
                     concatenate_texts: bool = False) -> float:
            return error_rate(predictions, references, concatenate_texts=concatenate_texts)
