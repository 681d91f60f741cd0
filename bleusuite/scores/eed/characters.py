"""Texts as the compiled kernels read them: every text's code points, one after another,
with where each text starts and how many it has (what Python's ``str`` indexing sees, lone
surrogates included)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["code_points"]


def code_points(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(chars, starts, lengths)``, int64: text ``k`` is ``chars[starts[k] : starts[k] +
    lengths[k]]``, its code points (one UTF-32 encoding of the joined texts).

    >>> chars, starts, lengths = code_points(["ab", "", "é"])
    >>> chars.tolist(), starts.tolist(), lengths.tolist()
    ([97, 98, 233], [0, 2, 2], [2, 0, 1])
    """
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    starts = np.cumsum(lengths) - lengths
    encoded = "".join(texts).encode("utf-32-le", "surrogatepass")
    chars = np.frombuffer(encoded, dtype="<u4").astype(np.int64)
    return chars, starts, lengths
