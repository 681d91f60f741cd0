"""Summable sufficient statistics for BLEU and GLEU.

A score is a pure function of a few integer counts per sentence. Those counts add up: the
statistics of a corpus are the sum of the statistics of its sentences, so batches,
processes (an all-reduce) and bootstrap resamples can be combined before scoring.

>>> import numpy as np
>>> from bleusuite import bleu_statistics, bleu_score
>>> hyp = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
>>> ref = np.array([[1, 2, 3, 4], [5, 6, 7, 9]])
>>> stats = bleu_statistics(hyp, ref)
>>> stats.matches
array([[4, 3, 2, 1],
       [3, 2, 1, 0]])
>>> corpus = stats.sum()            # the same as scoring both rows as one corpus
>>> print(f"{float(bleu_score(corpus)):.6f}")
0.723127
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Generic, SupportsIndex, TypeVar, overload

import numpy as np
import numpy.typing as npt

from bleusuite import backends, checks, rules
from bleusuite.backends.base import Backend
from bleusuite.counting import count_matches
from bleusuite.inputs import Batch, normalize_batch

if TYPE_CHECKING:
    from bleusuite.array_types import ArrayT, Hypotheses, NumpyArray, References

__all__ = [
    "BleuStats",
    "GleuStats",
    "bleu_statistics",
    "gleu_statistics",
]

#: the array type of statistics (typed: ``BleuStats[torch.Tensor]``, ...)
A = TypeVar("A")
#: the statistics of NumPy arrays, Python lists and text
NumpyCounts = npt.NDArray[np.int64]


@dataclass(frozen=True)
class BleuStats(Generic[A]):
    """Per-sentence (or summed) BLEU statistics.

    All fields are int64 arrays of the input's backend (the type parameter: NumPy for
    lists); the leading shape is ``(B,)`` for per-sentence statistics and ``()`` after
    :meth:`sum`.

    Attributes:
        hyp_len: hypothesis length (tokens).
        ref_len: length of the closest reference (the shorter one on ties).
        matches: ``(..., N)`` clipped n-gram matches for orders 1..N.
        totals: ``(..., N)`` hypothesis n-grams per order, ``max(0, hyp_len - n + 1)``.
        clamped_totals: ``(..., N)`` each sentence's total clamped to at least 1 before
            summing (NLTK's ``modified_precision`` denominator).
    """

    hyp_len: A
    ref_len: A
    matches: A
    totals: A
    clamped_totals: A

    @property
    def backend(self) -> Backend:
        return backends.get_backend(self.matches)

    @property
    def max_order(self) -> int:
        """The highest n-gram order the statistics hold."""
        return int(_untyped(self.matches).shape[-1])

    def __len__(self) -> int:
        if _untyped(self.matches).ndim < 2:
            raise TypeError("summed BleuStats have no length")
        return int(_untyped(self.matches).shape[0])

    def sum(self) -> BleuStats[A]:
        """Corpus statistics: the sum over the sentence axis.

        >>> import numpy as np
        >>> from bleusuite import bleu_statistics
        >>> s = bleu_statistics(np.array([[1, 2], [3, 4]]), np.array([[1, 2], [3, 5]]))
        >>> int(s.sum().hyp_len), s.sum().matches.tolist()
        (4, [3, 1, 0, 0])
        """
        be = self.backend
        return BleuStats(*(be.sum_(getattr(self, f.name), axis=0) for f in fields(self)))

    def __add__(self, other: BleuStats[A]) -> BleuStats[A]:
        if not isinstance(other, BleuStats):
            return NotImplemented
        if other.max_order != self.max_order:
            raise ValueError(
                f"cannot add BleuStats of max_order {self.max_order} and {other.max_order}"
            )
        return BleuStats(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def __getitem__(self, index: Any) -> BleuStats[A]:
        """Select sentences (an int, a slice, an index array), as in bootstrap resampling."""
        return BleuStats(*(getattr(self, f.name)[index] for f in fields(self)))

    def to_array(self) -> A:
        """One int64 array ``(..., 2 + 3N)``: ``[hyp_len, ref_len, matches, totals, clamped]``.

        Convenient for an all-reduce or for storage; :meth:`from_array` reverses it.
        """
        be, s = self.backend, _untyped(self)
        result: A = be.concat(
            [s.hyp_len[..., None], s.ref_len[..., None], s.matches, s.totals, s.clamped_totals],
            axis=-1,
        )
        return result

    @classmethod
    def from_array(cls, array: A) -> BleuStats[A]:
        """Inverse of :meth:`to_array`.

        >>> import numpy as np
        >>> from bleusuite import bleu_statistics
        >>> s = bleu_statistics(np.array([[1, 2, 3]]), np.array([[1, 2, 4]]))
        >>> BleuStats.from_array(s.to_array()).matches.tolist()
        [[2, 1, 0, 0]]
        """
        a = _untyped(array)
        width = int(a.shape[-1]) - 2
        if width <= 0 or width % 3:
            raise ValueError(
                f"array: expected a last axis of 2 + 3 * max_order entries; got {width + 2}"
            )
        n = width // 3
        return cls(
            a[..., 0], a[..., 1], a[..., 2 : 2 + n], a[..., 2 + n : 2 + 2 * n], a[..., 2 + 2 * n :]
        )


@dataclass(frozen=True)
class GleuStats(Generic[A]):
    """Per-sentence (or summed) GLEU statistics (NLTK's ``gleu_score``).

    Attributes:
        matches: n-grams (orders min_len..max_len pooled) shared with the best reference.
        totals: ``max(hypothesis n-grams, best reference n-grams)``; 0 when neither has any.
    """

    matches: A
    totals: A

    @property
    def backend(self) -> Backend:
        return backends.get_backend(self.matches)

    def __len__(self) -> int:
        if _untyped(self.matches).ndim < 1:
            raise TypeError("summed GleuStats have no length")
        return int(_untyped(self.matches).shape[0])

    def sum(self) -> GleuStats[A]:
        """Corpus statistics: the sum over the sentence axis."""
        be = self.backend
        return GleuStats(be.sum_(self.matches, axis=0), be.sum_(self.totals, axis=0))

    def __add__(self, other: GleuStats[A]) -> GleuStats[A]:
        if not isinstance(other, GleuStats):
            return NotImplemented
        s, o = _untyped(self), _untyped(other)
        return GleuStats(s.matches + o.matches, s.totals + o.totals)

    def __getitem__(self, index: Any) -> GleuStats[A]:
        s = _untyped(self)
        return GleuStats(s.matches[index], s.totals[index])

    def to_array(self) -> A:
        """``(..., 2)`` int64: ``[matches, totals]``."""
        be, s = self.backend, _untyped(self)
        result: A = be.concat([s.matches[..., None], s.totals[..., None]], axis=-1)
        return result

    @classmethod
    def from_array(cls, array: A) -> GleuStats[A]:
        """Inverse of :meth:`to_array`."""
        a = _untyped(array)
        if int(a.shape[-1]) != 2:
            raise ValueError(f"array: expected a last axis of 2 entries; got {a.shape[-1]}")
        return cls(a[..., 0], a[..., 1])


def _untyped(value: object) -> Any:
    """``value`` for the arithmetic inside this module: the statistics are generic in their
    array type, which this module (written for every backend) does not look into."""
    return value


_Stats = TypeVar("_Stats", BleuStats[Any], GleuStats[Any])


def map_arrays(stats: _Stats, fn: Callable[[Any], Any]) -> _Stats:
    """The same statistics with ``fn`` applied to every array (e.g. to move them)."""
    return type(stats)(*(fn(getattr(stats, f.name)) for f in fields(stats)))


def _ngram_totals(be: Backend, lengths: Any, first: int, last: int) -> Any:
    """``(..., last - first + 1)``: ``max(0, length - n + 1)`` for n = first..last."""
    orders = be.arange(last - first + 1, like=lengths) + first
    return be.maximum(lengths[..., None] - orders + 1, 0)


def _closest_ref_len(be: Backend, batch: Batch) -> Any:
    """Closest present reference length; ties go to the shorter reference."""
    # above every distance and length (from the shapes: it fits int32 for JAX without x64)
    far = max(batch.hyp.shape[-1], batch.refs.shape[-1]) + 1
    return rules.closest_ref_len(be, batch.hyp_len, batch.ref_len, batch.ref_present, far=far)


def bleu_statistics_of_batch(batch: Batch, max_order: int) -> BleuStats[Any]:
    return batch.backend.compiled(_bleu_statistics, static_argnums=(1,))(batch, max_order)


def _bleu_statistics(batch: Batch, max_order: int) -> BleuStats[Any]:
    be = batch.backend
    matches = count_matches(batch, max_order).clipped
    return bleu_statistics_from_counts(be, batch.hyp_len, _closest_ref_len(be, batch), matches)


def bleu_statistics_from_counts(be: Backend, hyp_len: Any, ref_len: Any,
                                matches: Any) -> BleuStats[Any]:
    """BLEU statistics from the clipped matches ``(B, N)`` of orders 1..N, the hypothesis
    lengths and the closest reference lengths ``(B,)`` (the totals follow from the
    lengths)."""
    totals = _ngram_totals(be, hyp_len, 1, int(matches.shape[-1]))
    return BleuStats(
        hyp_len=hyp_len,
        ref_len=ref_len,
        matches=matches,
        totals=totals,
        clamped_totals=be.maximum(totals, 1),
    )


@overload
def bleu_statistics(
    hypotheses: Hypotheses[NumpyArray],
    references: References[NumpyArray],
    *,
    max_order: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
) -> BleuStats[NumpyCounts]: ...


@overload
def bleu_statistics(
    hypotheses: Hypotheses[ArrayT],
    references: References[ArrayT],
    *,
    max_order: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
) -> BleuStats[ArrayT]: ...


def bleu_statistics(
    hypotheses: Hypotheses[Any],
    references: References[Any],
    *,
    max_order: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
) -> BleuStats[Any]:
    """Per-sentence BLEU statistics of a batch (see :func:`bleusuite.sentence_bleu` for the
    input forms).

    >>> import numpy as np
    >>> s = bleu_statistics(np.array([[7, 7, 8, 0]]), np.array([[7, 8, 8, 0]]), pad_id=0)
    >>> s.hyp_len.tolist(), s.ref_len.tolist(), s.matches.tolist(), s.totals.tolist()
    ([3], [3], [[2, 1, 0, 0]], [[3, 2, 1, 0]])
    """
    max_order = checks.order(max_order, "max_order")
    batch = normalize_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id)
    return map_arrays(bleu_statistics_of_batch(batch, max_order), batch.to_caller)


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
    """GLEU statistics from the clipped matches of each reference ``(B, R, N)`` (orders
    1..N, N >= ``max_len``), the hypothesis lengths ``(B,)``, the reference lengths and
    which references are present ``(B, R)``."""
    true_positives = be.sum_(counts[..., min_len - 1 : max_len], axis=-1)  # (B, R)
    hyp_total = be.sum_(_ngram_totals(be, hyp_len, min_len, max_len), axis=-1)  # (B,)
    ref_total = be.sum_(_ngram_totals(be, ref_len, min_len, max_len), axis=-1)  # (B, R)
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
    hypotheses: Hypotheses[NumpyArray],
    references: References[NumpyArray],
    *,
    min_len: int = 1,
    max_len: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
) -> GleuStats[NumpyCounts]: ...


@overload
def gleu_statistics(
    hypotheses: Hypotheses[ArrayT],
    references: References[ArrayT],
    *,
    min_len: int = 1,
    max_len: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
) -> GleuStats[ArrayT]: ...


def gleu_statistics(
    hypotheses: Hypotheses[Any],
    references: References[Any],
    *,
    min_len: int = 1,
    max_len: int = 4,
    pad_id: SupportsIndex | None = None,
    eos_id: SupportsIndex | None = None,
) -> GleuStats[Any]:
    """Per-sentence GLEU statistics of a batch.

    >>> import numpy as np
    >>> s = gleu_statistics(np.array([[1, 2, 3]]), np.array([[1, 2, 4]]))
    >>> s.matches.tolist(), s.totals.tolist()
    ([3], [6])
    """
    min_len, max_len = checks.gleu_orders(min_len, max_len)
    batch = normalize_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id)
    return map_arrays(gleu_statistics_of_batch(batch, min_len, max_len), batch.to_caller)
