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

from bleusuite.evaluate import string_features
from bleusuite.evaluate.edits import error_rate

try:
    import evaluate
except ImportError:  # the module is evaluate's: without it there is nothing to define
    __all__: list[str] = []
else:
    __all__ = ["Cer"]

    class Cer(evaluate.Metric):
        """jiwer's CER as evaluate's ``cer`` computes it.

        ``compute(predictions=[...], references=[...], concatenate_texts=False)``: one
        reference string per prediction; returns the CER, a float (0 is perfect).
        """

        def _info(self) -> evaluate.MetricInfo:
            return evaluate.MetricInfo(
                description="Character error rate (jiwer's, evaluate's cer), counted by "
                            "bleusuite",
                citation="Morris, Maier and Green, 2004. From WER and RIL to MER and WIL: "
                         "improved evaluation measures for connected speech recognition.",
                inputs_description=__doc__ or "",
                features=string_features(),
                codebase_urls=["https://github.com/jitsi/jiwer/"],
                reference_urls=["https://en.wikipedia.org/wiki/Word_error_rate"],
            )

        def _compute(self, predictions: list[str], references: list[str],
                     concatenate_texts: bool = False) -> float:
            return error_rate(predictions, references, characters=True,
                              concatenate_texts=concatenate_texts)
