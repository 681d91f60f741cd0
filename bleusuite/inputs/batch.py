"""The one form every input takes (:class:`Batch`): left-aligned token matrices with their
lengths, on the caller's array backend."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bleusuite import backends
from bleusuite.backends.base import Backend

__all__ = ["Batch", "identity", "mark_unreferenced"]


@dataclass(frozen=True)
class Batch:
    """A normalised batch: every sentence left-aligned, with its length.

    Attributes:
        backend: the backend module that owns the arrays.
        hyp: (B, Lh) int64 hypothesis tokens; positions ``>= hyp_len`` are meaningless.
        hyp_len: (B,) int64 hypothesis lengths.
        refs: (B, R, Lr) int64 reference tokens.
        ref_len: (B, R) int64 reference lengths (0 for absent references).
        ref_present: (B, R) bool, False where a row carries fewer than R references.
        has_reference: (B,) bool on devices, where checking that every hypothesis has a
            reference would need a host read (scores are NaN where it is False); None when
            the check was made (and raised) at once.
    """

    backend: Backend
    to_caller: Any  # maps a result array back to the caller's array type (and device)
    hyp: Any
    hyp_len: Any
    refs: Any
    ref_len: Any
    ref_present: Any
    has_reference: Any = None

    @property
    def size(self) -> int:
        return int(self.hyp.shape[0])

    def rows(self, start: int, stop: int) -> Batch:
        """The sentences ``start:stop`` (views, no copy)."""
        return Batch(
            self.backend, self.to_caller, self.hyp[start:stop], self.hyp_len[start:stop],
            self.refs[start:stop], self.ref_len[start:stop], self.ref_present[start:stop],
            None if self.has_reference is None else self.has_reference[start:stop],
        )


def mark_unreferenced(batch: Batch, scores: Any, corpus: bool = False) -> Any:
    """Scores with NaN where a hypothesis has no reference (for a corpus score: NaN if any
    has none). Only on devices, where the check is not made at once (see
    :attr:`Batch.has_reference`); elsewhere such input has already raised."""
    if batch.has_reference is None:
        return scores
    be = batch.backend
    missing = ~batch.has_reference
    if corpus:
        missing = be.any_(missing)
    return be.where(missing, float("nan"), scores)


def identity(a: Any) -> Any:
    """The ``to_caller`` of a batch whose arrays are the caller's own."""
    return a


backends.register_container(Batch, meta_fields=("backend", "to_caller"))
