"""BLEU between the members of groups: the pairwise matrix (:func:`pairwise_sentence_bleu`,
for minimum Bayes risk decoding) and self-BLEU (:func:`self_bleu`, for diversity rewards).

The pairs index each group's sentences, normalised once, and are scored by the engine of
:func:`bleusuite.sentence_bleu` (every cell exactly its number; the compiled kernel reads
the rows in place).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, overload

from bleusuite import checks
from bleusuite.backends.base import Backend
from bleusuite.counting import count_matches, counting_strategy
from bleusuite.inputs import Batch
from bleusuite.inputs.batch import rows_batch
from bleusuite.scores.bleu.groups import Groups, Sentences, group_sentences
from bleusuite.scores.bleu.score import score_of
from bleusuite.scores.bleu.settings import CALL_OPTIONS, GROUP_OPTIONS, BleuSettings
from bleusuite.scores.bleu.statistics import BleuStats, bleu_statistics_from_counts

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.array_types import ArrayT, NumpyArray, Scores
    from bleusuite.scores.bleu.settings import BleuCallOptions, BleuGroupOptions

__all__ = ["pairwise_sentence_bleu", "self_bleu"]

def _pair_statistics(be: Backend, hyps: Sentences, hyp_rows: Any, refs: Sentences,
                     ref_rows: Any, max_order: int, ref_length: str) -> BleuStats[Any]:
    """The statistics of hypothesis ``hyps.tokens[b, hyp_rows]`` (P,) against the references
    ``refs.tokens[b, ref_rows]`` (P, R), for every group ``b``."""
    arrays = (hyps.tokens, hyps.lengths, refs.tokens, refs.lengths, hyp_rows, ref_rows)
    if counting_strategy(be, hyps.tokens) != "compiled":  # one program under JAX
        run = be.compiled(_statistics, static_argnums=(0, 7, 8, 9))
        stats: BleuStats[Any] = run(be, *arrays, max_order, ref_length, False)
        return stats
    return _statistics(be, *arrays, max_order, ref_length, True)


def _statistics(be: Backend, hyp_tokens: Any, hyp_lengths: Any, ref_tokens: Any,
                ref_lengths: Any, hyp_rows: Any, ref_rows: Any, max_order: int, ref_length: str,
                in_place: bool) -> BleuStats[Any]:
    rows, count, width = (int(n) for n in hyp_tokens.shape)
    ref_count, ref_width = (int(n) for n in ref_tokens.shape[1:])
    group = be.arange(rows, like=hyp_lengths)[:, None]
    hyp_index = (group * count + hyp_rows[None, :]).reshape(-1)
    ref_index = (group[:, :, None] * ref_count + ref_rows[None]).reshape(-1, ref_rows.shape[1])
    hyp_len, ref_len = hyp_lengths.reshape(-1)[hyp_index], ref_lengths.reshape(-1)[ref_index]
    hyp_tokens = hyp_tokens.reshape(rows * count, width)
    ref_tokens = ref_tokens.reshape(rows * ref_count, ref_width)
    present = be.full(tuple(ref_index.shape), True, be.bool_, like=ref_len)
    if in_place:  # the compiled kernel reads the rows where they are: no pair is copied
        batch = rows_batch(hyp_tokens, hyp_index, hyp_len, ref_tokens, ref_index, ref_len)
    else:
        batch = Batch(be, None, hyp_len, ref_len, present, hyp=hyp_tokens[hyp_index],
                      refs=ref_tokens[ref_index])
    return bleu_statistics_from_counts(be, hyp_len, ref_len, present,
                                       count_matches(batch, max_order).clipped,
                                       far=max(width, ref_width) + 1, ref_length=ref_length)


@overload
def pairwise_sentence_bleu(
    candidates: Groups[NumpyArray], others: Groups[NumpyArray],
    **options: Unpack[BleuGroupOptions],
) -> Scores: ...


@overload
def pairwise_sentence_bleu(
    candidates: Groups[ArrayT], others: Groups[ArrayT], **options: Unpack[BleuGroupOptions],
) -> ArrayT: ...


def pairwise_sentence_bleu(
    candidates: Groups[Any], others: Groups[Any], **options: Unpack[BleuGroupOptions],
) -> Any:
    """The BLEU matrix of each group: shape ``(B, N, M)``, float64, where
    ``[b, i, j] == sentence_bleu(candidates[b, i], [others[b, j]])`` with the same arguments.
    For minimum Bayes risk decoding pass the same samples twice (``others=candidates``; see
    the MBR recipe in the RL-reward page of the docs).

    Args:
        candidates: ``(B, N, L)`` integer array (any backend), or a list of ``B`` groups of
            ``N`` sentences (1-D integer arrays, token sequences, strings with ``tokenize``;
            a group may be an ``(N, L)`` array).
        others: the same forms with ``M`` sentences per group. A sentence of nothing but
            padding is an empty sentence (as a reference: present, of length 0).
        max_order, weights, smooth, smooth_value, effective_order: as
            :func:`bleusuite.sentence_bleu` (every smoothing).
        pad_id, eos_id, tokenize, lowercase: as :func:`bleusuite.sentence_bleu`.

    Returns:
        ``(B, N, M)`` float64 scores of the input's kind (NumPy for lists and text).

    Raises:
        TypeError, ValueError: malformed input, groups or batches of different sizes.

    >>> import numpy as np
    >>> group = np.array([[[5, 6, 7, 8], [5, 6, 7, 9], [1, 2, 3, 0]]])     # B=1, N=3
    >>> pairwise_sentence_bleu(group, group, pad_id=0, smooth="exp",
    ...                        effective_order=True).round(4)
    array([[[1.    , 0.5946, 0.    ],
            [0.5946, 1.    , 0.    ],
            [0.    , 0.    , 1.    ]]])
    >>> pairwise_sentence_bleu([["the cat sat", "a dog ran"]], [["the cat sat down"]],
    ...                        tokenize="13a", smooth="method1").round(4)
    array([[[0.4029],
            [0.    ]]])
    """
    checks.keywords(options, GROUP_OPTIONS, "pairwise_sentence_bleu")
    config = BleuSettings.of_options(options, text_defaults=False)
    be, to_caller, (cand, other) = group_sentences(
        [("candidates", candidates), ("others", others)], pad_id=options.get("pad_id"),
        eos_id=options.get("eos_id"), tokenize=options.get("tokenize"),
        lowercase=options.get("lowercase", False))
    rows, count = (int(n) for n in cand.tokens.shape[:2])
    others_count = int(other.tokens.shape[1])
    # pair (i, j) of a group: candidate i against the other sentence j
    pair = be.arange(count * others_count, like=cand.lengths)
    stats = _pair_statistics(be, cand, pair // others_count, other,
                             (pair % others_count)[:, None], config.stats_order, "closest")
    return to_caller(score_of(stats, config).reshape(rows, count, others_count))


@overload
def self_bleu(group: Groups[NumpyArray], **options: Unpack[BleuCallOptions]) -> Scores: ...


@overload
def self_bleu(group: Groups[ArrayT], **options: Unpack[BleuCallOptions]) -> ArrayT: ...


def self_bleu(group: Groups[Any], **options: Unpack[BleuCallOptions]) -> Any:
    """Self-BLEU of each member of each group: shape ``(B, G)``, float64, where
    ``[b, i] == sentence_bleu(group[b, i], [the other G - 1 members of group b])`` (all the
    others as its references at once). The mean over a group is the usual self-BLEU of a
    set of samples; ``1 - self_bleu`` is a diversity reward.

    Args:
        group: ``(B, G, L)`` integer array (any backend), or a list of ``B`` groups of
            ``G >= 2`` sentences (as ``candidates`` of :func:`pairwise_sentence_bleu`).
        max_order, weights, smooth, smooth_value, effective_order: as
            :func:`bleusuite.sentence_bleu` (every smoothing).
        pad_id, eos_id, tokenize, lowercase, ref_length: as :func:`bleusuite.sentence_bleu`.

    Returns:
        ``(B, G)`` float64 scores of the input's kind (NumPy for lists and text).

    Raises:
        TypeError, ValueError: malformed input, groups of different sizes or of fewer than 2.

    >>> import numpy as np
    >>> group = np.array([[[5, 6, 7, 8], [5, 6, 7, 9], [1, 2, 3, 0]]])
    >>> self_bleu(group, pad_id=0, smooth="exp", effective_order=True).round(4)
    array([[0.5946, 0.5946, 0.    ]])
    >>> self_bleu([["the cat sat", "the cat sat down", "a dog"]], tokenize="13a",
    ...           smooth="method1").round(4)
    array([[0.5623, 0.3976, 0.    ]])
    """
    checks.keywords(options, CALL_OPTIONS, "self_bleu")
    config = BleuSettings.of_options(options, text_defaults=False)
    be, to_caller, (members,) = group_sentences(
        [("group", group)], pad_id=options.get("pad_id"), eos_id=options.get("eos_id"),
        tokenize=options.get("tokenize"), lowercase=options.get("lowercase", False))
    rows, size = (int(n) for n in members.tokens.shape[:2])
    if size < 2:
        raise ValueError(f"group: self_bleu needs at least 2 members a group (each member is "
                         f"scored against the others); got {size}")
    # the other members of each member i: j + (j >= i) for j < G - 1, made on the device
    slot = be.arange(size - 1, like=members.lengths)[None, :]
    member = be.arange(size, like=members.lengths)[:, None]
    stats = _pair_statistics(be, members, member[:, 0], members,
                             slot + be.to_int64(slot >= member), config.stats_order,
                             config.ref_length)
    return to_caller(score_of(stats, config).reshape(rows, size))
