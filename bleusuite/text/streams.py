"""References given per hypothesis that read better as sacrebleu's reference streams
(``streams[j][i]``: the ``j``-th reference of sentence ``i``): the batch sizes catch them,
but for as many streams as hypotheses, where :func:`warn_if_streams` reads the text."""

from __future__ import annotations

import itertools
import warnings
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bleusuite import checks

__all__ = ["STREAMS_CHECK_LIMIT", "STREAMS_HINT", "ReferenceStreamsWarning", "read_as_streams",
           "warn_if_streams"]

#: the largest batch whose references are compared with both readings (B x B lines)
STREAMS_CHECK_LIMIT = 16

#: how sacrebleu's reference streams become references per hypothesis
STREAMS_HINT = ("sacrebleu's reference streams [[ref1 of each], [ref2 of each]] become per "
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

    Only a square batch (``2 <= B <=`` :data:`STREAMS_CHECK_LIMIT`) reads both ways:
    hypothesis ``i`` gets row ``i``, or column ``i``. The lines off the diagonal decide: as
    streams, every hypothesis shares more words and word pairs with its best off-diagonal
    reference, and all together at least twice as many plus one.

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


def warn_if_streams(hypotheses: Sequence[str], references: Sequence[Any]) -> None:
    """Warn (:class:`ReferenceStreamsWarning`) where the references read better as streams
    (:func:`read_as_streams`): text alone cannot settle which reading was meant."""
    size = len(hypotheses)
    if not 2 <= size <= STREAMS_CHECK_LIMIT:
        return
    rows = [[refs] if isinstance(refs, str) else list(refs) for refs in references]
    if read_as_streams(hypotheses, rows):
        warnings.warn(
            f"references: the {size} hypotheses, each with {size} references, read better as "
            "sacrebleu's reference streams (each hypothesis shares more words with the lines "
            "at its position across the lists than with the lines of its own list); "
            f"references are given per hypothesis: {STREAMS_HINT}",
            ReferenceStreamsWarning, stacklevel=checks.caller_level(),
        )
