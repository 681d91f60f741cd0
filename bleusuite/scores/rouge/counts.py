"""ROUGE's counts (:class:`RougeCounts`): for each hypothesis, reference and ROUGE type, the
matches and both sides' totals, from one counting pass: ``rougeN``'s clipped n-gram matches
and n-gram totals, ``rougeL``'s longest common subsequence and the lengths, ``rougeLsum``'s
summary-level hits (each reference sentence's union LCS with the hypothesis sentences) and
the lengths.

>>> import numpy as np
>>> from bleusuite.inputs import normalize_batch
>>> batch = normalize_batch(np.array([[1, 2, 3, 4]]), np.array([[1, 3, 2, 4]]))
>>> counts = counts_of_batch(batch, ("rouge2", "rougeL"))
>>> counts.matches.tolist(), counts.hyp_totals.tolist(), counts.ref_totals.tolist()
([[[0, 3]]], [[3, 4]], [[[3, 4]]])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bleusuite import backends
from bleusuite.counting import count_matches, count_pairs
from bleusuite.counting.lcs import lcs_of_batch, lcs_pairs, union_hits
from bleusuite.scores.rouge.settings import type_order

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
    orders = [n for n in map(type_order, rouge_types) if n is not None]
    per_reference = count_matches(batch, max(orders), per_reference=True).per_reference \
        if orders else None
    lcs = lcs_of_batch(batch) if "rougeL" in rouge_types else None
    lengths = (batch.hyp_len, batch.ref_len)
    return _assembled(batch.backend, rouge_types, per_reference, lcs, None, lengths, lengths,
                      batch.ref_present)


def _assembled(be: Any, rouge_types: tuple[str, ...], per_reference: Any, lcs: Any, hits: Any,
               lengths: tuple[Any, Any], sentence_lengths: tuple[Any, Any],
               present: Any) -> RougeCounts:
    """The counts of each type from its matches and the (hypothesis, reference) lengths of
    the documents and of their runs of sentences."""
    matches, hyp_totals, ref_totals = [], [], []
    for rouge_type in rouge_types:
        n = type_order(rouge_type)
        hyp_len, ref_len = sentence_lengths if rouge_type == "rougeLsum" else lengths
        if n is None:
            matches.append(hits if rouge_type == "rougeLsum" else lcs)
            hyp_totals.append(hyp_len)
            ref_totals.append(ref_len)
        else:
            assert per_reference is not None  # counted for every order asked for
            matches.append(per_reference[..., n - 1])
            hyp_totals.append(be.maximum(hyp_len - n + 1, 0))
            ref_totals.append(be.maximum(ref_len - n + 1, 0))
    def stacked(parts: list[Any]) -> Any:
        return be.concat([be.to_int64(part)[..., None] for part in parts], axis=-1)

    return RougeCounts(stacked(matches), stacked(hyp_totals), stacked(ref_totals), present)


def counts_of_documents(documents: Documents, rouge_types: tuple[str, ...],
                        workers: int | None = None) -> RougeCounts:
    """The counts of tokenised documents (:mod:`bleusuite.scores.rouge.documents`), NumPy:
    one pass of the counting kernel, and one of the LCS kernel where documents and
    sentences share their ids."""
    pairs, sentences = documents.pairs, documents.sentences
    orders = [n for n in map(type_order, rouge_types) if n is not None]
    per_reference = count_pairs(pairs, max(orders), per_reference=True,
                                workers=workers).per_reference if orders else None
    lcs = hits = None
    if "rougeLsum" in rouge_types:
        together = "rougeL" in rouge_types and sentences is pairs
        hits, lcs = union_hits(sentences, documents.marks, with_lcs=together, workers=workers)
    if "rougeL" in rouge_types and lcs is None:
        lcs = lcs_pairs(pairs, workers)
    return _assembled(backends.get_backend(pairs.hyp_lengths), rouge_types, per_reference, lcs,
                      hits, (pairs.hyp_lengths, pairs.ref_lengths),
                      (sentences.hyp_lengths, sentences.ref_lengths), documents.present)


backends.register_container(RougeCounts)
