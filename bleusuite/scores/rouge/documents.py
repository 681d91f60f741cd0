"""ROUGE's text: documents tokenised once, as ragged rows of token ids (:class:`Documents`).

A document is a string; rouge-score tokenises it whole for ``rougeN`` and ``rougeL``, and
for ``rougeLsum`` splits it into sentences at its newlines (``text.split("\\n")``) and
tokenises each. Its default tokenizer (``tokenize="rouge"``) treats a newline as any other
separator, so the document's tokens are its sentences' tokens one after another: the
sentences are tokenised once (each distinct word once, in the compiled numbering) and the
documents are the runs of their sentences. Any other tokenizer, or another way to find
sentences, tokenises the documents and (for ``rougeLsum``) their sentences apart, in one
numbering. A callable ``tokenize`` gives each text's tokens itself (any hashable tokens).
With ``use_stemmer`` every token of more than 3 characters becomes its Porter stem, each
distinct token stemmed once (:mod:`bleusuite.text.stemming`).

>>> docs = encode_documents(["The cats sat.\\nA dog!"], [["the cat sat"]], use_stemmer=True)
>>> docs.pairs.hyp_lengths.tolist(), docs.pairs.ref_lengths.tolist(), docs.marks.tolist()
([5], [[3]], [1, 0, 0, 1, 0, 1, 0, 0])
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleusuite.inputs.batch import RaggedPairs, stream_pairs
from bleusuite.text import TextEncoder
from bleusuite.text.encoder import number_token_lists
from bleusuite.text.stemming import stemmed_ids
from bleusuite.text.tokenizers import ROUGE_STEMMED

__all__ = ["Documents", "SentenceSplitter", "TextTokenizer", "encode_documents", "lines"]

#: a callable tokenizer: one text to its tokens
TextTokenizer = Callable[[str], Sequence[Any]]
#: one document to its sentences
SentenceSplitter = Callable[[str], Sequence[str]]


def lines(document: str) -> list[str]:
    """rouge-score's sentences of a document: its lines that are not empty."""
    return [line for line in document.split("\n") if line]


@dataclass(frozen=True)
class Documents:
    """Tokenised documents: ``B`` hypotheses, each with ``R`` references.

    Attributes:
        pairs: the documents as ragged rows (``rougeN``, ``rougeL``).
        sentences: the same documents as runs of sentences (``rougeLsum``), in the id
            array of ``pairs`` (often ``pairs`` itself).
        marks: as long as the ids of ``sentences``: 1 where a sentence starts.
        present: ``(B, R)`` bool: which references exist.
    """

    pairs: RaggedPairs
    sentences: RaggedPairs
    marks: np.ndarray
    present: np.ndarray


def encode_documents(
    hypotheses: Sequence[str],
    rows: Sequence[Sequence[str | None]],
    *,
    tokenize: str | TextTokenizer = "rouge",
    use_stemmer: bool = False,
    sentences: SentenceSplitter | None = None,
    with_sentences: bool = True,
) -> Documents:
    """The documents of hypothesis strings and their references (``rows[b]``: the
    references of ``hypotheses[b]``, ``None``: no such reference), tokenised as the module
    says. ``sentences`` splits a document into the sentences of ``rougeLsum`` (default: its
    lines); ``with_sentences=False``: no ``rougeLsum`` to come (its sentences are then not
    tokenised where that takes a pass of their own)."""
    size = len(hypotheses)
    width = max((len(row) for row in rows), default=0)
    present = np.zeros((size, width), dtype=bool)
    texts = list(hypotheses)
    for r in range(width):
        for b, row in enumerate(rows):
            reference = row[r] if r < len(row) else None
            present[b, r] = reference is not None
            texts.append("" if reference is None else reference)
    shared = tokenize == "rouge" and sentences is None
    if shared:  # the documents are their lines' runs (an empty line has no token): one pass
        parts = [text.split("\n") for text in texts]
        ids, line_lengths, vocabulary = _encode(list(itertools.chain.from_iterable(parts)),
                                                tokenize, use_stemmer)
        counts = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
    else:
        split = sentences or lines
        parts = [list(split(text)) for text in texts] if with_sentences else []
        ids, line_lengths, vocabulary = _encode(
            texts + list(itertools.chain.from_iterable(parts)), tokenize, use_stemmer)
        counts = np.ones(len(texts), dtype=np.int64)
        if parts:
            counts = np.concatenate([counts, [max(len(p), 1) for p in parts]])
            line_lengths = _with_empty_parts(line_lengths, len(texts), parts)
    if use_stemmer and tokenize != "rouge":  # the rouge tokenizer stems as it goes
        ids = stemmed_ids(ids, vocabulary)
    line_starts = np.cumsum(line_lengths) - line_lengths
    marks = np.zeros(len(ids), dtype=np.int64)
    marks[line_starts[line_lengths > 0]] = 1
    first_line = np.cumsum(counts) - counts
    doc_starts = line_starts[first_line] if len(first_line) else first_line
    doc_lengths = np.add.reduceat(line_lengths, first_line) if len(first_line) else first_line
    documents = stream_pairs(ids, doc_starts[: len(texts)], doc_lengths[: len(texts)], size)
    if shared or not parts:
        return Documents(documents, documents, marks, present)
    split_rows = stream_pairs(ids, doc_starts[len(texts):], doc_lengths[len(texts):], size)
    return Documents(documents, split_rows, marks, present)


def _with_empty_parts(line_lengths: np.ndarray, documents: int,
                      parts: list[list[str]]) -> np.ndarray:
    """The line lengths with a line of no token for each document split into nothing (so
    that every document has a line to start at)."""
    if all(parts):
        return line_lengths
    out: list[int] = line_lengths[:documents].tolist()
    position = documents
    for part in parts:
        if part:
            out += line_lengths[position : position + len(part)].tolist()
            position += len(part)
        else:
            out.append(0)
    return np.asarray(out, dtype=np.int64)


def _encode(texts: list[str], tokenize: str | TextTokenizer, use_stemmer: bool) -> tuple[
        np.ndarray, np.ndarray, list[Any]]:
    """Token ids of each text, flat, each text's number of tokens, and the token of each
    id (stemmed as it goes with the rouge tokenizer and ``use_stemmer``): the text encoder's
    numbering (:class:`~bleusuite.text.TextEncoder`), or a callable's tokens numbered."""
    if isinstance(tokenize, str):
        tokenizer = ROUGE_STEMMED if use_stemmer and tokenize == "rouge" else tokenize
        numbered = TextEncoder.of(tokenizer).number(texts)
        return numbered.ids, numbered.lengths, numbered.vocabulary
    return number_token_lists(map(tokenize, texts))
