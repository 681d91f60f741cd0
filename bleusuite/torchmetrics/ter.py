"""torchmetrics' ``TranslationEditRate`` with sacrebleu's TER."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torchmetrics.utilities import dim_zero_cat

from bleusuite.scores.ter.formula import ter_scores
from bleusuite.scores.ter.score import statistics_and_batch
from bleusuite.scores.ter.settings import TerSettings
from bleusuite.torchmetrics.statistics_metric import StatisticsMetric

__all__ = ["TranslationEditRate"]


class TranslationEditRate(StatisticsMetric):
    """TER of a corpus, ``torchmetrics.text.TranslationEditRate``'s arguments with
    sacrebleu's numbers: ``sacrebleu.corpus_ter(...).score / 100`` (its tercom tokenizer,
    shift heuristics and beam, counted by :mod:`bleusuite.scores.ter.edits`).

    torchmetrics' own TER gives other numbers on many lines (another beam and shift search,
    float32 sums; ``docs/ter.md``). Here the state is the summed integer statistics
    (:class:`bleusuite.TerStats`), exact across batches and processes; the score is float64.

    Args:
        normalize: tercom's normalisation (sacrebleu's ``normalized``).
        no_punctuation: remove punctuation (``no_punct``).
        lowercase: lowercase first (``not case_sensitive``).
        asian_support: the CJK rules of ``normalize`` and ``no_punctuation``.
        return_sentence_level_score: ``compute`` returns ``(corpus TER, every sentence's
            TER)``.
        pad_id: with token ids, the padding id.
        eos_id: with token ids, the id that ends a sentence.
        kwargs: torchmetrics' ``Metric`` arguments.

    >>> metric = TranslationEditRate()
    >>> metric(["the cat is on the mat"], [["there is a cat on the mat", "a cat is on the mat"]])
    tensor(0.1538, dtype=torch.float64)
    """

    higher_is_better = False
    plot_upper_bound = None

    sentence_ter: list[torch.Tensor] | None

    def __init__(
        self,
        normalize: bool = False,
        no_punctuation: bool = False,
        lowercase: bool = True,
        asian_support: bool = False,
        return_sentence_level_score: bool = False,
        *,
        pad_id: int | None = None,
        eos_id: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(2, None, False, pad_id, eos_id, **kwargs)
        for name, value in (("normalize", normalize), ("no_punctuation", no_punctuation),
                            ("lowercase", lowercase), ("asian_support", asian_support),
                            ("return_sentence_level_score", return_sentence_level_score)):
            if not isinstance(value, bool):
                raise TypeError(f"{name} must be a bool; got {value!r}")
        self._settings = TerSettings(normalized=normalize, no_punct=no_punctuation,
                                     asian_support=asian_support, case_sensitive=not lowercase)
        self.return_sentence_level_score = return_sentence_level_score
        if return_sentence_level_score:
            self.add_state("sentence_ter", [], dist_reduce_fx="cat")
        else:
            self.sentence_ter = None

    def update(self, preds: Any, target: Any) -> None:
        """Add a batch: text as torchmetrics takes it (a string or a list of them, and per
        string a reference string or a list of them), or token ids as
        :func:`bleusuite.sentence_ter` takes them.

        Raises:
            TypeError, ValueError: malformed input; the message names what is wrong.
        """
        if isinstance(preds, str):
            preds = [preds]
        text = isinstance(preds, Sequence) and all(isinstance(p, str) for p in preds)
        if text and isinstance(target, Sequence) and not isinstance(target, str) and all(
                isinstance(t, str) for t in target):
            # torchmetrics' reading of a flat list of strings
            target = [list(target)] if len(preds) == 1 else [[t] for t in target]
        if text and not preds:
            return
        ids = {} if text else {"pad_id": self.pad_id, "eos_id": self.eos_id}
        stats, _ = statistics_and_batch(preds, target, self._settings, ids)
        if len(stats) == 0:
            return
        summed = torch.from_numpy(np.asarray(stats.sum().to_array(), dtype=np.int64))
        self.statistics += summed.to(self.statistics.device)
        if self.sentence_ter is not None:
            scores = torch.from_numpy(ter_scores(stats) / 100.0)
            self.sentence_ter.append(scores.to(self.statistics.device))

    def compute(self) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
        """The corpus TER of every sentence seen (in every process): a 0-d float64 tensor;
        with ``return_sentence_level_score``, with every sentence's TER."""
        stats = self.statistics.detach().cpu().numpy()
        corpus = torch.tensor(float(ter_scores(stats)[()]) / 100.0, dtype=torch.float64,
                              device=self.statistics.device)
        if self.sentence_ter is None:
            return corpus
        sentences = (dim_zero_cat(self.sentence_ter) if self.sentence_ter else
                     torch.zeros(0, dtype=torch.float64, device=self.statistics.device))
        return corpus, sentences
