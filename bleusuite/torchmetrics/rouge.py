"""torchmetrics' ``ROUGEScore``, counted by bleusuite."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torchmetrics import Metric

from bleusuite.inputs.checks import check_texts
from bleusuite.scores.rouge.counts import counts_of_documents
from bleusuite.scores.rouge.documents import encode_documents
from bleusuite.scores.rouge.formula import TORCHMETRICS_ACCUMULATE, torchmetrics_scores
from bleusuite.scores.rouge.settings import ROUGE_TYPES

__all__ = ["ROUGEScore"]


class ROUGEScore(Metric):
    """ROUGE, a drop-in replacement for ``torchmetrics.text.rouge.ROUGEScore``: its arguments,
    inputs, keys and numbers (float32, as torchmetrics' own), counted by bleusuite.

    Each document's precision, recall and F-measure per key, with torchmetrics' tokenizer
    and references reduced as ``accumulate`` says
    (:func:`bleusuite.scores.rouge.formula.torchmetrics_scores`); the result is their mean,
    the state their sums and the number of documents.

    Args:
        use_stemmer: NLTK's Porter stemmer on the tokens of more than 3 characters.
        normalizer: a function str -> str used instead of the lowercasing and the removal
            of everything outside ``[a-z0-9]``.
        tokenizer: a function str -> list of str used instead of the split on whitespace.
        accumulate: ``"best"`` (the reference with the best F-measure) or ``"avg"`` (the
            mean over the references).
        rouge_keys: the keys: ``rouge1``..``rouge9``, ``rougeL``, ``rougeLsum``.
        kwargs: torchmetrics' ``Metric`` arguments.

    Raises:
        ValueError: an unknown key or ``accumulate`` (torchmetrics' messages).
        ImportError: ``rougeLsum`` without NLTK.

    >>> from bleusuite.torchmetrics import ROUGEScore
    >>> rouge = ROUGEScore(rouge_keys=("rouge1", "rougeL"))
    >>> scores = rouge("My name is John", "Is your name John")
    >>> scores["rouge1_fmeasure"], scores["rougeL_fmeasure"]     # torchmetrics' numbers
    (tensor(0.7500), tensor(0.5000))
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    documents: torch.Tensor

    def __init__(
        self,
        use_stemmer: bool = False,
        normalizer: Any = None,
        tokenizer: Any = None,
        accumulate: str = "best",
        rouge_keys: str | tuple[str, ...] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if not isinstance(rouge_keys, tuple):
            rouge_keys = (rouge_keys,)
        for key in rouge_keys:
            if key not in ROUGE_TYPES:
                raise ValueError(f"Got unknown rouge key {key}. Expected to be one of "
                                 f"{list(ROUGE_TYPES)}")
        if accumulate not in TORCHMETRICS_ACCUMULATE:
            raise ValueError(f"Got unknown accumulate value {accumulate}. Expected to be one "
                             f"of {TORCHMETRICS_ACCUMULATE}")
        if not isinstance(use_stemmer, bool):
            raise TypeError(f"use_stemmer must be a bool; got {use_stemmer!r}")
        if "rougeLsum" in rouge_keys:
            try:
                import nltk  # noqa: F401  (rougeLsum's sentences are nltk.sent_tokenize's)
            except ImportError:
                raise ImportError("ROUGEScore's rougeLsum splits sentences with "
                                  "nltk.sent_tokenize: pip install nltk") from None
        self.rouge_keys = rouge_keys
        self.use_stemmer = use_stemmer
        self.normalizer = normalizer
        self.tokenizer = tokenizer
        self.accumulate = accumulate
        self._types = tuple(dict.fromkeys(rouge_keys))
        for key in self._types:
            for measure in ("fmeasure", "precision", "recall"):
                self.add_state(f"{key}_{measure}", torch.tensor(0.0, dtype=torch.float64),
                               dist_reduce_fx="sum")
        self.add_state("documents", torch.tensor(0, dtype=torch.int64), dist_reduce_fx="sum")

    def _tokens(self, text: str) -> list[str]:
        """torchmetrics' ``_normalize_and_tokenize_text`` without its stemmer (applied
        afterwards to each distinct token), for a custom normalizer or tokenizer."""
        if callable(self.normalizer):
            text = self.normalizer(text)
        else:
            text = re.sub(r"[^a-z0-9]+", " ", text.lower())
        tokens = self.tokenizer(text) if callable(self.tokenizer) else re.split(r"\s+", text)
        return [token for token in tokens if isinstance(token, str) and len(token) > 0]

    def update(self, preds: str | Sequence[str],
               target: str | Sequence[str] | Sequence[Sequence[str]]) -> None:
        """Add documents: ``preds`` a string or a list of them, ``target`` per document a
        reference string or a list of them (torchmetrics' forms).

        Raises:
            TypeError, ValueError: malformed input; the message names ``preds`` or
                ``target``.
        """
        if isinstance(target, list) and all(isinstance(tgt, str) for tgt in target):
            target = [target] if isinstance(preds, str) else [[tgt] for tgt in target]
        if isinstance(preds, str):
            preds = [preds]
        if isinstance(target, str):
            target = [[target]]
        rows = check_texts(preds, target, names=("preds", "target"))
        for row, refs in enumerate(rows):
            if not refs:
                raise ValueError(f"target: prediction {row} has no reference")
        custom = callable(self.normalizer) or callable(self.tokenizer)
        documents = encode_documents(
            list(preds), rows, tokenize=self._tokens if custom else "rouge",
            use_stemmer=self.use_stemmer,
            sentences=_sentences if "rougeLsum" in self._types else None,
            with_sentences="rougeLsum" in self._types)
        counts = counts_of_documents(documents, self._types)
        scores = torchmetrics_scores(counts, self.accumulate)
        for t, key in enumerate(self._types):
            for measure, values in zip(("precision", "recall", "fmeasure"), scores,
                                       strict=True):
                state = getattr(self, f"{key}_{measure}")
                state += torch.as_tensor(float(np.sum(values[:, t])), dtype=torch.float64,
                                         device=state.device)
        self.documents += len(rows)

    def compute(self) -> dict[str, torch.Tensor]:
        """``{"<key>_fmeasure": ..., "<key>_precision": ..., "<key>_recall": ...}`` for each
        key: the mean over every document seen, 0-d float32 tensors (NaN before the first
        document, as torchmetrics)."""
        count = self.documents.to(torch.float64)
        return {f"{key}_{measure}": (getattr(self, f"{key}_{measure}") / count)
                .to(torch.float32)
                for key in self.rouge_keys for measure in ("fmeasure", "precision", "recall")}


def _sentences(text: str) -> list[str]:
    """torchmetrics' sentences of ``rougeLsum``: ``nltk.sent_tokenize``."""
    import nltk

    try:
        sentences: list[str] = nltk.sent_tokenize(text)
    except LookupError:
        raise LookupError("rougeLsum: torchmetrics splits sentences with nltk.sent_tokenize, "
                          "which needs NLTK's punkt_tab data: python -m nltk.downloader "
                          "punkt_tab") from None
    return sentences
