"""BLEU's summable statistics (:class:`BleuStats`), and the statistics of a batch.

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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, overload

import numpy as np
import numpy.typing as npt

from bleusuite import backends, checks
from bleusuite.array_types import TokenOptions
from bleusuite.backends import trace
from bleusuite.backends.base import Backend
from bleusuite.counting import count_matches
from bleusuite.inputs import Batch
from bleusuite.inputs.normalize import options_batch
from bleusuite.scores import rules
from bleusuite.scores.statistics import SummableStats, map_arrays, ngram_totals

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from bleusuite.array_types import ArrayT, Hypotheses, NumpyArray, References

__all__ = ["STATISTICS_OPTIONS", "BleuStatisticsOptions", "BleuStats", "bleu_statistics",
           "bleu_statistics_from_counts", "bleu_statistics_of_batch", "bleu_table_of_batch"]

#: the array type of statistics (typed: ``BleuStats[torch.Tensor]``, ...)
A = TypeVar("A")
#: the statistics of NumPy arrays, Python lists and text
NumpyCounts = npt.NDArray[np.int64]


class BleuStatisticsOptions(TokenOptions, total=False):
    """The keyword arguments of :func:`bleusuite.bleu_statistics`."""

    max_order: int
    ref_length: str


#: the names of :class:`BleuStatisticsOptions`
STATISTICS_OPTIONS = BleuStatisticsOptions.__optional_keys__


@dataclass(frozen=True)
class BleuStats(SummableStats[A]):
    """Per-sentence (or summed) BLEU statistics: int64 arrays of the input's backend (NumPy
    for lists), of leading shape ``(B,)``, or ``()`` after :meth:`sum`.

    Attributes:
        hyp_len: hypothesis length (tokens).
        ref_len: the reference length the brevity penalty compares with (``ref_length`` of
            :func:`bleu_statistics`).
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
    def max_order(self) -> int:
        """The highest n-gram order the statistics hold."""
        return int(_untyped(self.matches).shape[-1])

    length_field = "matches"
    sentence_ndim = 2

    def __add__(self, other: BleuStats[A]) -> BleuStats[A]:
        if not isinstance(other, BleuStats):
            return NotImplemented
        if other.max_order != self.max_order:
            raise ValueError(f"cannot add BleuStats of max_order {self.max_order} and "
                             f"{other.max_order}")
        return super().__add__(other)

    def to_array(self) -> A:
        """One int64 array ``(..., 2 + 3N)``: ``[hyp_len, ref_len, matches, totals, clamped]``
        (for an all-reduce or storage; :meth:`from_array` reverses it)."""
        return self.to_array_on(self.backend)

    def to_array_on(self, be: Backend) -> A:
        """:meth:`to_array` with the arrays' backend given (a traced formula's)."""
        s = _untyped(self)
        result: A = be.concat([s.hyp_len[..., None], s.ref_len[..., None], s.matches, s.totals,
                               s.clamped_totals], axis=-1)
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
            raise ValueError(f"array: expected a last axis of 2 + 3 * max_order entries; got "
                             f"{width + 2}")
        n = width // 3
        return cls(a[..., 0], a[..., 1], a[..., 2 : 2 + n], a[..., 2 + n : 2 + 2 * n],
                   a[..., 2 + 2 * n :])


def _untyped(value: object) -> Any:
    """``value`` untyped: this module, written for every backend, does not look into it."""
    return value


def bleu_statistics_of_batch(batch: Batch, max_order: int,
                             ref_length: str = "closest") -> BleuStats[Any]:
    """The statistics of a normalised batch (``ref_length`` checked by the caller)."""
    table = _small_table(batch, max_order, ref_length)
    if table is not None:
        return BleuStats.from_array(table)
    run = batch.backend.compiled(_bleu_statistics, static_argnums=(1, 2))
    return run(batch, max_order, ref_length)


def bleu_table_of_batch(batch: Batch, max_order: int, ref_length: str = "closest"
                        ) -> np.ndarray:
    """:func:`bleu_statistics_of_batch` of a host batch in its ``to_array`` form (int64)."""
    table = _small_table(batch, max_order, ref_length)
    if table is None:
        table = bleu_statistics_of_batch(batch, max_order, ref_length).to_array()
    return table


def _small_table(batch: Batch, max_order: int, ref_length: str) -> np.ndarray | None:
    """The statistics table of a small host batch by the traced rules, else None."""
    if not batch.on_host or batch.size > trace.ROW_LIMIT:
        return None
    clipped = count_matches(batch, max_order).clipped
    table = trace.by_rows(_table_from_counts, (ref_length,), [
        batch.hyp_len, batch.ref_len, batch.ref_present, clipped])
    return None if table is None else table.reshape(batch.size, -1).astype(np.int64)


def _table_from_counts(be: Backend, hyp_len: Any, ref_len: Any, present: Any, clipped: Any,
                       ref_length: str) -> Any:
    return bleu_statistics_from_counts(be, hyp_len, ref_len, present, clipped, far=1 << 62,
                                       ref_length=ref_length).to_array_on(be)


def _bleu_statistics(batch: Batch, max_order: int, ref_length: str) -> BleuStats[Any]:
    be = batch.backend
    # above every distance and length (on devices from the shapes: it fits int32 for JAX
    # without x64)
    far = 1 << 62 if batch.hyp is None else max(batch.hyp.shape[-1], batch.refs.shape[-1]) + 1
    return bleu_statistics_from_counts(be, batch.hyp_len, batch.ref_len, batch.ref_present,
                                       count_matches(batch, max_order).clipped, far=far,
                                       ref_length=ref_length)


def bleu_statistics_from_counts(be: Backend, hyp_len: Any, ref_len: Any, present: Any,
                                matches: Any, *, far: int, ref_length: str) -> BleuStats[Any]:
    """BLEU statistics from the lengths of the hypotheses ``(B,)`` and of the references
    (present where ``present``, None: all) ``(B, R)``, and the clipped matches ``(B, N)``
    (``far``, ``ref_length``: :func:`bleusuite.scores.rules.chosen_ref_len`'s)."""
    chosen = rules.chosen_ref_len(be, hyp_len, ref_len, present, far=far, ref_length=ref_length)
    totals = ngram_totals(be, hyp_len, 1, int(matches.shape[-1]))
    return BleuStats(hyp_len, chosen, matches, totals, be.maximum(totals, 1))


@overload
def bleu_statistics(
    hypotheses: Hypotheses[NumpyArray], references: References[NumpyArray],
    **options: Unpack[BleuStatisticsOptions],
) -> BleuStats[NumpyCounts]: ...


@overload
def bleu_statistics(
    hypotheses: Hypotheses[ArrayT], references: References[ArrayT],
    **options: Unpack[BleuStatisticsOptions],
) -> BleuStats[ArrayT]: ...


def bleu_statistics(
    hypotheses: Hypotheses[Any], references: References[Any],
    **options: Unpack[BleuStatisticsOptions],
) -> BleuStats[Any]:
    """Per-sentence BLEU statistics of a batch (the inputs, ``max_order`` and ``ref_length``
    of :func:`bleusuite.sentence_bleu`; ``ref_length`` picks the reference length each
    ``ref_len`` holds).

    >>> import numpy as np
    >>> s = bleu_statistics(np.array([[7, 7, 8, 0]]), np.array([[7, 8, 8, 0]]), pad_id=0)
    >>> s.hyp_len.tolist(), s.ref_len.tolist(), s.matches.tolist(), s.totals.tolist()
    ([3], [3], [[2, 1, 0, 0]], [[3, 2, 1, 0]])
    >>> refs = np.array([[[7, 7, 7, 7], [7, 7, 0, 0]]])        # 4 and 2 tokens, both 1 away
    >>> [int(bleu_statistics(np.array([[7, 7, 7]]), refs, pad_id=0, ref_length=rule).ref_len[0])
    ...  for rule in ("closest", "closest_first", "shortest")]
    [2, 4, 2]
    """
    checks.keywords(options, STATISTICS_OPTIONS, "bleu_statistics")
    max_order = checks.order(options.get("max_order", 4), "max_order")
    ref_length = rules.check_ref_length(options.get("ref_length", "closest"))
    batch = options_batch(hypotheses, references, options)
    return map_arrays(bleu_statistics_of_batch(batch, max_order, ref_length), batch.to_caller)


backends.register_container(BleuStats)
