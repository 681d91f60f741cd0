"""What the statistics of every metric share (:class:`SummableStats`: a corpus's statistics
are the sum of its sentences', so batches, processes and bootstrap resamples are summed
before scoring), and n-gram totals.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from bleusuite import backends
from bleusuite.backends.base import Backend

if TYPE_CHECKING:
    from typing_extensions import Self

    from bleusuite.inputs.batch import Batch

__all__ = ["SummableStats", "corpus_statistics", "map_arrays", "ngram_totals"]

_Stats = TypeVar("_Stats")
A = TypeVar("A")
S = TypeVar("S", bound="SummableStats[Any]")


class SummableStats(Generic[A]):
    """The base of every metric's statistics type: a frozen dataclass of arrays of one backend
    (the type parameter), the sentence axis first (absent once summed). ``length_field`` has
    ``sentence_ndim`` axes per sentence; :meth:`to_array` lays out one column per field
    (BLEU and chrF, with an order axis, lay theirs out themselves)."""

    length_field: ClassVar[str]
    sentence_ndim: ClassVar[int] = 1

    @property
    def backend(self) -> Backend:
        return backends.get_backend(getattr(self, self.length_field))

    def __len__(self) -> int:
        array: Any = getattr(self, self.length_field)
        if array.ndim < self.sentence_ndim:
            raise TypeError(f"summed {type(self).__name__} have no length")
        return int(array.shape[0])

    def _fields(self) -> list[str]:
        return [f.name for f in fields(self)]  # type: ignore[arg-type]

    def to_array(self) -> A:
        """``(..., F)``: the F fields, a column each in their order."""
        be = self.backend
        result: A = be.concat([getattr(self, name)[..., None] for name in self._fields()],
                              axis=-1)
        return result

    @classmethod
    def from_array(cls, array: A) -> Self:
        """Inverse of :meth:`to_array`."""
        width = len(fields(cls))  # type: ignore[arg-type]
        a: Any = array
        if int(a.shape[-1]) != width:
            raise ValueError(f"array: expected a last axis of {width} entries; got "
                             f"{a.shape[-1]}")
        return cls(*(a[..., i] for i in range(width)))

    @classmethod
    def summed(cls, stats: Any) -> Self:
        """``stats``, of this type, as corpus statistics: summed over the sentences where it
        has them (as a result's ``from_stats`` takes either); any other type is a TypeError
        that names the argument.

        >>> import numpy as np
        >>> from bleusuite.scores.gleu.statistics import GleuStats
        >>> GleuStats.summed(GleuStats(np.array([1, 2]), np.array([3, 4]))).matches
        np.int64(3)
        >>> GleuStats.summed([1, 2])
        Traceback (most recent call last):
        TypeError: stats must be a GleuStats; got list
        """
        if not isinstance(stats, cls):
            raise TypeError(f"stats must be a {cls.__name__}; got {type(stats).__name__}")
        per_sentence = getattr(stats, cls.length_field).ndim >= cls.sentence_ndim
        return stats.sum() if per_sentence else stats

    def sum(self: S) -> S:
        """Corpus statistics: the sum over the sentence axis."""
        be = self.backend
        return type(self)(*(be.sum_(getattr(self, name), axis=0) for name in self._fields()))

    def __add__(self: S, other: S) -> S:
        if not isinstance(other, type(self)):
            return NotImplemented
        parts: list[Any] = [getattr(self, name) for name in self._fields()]
        return type(self)(*(part + getattr(other, name)
                            for part, name in zip(parts, self._fields(), strict=True)))

    def __getitem__(self: S, index: Any) -> S:
        """Select sentences (an int, a slice, an index array), as in bootstrap resampling."""
        return type(self)(*(getattr(self, name)[index] for name in self._fields()))


def map_arrays(stats: _Stats, fn: Callable[[Any], Any]) -> _Stats:
    """The same statistics with ``fn`` applied to every array (e.g. to move them)."""
    return type(stats)(*(fn(getattr(stats, f.name)) for f in fields(stats)))  # type: ignore


def ngram_totals(be: Backend, lengths: Any, first: int, last: int) -> Any:
    """``(..., last - first + 1)``: ``max(0, length - n + 1)`` for n = first..last.

    >>> import numpy as np
    >>> from bleusuite.backends import get_backend
    >>> ngram_totals(get_backend(np.zeros(1)), np.array([3, 1]), 1, 4).tolist()
    [[3, 2, 1, 0], [1, 0, 0, 0]]
    """
    orders = be.arange(last - first + 1, like=lengths) + first
    return be.maximum(lengths[..., None] - orders + 1, 0)


def corpus_statistics(batches: Iterable[Batch], statistics: Callable[[Batch], Any],
                      with_nrefs: bool = False) -> tuple[Any, Batch, str | None]:
    """The summed statistics of a corpus given in batches, the last batch (whose backend and
    ``to_caller`` the score takes), and with ``with_nrefs`` the corpus's ``nrefs:``.

    >>> import numpy as np
    >>> from bleusuite.inputs import normalize_batch
    >>> from bleusuite.scores.gleu.statistics import gleu_statistics_of_batch
    >>> batches = [normalize_batch(np.array([[1, 2]]), np.array([[1, 2]])),
    ...            normalize_batch(np.array([[1, 3]]), np.array([[[1, 2], [1, 3]]]))]
    >>> stats, _, nrefs = corpus_statistics(
    ...     batches, lambda b: gleu_statistics_of_batch(b, 1, 2), with_nrefs=True)
    >>> stats.matches.tolist(), stats.totals.tolist(), nrefs
    (6, 6, 'var')
    """
    from bleusuite.scores.reports import num_refs

    total: Any = None
    batch: Batch | None = None
    counts: set[str] = set()
    for batch in batches:
        stats = statistics(batch).sum()
        total = stats if total is None else total + stats
        if with_nrefs:
            counts.add(num_refs(batch))
    assert batch is not None, "a corpus has one batch at least"
    nrefs = (counts.pop() if len(counts) == 1 else "var") if with_nrefs else None
    return total, batch, nrefs

