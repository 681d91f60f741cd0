"""evaluate's ``sacrebleu`` module on bleusuite: ``evaluate.load(module_path("sacrebleu"))``.

The inputs, arguments and keys of evaluate's ``sacrebleu`` (sacrebleu's ``corpus_bleu``,
scores 0-100), with sacrebleu's numbers to the last bit, counted by
:class:`bleusuite.sacrebleu.BLEU`.
"""

from __future__ import annotations

from typing import Any

from bleusuite.evaluate import base, reference_streams
from bleusuite.sacrebleu import BLEU

__all__ = ["Sacrebleu"] if base.INSTALLED else []

if base.INSTALLED:  # the script is evaluate's: without it there is nothing to define
    class Sacrebleu(base.ScriptMetric,
                    description="sacrebleu's corpus BLEU (evaluate's sacrebleu), counted by "
                                "bleusuite",
                    citation="Post, 2018. A Call for Clarity in Reporting BLEU Scores.",
                    codebase_urls=["https://github.com/mjpost/sacreBLEU"]):
        """sacrebleu's corpus BLEU as evaluate's ``sacrebleu`` computes it: the same number
        of references for each prediction, or one string each."""

        def _compute(self, predictions: list[str], references: list[Any],
                     smooth_method: str = "exp", smooth_value: float | None = None,
                     force: bool = False, lowercase: bool = False,
                     tokenize: str | None = None,
                     use_effective_order: bool = False) -> dict[str, Any]:
            streams = reference_streams(references, "Sacrebleu requires the same number of "
                                        "references for each prediction")
            output = BLEU(lowercase=lowercase, force=force, tokenize=tokenize,
                          smooth_method=smooth_method, smooth_value=smooth_value,
                          effective_order=use_effective_order).corpus_score(predictions,
                                                                            streams)
            return {"score": output.score, "counts": output.counts, "totals": output.totals,
                    "precisions": output.precisions, "bp": output.bp,
                    "sys_len": output.sys_len, "ref_len": output.ref_len}
