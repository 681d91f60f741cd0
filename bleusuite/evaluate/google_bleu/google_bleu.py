"""evaluate's ``google_bleu`` module on bleusuite: ``evaluate.load(module_path("google_bleu"))``.

The inputs, arguments and key of evaluate's ``google_bleu``: NLTK's ``corpus_gleu`` of the
13a tokens of the raw strings, as evaluate's ``Tokenizer13a`` gives them
(:func:`~bleusuite.evaluate.as_evaluate_13a`; or of ``tokenizer``'s tokens, a function from a
line to its tokens), 0-1, counted by :func:`bleusuite.corpus_gleu`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import bleusuite
from bleusuite.evaluate import base, tokenized

__all__ = ["GoogleBleu"] if base.INSTALLED else []

if base.INSTALLED:  # the script is evaluate's: without it there is nothing to define
    class GoogleBleu(base.ScriptMetric,
                     description="Google BLEU (NLTK's corpus_gleu, evaluate's google_bleu), "
                                 "counted by bleusuite",
                     citation="Wu et al., 2016. Google's Neural Machine Translation System."):
        """Google BLEU (GLEU) as evaluate's ``google_bleu`` computes it."""

        def _compute(self, predictions: list[str], references: list[Any],
                     tokenizer: Callable[[str], list[str]] | None = None, min_len: int = 1,
                     max_len: int = 4) -> dict[str, float]:
            hyps, refs, tokenize = tokenized(predictions, references, tokenizer)
            score = bleusuite.corpus_gleu(hyps, refs, min_len=min_len, max_len=max_len,
                                          tokenize=tokenize)
            return {"google_bleu": float(score)}
