"""A TensorBLEU-style pipeline (a benchmark peer, not one of ``bleusuite bench``'s): torch
counts written from the paper's description, scored with bleusuite's own formulas, so its
scores must equal bleusuite's for the same smoothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import bleusuite
from bleusuite.bench.peers import to_host, torch_unavailable
from bleusuite.bench.tasks import NLTK_SETTINGS, Entry, Inputs, Task, expect

__all__ = ["TENSORBLEU", "TENSORBLEU_CUDA", "tensorbleu_entries", "tensorbleu_style_stats"]

#: the names of its entries (CPU, CUDA)
TENSORBLEU = "TensorBLEU-style (unique dim=0)"
TENSORBLEU_CUDA = "TensorBLEU-style, torch CUDA"


def tensorbleu_style_stats(hyp: Any, ref: Any, max_order: int = 4) -> bleusuite.BleuStats:
    """Clipped counts as TensorBLEU computes them (one reference, no padding), written from
    the paper's description: unfold -> ``torch.unique(dim=0, return_inverse=True)`` over all
    n-grams of the batch -> offset ``bincount`` of size batch x unique n-grams -> clip -> sum.
    ``hyp`` and ``ref`` are (B, L) torch tensors; score the result with
    :func:`bleusuite.bleu_score`.
    """
    import torch

    batch, length = hyp.shape
    matches, totals = [], []
    for n in range(1, max_order + 1):
        hyp_ngrams = hyp.unfold(1, n, 1)  # (B, L-n+1, n)
        ref_ngrams = ref.unfold(1, n, 1)
        both = torch.cat([hyp_ngrams.reshape(-1, n), ref_ngrams.reshape(-1, n)])
        unique, inverse = torch.unique(both, dim=0, return_inverse=True)
        num_unique = unique.shape[0]
        per_sentence = hyp_ngrams.shape[1]
        hyp_ids = inverse[: batch * per_sentence].view(batch, per_sentence)
        ref_ids = inverse[batch * per_sentence :].view(batch, -1)
        offsets = (torch.arange(batch, device=hyp.device) * num_unique)[:, None]
        size = batch * num_unique
        hyp_counts = torch.bincount((hyp_ids + offsets).flatten(), minlength=size)
        ref_counts = torch.bincount((ref_ids + offsets).flatten(), minlength=size)
        clipped = torch.minimum(hyp_counts, ref_counts).view(batch, num_unique)
        matches.append(clipped.sum(1))
        totals.append(torch.full((batch,), per_sentence, device=hyp.device))
    lengths = torch.full((batch,), length, device=hyp.device)
    total = torch.stack(totals, 1)
    return bleusuite.BleuStats(lengths, lengths, torch.stack(matches, 1), total,
                               total.clamp(min=1))


def _tensorbleu_build(task: Task, cuda: bool) -> Callable[[Inputs], Callable[[], Any]]:
    """The TensorBLEU-style counts scored by bleusuite's formulas with NLTK's settings: per
    sentence, or summed for the corpus score."""

    def build(inputs: Inputs) -> Callable[[], Any]:
        import torch

        hyp, ref = torch.from_numpy(inputs.hyp), torch.from_numpy(inputs.refs[:, 0])
        if cuda:
            hyp, ref = hyp.cuda(), ref.cuda()

        def call() -> Any:
            stats = tensorbleu_style_stats(hyp, ref)
            if task.scope == "corpus":
                stats = stats.sum()
            out = bleusuite.bleu_score(stats, **NLTK_SETTINGS[task])
            if cuda:
                torch.cuda.synchronize()
            return out

        return call

    return build


def tensorbleu_entries() -> list[Entry]:
    """The TensorBLEU-style pipeline for per-sentence and corpus BLEU, CPU and CUDA.

    >>> [entry.name for entry in tensorbleu_entries()][:2]
    ['TensorBLEU-style (unique dim=0)', 'TensorBLEU-style, torch CUDA']
    """
    made = []
    for scope in ("sentence", "corpus"):
        task = Task("bleu", scope)
        settings = NLTK_SETTINGS[task]
        for name, cuda in ((TENSORBLEU, False), (TENSORBLEU_CUDA, True)):
            made.append(Entry(
                task, name, "tensorbleu-style", _tensorbleu_build(task, cuda), to_host,
                expect(task, **settings),
                unavailable=torch_unavailable(cuda), note="its counts, bleusuite's formulas",
                warmup=1 if cuda else 0,
            ))
    return made
