"""Text in: token ids of sentences, tokenised by sacrebleu's tokenizers.

Each line is tokenised as sacrebleu does (:mod:`bleusuite.text.tokenizers`) and split on
whitespace; the tokens are numbered with one vocabulary for hypotheses and references, so
that the id pipeline gives sacrebleu's numbers. A tokenizer that acts on each word alone
(``13a``, ``char``) is applied once per distinct word of the whole input, and every word of
the corpus is numbered in one pass over a table: ``bleusuite._native.Numbering`` where the
compiled part is built (:mod:`bleusuite.native`; ``13a`` by its own copy of the rules, with
the GIL released), else :class:`PythonNumbering`, which gives the same ids.

:func:`encode_texts` serves the ``bleusuite score`` command (whole files, streams of
lines); the scoring functions' text (one list of references per hypothesis) is numbered by
the same compiled numbering in :mod:`bleusuite.inputs.lists`.

>>> from bleusuite.text import load_tokenizer
>>> ids = encode_texts([["The cat sat."], ["The cat sat on the mat."]], load_tokenizer("13a"),
...                    lowercase=False)
>>> ids.line(0, 0).tolist(), ids.line(1, 0).tolist()
([0, 1, 2, 3], [0, 1, 2, 4, 5, 6, 3])
"""

from __future__ import annotations

import contextlib
import gc
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from bleusuite import native
from bleusuite.text.tokenizers import Tokenizer, Tokenizer13a, TokenizerRouge

__all__ = [
    "Encoder",
    "PythonNumbering",
    "TokenIds",
    "encode_texts",
    "lowercased",
    "numbering",
]

#: lines read, split and numbered at a time
ENCODE_CHUNK_LINES = 20_000


class ProgressBar(Protocol):
    """What encoding needs of a progress bar (tqdm's ``update``)."""

    def update(self, n: int = 1) -> Any: ...


class _NoProgress:
    def update(self, n: int = 1) -> None:
        pass


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
    """Numbers its keys in the order they are first looked up: ``index[key]`` gives a new
    key the next id, so ``map(index.__getitem__, keys)`` numbers a list of keys in one pass
    at the dictionary's own speed. :attr:`keys_in_order` lists the keys by id."""

    def __init__(self) -> None:
        super().__init__()
        self.keys_in_order: list[str] = []

    def __missing__(self, key: str) -> int:
        value = self[key] = len(self)
        self.keys_in_order.append(key)
        return value


class PythonNumbering:
    """``bleusuite._native.Numbering`` in Python: the same ids, where the compiled part is
    not built.

    ``number(lines)`` gives the token ids of lines, line after line, and the number of
    tokens of each line. Without ``tokenize`` the tokens are the whitespace-separated words
    of each line. With it, each word is a unit (a line that holds a ``"\\n"`` is one unit,
    ``line.rstrip()``: 13a joins the words around a line end), and ``tokenize`` (str ->
    str, whose result is split on whitespace) is called once per distinct unit.

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
        return self._expanded(unit_ids, units_per_line)

    def _expanded(self, unit_ids: np.ndarray, units_per_line: np.ndarray) -> tuple[
            np.ndarray, np.ndarray]:
        """The token ids of a stream of units, and the number of tokens per line."""
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


class _CompiledNumbering:
    """``bleusuite._native.Numbering`` with :class:`PythonNumbering`'s face (NumPy arrays)."""

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
              rules: str | None = None) -> PythonNumbering | _CompiledNumbering:
    """A numbering of tokens for ``tokenize`` (see :class:`PythonNumbering`): the compiled
    one where it is built and not turned off, else :class:`PythonNumbering`. The compiled
    numbering applies its own copy of a tokenizer's ``rules`` (``13a``, ``char``,
    ``punctuation``, ``rouge``: :attr:`~bleusuite.text.tokenizers.Tokenizer.rules`; a
    :class:`~bleusuite.text.tokenizers.Tokenizer13a` is ``13a``, a
    :class:`~bleusuite.text.tokenizers.TokenizerRouge` ``rouge`` or ``rouge-porter``),
    without the GIL.

    >>> [a.tolist() for a in numbering().number(["b a", "a"])]
    [[0, 1, 1], [2, 1]]
    """
    compiled = native.module()
    if compiled is None:
        return PythonNumbering(tokenize)
    if rules is not None:
        return _CompiledNumbering(compiled.Numbering(rules=rules))
    if isinstance(tokenize, Tokenizer13a):
        return _CompiledNumbering(compiled.Numbering(rules="13a"))
    if isinstance(tokenize, TokenizerRouge):
        rules = "rouge-porter" if tokenize.stem else "rouge"
        return _CompiledNumbering(compiled.Numbering(rules=rules))
    return _CompiledNumbering(compiled.Numbering(tokenize))


def lowercased(lines: list[str]) -> list[str]:
    """``[line.lower() for line in lines]``, in one call where no line holds a ``"\\n"``: the
    lines joined by ``"\\n"`` (neither cased nor case-ignorable, so no line's lowercase
    changes), lowercased, and split again.

    >>> lowercased(["ΣΑΣ ΑΣ", "A\\nB"])
    ['σας ας', 'a\\nb']
    """
    text = "\n".join(lines).lower()
    if text.count("\n") == len(lines) - 1:
        return text.split("\n")
    return list(map(str.lower, lines))


class Encoder:
    """Token ids of line-aligned texts, tokenised as sacrebleu does
    (``tokenize(line.lower().rstrip()).split()``), numbered with one vocabulary across calls.

    A word-local tokenizer (:attr:`~bleusuite.text.tokenizers.Tokenizer.word_local`) is called
    once per distinct word of all the calls (it acts on each word alone, so the tokens are
    the same); any other once per line. Calls on consecutive chunks of lines give the ids
    of one call on them all, chunk by chunk (``bleusuite score`` counts each chunk while the
    next is read).

    >>> from bleusuite.text import load_tokenizer
    >>> encoder = Encoder(load_tokenizer("13a"), lowercase=True)
    >>> first = encoder.encode([["Hello, world!"], ["hello world ."]])
    >>> first.lengths.tolist(), first.ids.tolist()
    ([[4], [3]], [0, 1, 2, 3, 0, 2, 4])
    >>> encoder.encode([["World"], ["hello"]]).ids.tolist(), encoder.vocabulary[:3]
    ([2, 0], ['hello', ',', 'world'])
    """

    def __init__(self, tokenizer: Tokenizer, lowercase: bool) -> None:
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        word_local = tokenizer.word_local and not tokenizer.splits_only
        self.numbering = numbering(tokenizer.tokenize if word_local else None,
                                   tokenizer.rules if word_local else None)

    @property
    def vocabulary(self) -> list[str]:
        """The token of each id so far (a copy)."""
        return self.numbering.tokens

    def encode(self, texts: Sequence[list[str]], bar: ProgressBar | None = None) -> TokenIds:
        """The token ids of ``texts``: streams of lines of the same length (hypotheses, then
        each reference stream); ``bar`` is updated by the number of lines encoded."""
        bar = bar or _NoProgress()
        sizes = {len(lines) for lines in texts}
        if len(sizes) > 1:
            raise ValueError(f"texts must be streams of as many lines; got {sorted(sizes)}")
        ids: list[np.ndarray] = [np.zeros(0, np.int64)]
        counts: list[np.ndarray] = [np.zeros(0, np.int64)]
        pending: list[str] = []  # the lines of every stream go to one call, up to a chunk

        def number() -> None:
            chunk_ids, chunk_counts = self.numbering.number(pending)
            ids.append(chunk_ids)
            counts.append(chunk_counts)
            bar.update(len(pending))
            pending.clear()

        # the Python numbering makes millions of small objects; the compiled one makes none
        python = isinstance(self.numbering, PythonNumbering)
        with _garbage_collector_paused() if python else contextlib.nullcontext():
            for lines in texts:
                for begin in range(0, len(lines), ENCODE_CHUNK_LINES):
                    chunk = lines[begin : begin + ENCODE_CHUNK_LINES]
                    if self.lowercase:
                        chunk = lowercased(chunk)
                    if not self.tokenizer.word_local:
                        tokenize = self.tokenizer.tokenize
                        chunk = [tokenize(line.rstrip() if self.tokenizer.rstrip else line)
                                 for line in chunk]
                    if len(pending) + len(chunk) > ENCODE_CHUNK_LINES and pending:
                        number()
                    pending.extend(chunk)
            if pending:
                number()
        lengths = np.concatenate(counts).reshape(len(texts), next(iter(sizes), 0))
        flat = np.concatenate(ids)
        totals = lengths.sum(axis=1)
        starts = (np.cumsum(lengths, axis=1) - lengths) + (np.cumsum(totals) - totals)[:, None]
        return TokenIds(flat, starts, lengths, self.vocabulary)


def encode_texts(
    texts: Sequence[list[str]],
    tokenizer: Tokenizer,
    lowercase: bool,
    bar: ProgressBar | None = None,
) -> TokenIds:
    """Token ids of line-aligned texts, tokenised as sacrebleu does (one call of an
    :class:`Encoder`).

    Args:
        texts: streams of lines of the same length (hypotheses, then each reference file).
        tokenizer: from :func:`~bleusuite.text.tokenizers.load_tokenizer`.
        lowercase: lowercase every line first (sacrebleu's ``lowercase=True``).
        bar: a progress bar, updated by the number of lines encoded.

    >>> from bleusuite.text import load_tokenizer
    >>> tok = load_tokenizer("13a")
    >>> ids = encode_texts([["Hello, world!"], ["hello world ."]], tok, lowercase=True)
    >>> ids.lengths.tolist(), ids.ids.tolist()
    ([[4], [3]], [0, 1, 2, 3, 0, 2, 4])
    """
    return Encoder(tokenizer, lowercase).encode(texts, bar)


@contextlib.contextmanager
def _garbage_collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (restored on exit).

    Splitting lines in Python allocates millions of small lists, which keeps triggering
    full collections of an ever larger heap: pausing it makes encoding about 3x faster.
    Nothing here creates reference cycles.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
