"""Per-sentence statistics of whole files: the lines read in chunks, each chunk tokenised and
numbered in this thread while the chunk before it is counted in another
(:func:`bleusuite.counting.count_pairs`, straight from the ragged token ids: no padding, no
batches), then the library's statistics builders."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from bleusuite import backends, rules, threads
from bleusuite.cli.errors import CommandError
from bleusuite.cli.io import Progress
from bleusuite.cli.options import GLEU_ORDERS, ScoreOptions
from bleusuite.counting import MatchCounts, RaggedPairs, count_pairs
from bleusuite.stats import bleu_statistics_from_counts, gleu_statistics_from_counts
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


def text_statistics(texts: Sequence[list[str]], num_systems: int, encoder: Encoder,
                    options: ScoreOptions, bar: Progress) -> list[dict[str, Any]]:
    """:func:`systems_statistics` of line-aligned texts (the systems' streams, then the
    references'), encoded chunk by chunk with ``encoder``; each chunk is counted on a
    thread of its own while the next is encoded (``bar``: updated per line encoded)."""
    orders, per_reference = _counted_orders(options)
    background = max(1, threads.worker_threads() - 1)  # the others: this thread encodes
    chunks: list[tuple[np.ndarray, Future[MatchCounts]]] = []
    with ThreadPoolExecutor(1, thread_name_prefix="bleusuite-count") as counter:
        for begin, end in chunk_bounds(texts):
            token_ids = encoder.encode([stream[begin:end] for stream in texts], bar)
            chunks.append((token_ids.lengths, counter.submit(
                count_pairs, _pairs(token_ids, num_systems), orders, per_reference,
                background)))
        parts = [(lengths, future.result()) for lengths, future in chunks]
    if not parts:
        raise CommandError("nothing to score")
    lengths = np.concatenate([lengths for lengths, _ in parts], axis=1)
    counts = MatchCounts(_by_system(num_systems, [c.clipped for _, c in parts]),
                         _by_system(num_systems, [c.per_reference for _, c in parts])
                         if per_reference else None)
    return _statistics(counts, lengths, num_systems, options)


def systems_statistics(token_ids: TokenIds, num_systems: int,
                       options: ScoreOptions) -> list[dict[str, Any]]:
    """Per-sentence statistics arrays (the ``to_array`` form, ``(B, F)``) of each metric,
    for each system (streams ``0..S-1``) against the shared references (the other streams).

    Every line of every system is one row of one counting call, its references the same
    lines of the reference streams (every reference line is present; an empty one has
    length 0, as in sacrebleu).

    >>> from bleusuite.cli.parser import build_parser
    >>> from bleusuite.text import encode_texts
    >>> from bleusuite.tokenizers import load_tokenizer
    >>> options = ScoreOptions.from_args(build_parser().parse_args(["score", "ref.txt"]))
    >>> ids = encode_texts([["a b c"], ["b a"], ["a b d"]], load_tokenizer("none"), False)
    >>> for system in systems_statistics(ids, 2, options):  # 2 systems, 1 reference
    ...     print(system["bleu"].tolist())  # lengths, matches, totals, clamped totals
    [[3, 3, 2, 1, 0, 0, 3, 2, 1, 0, 3, 2, 1, 1]]
    [[2, 3, 2, 0, 0, 0, 2, 1, 0, 0, 2, 1, 1, 1]]
    """
    orders, per_reference = _counted_orders(options)
    counts = count_pairs(_pairs(token_ids, num_systems), orders, per_reference)
    by_system = MatchCounts(_by_system(num_systems, [counts.clipped]),
                            _by_system(num_systems, [counts.per_reference])
                            if per_reference else None)
    return _statistics(by_system, token_ids.lengths, num_systems, options)


def _counted_orders(options: ScoreOptions) -> tuple[int, bool]:
    """The n-gram orders 1..N that the run's metrics need, and whether GLEU's counts per
    reference are needed."""
    gleu = "gleu" in options.metrics
    orders = max(options.stats_order if "bleu" in options.metrics else 0,
                 GLEU_ORDERS[1] if gleu else 0)
    return orders, gleu


def _pairs(token_ids: TokenIds, num_systems: int) -> RaggedPairs:
    """Every line of every system (system after system) with its reference lines."""
    starts, lengths = token_ids.starts, token_ids.lengths
    ref_starts = np.tile(np.ascontiguousarray(starts[num_systems:].T), (num_systems, 1))
    ref_lengths = np.tile(np.ascontiguousarray(lengths[num_systems:].T), (num_systems, 1))
    return RaggedPairs(token_ids.ids, starts[:num_systems].reshape(-1),
                       lengths[:num_systems].reshape(-1), token_ids.ids, ref_starts,
                       ref_lengths)


def _by_system(num_systems: int, parts: list[Any]) -> np.ndarray:
    """Counts of chunks (each ``(S x lines, ...)``, system after system) as ``(S, B, ...)``."""
    shaped = [part.reshape(num_systems, -1, *part.shape[1:]) for part in parts]
    return np.concatenate(shaped, axis=1)


def _statistics(counts: MatchCounts, lengths: np.ndarray, num_systems: int,
                options: ScoreOptions) -> list[dict[str, Any]]:
    """Each system's statistics from its counts ``(S, B, ...)`` and the line lengths of
    every stream ``(streams, B)``."""
    convert = _converter(options.backend)
    ref_len = convert(np.ascontiguousarray(lengths[num_systems:].T))  # (B, R)
    be = backends.get_backend(ref_len)
    result: list[dict[str, Any]] = []
    for k in range(num_systems):
        hyp_len = convert(lengths[k])
        system: dict[str, Any] = {}
        if "bleu" in options.metrics:
            closest = rules.closest_ref_len(be, hyp_len, ref_len, far=1 << 62)
            system["bleu"] = bleu_statistics_from_counts(
                be, hyp_len, closest, convert(counts.clipped[k, :, : options.stats_order])
            ).to_array()
        if counts.per_reference is not None:
            present = be.full(tuple(ref_len.shape), True, be.bool_, like=ref_len)
            system["gleu"] = gleu_statistics_from_counts(
                be, convert(counts.per_reference[k]), hyp_len, ref_len, present,
                *GLEU_ORDERS).to_array()
        result.append(system)
    return result


def _converter(backend: str) -> Any:
    """NumPy arrays -> arrays of the statistics' backend (``--backend``)."""
    if backend == "numpy":
        return np.asarray
    try:
        import torch
    except ImportError:
        raise CommandError("--backend torch needs PyTorch: pip install torch") from None
    return torch.from_numpy
