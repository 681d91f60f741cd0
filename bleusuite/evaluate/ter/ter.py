"""evaluate's ``ter`` module on bleusuite: ``evaluate.load(module_path("ter"))``.

The inputs, arguments and keys of evaluate's ``ter`` (sacrebleu's ``TER``, scores 0-100),
with sacrebleu's numbers, counted by :class:`bleusuite.sacrebleu.TER`.
"""

from __future__ import annotations

from typing import Any

from bleusuite.evaluate import base, reference_streams
from bleusuite.sacrebleu import TER

__all__ = ["Ter"] if base.INSTALLED else []

if base.INSTALLED:  # the script is evaluate's: without it there is nothing to define
    class Ter(base.ScriptMetric,
              description="sacrebleu's TER (evaluate's ter), counted by bleusuite",
              citation="Snover et al., 2006. A Study of Translation Edit Rate with Targeted "
                       "Human Annotation.",
              codebase_urls=["https://github.com/mjpost/sacreBLEU#ter"]):
        """sacrebleu's corpus TER as evaluate's ``ter`` computes it: the same number of
        references for each prediction, or one string each."""

        def _compute(self, predictions: list[str], references: list[Any],
                     normalized: bool = False, ignore_punct: bool = False,
                     support_zh_ja_chars: bool = False,
                     case_sensitive: bool = False) -> dict[str, Any]:
            streams = reference_streams(references, "Sacrebleu requires the same number of "
                                        "references for each prediction")
            output = TER(normalized=normalized, no_punct=ignore_punct,
                         asian_support=support_zh_ja_chars,
                         case_sensitive=case_sensitive).corpus_score(predictions, streams)
            return {"score": output.score, "num_edits": output.num_edits,
                    "ref_length": output.ref_length}
