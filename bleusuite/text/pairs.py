"""Text given to the scoring functions: hypothesis strings and their references, checked
and turned into ragged token ids (one list of references per hypothesis).

The references are given per hypothesis (``references[i]``: the references of
``hypotheses[i]``), where sacrebleu takes reference *streams* (``streams[j][i]``: the
``j``-th reference of sentence ``i``). Passing streams where references per hypothesis are
expected is caught by the batch sizes, except when there are as many streams as
hypotheses: :func:`check_texts` then looks at the text (:func:`read_as_streams`) and
warns where the lines read better as streams.
"""

from __future__ import annotations

import inspect
import itertools
import os
import warnings
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from bleusuite.text.token_ids import encode_texts
from bleusuite.text.tokenizers import load_tokenizer

__all__ = ["STREAMS_CHECK_LIMIT", "ReferenceStreamsWarning", "check_texts", "encode_pairs",
           "read_as_streams"]

#: the largest batch whose references are compared with both readings (B x B lines)
STREAMS_CHECK_LIMIT = 16

_ZIP_HINT = ("sacrebleu's reference streams [[ref1 of each], [ref2 of each]] become per "
             "hypothesis with list(zip(*streams))")


class ReferenceStreamsWarning(UserWarning):
    """References per hypothesis that read better as sacrebleu's reference streams."""


def _overlap(hypothesis: str, reference: str | None) -> int:
    """Words and word pairs shared (clipped counts, split on whitespace)."""
    if reference is None:
        return 0
    hyp, ref = hypothesis.split(), reference.split()
    shared = Counter(hyp) & Counter(ref)
    pairs = Counter(itertools.pairwise(hyp)) & Counter(itertools.pairwise(ref))
    return sum(shared.values()) + sum(pairs.values())


def read_as_streams(hypotheses: Sequence[str], rows: Sequence[Sequence[str | None]]) -> bool:
    """Whether the references ``rows`` (one list per hypothesis, as given) read better as
    sacrebleu's reference streams.

    Only a square batch can be read both ways: ``B >= 2`` hypotheses with ``B`` lists of
    exactly ``B`` references (``None`` included; up to :data:`STREAMS_CHECK_LIMIT`). Read
    per hypothesis, hypothesis ``i`` gets row ``i``; read as streams, column ``i``. The two
    readings share the diagonal, so the lines off it decide: they read better as streams
    when, so read, every hypothesis shares more words and word pairs (whitespace-split,
    clipped counts) with its best off-diagonal reference, and all the hypotheses together at
    least twice as many plus one.

    >>> hyps = ["the cat sat on the mat", "a dog ran"]
    >>> read_as_streams(hyps, [hyps, ["the cat sat on a mat", "a dog ran fast"]])
    True
    >>> read_as_streams(hyps, [["the cat sat on a mat", "a cat sat"], ["a dog ran", "dogs ran"]])
    False
    """
    size = len(hypotheses)
    if not 2 <= size <= STREAMS_CHECK_LIMIT or len(rows) != size or any(
            len(row) != size for row in rows):
        return False
    given = [max(_overlap(hypotheses[i], rows[i][k]) for k in range(size) if k != i)
             for i in range(size)]
    swapped = [max(_overlap(hypotheses[i], rows[k][i]) for k in range(size) if k != i)
               for i in range(size)]
    return all(s > g for s, g in zip(swapped, given, strict=True)) and sum(swapped) >= 2 * sum(
        given) + 1


def check_texts(hypotheses: Any, references: Any, *, streams_check: bool = True
                ) -> list[list[str]]:
    """The references of each hypothesis as a list of strings (``None`` ones dropped).

    Raises:
        TypeError: a hypothesis or a reference that is not a string.
        ValueError: batch sizes that differ (the message says how to turn sacrebleu's
            reference streams into references per hypothesis).

    Warns:
        ReferenceStreamsWarning: as many hypotheses as lists of references, which read
            better as sacrebleu's reference streams (:func:`read_as_streams`). A warning, not
            an error: text alone cannot settle which reading was meant. ``streams_check=False``
            (a caller that built the lists from streams itself) skips the check.
    """
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
            f"per hypothesis; {_ZIP_HINT})"
        )
    for row, refs in enumerate(references):
        if isinstance(refs, str):
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
    rows = [[refs] if isinstance(refs, str) else refs for refs in references]
    if streams_check and read_as_streams(hypotheses, rows):
        warnings.warn(
            f"references: the {len(hypotheses)} hypotheses, each with {len(hypotheses)} "
            "references, read better as sacrebleu's reference streams (each hypothesis shares "
            "more words with the lines at its position across the lists than with the lines "
            f"of its own list); references are given per hypothesis: {_ZIP_HINT}",
            ReferenceStreamsWarning, stacklevel=_caller_level(),
        )
    return [[ref for ref in refs if ref is not None] for refs in rows]


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside bleusuite (the caller's line, whatever
    the front end: a function, a metric's update)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    here = inspect.currentframe()
    frame, level = (here.f_back if here is not None else None), 1
    while frame is not None and frame.f_back is not None and os.path.abspath(
            frame.f_code.co_filename).startswith(package + os.sep):
        frame, level = frame.f_back, level + 1
    return level


def _kind(obj: object) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}".replace("builtins.", "")


def encode_pairs(
    hypotheses: Sequence[str],
    references: Sequence[str | Sequence[str | None]],
    *,
    tokenize: str,
    lowercase: bool = False,
    streams_check: bool = True,
) -> tuple[list[np.ndarray], list[list[np.ndarray]]]:
    """Token ids of hypothesis strings and their references, tokenised as sacrebleu does.

    Args:
        hypotheses: one string per sentence.
        references: for each hypothesis, a reference string or a list of them (``None``
            entries are no reference, as in sacrebleu).
        tokenize: a name of :data:`TOKENIZERS`.
        lowercase: lowercase everything first.
        streams_check: warn where the references read better as sacrebleu's reference
            streams (:func:`check_texts`).

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
    rows = check_texts(hypotheses, references, streams_check=streams_check)
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
