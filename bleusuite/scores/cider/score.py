"""CIDEr-D of text or token ids: pycocoevalcap 1.2's ``Cider`` per sentence and per corpus,
and document frequencies kept from a reference corpus.

pycocoevalcap takes the document frequencies (in how many images' references an n-gram
occurs) from the set it evaluates, so an image's score depends on the other images of the
call (a set of one image scores 0). That is :func:`sentence_cider`'s default, and its
numbers are pycocoevalcap's to 1e-12. For rewards (self-critical sequence training) and
batches, :func:`cider_document_frequency` counts them once on a reference corpus (the
training captions) and ``document_frequency=`` uses them: an image's score then depends
only on its hypothesis and references, however the batch is split.

Text is split on whitespace, as pycocoevalcap splits what its PTB tokenizer wrote
(:func:`bleusuite.text.ptb.tokenize_captions` for raw captions). Token ids (NumPy, PyTorch,
CuPy, JAX arrays, or lists) on the host are counted by the host path; arrays on a device
(CUDA, CuPy, JAX with x64) are scored where they are, with every shape fixed by the input
shapes and nothing read back to the host (:mod:`bleusuite.scores.cider.fixed_shape`):
the same numbers to about 1e-15, and NaN, not an error, for a row without a reference.

>>> hyps = ["a man riding a horse", "a cat on a sofa"]
>>> refs = [["a man rides a horse", "a person on a horse"], ["a cat sleeping on a couch"]]
>>> sentence_cider(hyps, refs).round(4).tolist()
[2.3295, 1.7183]
>>> frequency = cider_document_frequency(refs + [["a dog in a park"]])
>>> sentence_cider(hyps[:1], refs[:1], document_frequency=frequency).round(4).tolist()
[2.305]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bleusuite.inputs import normalize_batch
from bleusuite.inputs.checks import check_texts, is_text
from bleusuite.scores.cider.fixed_shape import DeviceTable, fits, scores_on_device
from bleusuite.scores.cider.formula import NgramTable, document_counts, runs
from bleusuite.scores.cider.sorted_orders import cider_scores
from bleusuite.text.token_ids import numbering

__all__ = ["CiderDocumentFrequency", "cider_document_frequency", "cider_scores_of_batch",
           "corpus_cider", "sentence_cider"]


@dataclass(frozen=True)
class CiderDocumentFrequency:
    """Document frequencies of a reference corpus, for :func:`sentence_cider`.

    Attributes:
        counts: each n-gram (a tuple of tokens: strings for text, ints for token ids) ->
            the number of documents (images) whose references hold it.
        documents: the number of documents (pycocoevalcap's ``len(crefs)``).
        max_order: the highest n-gram order counted.
        text: whether the corpus was text (its n-grams are tuples of strings).
    """

    counts: Mapping[tuple[Any, ...], int]
    documents: int
    max_order: int
    text: bool
    #: the device layout (made on first use by a device call) and its copy per device
    _tables: dict[Any, DeviceTable] = field(default_factory=dict, init=False, repr=False,
                                            compare=False)

    def device_table(self, backend: Any, like: Any) -> DeviceTable:
        """The frequencies as :func:`fixed_cider_scores` reads them, on ``like``'s device
        (laid out and copied there once, then kept)."""
        place = (backend.name, str(backend.device_of(like)))
        if place not in self._tables:
            if "host" not in self._tables:
                self._tables["host"] = DeviceTable.from_counts(self.counts, self.max_order)
            self._tables[place] = self._tables["host"].on(backend, like)
        return self._tables[place]

    def lookup(self, rows: np.ndarray, vocabulary: list[str] | None) -> np.ndarray:
        """The count of each n-gram row (token ids, -1 beyond its order; ``vocabulary``:
        the token of each id, for text)."""
        get = self.counts.get
        if vocabulary is None:
            keys = [tuple(t for t in row if t >= 0) for row in rows.tolist()]
        else:
            keys = [tuple(vocabulary[t] for t in row if t >= 0) for row in rows.tolist()]
        return np.fromiter((get(key, 0) for key in keys), dtype=np.int64, count=len(keys))


@dataclass
class _Sentences:
    """A batch as token runs: hypotheses, references (image-major) and their images."""

    hyp_tokens: np.ndarray
    hyp_len: np.ndarray
    ref_tokens: np.ndarray
    ref_len: np.ndarray
    ref_image: np.ndarray
    vocabulary: list[str] | None       # text: the token of each id
    to_caller: Any


def _text_sentences(hypotheses: Any, references: Any) -> _Sentences:
    rows = check_texts(hypotheses, references)
    _check_every_row_has_a_reference([len(r) for r in rows])
    numbers = numbering()
    hyp_tokens, hyp_len = numbers.number(list(hypotheses))
    ref_tokens, ref_len = numbers.number([ref for refs in rows for ref in refs])
    ref_image = np.repeat(np.arange(len(rows), dtype=np.int64), [len(r) for r in rows])
    return _Sentences(hyp_tokens, hyp_len, ref_tokens, ref_len, ref_image, numbers.tokens,
                      lambda a: a)


def _id_sentences(hypotheses: Any, references: Any, pad_id: Any, eos_id: Any) -> _Sentences:
    return _batch_sentences(normalize_batch(hypotheses, references, pad_id=pad_id,
                                            eos_id=eos_id, global_ids=True))


def _batch_sentences(batch: Any) -> _Sentences:
    """A normalised token-id batch (:class:`bleusuite.inputs.Batch`, its ids global) as
    token runs."""
    be = batch.backend
    if batch.pairs is not None:
        pairs = batch.pairs
        hyp_tokens = runs(pairs.hyp_ids, pairs.hyp_starts, pairs.hyp_lengths)
        hyp_len = np.asarray(pairs.hyp_lengths, dtype=np.int64)
        present = np.asarray(batch.ref_present, dtype=bool)
        ref_len = np.asarray(pairs.ref_lengths, dtype=np.int64)[present]
        ref_tokens = runs(pairs.ref_ids, np.asarray(pairs.ref_starts)[present], ref_len)
        to_caller = batch.to_caller
    else:   # a device batch: its padded matrices, copied to the host once
        hyp = np.asarray(be.to_numpy(batch.hyp), dtype=np.int64)
        refs = np.asarray(be.to_numpy(batch.refs), dtype=np.int64)
        hyp_len = np.asarray(be.to_numpy(batch.hyp_len), dtype=np.int64)
        all_ref_len = np.asarray(be.to_numpy(batch.ref_len), dtype=np.int64)
        present = np.asarray(be.to_numpy(batch.ref_present), dtype=bool)
        hyp_tokens = hyp[np.arange(hyp.shape[1]) < hyp_len[:, None]]
        ref_tokens = refs[present][np.arange(refs.shape[2]) < all_ref_len[present][:, None]]
        ref_len = all_ref_len[present]
        like = batch.hyp

        def to_caller(a: Any) -> Any:
            return be.asarray(a, like=like)
    per_row = present.sum(axis=1)
    _check_every_row_has_a_reference(per_row.tolist())
    ref_image = np.repeat(np.arange(present.shape[0], dtype=np.int64), per_row)
    return _Sentences(hyp_tokens, hyp_len, ref_tokens, ref_len, ref_image, None, to_caller)


def _check_every_row_has_a_reference(counts: list[int]) -> None:
    missing = [row for row, count in enumerate(counts) if count == 0]
    if missing:
        raise ValueError(f"references: every hypothesis needs at least one reference (CIDEr "
                         f"divides by their number); row {missing[0]} has none")


def _sentences(hypotheses: Any, references: Any, pad_id: Any, eos_id: Any) -> _Sentences:
    if is_text(hypotheses):
        if pad_id is not None or eos_id is not None:
            raise ValueError("pad_id and eos_id are for token ids; hypotheses are text")
        return _text_sentences(hypotheses, references)
    return _id_sentences(hypotheses, references, pad_id, eos_id)


def _check_settings(max_order: Any, sigma: Any) -> None:
    if isinstance(max_order, bool) or not isinstance(max_order, int) or max_order < 1:
        raise ValueError(f"max_order must be a positive int; got {max_order!r}")
    if isinstance(sigma, bool) or not isinstance(sigma, (int, float)) or not sigma > 0:
        raise ValueError(f"sigma must be a positive number; got {sigma!r}")


def sentence_cider(hypotheses: Any, references: Any, *,
                   document_frequency: CiderDocumentFrequency | None = None,
                   max_order: int = 4, sigma: float = 6.0, pad_id: int | None = None,
                   eos_id: int | None = None) -> Any:
    """CIDEr-D of each hypothesis against its references, on pycocoevalcap's scale (0 to
    about 10; pycocoevalcap's per-image ``scores``).

    Args:
        hypotheses: text (a list of strings, split on whitespace) or token ids (a padded
            (B, L) array, a list of arrays or of token lists).
        references: per hypothesis, its references: a string or list of strings for text;
            (B, R, L) arrays or lists of token sequences for ids.
        document_frequency: document frequencies of a reference corpus
            (:func:`cider_document_frequency`); None: the batch's own references, as
            pycocoevalcap (the scores then depend on the whole batch).
        max_order: highest n-gram order (pycocoevalcap's ``n``).
        sigma: the length penalty's standard deviation.
        pad_id, eos_id: as in :func:`bleusuite.sentence_bleu`, for token ids.

    Returns:
        (B,) float64 scores: a NumPy array, or the caller's array type for arrays.

    >>> sentence_cider([[1, 2, 3, 4]], [[[1, 2, 3, 4], [1, 2, 5]]]).tolist()   # one image
    [0.0]
    """
    _check_settings(max_order, sigma)
    if not is_text(hypotheses):
        ids = normalize_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id,
                              global_ids=True)
        if not ids.on_host and fits(ids.size, ids.hyp.shape[1] + ids.refs.shape[1]
                                    * ids.refs.shape[2], ids.backend.key_bits):
            return ids.to_caller(_device_scores(ids, document_frequency, max_order,
                                                float(sigma)))
        batch = _batch_sentences(ids)
    else:
        batch = _sentences(hypotheses, references, pad_id, eos_id)
    if batch.hyp_len.shape[0] == 0:
        return batch.to_caller(np.zeros(0, dtype=np.float64))
    return batch.to_caller(_scores(batch, document_frequency, max_order, float(sigma)))


def _device_scores(batch: Any, document_frequency: CiderDocumentFrequency | None,
                   max_order: int, sigma: float) -> Any:
    """:func:`sentence_cider` of a padded device batch, on its device
    (:func:`~bleusuite.scores.cider.fixed_shape.fixed_cider_scores`)."""
    be, table, documents = batch.backend, None, None
    if document_frequency is not None:
        _check_frequency(document_frequency, False, max_order)
        table = document_frequency.device_table(be, batch.hyp)
        documents = document_frequency.documents
    return scores_on_device(be, batch.hyp, batch.hyp_len, batch.refs, batch.ref_len,
                            batch.ref_present, max_order, sigma, table, documents)


def _check_frequency(document_frequency: Any, text: bool, max_order: int) -> None:
    if not isinstance(document_frequency, CiderDocumentFrequency):
        raise TypeError("document_frequency must come from cider_document_frequency; got "
                        f"{type(document_frequency).__name__}")
    if document_frequency.text != text:
        kind = "text" if document_frequency.text else "token ids"
        raise ValueError(f"document_frequency was counted on {kind}; the hypotheses are "
                         f"{'token ids' if document_frequency.text else 'text'}")
    if document_frequency.max_order < max_order:
        raise ValueError(f"document_frequency counts n-grams up to order "
                         f"{document_frequency.max_order}; max_order is {max_order}")


def cider_scores_of_batch(batch: Any, document_frequency: CiderDocumentFrequency | None,
                          max_order: int = 4, sigma: float = 6.0) -> np.ndarray:
    """:func:`sentence_cider` of a normalised token-id batch (its ids global), NumPy
    float64 (the registry's token-id statistics)."""
    _check_settings(max_order, sigma)
    sentences = _batch_sentences(batch)
    if sentences.hyp_len.shape[0] == 0:
        return np.zeros(0, dtype=np.float64)
    return _scores(sentences, document_frequency, max_order, float(sigma))


def _scores(batch: _Sentences, document_frequency: CiderDocumentFrequency | None,
            max_order: int, sigma: float) -> np.ndarray:
    lookup, documents = None, None
    if document_frequency is not None:
        _check_frequency(document_frequency, batch.vocabulary is not None, max_order)
        vocabulary = batch.vocabulary
        frequency = document_frequency

        def lookup(rows: np.ndarray) -> np.ndarray:
            return frequency.lookup(rows, vocabulary)

        documents = document_frequency.documents
    scores: np.ndarray = cider_scores(batch.hyp_tokens, batch.hyp_len, batch.ref_tokens,
                                      batch.ref_len, batch.ref_image, max_order=max_order,
                                      sigma=sigma, lookup=lookup, documents=documents)
    return scores


def corpus_cider(hypotheses: Any, references: Any, *,
                 document_frequency: CiderDocumentFrequency | None = None,
                 max_order: int = 4, sigma: float = 6.0, pad_id: int | None = None,
                 eos_id: int | None = None) -> float:
    """The mean of :func:`sentence_cider` (pycocoevalcap's ``Cider().compute_score``'s
    first value: ``np.mean`` of the per-image scores).

    >>> round(corpus_cider(["a man riding a horse", "a cat on a sofa"],
    ...                    [["a man rides a horse"], ["a cat sleeping on a couch"]]), 4)
    2.7214
    """
    scores = sentence_cider(hypotheses, references, document_frequency=document_frequency,
                            max_order=max_order, sigma=sigma, pad_id=pad_id, eos_id=eos_id)
    host = np.asarray(scores.cpu() if hasattr(scores, "cpu") else scores, dtype=np.float64)
    if host.shape[0] == 0:
        raise ValueError("hypotheses: corpus_cider needs at least one sentence")
    return float(np.mean(host))


def cider_document_frequency(references: Any, *, max_order: int = 4,
                             pad_id: int | None = None, eos_id: int | None = None
                             ) -> CiderDocumentFrequency:
    """The document frequencies of a reference corpus (e.g. the training captions): for
    each n-gram, in how many documents' references it occurs, as pycocoevalcap's
    ``compute_doc_freq`` counts them; reused by :func:`sentence_cider`.

    Args:
        references: per document (image), its references: strings (text, split on
            whitespace), or token sequences / a (D, R, L) array.
        max_order: highest n-gram order.

    >>> frequency = cider_document_frequency([["a cat", "a dog"], ["a cat sat"]])
    >>> frequency.documents, frequency.counts[("a", "cat")], frequency.counts[("dog",)]
    (2, 2, 1)
    """
    _check_settings(max_order, 1.0)
    if isinstance(references, str) or not hasattr(references, "__len__"):
        raise TypeError("references must be a sequence with, per document, its references")
    if len(references) == 0:
        raise ValueError("references: no document")
    first = references[0]
    text = isinstance(first, str) or (isinstance(first, (list, tuple)) and len(first) > 0
                                      and isinstance(first[0], str))
    if text:
        rows = [[r] if isinstance(r, str) else list(r) for r in references]
        batch = _text_sentences([r[0] if r else "" for r in rows], rows)
    else:
        firsts = references[:, 0] if hasattr(references, "shape") else [r[0] for r in references]
        batch = _id_sentences(firsts, references, pad_id, eos_id)
    table = NgramTable(batch.ref_tokens, batch.ref_len, max_order)
    frequency = document_counts(table, batch.ref_image)
    vocabulary = batch.vocabulary
    keys = table.rows.tolist()
    if vocabulary is None:
        ngrams = [tuple(t for t in row if t >= 0) for row in keys]
    else:
        ngrams = [tuple(vocabulary[t] for t in row if t >= 0) for row in keys]
    counts = dict(zip(ngrams, frequency.tolist(), strict=True))
    return CiderDocumentFrequency(counts, int(batch.hyp_len.shape[0]), max_order, text)
