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

from bleusuite.evaluate import string_features
from bleusuite.evaluate.edits import error_rate

try:
    import evaluate
except ImportError:  # the module is evaluate's: without it there is nothing to define
    __all__: list[str] = []
else:
    __all__ = ["Wer"]

    class Wer(evaluate.Metric):
        """jiwer's WER as evaluate's ``wer`` computes it.

        ``compute(predictions=[...], references=[...], concatenate_texts=False)``: one
        reference string per prediction; returns the WER, a float (0 is perfect; above 1
        where the insertions outnumber the reference words).
        """

        def _info(self) -> evaluate.MetricInfo:
            return evaluate.MetricInfo(
                description="Word error rate (jiwer's, evaluate's wer), counted by bleusuite",
                citation="Morris, Maier and Green, 2004. From WER and RIL to MER and WIL: "
                         "improved evaluation measures for connected speech recognition.",
                inputs_description=__doc__ or "",
                features=string_features(),
                codebase_urls=["https://github.com/jitsi/jiwer/"],
                reference_urls=["https://en.wikipedia.org/wiki/Word_error_rate"],
            )

        def _compute(self, predictions: list[str], references: list[str],
                     concatenate_texts: bool = False) -> float:
            return error_rate(predictions, references, concatenate_texts=concatenate_texts)
