"""Per-sentence statistics of whole files: sentences in batches of similar length, every
system against the shared references in one pass."""

from __future__ import annotations

import bisect
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

import bleusuite
from bleusuite import backends, native, rules
from bleusuite.cli.errors import CommandError
from bleusuite.cli.io import Progress, _NoProgress, load_tokenizer, progress_bar  # noqa: F401
from bleusuite.cli.options import GLEU_ORDERS, ScoreOptions, environment_variable
from bleusuite.inputs import normalize_batch
from bleusuite.ngrams import count_matches
from bleusuite.stats import bleu_statistics_from_counts, gleu_statistics_from_counts
from bleusuite.text import FILL_ID, TokenIds, encode_texts
from bleusuite.tokenizers import Tokenizer

__all__ = ["BATCH_SLOTS", "compiled_statistics", "length_batches", "one_reference_statistics",
           "sentence_statistics",
           "stacked_systems", "systems_statistics", "text_statistics"]

#: token slots (sentences x streams x padded length) per statistics batch
BATCH_SLOTS = 1 << 20
#: token slots of a whole run from which the command lets the library count with numba
#: (where installed). Importing numba and loading its compiled kernel take about 1 s in a
#: fresh process, which the kernel repays at about 0.05 s per million slots (measured: 12
#: systems x 3,000 lines, 3.3M slots, count in 0.12 s with numba and 0.3 s with NumPy; the
#: whole command took 1.1 s with NumPy and 1.7-2.2 s with numba)
NUMBA_MIN_SLOTS = 1 << 25


def length_batches(token_ids: TokenIds, slots: int = BATCH_SLOTS) -> list[np.ndarray]:
    """Sentence indices in batches of similar length, each at most ``slots`` token slots.

    Sorting by length keeps padding small whatever the spread of sentence lengths.
    """
    longest = token_ids.lengths.max(axis=0)
    order = np.argsort(longest, kind="stable")
    widths = np.maximum(longest[order], 1)
    streams = token_ids.lengths.shape[0]
    batches, begin, size = [], 0, len(order)
    while begin < size:
        end = bisect.bisect_right(
            range(begin + 1, size + 1), slots,
            key=lambda stop: (stop - begin) * streams * int(widths[stop - 1]),
        ) + begin
        end = max(end, begin + 1)
        batches.append(order[begin:end])
        begin = end
    return batches


def _to_backend(array: np.ndarray, backend: str) -> Any:
    if backend == "numpy":
        return array
    try:
        import torch
    except ImportError:
        raise CommandError("--backend torch needs PyTorch: pip install torch") from None
    return torch.from_numpy(array)


def sentence_statistics(
    token_ids: TokenIds,
    metrics: Sequence[str],
    max_order: int,
    backend: str = "numpy",
    bar: Progress | None = None,
) -> dict[str, Any]:
    """Per-sentence statistics arrays (``to_array`` form, input order) of each metric.

    The arrays belong to ``backend`` (the token matrices are converted before scoring).
    """
    bar = bar or _NoProgress()
    parts: dict[str, list[Any]] = {metric: [] for metric in metrics}
    inverse = _each_batch(token_ids, lambda rows: _batch_statistics(
        token_ids, rows, parts, max_order, backend), bar, per_line=1)
    result = {}
    for metric, arrays in parts.items():
        be = backends.get_backend(arrays[0])
        result[metric] = be.concat(arrays, axis=0)[be.asarray(inverse, like=arrays[0])]
    return result


def _each_batch(token_ids: TokenIds, count: Callable[[np.ndarray], object], bar: Progress,
                per_line: int) -> np.ndarray:
    """Call ``count(rows)`` on each of :func:`length_batches` (under the run's counting
    strategy, :func:`_counting_for`), updating ``bar`` by ``per_line`` per line; returns the
    permutation that puts the batches' rows, concatenated, back in input order."""
    lengths = token_ids.lengths
    order = []
    with _counting_for(int(np.maximum(lengths.max(axis=0), 1).sum()) * lengths.shape[0]):
        for rows in length_batches(token_ids):
            count(rows)
            order.append(rows)
            bar.update(len(rows) * per_line)
    return np.argsort(np.concatenate(order), kind="stable")


@contextlib.contextmanager
def _counting_for(slots: int) -> Iterator[None]:
    """The counting strategy of a run of ``slots`` token slots: the library's choice
    (``BLEUSUITE_COUNTING`` or ``auto``), except that a run too small to repay importing
    numba (:data:`NUMBA_MIN_SLOTS`) counts with the NumPy pipeline where numba is not
    imported yet and ``BLEUSUITE_COUNTING`` is unset. The variable is restored on exit."""
    small = slots < NUMBA_MIN_SLOTS and "bleusuite.counting_numba" not in sys.modules
    if not small or os.environ.get("BLEUSUITE_COUNTING", "").strip().lower() not in ("", "auto"):
        yield
        return
    with environment_variable("BLEUSUITE_COUNTING", "compact"):
        yield


def _batch_statistics(token_ids: TokenIds, rows: np.ndarray, parts: dict[str, list[Any]],
                      max_order: int, backend: str) -> None:
    """Append the statistics of one batch of lines to ``parts`` (one list per metric)."""
    num_refs = token_ids.lengths.shape[0] - 1
    width = int(token_ids.lengths[:, rows].max())
    hyp = token_ids.padded(0, rows, width)
    refs = np.stack([token_ids.padded(r + 1, rows, width) for r in range(num_refs)], axis=1)
    hyp_b, refs_b = _to_backend(hyp, backend), _to_backend(refs, backend)
    if "bleu" in parts:
        stats = bleusuite.bleu_statistics(hyp_b, refs_b, max_order=max_order, eos_id=FILL_ID)
        parts["bleu"].append(stats.to_array())
    if "gleu" in parts:
        gstats = bleusuite.gleu_statistics(hyp_b, refs_b, min_len=GLEU_ORDERS[0],
                                           max_len=GLEU_ORDERS[1], eos_id=FILL_ID)
        parts["gleu"].append(gstats.to_array())


def systems_statistics(token_ids: TokenIds, num_systems: int, options: ScoreOptions,
                       bar: Progress) -> list[dict[str, Any]]:
    """Per-sentence statistics of each system (streams ``0..S-1``) against the shared
    references (the other streams), counted in one pass.

    NumPy backend with bleusuite's compiled part built: :func:`compiled_statistics`.
    Otherwise, several systems and one reference (the usual WMT comparison), NumPy
    backend: see :func:`one_reference_statistics`, each reference line is sorted once for
    all systems.
    Otherwise the systems' sentences are stacked into one batch of ``S x B`` rows, each
    paired with its references (a view of the same ids, nothing is copied or
    re-tokenised), so the batches are as full as possible."""
    if options.backend == "numpy" and native.compiled():
        return compiled_statistics(token_ids, num_systems, options, bar)
    if (num_systems > 1 and token_ids.lengths.shape[0] == num_systems + 1
            and options.backend == "numpy"):
        return one_reference_statistics(token_ids, num_systems, options, bar)
    stacked = stacked_systems(token_ids, num_systems)
    stats = sentence_statistics(stacked, options.metrics, options.stats_order,
                                options.backend, bar)
    lines = token_ids.lengths.shape[1]
    return [{metric: array[k * lines : (k + 1) * lines] for metric, array in stats.items()}
            for k in range(num_systems)]


def one_reference_statistics(token_ids: TokenIds, num_systems: int, options: ScoreOptions,
                             bar: Progress) -> list[dict[str, np.ndarray]]:
    """:func:`systems_statistics` of ``S`` systems (streams ``0..S-1``) against one
    reference (stream ``S``), counted with the roles swapped.

    With one reference a clipped count is ``min(count in the system, count in the
    reference)``, which is symmetric. So each batch is counted once with the reference line
    as the "hypothesis" and the ``S`` systems' lines as its "references", asking for the
    count of each (``per_reference``): the reference's n-grams are sorted and grouped once
    for all systems instead of once per system (12 systems x 3,000 lines: 0.11 s instead
    of 0.17 s in one thread). Each system's statistics are then built from its counts and
    lengths by the library's own builders (``bleu_statistics_from_counts``,
    ``gleu_statistics_from_counts`` in :mod:`bleusuite.stats`).

    >>> from bleusuite.cli.parser import build_parser
    >>> options = ScoreOptions.from_args(build_parser().parse_args(["score", "ref.txt"]))
    >>> tok = load_tokenizer("none")
    >>> ids = encode_texts([["a b c"], ["b a"], ["a b d"]], tok, False)  # 2 systems, 1 ref
    >>> for system in one_reference_statistics(ids, 2, options, _NoProgress()):
    ...     print(system["bleu"].tolist())  # lengths, matches, totals, clamped totals
    [[3, 3, 2, 1, 0, 0, 3, 2, 1, 0, 3, 2, 1, 1]]
    [[2, 3, 2, 0, 0, 0, 2, 1, 0, 0, 2, 1, 1, 1]]
    """
    lengths = token_ids.lengths
    orders = _counted_orders(options)
    parts: list[dict[str, list[np.ndarray]]] = [
        {metric: [] for metric in options.metrics} for _ in range(num_systems)]
    be = backends.get_backend(lengths)

    def count(rows: np.ndarray) -> None:
        width = int(lengths[:, rows].max())
        reference = token_ids.padded(num_systems, rows, width)
        systems = np.stack([token_ids.padded(k, rows, width) for k in range(num_systems)],
                           axis=1)
        batch = normalize_batch(reference, systems, eos_id=FILL_ID)
        counts = count_matches(batch, orders, per_reference=True).per_reference
        assert counts is not None  # asked for per_reference
        ref_len = lengths[num_systems, rows]
        for k, system in enumerate(parts):
            hyp_len = lengths[k, rows]
            if "bleu" in system:  # one reference: it is the closest
                system["bleu"].append(bleu_statistics_from_counts(
                    be, hyp_len, ref_len, counts[:, k, : options.stats_order]).to_array())
            if "gleu" in system:
                system["gleu"].append(gleu_statistics_from_counts(
                    be, counts[:, k : k + 1], hyp_len, ref_len[:, None],
                    np.ones((len(rows), 1), dtype=bool), *GLEU_ORDERS).to_array())

    inverse = _each_batch(token_ids, count, bar, per_line=num_systems)
    return [{metric: np.concatenate(arrays)[inverse] for metric, arrays in system.items()}
            for system in parts]


def compiled_statistics(token_ids: TokenIds, num_systems: int, options: ScoreOptions,
                        bar: Progress) -> list[dict[str, np.ndarray]]:
    """:func:`systems_statistics` by bleusuite's compiled part (:mod:`bleusuite.native`):
    ``clipped_matches`` counts every line of every system against its references straight
    from the ragged ids (per line, a hash table of the references' n-grams, then each
    system's n-grams looked up in it: no padding, no batches, no sorting), and the
    statistics are built from the counts and lengths by the library's own builders, with
    the library's closest-reference and best-reference rules (the same statistics as the
    NumPy pipeline's, tested).

    >>> from bleusuite.cli.parser import build_parser
    >>> from bleusuite import native
    >>> options = ScoreOptions.from_args(build_parser().parse_args(["score", "ref.txt"]))
    >>> ids = encode_texts([["a b c"], ["a b d"], ["a b"]], load_tokenizer("none"), False)
    >>> if native.compiled():  # one system, two references
    ...     stats = compiled_statistics(ids, 1, options, _NoProgress())
    ...     assert stats[0]["bleu"].tolist() == [[3, 3, 2, 1, 0, 0, 3, 2, 1, 0, 3, 2, 1, 1]]
    """
    compiled = native.module()
    assert compiled is not None, "the compiled part is not built or is turned off"
    lengths = np.ascontiguousarray(token_ids.lengths, dtype=np.int64)
    lines, references = lengths.shape[1], lengths.shape[0] - num_systems
    orders = _counted_orders(options)
    clipped_bytes, per_reference_bytes = compiled.clipped_matches(
        token_ids.ids, np.ascontiguousarray(token_ids.starts, dtype=np.int64), lengths,
        num_systems, orders)
    clipped = np.frombuffer(clipped_bytes, dtype=np.int64).reshape(lines, num_systems, orders)
    per_reference = np.frombuffer(per_reference_bytes, dtype=np.int64).reshape(
        lines, num_systems, references, orders)
    ref_len = lengths[num_systems:].T  # (B, R); every reference line is present
    be = backends.get_backend(lengths)
    result = []
    for k in range(num_systems):
        hyp_len = lengths[k]
        system: dict[str, np.ndarray] = {}
        if "bleu" in options.metrics:
            closest = rules.closest_ref_len(be, hyp_len, ref_len, far=1 << 62)
            system["bleu"] = bleu_statistics_from_counts(
                be, hyp_len, closest, clipped[:, k, : options.stats_order]).to_array()
        if "gleu" in options.metrics:
            system["gleu"] = gleu_statistics_from_counts(
                be, per_reference[:, k], hyp_len, ref_len, np.ones(ref_len.shape, dtype=bool),
                *GLEU_ORDERS).to_array()
        result.append(system)
        bar.update(lines)
    return result


def _counted_orders(options: ScoreOptions) -> int:
    """The n-gram orders 1..N that the run's metrics need counted (BLEU's, GLEU's)."""
    return max(options.stats_order if "bleu" in options.metrics else 0,
               GLEU_ORDERS[1] if "gleu" in options.metrics else 0)


def stacked_systems(token_ids: TokenIds, num_systems: int) -> TokenIds:
    """Token ids of ``S`` systems and shared references (streams ``S..``) as one system of
    ``S x B`` lines: stream 0 holds every system's lines, system after system, and each
    reference stream is repeated ``S`` times. Only the offsets are rearranged.

    >>> tok = load_tokenizer("none")
    >>> ids = encode_texts([["a b", "c"], ["a", "c d"], ["a b", "c d"]], tok, False)
    >>> stacked = stacked_systems(ids, 2)
    >>> [stacked.tokens(0, i) for i in range(4)], stacked.tokens(1, 2)
    ([['a', 'b'], ['c'], ['a'], ['c', 'd']], ['a', 'b'])
    """
    starts, lengths = token_ids.starts, token_ids.lengths
    refs = range(num_systems, lengths.shape[0])
    stacked_starts = np.stack([starts[:num_systems].ravel(),
                               *(np.tile(starts[r], num_systems) for r in refs)])
    stacked_lengths = np.stack([lengths[:num_systems].ravel(),
                                *(np.tile(lengths[r], num_systems) for r in refs)])
    return TokenIds(token_ids.ids, stacked_starts, stacked_lengths, token_ids.vocabulary)


def text_statistics(texts: Sequence[list[str]], num_systems: int, tokenizer: Tokenizer,
                    options: ScoreOptions, show: bool = False) -> list[dict[str, np.ndarray]]:
    """Per-sentence statistics of each system from text: the lines of the systems, then of
    each reference stream (all line-aligned), tokenised, numbered and counted.

    ``show``: progress bars on stderr. The statistics do not depend on the numbering, so
    any slice of the lines gives the statistics of those lines
    (:mod:`bleusuite.cli.shards` counts slices in several processes).

    >>> from bleusuite.cli.parser import build_parser
    >>> options = ScoreOptions.from_args(build_parser().parse_args(["score", "ref.txt"]))
    >>> stats = text_statistics([["a b c"], ["a b d"]], 1, load_tokenizer("none"), options)
    >>> stats[0]["bleu"].tolist()  # lengths, then matches and totals of orders 1-4, ...
    [[3, 3, 2, 1, 0, 0, 3, 2, 1, 0, 3, 2, 1, 1]]
    """
    num_lines = len(texts[0])
    bar = progress_bar(num_lines * len(texts), "tokenizing", show)
    try:
        token_ids = encode_texts(texts, tokenizer, options.lowercase, bar)
    finally:
        bar.close()
    bar = progress_bar(num_lines * num_systems, "counting n-grams", show)
    try:
        return systems_statistics(token_ids, num_systems, options, bar)
    finally:
        bar.close()
