"""evaluate's ``rouge`` module on bleusuite: ``evaluate.load(module_path("rouge"))``.

The inputs, arguments and keys of evaluate's ``rouge`` (Google's rouge-score inside): per
type, rouge-score's F-measure of each prediction against its reference (``score_multi``
where references come as lists), and with ``use_aggregator=True`` (the default) the middle
of rouge-score's ``BootstrapAggregator`` (the same numbers for the same NumPy random state,
:func:`bleusuite.scores.rouge.aggregate.bootstrap_aggregate`), else the list of the
predictions' F-measures. Counted by :func:`bleusuite.rouge_scores`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import bleusuite
from bleusuite.evaluate import base, per_prediction
from bleusuite.scores.rouge.aggregate import bootstrap_aggregate
from bleusuite.scores.rouge.counts import counts_of_documents
from bleusuite.scores.rouge.documents import encode_documents
from bleusuite.scores.rouge.formula import best_reference
from bleusuite.scores.rouge.score import statistics_by_type
from bleusuite.scores.rouge.settings import DEFAULT_TYPES, check_types

__all__ = ["Rouge"] if base.INSTALLED else []

if base.INSTALLED:  # the script is evaluate's: without it there is nothing to define
    class Rouge(base.ScriptMetric,
                description="ROUGE (Google's rouge-score, evaluate's rouge), counted by "
                            "bleusuite",
                citation="Lin, 2004. ROUGE: A Package for Automatic Evaluation of Summaries.",
                codebase_urls=["https://github.com/google-research/google-research/tree/"
                               "master/rouge"]):
        """ROUGE as evaluate's ``rouge`` computes it (with a ``tokenizer``, ``use_stemmer``
        does nothing, as in rouge-score)."""

        def _compute(self, predictions: list[str], references: list[Any],
                     rouge_types: Sequence[str] | None = None, use_aggregator: bool = True,
                     use_stemmer: bool = False,
                     tokenizer: Callable[[str], Sequence[str]] | None = None) -> dict[str, Any]:
            types = check_types(DEFAULT_TYPES if rouge_types is None else rouge_types)
            rows = per_prediction(references)
            if tokenizer is None:
                stats = bleusuite.rouge_scores(predictions, rows, rouge_types=types,
                                               use_stemmer=use_stemmer)
            else:  # rouge-score's own tokenizer is the one that stems
                documents = encode_documents(predictions, rows, tokenize=tokenizer,
                                             with_sentences="rougeLsum" in types)
                stats = statistics_by_type(
                    *best_reference(counts_of_documents(documents, types)), types)
            if use_aggregator:
                return {key: score.mid.fmeasure
                        for key, score in bootstrap_aggregate(stats).items()}
            return {key: stats[key].fmeasure.tolist() for key in types}
