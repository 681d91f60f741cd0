"""The base of bleusuite's torchmetrics metrics over summed integer statistics, which reads
their inputs (text as torchmetrics reads it, or token ids)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torchmetrics import Metric

from bleusuite import checks
from bleusuite.evaluate import as_evaluate_13a
from bleusuite.inputs import Batch, normalize_batch, text_batch
from bleusuite.inputs.checks import check_tokenizer_name, is_text
from bleusuite.text import Tokenizer

__all__ = ["ARGNAMES", "StatisticsMetric", "raw_13a", "raw_13a_target"]

#: the names of the two inputs, in every error message
ARGNAMES = ("preds", "target")


def raw_13a(lines: Sequence[str]) -> Sequence[str]:
    """The lines as :func:`~bleusuite.evaluate.as_evaluate_13a` writes them for bleusuite's
    13a to read them raw (the list itself where no line holds a line break)."""
    if not any("\n" in line for line in lines):
        return lines
    return [as_evaluate_13a(line) for line in lines]


def raw_13a_target(target: Any) -> Any:
    """:func:`raw_13a` of each hypothesis' references (left as they are where malformed)."""
    if not isinstance(target, Sequence) or isinstance(target, str):
        return target
    out: list[Any] = []
    for refs in target:
        if isinstance(refs, str):
            out.append(raw_13a([refs])[0])
        elif isinstance(refs, Sequence) and all(isinstance(r, str) for r in refs):
            out.append(raw_13a(refs))
        else:
            out.append(refs)
    return out


class StatisticsMetric(Metric):
    """One state, the summed statistics (int64 ``(F,)``); subclasses count and score
    (``tokenize`` None: a subclass that reads its text itself, TER's)."""

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound: float | None = 1.0

    statistics: torch.Tensor

    def __init__(self, width: int, tokenize: str | None, lowercase: bool, pad_id: int | None,
                 eos_id: int | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if tokenize is not None:
            self.tokenize: str = check_tokenizer_name(tokenize)
            self.lowercase = checks.boolean(lowercase, "lowercase")
        self.pad_id = None if pad_id is None else checks.token_id(pad_id, "pad_id")
        self.eos_id = None if eos_id is None else checks.token_id(eos_id, "eos_id")
        self.add_state("statistics", torch.zeros(width, dtype=torch.int64),
                       dist_reduce_fx="sum")

    #: whether a tokenizer reads the raw line, as torchmetrics' ``SacreBLEUScore`` does
    #: (sacrebleu's BLEU strips the end of each line first; it matters to 13a's ``"-\n"``)
    _raw_lines = False

    def _counted(self, batch: Batch) -> Any:
        """The summed statistics of one batch, as one int64 array of its backend."""
        raise NotImplementedError

    def _text_tokenizer(self) -> tuple[str | Tokenizer, bool]:
        """The tokenizer of text and whether to lowercase each line before it."""
        return self.tokenize, self.lowercase

    def update(self, preds: Any, target: Any) -> None:
        """Add a batch.

        Args:
            preds: a list of hypothesis strings (tokenised by ``tokenize``), or token ids: a
                (B, L) tensor or array (any device), a list of 1-D tensors, or token lists.
            target: per hypothesis, a reference string or a list of them (``None``: no such
                reference); with token ids, (B, L) or (B, R, L) ids (a row of ``pad_id`` is
                an absent reference), 1-D tensors or token lists.

        Raises:
            TypeError, ValueError: malformed input; the message names ``preds`` or
                ``target``.
        """
        if isinstance(preds, str):
            raise TypeError("preds must be a list of strings (one per sentence): wrap a single "
                            "sentence in a list")
        if is_text(preds, argname="preds"):
            tokenize, lowercase = self._text_tokenizer()
            if tokenize == "13a" and self._raw_lines:
                preds, target = raw_13a(preds), raw_13a_target(target)
            batch = text_batch(preds, target, tokenize=tokenize, lowercase=lowercase,
                               argnames=ARGNAMES)[0]
        else:
            batch = normalize_batch(preds, target, pad_id=self.pad_id, eos_id=self.eos_id,
                                    argnames=ARGNAMES)
        if batch.size == 0:
            return
        counted = batch.to_caller(self._counted(batch))
        if not isinstance(counted, torch.Tensor):  # NumPy statistics (lists, text)
            counted = torch.from_numpy(np.asarray(counted))
        self.statistics += counted.to(device=self.statistics.device, dtype=torch.int64)

    def plot(self, val: Any = None, ax: Any = None) -> Any:
        """torchmetrics' plot of one value or a list of them (``metric.compute()`` by default):
        a matplotlib ``(figure, axes)``; needs matplotlib."""
        return self._plot(val, ax)
