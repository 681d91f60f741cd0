"""ROUGE's counts (:class:`RougeCounts`): for each hypothesis, reference and ROUGE type, the
matches and both sides' totals, from one counting pass.

- ``rougeN``: the matches are the n-grams shared with the reference (as multisets: the
  per-reference clipped matches of :func:`bleusuite.counting.count_matches`), the totals
  each side's n-grams (``max(0, length - n + 1)``);
- ``rougeL``: the matches are the length of the longest common subsequence
  (:mod:`bleusuite.counting.lcs`), the totals the lengths;
- ``rougeLsum``: the matches are rouge-score's summary-level hits (each reference
  sentence's union LCS with the hypothesis sentences, clipped by the token counts), the
  totals the lengths.

>>> from bleusuite.inputs import normalize_batch
>>> batch = normalize_batch(np.array([[1, 2, 3, 4]]), np.array([[1, 3, 2, 4]]))
>>> counts = counts_of_batch(batch, ("rouge2", "rougeL"))
>>> counts.matches.tolist(), counts.hyp_totals.tolist(), counts.ref_totals.tolist()
([[[0, 3]]], [[3, 4]], [[[3, 4]]])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bleusuite import backends
from bleusuite.counting import count_matches, count_pairs
from bleusuite.counting.lcs import lcs_of_batch, lcs_pairs, union_hits
from bleusuite.scores.rouge.settings import type_order
from bleusuite.scores.statistics import ngram_totals

if TYPE_CHECKING:
    from bleusuite.inputs.batch import Batch
    from bleusuite.scores.rouge.documents import Documents

__all__ = ["RougeCounts", "counts_of_batch", "counts_of_documents"]


@dataclass(frozen=True)
class RougeCounts:
    """The counts of ``B`` hypotheses against ``R`` references for ``T`` ROUGE types.

    Attributes:
        matches: ``(B, R, T)`` int64.
        hyp_totals: ``(B, T)`` int64: the hypothesis n-grams (``rougeN``) or tokens.
        ref_totals: ``(B, R, T)`` int64: the reference's.
        present: ``(B, R)`` bool: which references exist.
    """

    matches: Any
    hyp_totals: Any
    ref_totals: Any
    present: Any


def counts_of_batch(batch: Batch, rouge_types: tuple[str, ...]) -> RougeCounts:
    """The counts of a batch of token ids, on its backend (one program on JAX).

    Raises:
        ValueError: ``rougeLsum``, which needs sentences (text).
    """
    if "rougeLsum" in rouge_types:
        raise ValueError("rouge_types: rougeLsum needs sentences: give text (documents whose "
                         "sentences are separated by newlines); token ids are one sentence")
    run = batch.backend.compiled(_counts_of_batch, static_argnums=(1,))
    counts: RougeCounts = run(batch, rouge_types)
    return counts


def _counts_of_batch(batch: Batch, rouge_types: tuple[str, ...]) -> RougeCounts:
    be = batch.backend
    orders = [n for n in map(type_order, rouge_types) if n is not None]
    per_reference = count_matches(batch, max(orders), per_reference=True).per_reference \
        if orders else None
    lcs = lcs_of_batch(batch) if "rougeL" in rouge_types else None
    matches, hyp_totals, ref_totals = [], [], []
    for rouge_type in rouge_types:
        n = type_order(rouge_type)
        if n is None:
            matches.append(lcs)
            hyp_totals.append(batch.hyp_len)
            ref_totals.append(batch.ref_len)
        else:
            assert per_reference is not None  # counted for every order asked for
            matches.append(per_reference[..., n - 1])
            hyp_totals.append(ngram_totals(be, batch.hyp_len, n, n)[..., 0])
            ref_totals.append(ngram_totals(be, batch.ref_len, n, n)[..., 0])
    return RougeCounts(_stacked(be, matches), _stacked(be, hyp_totals),
                       _stacked(be, ref_totals), batch.ref_present)


def _stacked(be: Any, parts: list[Any]) -> Any:
    return be.concat([be.to_int64(part)[..., None] for part in parts], axis=-1)


def counts_of_documents(documents: Documents, rouge_types: tuple[str, ...],
                        workers: int | None = None) -> RougeCounts:
    """The counts of tokenised documents (:mod:`bleusuite.scores.rouge.documents`), NumPy
    arrays: the n-gram matches of every order in one pass of the counting kernel, the LCS
    and the summary-level hits in one pass of the LCS kernel where the documents and their
    sentences share their token ids."""
    pairs, sentences = documents.pairs, documents.sentences
    be = backends.get_backend(pairs.hyp_lengths)
    orders = [n for n in map(type_order, rouge_types) if n is not None]
    per_reference = count_pairs(pairs, max(orders), per_reference=True,
                                workers=workers).per_reference if orders else None
    lcs = hits = None
    if "rougeLsum" in rouge_types:
        together = "rougeL" in rouge_types and sentences is pairs
        hits, lcs = union_hits(sentences, documents.marks, with_lcs=together, workers=workers)
    if "rougeL" in rouge_types and lcs is None:
        lcs = lcs_pairs(pairs, workers)
    matches, hyp_totals, ref_totals = [], [], []
    for rouge_type in rouge_types:
        n = type_order(rouge_type)
        rows = sentences if rouge_type == "rougeLsum" else pairs
        if n is None:
            matches.append(hits if rouge_type == "rougeLsum" else lcs)
            hyp_totals.append(rows.hyp_lengths)
            ref_totals.append(rows.ref_lengths)
        else:
            assert per_reference is not None
            matches.append(per_reference[..., n - 1])
            hyp_totals.append(np.maximum(rows.hyp_lengths - n + 1, 0))
            ref_totals.append(np.maximum(rows.ref_lengths - n + 1, 0))
    return RougeCounts(_stacked(be, matches), _stacked(be, hyp_totals),
                       _stacked(be, ref_totals), documents.present)


backends.register_container(RougeCounts)
