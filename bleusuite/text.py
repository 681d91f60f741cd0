"""Text in: token ids of sentences, tokenised by sacrebleu's tokenizers.

Each line is tokenised as sacrebleu does (:mod:`bleusuite.tokenizers`) and split on
whitespace; the tokens are numbered with one vocabulary for hypotheses and references, so
that the id pipeline gives sacrebleu's numbers. Each distinct word (or, for tokenizers that
look across words, each distinct line) is tokenised once, and every word of the corpus is
numbered in one pass over a dictionary.

:func:`encode_texts` serves the ``bleusuite score`` command (whole files, streams of lines);
:func:`encode_pairs` serves ``sentence_bleu(..., tokenize="13a")`` and its siblings (one
list of references per hypothesis). Both need sacrebleu (``pip install 'bleusuite[cli]'``);
``import bleusuite`` does not import it.

>>> from bleusuite.text import encode_pairs
>>> hyps, refs = encode_pairs(["The cat sat."], [["The cat sat on the mat."]], tokenize="13a")
>>> hyps[0].tolist(), refs[0][0].tolist()
([0, 1, 2, 3], [0, 1, 2, 4, 5, 6, 3])
"""

from __future__ import annotations

import contextlib
import gc
import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from bleusuite import native
from bleusuite.inputs import Batch, normalize_batch
from bleusuite.tokenizers import (
    TOKENIZERS,
    Tokenizer,
    import_without_package_init,
    load_tokenizer,
)

__all__ = [
    "FILL_ID",
    "TOKENIZERS",
    "TokenIds",
    "Tokenizer",
    "encode_pairs",
    "encode_texts",
    "load_tokenizer",
]

#: the names of :mod:`bleusuite.tokenizers` that lived here first
_REEXPORTED = (TOKENIZERS, Tokenizer, import_without_package_init, load_tokenizer)
#: lines read, split and numbered at a time
ENCODE_CHUNK_LINES = 20_000
#: id that fills a token matrix past the end of a line (:meth:`TokenIds.padded`). Give it as
#: ``eos_id`` (not ``pad_id``), so an empty reference line stays a present reference of
#: length 0, as in sacrebleu, instead of an absent one.
FILL_ID = -1
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
        begin = int(self.starts[stream, line])
        end = begin + int(self.lengths[stream, line])
        return [self.vocabulary[i] for i in self.ids[begin:end].tolist()]

    def line(self, stream: int, line: int) -> np.ndarray:
        """The ids of one line: a view into :attr:`ids`."""
        begin = int(self.starts[stream, line])
        return self.ids[begin : begin + int(self.lengths[stream, line])]

    def padded(self, stream: int, rows: np.ndarray, width: int) -> np.ndarray:
        """``(len(rows), width)`` ids of some lines of a stream, filled with ``FILL_ID``.

        >>> ids = TokenIds(np.arange(5), np.array([[0, 2]]), np.array([[2, 3]]), [])
        >>> ids.padded(0, np.array([1, 0]), 4).tolist()
        [[2, 3, 4, -1], [0, 1, -1, -1]]
        """
        counts = self.lengths[stream, rows]
        out = np.full((len(rows), max(width, 1)), FILL_ID, dtype=np.int64)
        total = int(counts.sum())
        if total:
            # the positions of the lines' tokens in ids, line after line: one gather, then
            # one masked store (row-major, the same order)
            shift = np.repeat(self.starts[stream, rows] - (np.cumsum(counts) - counts), counts)
            out[np.arange(out.shape[1]) < counts[:, None]] = self.ids[shift + np.arange(total)]
        return out


class _Index(dict[str, int]):
    """Numbers its keys in the order they are first looked up: ``index[key]`` gives a new
    key the next id, so ``map(index.__getitem__, keys)`` numbers a list of keys in one pass
    at the dictionary's own speed. :attr:`keys_in_order` lists the keys by id (the new
    ones of a pass are a slice of it, where a dictionary would be walked from its start)."""

    def __init__(self) -> None:
        super().__init__()
        self.keys_in_order: list[str] = []

    def __missing__(self, key: str) -> int:
        value = self[key] = len(self)
        self.keys_in_order.append(key)
        return value


def _lowercased(lines: list[str]) -> list[str]:
    """``[line.lower() for line in lines]``, in one call where no line holds a ``"\\n"``: the
    lines joined by ``"\\n"`` (neither cased nor case-ignorable, so no line's lowercase
    changes), lowercased, and split again.

    >>> _lowercased(["ΣΑΣ ΑΣ", "A\\nB"])
    ['σας ας', 'a\\nb']
    """
    text = "\n".join(lines).lower()
    if text.count("\n") == len(lines) - 1:
        return text.split("\n")
    return list(map(str.lower, lines))


class _UnitEncoder:
    """Tokenises *units* (words or lines) once each and numbers their tokens.

    A unit is what the tokenizer is called on: each whitespace-separated word for
    word-local tokenizers, each whole line otherwise. Distinct units are tokenised once (a
    corpus of 100,000 lines has a few tens of thousands of distinct words), and each token
    gets an int id from one vocabulary shared by hypotheses and references.

    Words are split and numbered by ``bleusuite._native.WordIndex`` where it is built
    (:func:`bleusuite.native.compiled`), else by :meth:`units_of` and :meth:`index_units`:
    the same units, the same ids.
    """

    def __init__(self, tokenizer: Tokenizer, lowercase: bool) -> None:
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        self.unit_index = _Index()
        self.vocabulary = _Index()
        self.unit_token_ids: list[int] = []
        self.unit_token_counts: list[int] = []
        compiled = native.module() if tokenizer.word_local else None
        self.words = compiled.WordIndex() if compiled is not None else None

    def number_lines(self, lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The ids of the units of some lines (line after line, tokenising the new ones),
        and how many units each line has."""
        if self.words is None:
            units, counts = self.units_of(lines)
            return self.index_units(units, int(counts.sum())), counts
        if self.lowercase:
            lines = _lowercased(lines)
        first_new = len(self.words.words)
        flat, per_line = self.words.number(lines)
        self._tokenize_new(self.words.words[first_new:])
        return np.frombuffer(flat, dtype=np.int64), np.frombuffer(per_line, dtype=np.int64)

    def units_of(self, lines: list[str]) -> tuple[Iterable[str], np.ndarray]:
        """The units of some lines (an iterable, line after line), and how many each line
        has.

        sacrebleu does ``tokenize(line.lower().rstrip())``. For a word-local tokenizer that
        equals tokenising the words of ``line.lower()`` one by one: the tokenizers pad their
        input with spaces (13a) or ignore whitespace (none, char), and none of their rules
        looks across whitespace. The lines are lowercased at once, joined by ``"\\n"``
        (which is neither cased nor case-ignorable, so no line's lowercase changes), and
        each line is split on whitespace. Where a line holds a ``"\\n"`` itself (text given
        to the functions), such a line is tokenised whole.
        """
        if not self.tokenizer.word_local:
            units = list(map(str.rstrip, lines))
            if self.lowercase:
                units = [unit.lower().rstrip() for unit in units]
            return units, np.ones(len(units), dtype=np.int64)
        if not lines:
            return [], np.zeros(0, dtype=np.int64)
        if self.lowercase:
            lines = _lowercased(lines)
        if "\n".join(lines).count("\n") == len(lines) - 1:
            split = list(map(str.split, lines))
        else:  # 13a joins the words around a line end ("-\\n"): such a line is one unit
            split = [[line.rstrip()] if "\n" in line else line.split() for line in lines]
        counts = np.fromiter(map(len, split), dtype=np.int64, count=len(split))
        return itertools.chain.from_iterable(split), counts

    def index_units(self, units: Iterable[str], count: int) -> np.ndarray:
        """Ids of the ``count`` units, tokenising the ones not seen before."""
        index = self.unit_index
        first_new = len(index)
        ids = np.fromiter(map(index.__getitem__, units), dtype=np.int64, count=count)
        self._tokenize_new(index.keys_in_order[first_new:])
        return ids

    def _tokenize_new(self, units: list[str]) -> None:
        """Tokenise units seen for the first time (in id order) and number their tokens."""
        tokens = list(map(str.split, map(self.tokenizer.tokenize, units)))
        self.unit_token_counts.extend(map(len, tokens))
        self.unit_token_ids.extend(map(self.vocabulary.__getitem__,
                                       itertools.chain.from_iterable(tokens)))

    def token_table(self) -> tuple[np.ndarray, np.ndarray]:
        """The token ids of every unit seen so far, flat, and how many each unit has."""
        return (np.asarray(self.unit_token_ids, dtype=np.int64),
                np.asarray(self.unit_token_counts, dtype=np.int64))

    def token_ids(self, unit_ids: np.ndarray, units_per_line: np.ndarray,
                  table: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """The flat token ids of a stream of units, and the number of tokens per line
        (``table``: :meth:`token_table`, once every unit is seen)."""
        unit_ids_flat, counts = table
        unit_start = np.cumsum(counts) - counts
        tokens_per_unit = counts[unit_ids]
        before_unit = np.concatenate([[0], np.cumsum(tokens_per_unit)])
        line_end = np.cumsum(units_per_line)
        line_lengths = before_unit[line_end] - before_unit[line_end - units_per_line]
        position = np.arange(int(before_unit[-1])) - np.repeat(before_unit[:-1], tokens_per_unit)
        source = np.repeat(unit_start[unit_ids], tokens_per_unit) + position
        return unit_ids_flat[source], line_lengths


def encode_texts(
    texts: Sequence[list[str]],
    tokenizer: Tokenizer,
    lowercase: bool,
    bar: ProgressBar | None = None,
) -> TokenIds:
    """Token ids of line-aligned texts, tokenised as sacrebleu does.

    Args:
        texts: streams of lines of the same length (hypotheses, then each reference file).
        tokenizer: from :func:`load_tokenizer`.
        lowercase: lowercase every line first (sacrebleu's ``lowercase=True``).
        bar: a progress bar, updated by the number of lines encoded.

    >>> tok = load_tokenizer("13a")
    >>> ids = encode_texts([["Hello, world!"], ["hello world ."]], tok, lowercase=True)
    >>> ids.lengths.tolist(), ids.ids.tolist()
    ([[4], [3]], [0, 1, 2, 3, 0, 2, 4])
    """
    with _garbage_collector_paused():
        return _encode(texts, _UnitEncoder(tokenizer, lowercase), bar or _NoProgress())


@contextlib.contextmanager
def _garbage_collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (restored on exit).

    Splitting lines allocates millions of small lists, which keeps triggering full
    collections of an ever larger heap: pausing it makes encoding about 3x faster. Nothing
    here creates reference cycles.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _encode(texts: Sequence[list[str]], encoder: _UnitEncoder, bar: ProgressBar) -> TokenIds:
    streams = []
    for lines in texts:
        unit_ids, units_per_line = [], []
        for begin in range(0, len(lines), ENCODE_CHUNK_LINES):
            chunk = lines[begin : begin + ENCODE_CHUNK_LINES]
            ids, counts = encoder.number_lines(chunk)
            unit_ids.append(ids)
            units_per_line.append(counts)
            bar.update(len(chunk))
        streams.append((np.concatenate(unit_ids or [np.zeros(0, np.int64)]),
                        np.concatenate(units_per_line or [np.zeros(0, np.int64)])))
    table = encoder.token_table()  # every unit is seen: converted once for all streams
    encoded = [encoder.token_ids(ids, per_line, table) for ids, per_line in streams]
    lengths = np.stack([line_lengths for _, line_lengths in encoded])
    sizes = lengths.sum(axis=1)
    starts = (np.cumsum(lengths, axis=1) - lengths) + (np.cumsum(sizes) - sizes)[:, None]
    ids = np.concatenate([flat for flat, _ in encoded]).astype(np.int64, copy=False)
    return TokenIds(ids, starts, lengths, encoder.vocabulary.keys_in_order)


# ------------------------------------------------------------ text for the functions


def _check_texts(hypotheses: Any, references: Any) -> list[list[str]]:
    """The references of each hypothesis as a list of strings (``None`` ones dropped)."""
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise TypeError(
            "hypotheses must be a list of strings when tokenize= is given (wrap a single "
            f"sentence in a list); got {_kind(hypotheses)}"
        )
    for row, hyp in enumerate(hypotheses):
        if not isinstance(hyp, str):
            raise TypeError(
                f"hypotheses[{row}] must be a string when tokenize= is given; got {_kind(hyp)} "
                "(token ids and token lists are scored without tokenize=)"
            )
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(
            "references must be a list with, for each hypothesis, a reference string or a "
            f"list of reference strings; got {_kind(references)}"
        )
    if len(references) != len(hypotheses):
        raise ValueError(
            f"hypotheses and references must have the same batch size; got {len(hypotheses)} "
            f"hypotheses and {len(references)} entries of references (references are given "
            "per hypothesis; sacrebleu's reference streams [[ref1 of each], [ref2 of each]] "
            "become per hypothesis with list(zip(*streams)))"
        )
    rows = []
    for row, refs in enumerate(references):
        if isinstance(refs, str):
            rows.append([refs])
            continue
        if not isinstance(refs, Sequence):
            raise TypeError(
                f"references[{row}] must be a reference string or a list of them; got "
                f"{_kind(refs)}"
            )
        for position, ref in enumerate(refs):
            if ref is not None and not isinstance(ref, str):
                raise TypeError(
                    f"references[{row}][{position}] must be a string (or None: no such "
                    f"reference); got {_kind(ref)}"
                )
        rows.append([ref for ref in refs if ref is not None])
    return rows


def _kind(obj: object) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}".replace("builtins.", "")


def encode_pairs(
    hypotheses: Sequence[str],
    references: Sequence[str | Sequence[str | None]],
    *,
    tokenize: str,
    lowercase: bool = False,
) -> tuple[list[np.ndarray], list[list[np.ndarray]]]:
    """Token ids of hypothesis strings and their references, tokenised as sacrebleu does.

    Args:
        hypotheses: one string per sentence.
        references: for each hypothesis, a reference string or a list of them (``None``
            entries are no reference, as in sacrebleu).
        tokenize: a name of :data:`TOKENIZERS`.
        lowercase: lowercase everything first.

    Returns:
        ``(hyps, refs)``: a list of 1-D int64 arrays and, per hypothesis, a list of them
        (views into one array), the ragged input form of the scoring functions.

    >>> hyps, refs = encode_pairs(["a b", "c"], ["a b", ["c", "C"]], tokenize="none",
    ...                           lowercase=True)
    >>> [h.tolist() for h in hyps], [[r.tolist() for r in rs] for rs in refs]
    ([[0, 1], [2]], [[[0, 1]], [[2], [2]]])

    Raises:
        TypeError, ValueError: malformed text input, or an unknown tokenizer.
        ImportError: sacrebleu is not installed.
    """
    if not isinstance(lowercase, bool):
        raise TypeError(f"lowercase must be a bool; got {lowercase!r}")
    rows = _check_texts(hypotheses, references)
    tokenizer = load_tokenizer(tokenize)
    lines = list(hypotheses) + list(itertools.chain.from_iterable(rows))
    token_ids = encode_texts([lines], tokenizer, lowercase)
    sentences = [token_ids.line(0, i) for i in range(len(lines))]
    hyps = sentences[: len(hypotheses)]
    refs = []
    position = len(hypotheses)
    for row in rows:
        refs.append(sentences[position : position + len(row)])
        position += len(row)
    return hyps, refs


def scoring_inputs(
    hypotheses: Any,
    references: Any,
    tokenize: str | None,
    lowercase: bool,
    pad_id: Any,
    eos_id: Any,
) -> tuple[Any, Any]:
    """The inputs of a scoring function: text encoded when ``tokenize`` is given, else as is.

    Raises:
        ValueError: ``lowercase`` or ``pad_id``/``eos_id`` where they do not apply.
    """
    if tokenize is None:
        if lowercase is not False:
            raise ValueError(
                "lowercase=True applies to text: give tokenize= too (e.g. tokenize='13a'); "
                "token lists and ids are compared as they are"
            )
        return hypotheses, references
    if pad_id is not None or eos_id is not None:
        raise ValueError(
            "pad_id and eos_id apply to token ids; with tokenize= the inputs are strings"
        )
    return encode_pairs(hypotheses, references, tokenize=tokenize, lowercase=lowercase)


def scoring_batch(
    hypotheses: Any,
    references: Any,
    *,
    pad_id: Any,
    eos_id: Any,
    tokenize: str | None,
    lowercase: bool,
    corpus: str | None = None,
) -> Batch:
    """The normalised batch of a scoring function (text encoded first when ``tokenize`` is
    given). ``corpus``: the name of a corpus function, which needs at least one sentence.

    Raises:
        ValueError: as :func:`scoring_inputs`; an empty batch for a corpus function.
    """
    hypotheses, references = scoring_inputs(hypotheses, references, tokenize, lowercase,
                                            pad_id, eos_id)
    batch = normalize_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id)
    if corpus is not None and batch.size == 0:
        raise ValueError(f"hypotheses: {corpus} needs at least one sentence; got an empty batch")
    return batch
