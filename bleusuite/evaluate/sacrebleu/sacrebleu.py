"""evaluate's ``sacrebleu`` module on bleusuite: ``evaluate.load(module_path("sacrebleu"))``.

The inputs, arguments and keys of evaluate's ``sacrebleu`` (sacrebleu's ``corpus_bleu``,
scores 0-100), with sacrebleu's numbers to the last bit, counted by
:class:`bleusuite.sacrebleu.BLEU`. Without ``evaluate`` installed this script defines nothing
(so that it can be imported, e.g. to collect doctests); evaluate's loader needs it.
"""

from __future__ import annotations

from typing import Any

from bleusuite.evaluate import features, per_prediction
from bleusuite.sacrebleu import BLEU

try:
    import evaluate
except ImportError:  # the module is evaluate's: without it there is nothing to define
    __all__: list[str] = []
else:
    __all__ = ["Sacrebleu"]

    class Sacrebleu(evaluate.Metric):
        """sacrebleu's corpus BLEU as evaluate's ``sacrebleu`` computes it.

        ``compute(predictions=[...], references=[[...], ...], smooth_method="exp",
        smooth_value=None, force=False, lowercase=False, tokenize=None,
        use_effective_order=False)``: references per prediction (the same number for
        each), or one string per prediction.
        """

        def _info(self) -> evaluate.MetricInfo:
            return evaluate.MetricInfo(
                description="sacrebleu's corpus BLEU (evaluate's sacrebleu), counted by "
                            "bleusuite",
                citation="Post, 2018. A Call for Clarity in Reporting BLEU Scores.",
                inputs_description=__doc__ or "",
                features=features(),
                codebase_urls=["https://github.com/mjpost/sacreBLEU"],
            )

        def _compute(self, predictions: list[str], references: list[Any],
                     smooth_method: str = "exp", smooth_value: float | None = None,
                     force: bool = False, lowercase: bool = False,
                     tokenize: str | None = None,
                     use_effective_order: bool = False) -> dict[str, Any]:
            rows = per_prediction(references)
            width = len(rows[0]) if rows else 0
            if any(len(refs) != width for refs in rows):
                raise ValueError("Sacrebleu requires the same number of references for each "
                                 "prediction")
            streams: list[list[str | None]] = [[refs[i] for refs in rows]
                                               for i in range(width)]
            output = BLEU(lowercase=lowercase, force=force, tokenize=tokenize,
                          smooth_method=smooth_method, smooth_value=smooth_value,
                          effective_order=use_effective_order).corpus_score(predictions,
                                                                            streams)
            return {"score": output.score, "counts": output.counts, "totals": output.totals,
                    "precisions": output.precisions, "bp": output.bp,
                    "sys_len": output.sys_len, "ref_len": output.ref_len}
