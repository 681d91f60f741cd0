"""GLEU's summable statistics (:class:`GleuStats`, NLTK's ``gleu_score``), and the
statistics of a batch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from bleusuite import backends, checks
from bleusuite.backends.base import Backend
from bleusuite.counting import count_matches
from bleusuite.inputs import Batch
from bleusuite.inputs.normalize import options_batch
from bleusuite.scores import rules
from bleusuite.scores.bleu.statistics import A, NumpyCounts
from bleusuite.scores.gleu.settings import CALL_OPTIONS, GleuSettings
from bleusuite.scores.statistics import SummableStats, map_arrays, ngram_totals

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.array_types import ArrayT, Hypotheses, NumpyArray, References
    from bleusuite.scores.gleu.settings import GleuCallOptions

__all__ = ["GleuStats", "gleu_statistics", "gleu_statistics_from_counts",
           "gleu_statistics_of_batch"]


@dataclass(frozen=True)
class GleuStats(SummableStats[A]):
    """Per-sentence (or summed) GLEU statistics (NLTK's ``gleu_score``).

    Attributes:
        matches: n-grams (orders min_len..max_len pooled) shared with the best reference.
        totals: ``max(hypothesis n-grams, best reference n-grams)``; 0 when neither has any.
    """

    matches: A
    totals: A

    length_field = "matches"


def gleu_statistics_of_batch(batch: Batch, min_len: int, max_len: int) -> GleuStats[Any]:
    run = batch.backend.compiled(_gleu_statistics, static_argnums=(1, 2))
    return run(batch, min_len, max_len)


def _gleu_statistics(batch: Batch, min_len: int, max_len: int) -> GleuStats[Any]:
    counts = count_matches(batch, max_len, per_reference=True).per_reference
    assert counts is not None  # asked for per_reference
    return gleu_statistics_from_counts(batch.backend, counts, batch.hyp_len, batch.ref_len,
                                       batch.ref_present, min_len, max_len)


def gleu_statistics_from_counts(be: Backend, counts: Any, hyp_len: Any, ref_len: Any,
                                ref_present: Any, min_len: int, max_len: int
                                ) -> GleuStats[Any]:
    """GLEU statistics from the clipped matches per reference ``(B, R, N >= max_len)`` and
    the lengths."""
    true_positives = be.sum_(counts[..., min_len - 1 : max_len], axis=-1)  # (B, R)
    hyp_total = be.sum_(ngram_totals(be, hyp_len, min_len, max_len), axis=-1)  # (B,)
    ref_total = be.sum_(ngram_totals(be, ref_len, min_len, max_len), axis=-1)  # (B, R)
    n_all = be.maximum(hyp_total[:, None], ref_total)
    usable = ref_present & (n_all > 0)
    # NLTK keeps the first reference with the best tp / n_all (Python's max: first on ties)
    best = rules.best_reference(be, be.to_float64(true_positives), be.to_float64(n_all), usable)
    any_usable = be.any_(usable, axis=1)
    matches = be.where(any_usable, be.take_along(true_positives, best, axis=1)[:, 0], 0)
    totals = be.where(any_usable, be.take_along(n_all, best, axis=1)[:, 0], 0)
    return GleuStats(matches=matches, totals=totals)


@overload
def gleu_statistics(
    hypotheses: Hypotheses[NumpyArray], references: References[NumpyArray],
    **options: Unpack[GleuCallOptions],
) -> GleuStats[NumpyCounts]: ...


@overload
def gleu_statistics(
    hypotheses: Hypotheses[ArrayT], references: References[ArrayT],
    **options: Unpack[GleuCallOptions],
) -> GleuStats[ArrayT]: ...


def gleu_statistics(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[GleuCallOptions],
) -> GleuStats[Any]:
    """Per-sentence GLEU statistics of a batch (the input forms of
    :func:`bleusuite.sentence_gleu`, text with ``tokenize`` included).

    >>> import numpy as np
    >>> s = gleu_statistics(np.array([[1, 2, 3]]), np.array([[1, 2, 4]]))
    >>> s.matches.tolist(), s.totals.tolist()
    ([3], [6])
    """
    checks.keywords(options, CALL_OPTIONS, "gleu_statistics")
    settings = GleuSettings.of_options(options)
    batch = options_batch(hypotheses, references, options, settings)
    return map_arrays(gleu_statistics_of_batch(batch, settings.min_len, settings.max_len),
                      batch.to_caller)


backends.register_container(GleuStats)
