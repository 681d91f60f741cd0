"""Per-sentence statistics of whole files, for each metric of the run (its registry entry,
:mod:`bleusuite.scores.registry`, builds them).

Metrics of tokenised words (BLEU, GLEU) share one pass: each chunk of lines is tokenised
and numbered in this thread while the chunk before it is counted in another; metrics of
characters (chrF) take the lines themselves.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from bleusuite import threads
from bleusuite.cli.io import Progress
from bleusuite.cli.options import ScoreOptions
from bleusuite.counting import MatchCounts, count_matches
from bleusuite.inputs import Batch, streams_batch
from bleusuite.scores import registry
from bleusuite.text import Encoder, TokenIds

__all__ = ["CHUNK_CHARS", "chunk_bounds", "systems_statistics", "text_statistics"]

#: characters (all streams) per chunk of lines: large enough that a chunk's counting call
#: costs little beside its work, small enough that the last chunk (counted after the
#: others, while nothing else runs) is short
CHUNK_CHARS = 1 << 21


def chunk_bounds(texts: Sequence[list[str]], chars: int = CHUNK_CHARS) -> list[tuple[int, int]]:
    """Consecutive ``(begin, end)`` line ranges of about ``chars`` characters of all streams
    each (measured on the first stream), none empty.

    >>> chunk_bounds([["ab", "c", "de", "f"], ["x", "y", "z", "w"]], chars=8)
    [(0, 2), (2, 4)]
    """
    lines = len(texts[0])
    if lines == 0:
        return []
    per_line = max(1, sum(map(len, texts[0])) // lines + 1) * len(texts)
    step = max(1, chars // per_line)
    return [(begin, min(begin + step, lines)) for begin in range(0, lines, step)]


def text_statistics(texts: Sequence[list[str]], num_systems: int, options: ScoreOptions,
                    bar: Progress) -> list[dict[str, np.ndarray]]:
    """Per-sentence statistics (``to_array`` form, ``(B, F)``) of every metric of the run,
    for each system (streams ``0..S-1``) against the references (the other streams);
    ``bar`` is updated per line tokenised."""
    def count(needs: registry.WordCounting) -> tuple[MatchCounts, np.ndarray]:
        encoder = Encoder(needs.tokenize, needs.lowercase)
        return _word_counts(chunk_bounds(texts) or [(0, 0)], lambda begin, end: encoder.encode(
            [stream[begin:end] for stream in texts], bar), num_systems, needs)

    result = _word_statistics(options, num_systems, count)
    for name in options.metrics:
        text = registry.text_counted(name)
        if text is not None:
            settings = options.settings(name)
            for k, system in enumerate(result):
                system[name] = text.text_statistics(texts[k], texts[num_systems:], settings)
    return result


def systems_statistics(token_ids: TokenIds, num_systems: int,
                       options: ScoreOptions) -> list[dict[str, np.ndarray]]:
    """The statistics of the word metrics of the run from token ids of every stream, counted
    in one call (the command counts by chunks: :func:`text_statistics`).

    >>> from bleusuite.cli.parser import build_parser
    >>> from bleusuite.text import encode_texts, load_tokenizer
    >>> options = ScoreOptions.from_args(build_parser().parse_args(["score", "ref.txt"]))
    >>> ids = encode_texts([["a b c"], ["b a"], ["a b d"]], load_tokenizer("none"), False)
    >>> for system in systems_statistics(ids, 2, options):  # 2 systems, 1 reference
    ...     print(system["bleu"].tolist())  # lengths, matches, totals, clamped totals
    [[3, 3, 2, 1, 0, 0, 3, 2, 1, 0, 3, 2, 1, 1]]
    [[2, 3, 2, 0, 0, 0, 2, 1, 0, 0, 2, 1, 1, 1]]
    """
    return _word_statistics(options, num_systems, lambda needs: _word_counts(
        [(0, 0)], lambda begin, end: token_ids, num_systems, needs))


def _word_statistics(options: ScoreOptions, num_systems: int,
                     count: Callable[[registry.WordCounting], tuple[MatchCounts, np.ndarray]],
                     ) -> list[dict[str, np.ndarray]]:
    """The statistics of the metrics of the run counted on words, for each system, from one
    counting for all: ``count(needs)`` gives the counts ``(S, B, ...)`` up to the highest
    order (per reference where one needs it) and the line lengths of every stream."""
    words = {name: entry for name in options.metrics
             if (entry := registry.word_counted(name)) is not None}
    needs = [entry.word_counting(options.settings(m)) for m, entry in words.items()]
    if not needs:
        return [{} for _ in range(num_systems)]
    first = needs[0]
    assert all(  # one tokenisation serves every word metric
        (n.tokenize, n.lowercase) == (first.tokenize, first.lowercase) for n in needs)
    counts, lengths = count(registry.WordCounting(
        first.tokenize, first.lowercase, max(n.orders for n in needs),
        any(n.per_reference for n in needs)))
    return [{name: entry.word_statistics(
                counts.clipped[k], None if counts.per_reference is None
                else counts.per_reference[k],
                np.concatenate([lengths[k : k + 1], lengths[num_systems:]]),
                options.settings(name)) for name, entry in words.items()}
            for k in range(num_systems)]


def _word_counts(bounds: list[tuple[int, int]], encode: Callable[[int, int], TokenIds],
                 num_systems: int, needs: registry.WordCounting) -> tuple[MatchCounts, np.ndarray]:
    """The word counts of every system, ``(S, B, ...)``, and the line lengths of every
    stream ``(streams, B)``: each chunk of lines (``encode(begin, end)``) encoded here and
    counted on a thread of its own while the next is encoded; the last counted here."""
    orders, per_reference = needs.orders, needs.per_reference
    background = max(1, threads.worker_threads() - 1)  # the others: this thread encodes
    counting: threads.InOrder[Batch, MatchCounts] = threads.InOrder(
        lambda b: count_matches(b, orders, per_reference, background))
    lengths: list[np.ndarray] = []
    try:
        for begin, end in bounds:
            token_ids = encode(begin, end)
            batch = streams_batch(token_ids, num_systems)
            lengths.append(token_ids.lengths)
            if end < bounds[-1][1]:  # all but the last chunk
                counting.add(batch)
    except BaseException:
        with contextlib.suppress(BaseException):  # the counting thread ends; this error wins
            counting.results()
        raise
    counts = counting.results()
    # the last chunk (or the only one) counted here, on every thread, once it is encoded
    counts.append(count_matches(batch, orders, per_reference))

    def by_system(parts: list[Any]) -> np.ndarray:  # chunks of (S x lines, ...): (S, B, ...)
        return np.concatenate([p.reshape(num_systems, -1, *p.shape[1:]) for p in parts], axis=1)

    return MatchCounts(by_system([c.clipped for c in counts]), by_system(
        [c.per_reference for c in counts]) if per_reference else None), np.concatenate(
            lengths, axis=1)
