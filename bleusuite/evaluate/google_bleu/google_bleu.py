"""evaluate's ``google_bleu`` module on bleusuite: ``evaluate.load(module_path("google_bleu"))``.

The inputs, arguments and key of evaluate's ``google_bleu``: NLTK's ``corpus_gleu`` of the
13a tokens of the raw strings, as evaluate's ``Tokenizer13a`` gives them
(:func:`~bleusuite.evaluate.as_evaluate_13a`; or of ``tokenizer``'s tokens, a function from a
line to its tokens), 0-1,
counted by :func:`bleusuite.corpus_gleu`. Without ``evaluate`` installed this script
defines nothing; evaluate's loader needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import bleusuite
from bleusuite.evaluate import as_evaluate_13a, features, per_prediction

try:
    import evaluate
except ImportError:  # the module is evaluate's: without it there is nothing to define
    __all__: list[str] = []
else:
    __all__ = ["GoogleBleu"]

    class GoogleBleu(evaluate.Metric):
        """Google BLEU (GLEU) as evaluate's ``google_bleu`` computes it.

        ``compute(predictions=[...], references=[[...], ...], tokenizer=None, min_len=1,
        max_len=4)``: ``tokenizer`` None is evaluate's default, sacrebleu's 13a.
        """

        def _info(self) -> evaluate.MetricInfo:
            return evaluate.MetricInfo(
                description="Google BLEU (NLTK's corpus_gleu, evaluate's google_bleu), "
                            "counted by bleusuite",
                citation="Wu et al., 2016. Google's Neural Machine Translation System.",
                inputs_description=__doc__ or "",
                features=features(),
            )

        def _compute(self, predictions: list[str], references: list[Any],
                     tokenizer: Callable[[str], list[str]] | None = None, min_len: int = 1,
                     max_len: int = 4) -> dict[str, float]:
            rows = per_prediction(references)
            if tokenizer is None:
                score = bleusuite.corpus_gleu(
                    [as_evaluate_13a(p) for p in predictions],
                    [[as_evaluate_13a(r) for r in refs] for refs in rows], tokenize="13a",
                    min_len=min_len, max_len=max_len)
            else:
                score = bleusuite.corpus_gleu(
                    [tokenizer(p) for p in predictions],
                    [[tokenizer(r) for r in refs] for refs in rows],
                    min_len=min_len, max_len=max_len)
            return {"google_bleu": float(score)}
