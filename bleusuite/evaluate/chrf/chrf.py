"""evaluate's ``chrf`` module on bleusuite: ``evaluate.load(module_path("chrf"))``.

The inputs, arguments and keys of evaluate's ``chrf``, which scores with sacrebleu's
``CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing).corpus_score``:
``score`` (0-100), ``char_order``, ``word_order``, ``beta``, with sacrebleu's numbers to the
last bit, counted by :class:`bleusuite.sacrebleu.CHRF`.
"""

from __future__ import annotations

from typing import Any

from bleusuite.evaluate import base, reference_streams
from bleusuite.sacrebleu import CHRF

__all__ = ["ChrF"] if base.INSTALLED else []

if base.INSTALLED:  # the script is evaluate's: without it there is nothing to define
    class ChrF(base.ScriptMetric,
               description="chrF and chrF++ of sacrebleu (evaluate's chrf), counted by "
                           "bleusuite",
               citation="Popović, 2015. chrF: character n-gram F-score for automatic MT "
                        "evaluation. Popović, 2017. chrF++: words helping character n-grams.",
               codebase_urls=["https://github.com/mjpost/sacreBLEU#chrf--chrf"]):
        """chrF and chrF++ as evaluate's ``chrf`` computes them (sacrebleu's ``CHRF``): the
        same number of references for each prediction, or one string each."""

        def _compute(self, predictions: list[str], references: list[Any],
                     char_order: int = 6, word_order: int = 0, beta: float = 2,
                     lowercase: bool = False, whitespace: bool = False,
                     eps_smoothing: bool = False) -> dict[str, Any]:
            streams = reference_streams(references, "ChrF, as implemented by sacrebleu, "
                                        "requires the same number of references for each "
                                        "prediction")
            output = CHRF(char_order, word_order, beta, lowercase, whitespace,
                          eps_smoothing).corpus_score(predictions, streams)
            return {"score": output.score, "char_order": output.char_order,
                    "word_order": output.word_order, "beta": output.beta}
