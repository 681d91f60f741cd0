"""Differentiable BLEU and GLEU scores and losses (Casas et al., 2018).

The hypothesis is a batch of token *distributions* ``hyp_probs`` of shape ``(B, T, V)``
(softmax or Gumbel-softmax outputs); the references are token ids ``(B, T)`` /
``(B, R, T)`` or distributions ``(B, T, V)`` / ``(B, R, T, V)``. Every step of the
n-gram counting is written with products and sums of probabilities, so the scores are
differentiable with respect to ``hyp_probs`` (and to reference distributions):

1. Length masks: ``mask[t] = prod_{i <= t} (1 - p_i(eos))`` (paper, eq. 2), times
   ``1 - p_t(pad)`` when ``pad_id`` is a vocabulary entry.
2. The 1-gram match matrix of the hypothesis against each reference,
   ``M[b, i, j] = <hyp_i, ref_j> * mask_i * mask_j``: a column gather for id
   references, a batched matmul for distributions. Never ``B x T x T x V``.
3. n-gram match matrices: products along the diagonals of the 1-gram matrix (eq. 6),
   built one order at a time, ``M_n[i, j] = M_{n-1}[i, j] * M_1[i + n - 1, j + n - 1]``.
4. Clipped counts with the paper's validity mask. ``first[i] = prod_{i' < i} (1 - S_n[i', i])``
   (``S_n`` = the hypothesis matched against itself) is 1 when hypothesis n-gram ``i`` is
   its first occurrence; ``count[i] = sum_{i' >= i} S_n[i, i']`` is how often it occurs
   from there on (all of its occurrences, for a first one) and
   ``ref_count[i] = sum_j M_n[i, j]`` how often it occurs in the reference. The clipped
   match count is ``sum_i first[i] * min(count[i], max_r ref_count_r[i])``. For one-hot
   inputs this is exactly ``sum_g min(count_hyp(g), max_r count_ref_r(g))`` and equals the
   paper's figure-1 construction (min of the two count-weighted match matrices), without
   needing the reference's own match matrix.
5. BLEU: ``bp * exp(sum_n w_n log p_n)`` with the brevity penalty inside the graph;
   GLEU: ``tp / max(hyp_total, ref_total)`` with the best reference.

With strictly one-hot inputs the scores equal pytorch-ignite's sentence BLEU with
``smooth="no_smooth"`` and NLTK's ``sentence_gleu`` (to rounding). ``corpus=True``
sums the statistics over the batch before the final division and exponentiation
(paper, appendix A), like ignite's ``average="micro"`` and NLTK's ``corpus_gleu``.
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
