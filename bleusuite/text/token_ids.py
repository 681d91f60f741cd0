"""Token ids of lines: the numbering of tokens (each distinct token an id, in order of first
appearance; ``bleusuite._native.Numbering`` where built, else :class:`PythonNumbering`, the
same ids), and :class:`TokenIds`, the ids of line-aligned streams. Which numbering a text
path uses is decided by :class:`bleusuite.text.encoder.TextEncoder`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleusuite import native

__all__ = ["CompiledNumbering", "PythonNumbering", "TokenIds", "lowercased", "numbering"]


@dataclass(frozen=True)
class TokenIds:
    """Token ids of line-aligned texts (stream 0: hypotheses, 1..: references), ragged.

    Attributes:
        ids: all token ids, flat int64.
        starts: ``(S, B)`` offset in ``ids`` of each line of each stream.
        lengths: ``(S, B)`` number of tokens of each line.
        vocabulary: the token of each id.
    """

    ids: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray
    vocabulary: list[str]

    def tokens(self, stream: int, line: int) -> list[str]:
        """The tokens of one line (for inspection and tests)."""
        return [self.vocabulary[i] for i in self.line(stream, line).tolist()]

    def line(self, stream: int, line: int) -> np.ndarray:
        """The ids of one line: a view into :attr:`ids`."""
        begin = int(self.starts[stream, line])
        return self.ids[begin : begin + int(self.lengths[stream, line])]


class _Index(dict[str, int]):
    """Numbers its keys in the order they are first looked up (``index[key]``: a new key
    gets the next id, at the dictionary's own speed); :attr:`keys_in_order` by id."""

    def __init__(self) -> None:
        super().__init__()
        self.keys_in_order: list[str] = []

    def __missing__(self, key: str) -> int:
        value = self[key] = len(self)
        self.keys_in_order.append(key)
        return value


class PythonNumbering:
    """``bleusuite._native.Numbering`` in Python (the same ids), where it is not built.

    Without ``tokenize`` the tokens are the whitespace-separated words of each line; with
    it, ``tokenize`` is called once per distinct word (a line that holds a ``"\\n"`` is one
    unit, ``line.rstrip()``) and its result split on whitespace.

    >>> upper = PythonNumbering(str.upper)
    >>> [a.tolist() for a in upper.number(["a b a", "b c"])], upper.tokens
    ([[0, 1, 0, 1, 2], [3, 2]], ['A', 'B', 'C'])
    """

    def __init__(self, tokenize: Callable[[str], str] | None = None) -> None:
        self.tokenize = tokenize
        self.vocabulary = _Index()
        self.unit_index = _Index()
        self.unit_token_ids: list[int] = []
        self.unit_token_counts: list[int] = []

    @property
    def tokens(self) -> list[str]:
        """The token of each id (a copy)."""
        return list(self.vocabulary.keys_in_order)

    def __len__(self) -> int:
        return len(self.vocabulary)

    def number(self, lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """``(ids, counts)``: int64 token ids, line after line, and tokens per line."""
        if self.tokenize is None:
            split = list(map(str.split, lines))
            counts = np.fromiter(map(len, split), dtype=np.int64, count=len(split))
            ids = np.fromiter(map(self.vocabulary.__getitem__, itertools.chain.from_iterable(
                split)), dtype=np.int64, count=int(counts.sum()))
            return ids, counts
        units = [[line.rstrip()] if "\n" in line else line.split() for line in lines]
        units_per_line = np.fromiter(map(len, units), dtype=np.int64, count=len(units))
        index = self.unit_index
        first_new = len(index)
        unit_ids = np.fromiter(map(index.__getitem__, itertools.chain.from_iterable(units)),
                               dtype=np.int64, count=int(units_per_line.sum()))
        new_units = index.keys_in_order[first_new:]  # in id order
        done = 0
        try:
            for unit in new_units:
                tokens = self.tokenize(unit).split()
                self.unit_token_counts.append(len(tokens))
                self.unit_token_ids.extend(map(self.vocabulary.__getitem__, tokens))
                done += 1
        except BaseException:  # forget the units not tokenised, as the compiled numbering
            for unit in new_units[done:]:
                del index[unit]
            del index.keys_in_order[first_new + done :]
            raise
        # every line's tokens: the tokens of its units, unit after unit
        counts = np.asarray(self.unit_token_counts, dtype=np.int64)
        flat = np.asarray(self.unit_token_ids, dtype=np.int64)
        unit_start = np.cumsum(counts) - counts
        tokens_per_unit = counts[unit_ids]
        before_unit = np.concatenate([[0], np.cumsum(tokens_per_unit)])
        line_end = np.cumsum(units_per_line)
        line_lengths = before_unit[line_end] - before_unit[line_end - units_per_line]
        position = np.arange(int(before_unit[-1])) - np.repeat(before_unit[:-1], tokens_per_unit)
        source = np.repeat(unit_start[unit_ids], tokens_per_unit) + position
        return flat[source], line_lengths


class CompiledNumbering:
    """``bleusuite._native.Numbering`` with :class:`PythonNumbering`'s face (NumPy arrays)."""

    __slots__ = ("numbering",)

    def __init__(self, numbering: Any) -> None:
        self.numbering = numbering

    @property
    def tokens(self) -> list[str]:
        tokens: list[str] = self.numbering.tokens
        return tokens

    def __len__(self) -> int:
        return len(self.numbering)

    def number(self, lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
        ids, counts = self.numbering.number(lines)
        return np.frombuffer(ids, dtype=np.int64), np.frombuffer(counts, dtype=np.int64)


def numbering(tokenize: Callable[[str], str] | None = None,
              rules: str | None = None) -> PythonNumbering | CompiledNumbering:
    """A new numbering of tokens (as :class:`PythonNumbering`), compiled where it is built
    (by its own copy of the ``rules`` where given: ``13a``, ``char``, ``punctuation``,
    ``rouge``, ``rouge-porter``).

    >>> [a.tolist() for a in numbering().number(["b a", "a"])]
    [[0, 1, 1], [2, 1]]
    """
    compiled = native.module()
    if compiled is None:
        return PythonNumbering(tokenize)
    if rules is not None:
        return CompiledNumbering(compiled.Numbering(rules=rules))
    return CompiledNumbering(compiled.Numbering() if tokenize is None else
                             compiled.Numbering(tokenize))


def lowercased(lines: list[str]) -> list[str]:
    """``[line.lower() for line in lines]``, in one call where no line holds a ``"\\n"``
    (neither cased nor case-ignorable: joining by it changes no line's lowercase).

    >>> lowercased(["ΣΑΣ ΑΣ", "A\\nB"])
    ['σας ας', 'a\\nb']
    """
    text = "\n".join(lines).lower()
    if text.count("\n") == len(lines) - 1:
        return text.split("\n")
    return list(map(str.lower, lines))
