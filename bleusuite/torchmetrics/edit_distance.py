"""torchmetrics' ``EditDistance`` and ``ExtendedEditDistance``, computed by bleusuite's
compiled kernels (:mod:`bleusuite.scores.eed`): the same arguments, checks, states,
``update`` / ``compute`` and results (values, dtypes and shapes) as torchmetrics 1.9's.

>>> from bleusuite.torchmetrics import EditDistance, ExtendedEditDistance
>>> EditDistance()(["rain", "lnaguaeg"], ["shine", "language"])
tensor(3.5000)
>>> ExtendedEditDistance()(["this is the prediction"], ["this is the reference"])
tensor(0.3835)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import torch
from torchmetrics import Metric
from torchmetrics.utilities import dim_zero_cat

__all__ = ["EditDistance", "ExtendedEditDistance"]

_REDUCTIONS = (None, "mean", "sum", "none")


class EditDistance(Metric):
    """The Levenshtein distance between the characters of each prediction and its target
    (``torchmetrics.text.EditDistance``): insertions and deletions cost 1, a substitution
    ``substitution_cost``, counted within torchmetrics' beam (sacrebleu's TER beam: the
    full distance unless the strings differ in length by ~25 characters or more, where
    torchmetrics' number is kept), by the compiled kernel of
    :mod:`bleusuite.scores.eed.levenshtein`.

    Args:
        substitution_cost: the cost of a substitution, an int >= 0.
        reduction: ``"mean"`` (a float32 0-d tensor), ``"sum"`` (int64), ``"none"`` or
            None (every pair's distance, int32), as torchmetrics.
        kwargs: torchmetrics' ``Metric`` arguments.

    ``compute`` before any ``update`` gives torchmetrics' numbers (``nan`` for the mean,
    0 for the sum), and for ``"none"`` an empty result (``tensor(0, dtype=torch.int32)``,
    torchmetrics' for an empty batch) where torchmetrics raises.

    >>> metric = EditDistance(substitution_cost=2)
    >>> metric(["rain"], ["shine"])
    tensor(5.)
    >>> EditDistance(reduction="none")(["rain", "lnaguaeg"], ["shine", "language"])
    tensor([3, 4], dtype=torch.int32)
    """

    higher_is_better = False
    is_differentiable = False
    full_state_update = False
    plot_lower_bound = 0.0

    edit_scores_list: list[torch.Tensor]
    edit_scores: torch.Tensor
    num_elements: torch.Tensor

    def __init__(self, substitution_cost: int = 1,
                 reduction: Literal["mean", "sum", "none"] | None = "mean",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not (isinstance(substitution_cost, int) and substitution_cost >= 0):
            raise ValueError("Expected argument `substitution_cost` to be a positive integer, "
                             f"but got {substitution_cost}")
        self.substitution_cost = substitution_cost
        if reduction not in _REDUCTIONS:
            raise ValueError(f"Expected argument `reduction` to be one of {_REDUCTIONS}, but "
                             f"got {reduction}")
        self.reduction = reduction
        if reduction in (None, "none"):
            self.add_state("edit_scores_list", default=[], dist_reduce_fx="cat")
        else:
            self.add_state("edit_scores", default=torch.tensor(0), dist_reduce_fx="sum")
            self.add_state("num_elements", default=torch.tensor(0), dist_reduce_fx="sum")

    def update(self, preds: str | Sequence[str], target: str | Sequence[str]) -> None:
        """Add a batch: predictions and their targets, strings (or one string each).

        Raises:
            ValueError: a value that is not a str, or ``preds`` and ``target`` of different
                lengths (torchmetrics' checks).
            OverflowError: a distance that does not fit torchmetrics' int32.
        """
        from bleusuite.scores.eed import edit_distances

        preds = [preds] if isinstance(preds, str) else preds
        target = [target] if isinstance(target, str) else target
        if not all(isinstance(x, str) for x in preds):
            raise ValueError(
                f"Expected all values in argument `preds` to be string type, but got {preds}")
        if not all(isinstance(x, str) for x in target):
            raise ValueError(
                f"Expected all values in argument `target` to be string type, but got {target}")
        if len(preds) != len(target):
            raise ValueError("Expected argument `preds` and `target` to have same length, but "
                             f"got {len(preds)} and {len(target)}")
        distances = torch.from_numpy(
            edit_distances(preds, target, self.substitution_cost).astype(np.int32))
        if self.reduction in (None, "none"):
            self.edit_scores_list.append(distances.to(self.device))
        else:
            self.edit_scores += distances.sum().to(self.edit_scores.device)
            self.num_elements += distances.shape[0]

    def compute(self) -> torch.Tensor:
        """The mean or sum of the distances seen, or every distance (``reduction``)."""
        if self.reduction in (None, "none"):
            # a list of tensors, or one tensor where a distributed sync concatenated them
            if isinstance(self.edit_scores_list, list) and not self.edit_scores_list:
                return torch.tensor(0, dtype=torch.int32, device=self.device)
            scores = dim_zero_cat(self.edit_scores_list)
            if scores.numel() == 0:
                return torch.tensor(0, dtype=torch.int32, device=scores.device)
            return scores
        if self.reduction == "mean":
            return self.edit_scores.sum() / self.num_elements
        return self.edit_scores.sum()

    def plot(self, val: Any = None, ax: Any = None) -> Any:
        """torchmetrics' plot of one value or a list of them (``metric.compute()`` by default):
        a matplotlib ``(figure, axes)``; needs matplotlib."""
        return self._plot(val, ax)


class ExtendedEditDistance(Metric):
    """EED, the extended edit distance of Stanchev, Wang and Ney (2019), as
    ``torchmetrics.text.ExtendedEditDistance`` computes it: each sentence's score against
    its closest reference, after the preprocessing of ``language``, averaged over the
    sentences; the grid in the compiled kernel of :mod:`bleusuite.scores.eed.extended`.

    Each sentence's score is a float32 tensor, and the average is their float32 sum, added
    one after another, divided by their number, as torchmetrics does (so that every digit
    is its own). Where every sentence scores 1, torchmetrics' sentence scores are int64
    (its ``min(1, score)`` gives the int 1), and so are these.

    Args:
        language: ``"en"`` or ``"ja"``: the preprocessing (:mod:`bleusuite.scores.eed.
            preprocess`).
        return_sentence_level_score: ``compute`` returns ``(average, every sentence's
            score)``.
        alpha: the cost of a jump (at a space of the reference), a float >= 0.
        rho: the coverage cost (a character visited more than once), a float >= 0.
        deletion: the cost of a deletion, a float >= 0.
        insertion: the cost of an insertion, a float >= 0.
        kwargs: torchmetrics' ``Metric`` arguments.

    torchmetrics' own rules are kept: a batch whose first prediction has no reference adds
    nothing, a later prediction without one scores ``inf``, and a reference string where
    a list is expected is a list of one-character references. Where torchmetrics raises
    an ``IndexError`` (an empty batch) nothing is added, and with
    ``return_sentence_level_score`` and no sentence ``compute`` gives ``(tensor(0.),
    tensor([]))`` where torchmetrics raises, and after a distributed sync the sentence
    scores are the gathered ones (where torchmetrics' stack of them fails).

    >>> preds = ["this is the prediction", "here is an other sample"]
    >>> target = ["this is the reference", "here is another one"]
    >>> ExtendedEditDistance(return_sentence_level_score=True)(preds, target)
    (tensor(0.3078), tensor([0.3835, 0.2321]))
    """

    higher_is_better = False
    is_differentiable = False
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    sentence_eed: list[torch.Tensor]

    def __init__(self, language: Literal["en", "ja"] = "en",
                 return_sentence_level_score: bool = False, alpha: float = 2.0,
                 rho: float = 0.3, deletion: float = 0.2, insertion: float = 1.0,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if language not in ("en", "ja"):
            raise ValueError(
                f"Expected argument `language` to either be `en` or `ja` but got {language}")
        self.language: Literal["en", "ja"] = language
        self.return_sentence_level_score = return_sentence_level_score
        for name, value in (("alpha", alpha), ("rho", rho), ("deletion", deletion),
                            ("insertion", insertion)):
            if not isinstance(value, float) or value < 0:
                raise ValueError(f"Parameter `{name}` is expected to be a non-negative float.")
        self.alpha, self.rho, self.deletion, self.insertion = alpha, rho, deletion, insertion
        self.add_state("sentence_eed", [], dist_reduce_fx="cat")

    def update(self, preds: str | Sequence[str],
               target: Sequence[str | Sequence[str]]) -> None:
        """Add a batch: predictions (a string or a list of them) and per prediction a
        reference string or a list of them (a flat list of strings: one reference each, or
        all of them for a single prediction), as torchmetrics reads them.

        Raises:
            ValueError: a value that is not a str, or as many predictions as targets
                (torchmetrics' checks).
            ZeroDivisionError: an empty reference (``language="ja"``) where ``rho`` is 0.
        """
        from bleusuite.scores.eed import eed_scores

        preds = [preds] if isinstance(preds, str) else preds
        if all(isinstance(ref, str) for ref in target):
            target = [target] if len(preds) == 1 else [[ref] for ref in target]  # type: ignore[list-item]
        if preds and all(target) and len(target) != len(preds):
            raise ValueError(f"Expected `preds` and `target` of the same length (corpus has "
                             f"different size {len(target)} != {len(preds)})")
        references = [list(reference) for reference in target]
        # torchmetrics checks every text, paired or not
        for name, texts in (("preds", preds),
                            ("target", itertools.chain.from_iterable(references))):
            for text in texts:
                if not isinstance(text, str):
                    raise ValueError(f"Expected all values in argument `{name}` to be strings "
                                     f"(only strings allowed during preprocessing step), "
                                     f"found {type(text)} instead")
        if not preds or not references or not references[0]:
            return  # torchmetrics' rule (where it does not raise an IndexError)
        pairs = min(len(preds), len(references))  # zip's, where a target was empty
        scores = eed_scores(preds[:pairs], references[:pairs], self.language, self.alpha,
                            self.rho, self.deletion, self.insertion)
        self.sentence_eed.append(torch.from_numpy(scores.astype(np.float32)).to(self.device))

    def compute(self) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
        """The average score (a float32 0-d tensor); with ``return_sentence_level_score``,
        with every sentence's score."""
        # a list of tensors, or one tensor where a distributed sync concatenated them
        if isinstance(self.sentence_eed, list) and not self.sentence_eed:
            sentences = torch.zeros(0, dtype=torch.float32, device=self.device)
        else:
            sentences = dim_zero_cat(self.sentence_eed)
        if len(sentences) == 0:
            average = torch.tensor(0.0, device=sentences.device)
        else:
            # torchmetrics' sum(list): float32 additions in order, then a float32 division
            total = np.add.accumulate(sentences.detach().cpu().numpy())[-1]
            average = (torch.tensor(total, dtype=torch.float32)
                       / torch.tensor(len(sentences))).to(sentences.device)
        if not self.return_sentence_level_score:
            return average
        if len(sentences) and bool((sentences == 1).all()):
            # torchmetrics' score 1 is min(1, x)'s int: a stack of only those is int64
            sentences = sentences.to(torch.int64)
        return average, sentences

    def plot(self, val: Any = None, ax: Any = None) -> Any:
        """torchmetrics' plot of one value or a list of them (``metric.compute()`` by default):
        a matplotlib ``(figure, axes)``; needs matplotlib."""
        return self._plot(val, ax)
