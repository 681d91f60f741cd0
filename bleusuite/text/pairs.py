"""Text given to the scoring functions: hypothesis strings and their references, checked
and turned into ragged token ids (one list of references per hypothesis)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from bleusuite.text.token_ids import encode_texts
from bleusuite.text.tokenizers import load_tokenizer

__all__ = ["check_texts", "encode_pairs"]


def check_texts(hypotheses: Any, references: Any) -> list[list[str]]:
    """The references of each hypothesis as a list of strings (``None`` ones dropped)."""
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise TypeError(
            "hypotheses must be a list of strings when tokenize= is given (wrap a single "
            f"sentence in a list); got {_kind(hypotheses)}"
        )
    for row, hyp in enumerate(hypotheses):
        if not isinstance(hyp, str):
            raise TypeError(
                f"hypotheses[{row}] must be a string when tokenize= is given; got {_kind(hyp)} "
                "(token ids and token lists are scored without tokenize=)"
            )
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(
            "references must be a list with, for each hypothesis, a reference string or a "
            f"list of reference strings; got {_kind(references)}"
        )
    if len(references) != len(hypotheses):
        raise ValueError(
            f"hypotheses and references must have the same batch size; got {len(hypotheses)} "
            f"hypotheses and {len(references)} entries of references (references are given "
            "per hypothesis; sacrebleu's reference streams [[ref1 of each], [ref2 of each]] "
            "become per hypothesis with list(zip(*streams)))"
        )
    rows = []
    for row, refs in enumerate(references):
        if isinstance(refs, str):
            rows.append([refs])
            continue
        if not isinstance(refs, Sequence):
            raise TypeError(
                f"references[{row}] must be a reference string or a list of them; got "
                f"{_kind(refs)}"
            )
        for position, ref in enumerate(refs):
            if ref is not None and not isinstance(ref, str):
                raise TypeError(
                    f"references[{row}][{position}] must be a string (or None: no such "
                    f"reference); got {_kind(ref)}"
                )
        rows.append([ref for ref in refs if ref is not None])
    return rows


def _kind(obj: object) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}".replace("builtins.", "")


def encode_pairs(
    hypotheses: Sequence[str],
    references: Sequence[str | Sequence[str | None]],
    *,
    tokenize: str,
    lowercase: bool = False,
) -> tuple[list[np.ndarray], list[list[np.ndarray]]]:
    """Token ids of hypothesis strings and their references, tokenised as sacrebleu does.

    Args:
        hypotheses: one string per sentence.
        references: for each hypothesis, a reference string or a list of them (``None``
            entries are no reference, as in sacrebleu).
        tokenize: a name of :data:`TOKENIZERS`.
        lowercase: lowercase everything first.

    Returns:
        ``(hyps, refs)``: a list of 1-D int64 arrays and, per hypothesis, a list of them
        (views into one array), the ragged input form of the scoring functions.

    >>> hyps, refs = encode_pairs(["a b", "c"], ["a b", ["c", "C"]], tokenize="none",
    ...                           lowercase=True)
    >>> [h.tolist() for h in hyps], [[r.tolist() for r in rs] for rs in refs]
    ([[0, 1], [2]], [[[0, 1]], [[2], [2]]])

    Raises:
        TypeError, ValueError: malformed text input, or an unknown tokenizer.
        ImportError: sacrebleu is not installed.
    """
    if not isinstance(lowercase, bool):
        raise TypeError(f"lowercase must be a bool; got {lowercase!r}")
    rows = check_texts(hypotheses, references)
    tokenizer = load_tokenizer(tokenize)
    lines = list(hypotheses) + list(itertools.chain.from_iterable(rows))
    token_ids = encode_texts([lines], tokenizer, lowercase)
    sentences = [token_ids.line(0, i) for i in range(len(lines))]
    hyps = sentences[: len(hypotheses)]
    refs = []
    position = len(hypotheses)
    for row in rows:
        refs.append(sentences[position : position + len(row)])
        position += len(row)
    return hyps, refs
