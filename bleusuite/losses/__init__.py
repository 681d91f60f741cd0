"""Differentiable BLEU and GLEU scores and losses (Casas et al., 2018).

The hypothesis is a batch of token *distributions* ``hyp_probs`` ``(B, T, V)`` (softmax or
Gumbel-softmax outputs); the references are token ids ``(B, T)`` / ``(B, R, T)`` or
distributions ``(B, T, V)`` / ``(B, R, T, V)``. The n-gram counts are products and sums of
probabilities (length masks, 1-gram match matrices, their diagonal products per order,
clipped counts with the paper's validity mask: :mod:`bleusuite.losses.counts`), so the
scores are differentiable in ``hyp_probs``; the docs page ``losses.md`` gives the
construction. With strictly one-hot inputs the scores equal pytorch-ignite's sentence BLEU
with ``smooth="no_smooth"`` and NLTK's ``sentence_gleu``; ``corpus=True`` sums the
statistics over the batch first (paper, appendix A).
"""

from __future__ import annotations

try:
    import torch  # noqa: F401  (fail here, with the message below, not in a submodule)
except ImportError as _error:
    raise ImportError(
        f"bleusuite.losses needs torch ({_error}); install it with pip install "
        "'bleusuite[torch]'"
    ) from _error

from bleusuite.losses.modules import BleuLoss, GleuLoss
from bleusuite.losses.scores import soft_bleu, soft_gleu

__all__ = ["BleuLoss", "GleuLoss", "soft_bleu", "soft_gleu"]

for _public in (BleuLoss, GleuLoss, soft_bleu, soft_gleu):
    _public.__module__ = __name__  # documented (and pickled) under bleusuite.losses
del _public
