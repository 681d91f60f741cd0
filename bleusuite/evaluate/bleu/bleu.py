"""evaluate's ``bleu`` module on bleusuite: ``evaluate.load(module_path("bleu"))``.

The inputs, arguments and keys of evaluate's ``bleu``, which scores with the tensorflow/nmt
script's ``compute_bleu``: the 13a tokens of the raw strings, as evaluate's ``Tokenizer13a``
gives them (:func:`~bleusuite.evaluate.as_evaluate_13a`; or ``tokenizer``'s, a function from
a line to its tokens), the shortest reference length (``ref_length="shortest"``), and
``smooth=True`` adding one to every order (``smooth="nmt_smooth"``; ``False`` is
``"no_smooth"``), 0-1.
Where that script divides by zero (no hypothesis or no reference token in the corpus) this
module gives the shared brevity penalty's numbers instead of an error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from bleusuite import backends, bleu_score, bleu_statistics
from bleusuite.evaluate import base, tokenized
from bleusuite.scores.bleu.addone_formula import addone_precisions
from bleusuite.scores.bleu.precisions import shown_precisions
from bleusuite.scores.bleu.result import BleuResult

__all__ = ["Bleu"] if base.INSTALLED else []

if base.INSTALLED:  # the script is evaluate's: without it there is nothing to define
    class Bleu(base.ScriptMetric,
               description="BLEU of the tensorflow/nmt script (evaluate's bleu), counted by "
                           "bleusuite",
               citation="Papineni et al., 2002. BLEU: a Method for Automatic Evaluation of "
                        "Machine Translation.",
               codebase_urls=["https://github.com/tensorflow/nmt/blob/master/nmt/scripts/"
                              "bleu.py"]):
        """BLEU as evaluate's ``bleu`` computes it (the tensorflow/nmt script)."""

        def _compute(self, predictions: list[str], references: list[Any],
                     tokenizer: Callable[[str], list[str]] | None = None, max_order: int = 4,
                     smooth: bool = False) -> dict[str, Any]:
            hyps, refs, tokenize = tokenized(predictions, references, tokenizer)
            stats = bleu_statistics(hyps, refs, max_order=max_order, ref_length="shortest",
                                    tokenize=tokenize)
            name = "nmt_smooth" if smooth else "no_smooth"
            summed = stats.sum()
            result = BleuResult.from_stats(summed, max_order=max_order, smooth=name,
                                           ref_length="shortest")
            # evaluate's scale is 0-1: the score and precisions of the statistics
            # themselves, not the result's 0-100 ones divided
            if smooth:
                precisions = np.asarray(addone_precisions(
                    backends.get_backend(summed.matches), summed.matches, summed.totals,
                    name)).tolist()
            else:
                precisions = shown_precisions(summed, max_order, name, None).tolist()
            score = float(bleu_score(summed, max_order=max_order, smooth=name))
            return {"bleu": score, "precisions": precisions,
                    "brevity_penalty": result.brevity_penalty,
                    "length_ratio": result.ratio,
                    "translation_length": result.hyp_len,
                    "reference_length": result.ref_len}
