"""BLEU of every prefix of each hypothesis (:func:`prefix_sentence_bleu`), for dense rewards
``r_t = BLEU(y[:t]) - BLEU(y[:t-1])``: the prefixes' statistics from one pass of running
counts (:func:`bleusuite.counting.prefix.prefix_matches`), scored by ``sentence_bleu``'s
formulas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, overload

from bleusuite import checks
from bleusuite.counting import counting_strategy
from bleusuite.counting.prefix import prefix_matches
from bleusuite.inputs import Batch
from bleusuite.inputs.normalize import options_batch
from bleusuite.scores.bleu.score import score_of
from bleusuite.scores.bleu.settings import CALL_OPTIONS, BleuSettings
from bleusuite.scores.bleu.statistics import BleuStats, bleu_statistics_from_counts

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.array_types import ArrayT, Hypotheses, NumpyArray, References, Scores
    from bleusuite.scores.bleu.settings import BleuCallOptions

__all__ = ["prefix_bleu_statistics", "prefix_sentence_bleu"]


def prefix_bleu_statistics(batch: Batch, max_order: int,
                           ref_length: str = "closest") -> BleuStats[Any]:
    """The BLEU statistics of every prefix of a normalised batch, ``(B * L,)``: entry
    ``b * L + t - 1`` holds the first ``t`` tokens of hypothesis ``b`` (past its end, all)."""
    run = batch.backend.compiled(_prefix_statistics, static_argnums=(1, 2))
    stats: BleuStats[Any] = run(batch, max_order, ref_length)
    return stats


def _prefix_statistics(batch: Batch, max_order: int, ref_length: str) -> BleuStats[Any]:
    be = batch.backend
    rows, width = batch.hyp.shape
    num_refs = int(batch.refs.shape[1])
    matches = prefix_matches(batch, max_order).reshape(rows * width, max_order)
    steps = be.arange(width, like=batch.hyp_len)[None, :] + 1
    hyp_len = be.minimum(steps, batch.hyp_len[:, None]).reshape(-1)
    every = be.zeros((1, width, 1), be.int64, like=batch.ref_len)
    ref_len = (batch.ref_len[:, None, :] + every).reshape(rows * width, num_refs)
    present = (batch.ref_present[:, None, :] & (every == 0)).reshape(rows * width, num_refs)
    far = max(width, int(batch.refs.shape[-1])) + 1  # above every length and distance
    return bleu_statistics_from_counts(be, hyp_len, ref_len, present, matches, far=far,
                                       ref_length=ref_length)


#: prefixes scored together on the host: the formulas' temporaries (256 KiB an array at 4
#: orders) stay in the cache. On 256 x 256 MT-like ids (49,000 prefixes) the whole call
#: took 6.4x one sentence_bleu call in one block, 3.3x in blocks of 8192 (method1; exp
#: with effective order: 8.5x and 4.9x); 2048 or 16384 rows are slower again.
HOST_BLOCK_ROWS = 8192


def _host_scores(batch: Batch, config: BleuSettings) -> NumpyArray:
    """The ``(B, L)`` scores on the host, each distinct prefix (``t = 1 .. max(length, 1)``:
    past the end an entry repeats the last) scored once, in blocks of
    :data:`HOST_BLOCK_ROWS`."""
    import numpy as np

    be = batch.backend
    rows, width = batch.hyp.shape
    matches = prefix_matches(batch, config.stats_order).reshape(rows * width,
                                                               config.stats_order)
    lengths = np.asarray(batch.hyp_len, dtype=np.int64)
    kept = np.minimum(np.maximum(lengths, 1), width)  # distinct entries of each row
    first = np.cumsum(kept) - kept  # where each row's entries start in the kept ones
    row = np.repeat(np.arange(rows), kept)
    step = np.arange(int(kept.sum())) - first[row]  # t - 1
    hyp_len = np.minimum(step + 1, lengths[row])
    num_refs = int(batch.refs.shape[1])
    far = max(width, int(batch.refs.shape[-1])) + 1
    scored = np.empty(len(row), dtype=np.float64)
    for begin in range(0, len(row), HOST_BLOCK_ROWS):
        part = slice(begin, begin + HOST_BLOCK_ROWS)
        rows_of, lengths_of = row[part], hyp_len[part]
        stats = bleu_statistics_from_counts(
            be, lengths_of, batch.ref_len[rows_of].reshape(-1, num_refs),
            batch.ref_present[rows_of], matches[rows_of * width + step[part]], far=far,
            ref_length=config.ref_length)
        scored[part] = score_of(stats, config)
    # entry (b, t - 1): the kept entry of t, or the row's last kept one past it
    at = first[:, None] + np.minimum(np.arange(width)[None, :], kept[:, None] - 1)
    result: NumpyArray = scored[at]
    return result


@overload
def prefix_sentence_bleu(
    hypotheses: Hypotheses[NumpyArray], references: References[NumpyArray],
    **options: Unpack[BleuCallOptions],
) -> Scores: ...


@overload
def prefix_sentence_bleu(
    hypotheses: Hypotheses[ArrayT], references: References[ArrayT],
    **options: Unpack[BleuCallOptions],
) -> ArrayT: ...


def prefix_sentence_bleu(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[BleuCallOptions],
) -> Any:
    """BLEU of every prefix of every hypothesis: shape ``(B, L)``, float64.

    Entry ``[b, t - 1]`` is ``sentence_bleu`` of the first ``t`` tokens of hypothesis ``b``
    (padding and ``eos_id`` dropped as there) with the same arguments; **past the end** of
    a hypothesis it holds the whole hypothesis's score, so the last column is
    ``sentence_bleu`` of the batch and the dense rewards are 0 there. ``L`` is the
    hypotheses' width (for lists and text, the longest sentence's, in tokens).

    The prefixes are counted in one pass of running clipped counts (fixed shapes on devices)
    and scored with ``sentence_bleu``'s formulas: every smoothing gives exactly the numbers
    of a loop of ``sentence_bleu`` over the prefixes (``method6`` raises where such a loop
    would; on devices those entries are NaN).

    Args:
        hypotheses, references: as :func:`bleusuite.sentence_bleu` (padded arrays, ragged
            arrays, token lists, or text with ``tokenize``).
        max_order, weights, smooth, smooth_value, effective_order: as
            :func:`bleusuite.sentence_bleu` (every smoothing).
        pad_id, eos_id, tokenize, lowercase, ref_length: as :func:`bleusuite.sentence_bleu`.

    Returns:
        ``(B, L)`` float64 scores of the input's kind (NumPy for lists and text).

    Raises:
        TypeError, ValueError: malformed input (the message names the argument).

    >>> import numpy as np
    >>> hyp = np.array([[5, 6, 7, 8, 0, 0]])
    >>> ref = np.array([[5, 6, 7, 9, 0, 0]])
    >>> scores = prefix_sentence_bleu(hyp, ref, pad_id=0, smooth="exp", effective_order=True)
    >>> scores.round(4)
    array([[0.0498, 0.3679, 0.7165, 0.5946, 0.5946, 0.5946]])
    >>> np.diff(scores, prepend=0.0).round(4)          # dense rewards: r_t
    array([[ 0.0498,  0.3181,  0.3487, -0.1219,  0.    ,  0.    ]])
    >>> prefix_sentence_bleu(["the cat sat"], ["the cat sat down"], tokenize="13a",
    ...                      smooth="method1").round(4)
    array([[0.0089, 0.1163, 0.4029]])
    """
    checks.keywords(options, CALL_OPTIONS, "prefix_sentence_bleu")
    config = BleuSettings.of_options(options, text_defaults=False)
    batch = options_batch(hypotheses, references, options).padded()
    rows, width = batch.hyp.shape
    if counting_strategy(batch.backend, batch.hyp) == "compiled":
        scores = _host_scores(batch, config)
    else:
        stats = prefix_bleu_statistics(batch, config.stats_order, config.ref_length)
        scores = score_of(stats, config).reshape(rows, width)
    if batch.has_reference is not None:  # on devices: NaN where a row has no reference
        scores = batch.backend.where(batch.has_reference[:, None], scores, float("nan"))
    return batch.to_caller(scores)
