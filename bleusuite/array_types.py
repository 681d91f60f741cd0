"""Static types of the public API: what a type checker knows a score function returns.

NumPy arrays, Python token lists and text give :data:`Scores` (a NumPy float64 array);
any other library's arrays give an array of the same type: the functions are generic in
:class:`DeviceArray`, a protocol every array type satisfies (the optional libraries need
not be importable where the type checker runs). :class:`TokenOptions` (and the metrics'
keyword types built on it) are also checked at run time.

>>> from bleusuite import sentence_bleu
>>> from bleusuite.array_types import Scores
>>> scores: Scores = sentence_bleu([[1, 2, 3]], [[[1, 2, 3]]])   # lists give NumPy
>>> scores.dtype
dtype('float64')
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol, SupportsIndex, TypeAlias, TypedDict, TypeVar

import numpy as np
import numpy.typing as npt

__all__ = [
    "DeviceArray",
    "Hypotheses",
    "NumpyArray",
    "References",
    "Scores",
    "TokenBatch",
    "TokenOptions",
    "TokenReferences",
]


class DeviceArray(Protocol):
    """An array of any array library (NumPy, torch, CuPy, JAX): a shape, a length, and its
    entries as Python lists."""

    @property
    def ndim(self) -> int: ...

    @property
    def shape(self) -> tuple[int, ...]: ...

    def __len__(self) -> int: ...

    def tolist(self) -> Any: ...


#: an array type of the caller's library; a result of that type comes back
ArrayT = TypeVar("ArrayT", bound=DeviceArray)
_A = TypeVar("_A")

#: a NumPy array of token ids (any integer dtype)
NumpyArray: TypeAlias = npt.NDArray[Any]
#: the scores of NumPy arrays, Python lists and text: float64, ``(B,)`` or ``()``
Scores: TypeAlias = npt.NDArray[np.float64]
#: hypotheses as Python token sequences (ints, strings, any hashable tokens), or strings
#: with ``tokenize=``
TokenBatch: TypeAlias = Sequence[Sequence[Hashable]]
#: references as Python token sequences: NLTK's form (a list of references per
#: hypothesis), or with ``tokenize=`` a string or a list of strings per hypothesis
TokenReferences: TypeAlias = (
    Sequence[Sequence[Hashable]] | Sequence[Sequence[Sequence[Hashable]]]
)
#: hypotheses of array type ``_A``: padded ``(B, L)``, or a list of 1-D arrays (ragged)
Hypotheses: TypeAlias = _A | Sequence[_A] | TokenBatch
#: references of array type ``_A``: padded ``(B, L)`` / ``(B, R, L)``, a list of 1-D
#: arrays, or a list of lists of them (NLTK's form); or Python token sequences
References: TypeAlias = _A | Sequence[_A] | Sequence[Sequence[_A]] | TokenReferences


class TokenOptions(TypedDict, total=False):
    """How a scoring function reads its inputs, the keyword arguments every one takes
    (:func:`bleusuite.sentence_bleu` describes each): ``pad_id`` (a token id that is no part
    of any sentence), ``eos_id`` (the token id that ends a sentence) and, for text,
    ``tokenize`` (a tokenizer's name) and ``lowercase``."""

    pad_id: SupportsIndex | None
    eos_id: SupportsIndex | None
    tokenize: str | None
    lowercase: bool
