"""chrF's summable statistics (:class:`ChrfStats`), and sacrebleu's settings of chrF.

A sentence's statistics are, for each character n-gram order 1..C and word n-gram order
1..W, the hypothesis n-grams, the reference n-grams and their matches, from the reference
whose sentence-level chrF is best (:func:`bleusuite.scores.chrf.counts.chrf_statistics`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Generic, TypeVar

from bleusuite import backends
from bleusuite.backends.base import Backend

__all__ = ["BETA", "CHAR_ORDER", "EPSILON", "PUNCTUATION", "WORD_ORDER", "ChrfStats"]

#: sacrebleu's defaults
CHAR_ORDER, WORD_ORDER, BETA = 6, 0, 2
#: the characters sacrebleu splits off the words of chrF++
PUNCTUATION = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')
#: sacrebleu's stand-in for a precision or recall without n-grams
EPSILON = 1e-16

A = TypeVar("A")


@dataclass(frozen=True)
class ChrfStats(Generic[A]):
    """Per-sentence (or summed) chrF statistics, ``(..., O)`` int64 each, for the character
    orders 1..C then the word orders 1..W (``O = C + W``).

    Attributes:
        hyp_counts: hypothesis n-grams per order (0 where the reference has none).
        ref_counts: reference n-grams per order.
        matches: matched n-grams per order.
    """

    hyp_counts: A
    ref_counts: A
    matches: A

    @property
    def backend(self) -> Backend:
        return backends.get_backend(self.matches)

    def __len__(self) -> int:
        shape = _untyped(self.matches).shape
        if len(shape) < 2:
            raise TypeError("summed ChrfStats have no length")
        return int(shape[0])

    def sum(self) -> ChrfStats[A]:
        """Corpus statistics: the sum over the sentence axis."""
        be = self.backend
        return ChrfStats(*(be.sum_(getattr(self, f.name), axis=0) for f in fields(self)))

    def __add__(self, other: ChrfStats[A]) -> ChrfStats[A]:
        if not isinstance(other, ChrfStats):
            return NotImplemented
        return ChrfStats(*(_untyped(getattr(self, f.name)) + getattr(other, f.name)
                           for f in fields(self)))

    def __getitem__(self, index: Any) -> ChrfStats[A]:
        return ChrfStats(*(getattr(self, f.name)[index] for f in fields(self)))

    def to_array(self) -> A:
        """``(..., 3 O)``: sacrebleu's layout, ``[hyp, ref, match]`` for each order."""
        be, s = self.backend, _untyped(self)
        stacked = be.concat([s.hyp_counts[..., None], s.ref_counts[..., None],
                             s.matches[..., None]], axis=-1)
        result: A = stacked.reshape(*stacked.shape[:-2], -1)
        return result

    @classmethod
    def from_array(cls, array: A) -> ChrfStats[A]:
        """Inverse of :meth:`to_array`."""
        a: Any = array
        if int(a.shape[-1]) % 3 or int(a.shape[-1]) == 0:
            raise ValueError(f"array: expected a last axis of 3 x orders entries; got "
                             f"{a.shape[-1]}")
        return cls(a[..., 0::3], a[..., 1::3], a[..., 2::3])


def _untyped(value: object) -> Any:
    """``value`` for the arithmetic of this module, which works on any array type."""
    return value











