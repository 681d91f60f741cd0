"""chrF's summable statistics (:class:`ChrfStats`), and sacrebleu's defaults and constants
of chrF."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from bleusuite.scores.statistics import SummableStats

__all__ = ["BETA", "CHAR_ORDER", "EPSILON", "PUNCTUATION", "WORD_ORDER", "ChrfStats"]

#: sacrebleu's defaults
CHAR_ORDER, WORD_ORDER, BETA = 6, 0, 2
#: the characters sacrebleu splits off the words of chrF++
PUNCTUATION = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')
#: sacrebleu's stand-in for a precision or recall without n-grams
EPSILON = 1e-16

A = TypeVar("A")


@dataclass(frozen=True)
class ChrfStats(SummableStats[A]):
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

    length_field = "matches"
    sentence_ndim = 2

    def to_array(self) -> A:
        """``(..., 3 O)``: sacrebleu's layout, ``[hyp, ref, match]`` for each order."""
        s: Any = self
        stacked = self.backend.concat([s.hyp_counts[..., None], s.ref_counts[..., None],
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

