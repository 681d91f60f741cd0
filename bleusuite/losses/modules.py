"""The losses: ``-log(score + eps)`` of :func:`soft_bleu` / :func:`soft_gleu` as ``nn.Module``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import torch
from torch import Tensor, nn

from bleusuite import checks
from bleusuite.losses.scores import soft_bleu, soft_gleu

__all__ = ["BleuLoss", "GleuLoss"]

Reduction = Literal["mean", "sum", "none"]
_REDUCTIONS = ("mean", "sum", "none")


class _ScoreLoss(nn.Module):
    """``-log(score + eps)`` of a soft score (:meth:`_score`), reduced over the batch."""

    #: the settings :meth:`extra_repr` shows before the shared ones
    _shown: ClassVar[tuple[str, ...]]

    def __init__(
        self, eos_id: int | None, eps: float, reduction: Reduction, pad_id: int | None,
        corpus: bool,
    ) -> None:
        super().__init__()
        self.eos_id = checks.token_id(eos_id, "eos_id")
        self.eps = checks.number(eps, "eps", positive=True)
        if reduction not in _REDUCTIONS:
            raise ValueError(f"reduction must be one of {_REDUCTIONS}, got {reduction!r}")
        self.reduction: Reduction = reduction
        self.pad_id = checks.token_id(pad_id, "pad_id")
        self.corpus = bool(corpus)

    def _score(self, hyp_probs: Tensor, references: Tensor | Sequence[Any]) -> Tensor:
        raise NotImplementedError

    if TYPE_CHECKING:  # nn.Module types a call as returning Any; it returns forward's
        def __call__(self, hyp_probs: Tensor, references: Tensor | Sequence[Any]) -> Tensor:
            ...

    def forward(self, hyp_probs: Tensor, references: Tensor | Sequence[Any]) -> Tensor:
        loss = -torch.log(self._score(hyp_probs, references) + self.eps)
        if self.reduction == "none":
            return loss
        return loss.mean() if self.reduction == "mean" else loss.sum()

    def extra_repr(self) -> str:
        return (
            f"{', '.join(f'{name}={getattr(self, name)}' for name in self._shown)}, "
            f"eos_id={self.eos_id}, eps={self.eps}, "
            f"reduction={self.reduction!r}, pad_id={self.pad_id}, corpus={self.corpus}"
        )


class BleuLoss(_ScoreLoss):
    """``-log(soft_bleu(hyp_probs, references) + eps)``, reduced over the batch.

    Args:
        max_order: largest n-gram order.
        eos_id: end-of-sentence id (see :func:`soft_bleu`).
        eps: positive constant inside the log (paper, section 2).
        reduction: ``"mean"`` | ``"sum"`` | ``"none"`` (per-sentence losses ``(B,)``).
        weights: n-gram weights, uniform by default.
        pad_id: padding id (see :func:`soft_bleu`).
        corpus: use the minibatch BLEU (a single value of shape ``()``).

    Example:
        >>> import torch
        >>> from bleusuite.losses import BleuLoss
        >>> _ = torch.manual_seed(0)
        >>> logits = torch.randn(2, 6, 20, requires_grad=True)
        >>> refs = torch.randint(3, 20, (2, 6))
        >>> loss = BleuLoss(max_order=2)(logits.softmax(-1), refs)
        >>> loss.shape, bool(loss > 0)
        (torch.Size([]), True)
        >>> loss.backward()
        >>> logits.grad.shape
        torch.Size([2, 6, 20])
    """

    _shown = ("max_order",)

    def __init__(
        self,
        max_order: int = 4,
        eos_id: int | None = None,
        eps: float = 1e-8,
        reduction: Reduction = "mean",
        *,
        weights: Sequence[float] | None = None,
        pad_id: int | None = None,
        corpus: bool = False,
    ) -> None:
        super().__init__(eos_id, eps, reduction, pad_id, corpus)
        self.max_order = checks.order(max_order, "max_order")
        self.weights = None if weights is None else checks.weights(weights, self.max_order)

    def _score(self, hyp_probs: Tensor, references: Tensor | Sequence[Any]) -> Tensor:
        return soft_bleu(
            hyp_probs, references, max_order=self.max_order, weights=self.weights,
            eos_id=self.eos_id, pad_id=self.pad_id, corpus=self.corpus,
        )



class GleuLoss(_ScoreLoss):
    """``-log(soft_gleu(hyp_probs, references) + eps)``, reduced over the batch.

    Args:
        min_len: smallest n-gram order.
        max_len: largest n-gram order.
        eos_id: end-of-sentence id (see :func:`soft_bleu`).
        eps: positive constant inside the log.
        reduction: ``"mean"`` | ``"sum"`` | ``"none"`` (per-sentence losses ``(B,)``).
        pad_id: padding id (see :func:`soft_bleu`).
        corpus: use the minibatch GLEU (a single value of shape ``()``).

    Example:
        >>> import torch
        >>> from bleusuite.losses import GleuLoss
        >>> refs = torch.tensor([[4, 5, 6, 7], [4, 4, 4, 4]])
        >>> hyp = torch.nn.functional.one_hot(refs, 8).double()
        >>> GleuLoss(reduction="none")(hyp, refs)
        tensor([-1.0000e-08, -1.0000e-08], dtype=torch.float64)
    """

    _shown = ("min_len", "max_len")

    def __init__(
        self,
        min_len: int = 1,
        max_len: int = 4,
        eos_id: int | None = None,
        eps: float = 1e-8,
        reduction: Reduction = "mean",
        *,
        pad_id: int | None = None,
        corpus: bool = False,
    ) -> None:
        super().__init__(eos_id, eps, reduction, pad_id, corpus)
        self.min_len, self.max_len = checks.gleu_orders(min_len, max_len)

    def _score(self, hyp_probs: Tensor, references: Tensor | Sequence[Any]) -> Tensor:
        return soft_gleu(
            hyp_probs, references, min_len=self.min_len, max_len=self.max_len,
            eos_id=self.eos_id, pad_id=self.pad_id, corpus=self.corpus,
        )

