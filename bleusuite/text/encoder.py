"""The text encoder: how lines of text become token ids, decided in one place.

A :class:`TextEncoder` (a tokenizer and ``lowercase``) decides the **numbering** (the
compiled ``Numbering`` with its own copy of the tokenizer's rules, or calling a word-local
tokenizer once per distinct word; :class:`~bleusuite.text.token_ids.PythonNumbering` where
the compiled part is not built), the **line transform** (lowercasing, a tokenizer that is
not word-local on each line, newlines made spaces or lines handed over whole where the
tokenizer needs it) and whether ids may be numbered **row by row**. Every text path asks it:
the library's (:func:`bleusuite.inputs.text_batch`), the command and Ray (:class:`Encoder`),
TER (:func:`number_sides`) and ROUGE's documents (:meth:`TextEncoder.number`).

>>> encoder = TextEncoder.of("13a", lowercase=True)
>>> numbered = encoder.number(["Hello, World!", "hello world"])
>>> numbered.ids.tolist(), numbered.lengths.tolist(), numbered.vocabulary
([0, 1, 2, 3, 0, 2], [4, 2], ['hello', ',', 'world', '!'])
"""

from __future__ import annotations

import functools
import gc
import itertools
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from bleusuite.text.token_ids import (
    CompiledNumbering,
    PythonNumbering,
    TokenIds,
    lowercased,
    numbering,
)
from bleusuite.text.tokenizers import (
    SPM_MODELS,
    Tokenizer,
    Tokenizer13a,
    TokenizerRouge,
    load_tokenizer,
)

__all__ = ["ENCODE_CHUNK_LINES", "Encoder", "NumberedLines", "TextEncoder", "encode_texts",
           "number_sides", "number_token_lists"]

#: lines read, split and numbered at a time (:class:`Encoder`)
ENCODE_CHUNK_LINES = 20_000


def _compiled_rules(tokenizer: Tokenizer) -> str | None:
    """The compiled part's own copy of a word-local tokenizer's rules, if it has one (a
    custom :class:`Tokenizer` around :class:`Tokenizer13a` or :class:`TokenizerRouge` too)."""
    if tokenizer.rules is not None:
        return tokenizer.rules
    if isinstance(tokenizer.tokenize, Tokenizer13a):
        return "13a"
    if isinstance(tokenizer.tokenize, TokenizerRouge):
        return "rouge-porter" if tokenizer.tokenize.stem else "rouge"
    return None


def _tokenized_lines(tokenizer: Tokenizer, lowercase: bool) -> Callable[[str], str]:
    """A tokenizer that is not word-local on one line (lowercased first with ``lowercase``)."""
    tokenize = tokenizer.tokenize
    if tokenizer.rstrip:
        if lowercase:
            return lambda line: tokenize(line.lower().rstrip())
        return lambda line: tokenize(line.rstrip())
    if lowercase:
        return lambda line: tokenize(line.lower())
    return tokenize


@dataclass(slots=True)
class NumberedLines:
    """Lines numbered: the ids of every line (flat int64), tokens per line, the numbering."""

    ids: np.ndarray
    lengths: np.ndarray
    numbering: PythonNumbering | CompiledNumbering

    @property
    def vocabulary(self) -> list[str]:
        """The token of each id."""
        return self.numbering.tokens


class TextEncoder:
    """How lines become token ids for one tokenizer and ``lowercase`` (see the module's
    description); made once per distinct pair by :meth:`of`; stateless.

    Attributes:
        tokenizer: the tokenizer.
        lowercase: every line lowercased first.
        word_local: the numbering applies the tokenizer once per distinct word.
        rules: the compiled part's copy of the tokenizer's rules, if any.
        line_transform: what happens to each line before the numbering (None: nothing).
        per_row_ids: ids may be numbered row by row (not where a Python tokenizer runs per
            distinct word: those are worth numbering once for the call).
    """

    __slots__ = ("_after_lowercase", "_compiled", "line_transform", "lowercase", "per_row_ids",
                 "rules", "tokenizer", "word_local")

    def __init__(self, tokenizer: Tokenizer, lowercase: bool = False) -> None:
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        self.word_local = tokenizer.word_local and not tokenizer.splits_only
        self.rules = _compiled_rules(tokenizer) if self.word_local else None
        self.per_row_ids = not self.word_local or self.rules is not None
        line_tokenizer = not (tokenizer.word_local or tokenizer.splits_only)
        after: Callable[[str], str] | None = None  # what follows lowercasing
        if line_tokenizer:
            after = _tokenized_lines(tokenizer, False)
        if tokenizer.newline_is_space:
            after = _then(after, _newlines_as_spaces)
        if tokenizer.whole_line is not None:
            after = _then(after, functools.partial(_marked_whole, tokenizer.whole_line))
        self._after_lowercase = after
        transform = after
        if line_tokenizer and not (tokenizer.newline_is_space or tokenizer.whole_line):
            transform = _tokenized_lines(tokenizer, lowercase)  # one call per line
        elif lowercase:
            transform = str.lower if after is None else _then(str.lower, after)
        self.line_transform: Callable[[str], str] | None = transform
        self._compiled: tuple[ModuleType, Callable[[], Any]] | None = None

    @staticmethod
    def of(tokenize: str | Tokenizer, lowercase: bool = False) -> TextEncoder:
        """The encoder of ``tokenize`` (a name of :data:`~bleusuite.text.TOKENIZERS`, or a
        :class:`~bleusuite.text.Tokenizer`) and ``lowercase``, made once and kept.

        >>> TextEncoder.of("13a") is TextEncoder.of("13a"), TextEncoder.of("char").rules
        (True, 'char')
        """
        if lowercase is not True and lowercase is not False:
            lowercase = bool(lowercase)  # read as a truth value, as everywhere
        # a dictionary look-up for a repeated call (a sentence per call pays it each time)
        if isinstance(tokenize, str):
            encoder = _BY_NAME.get((tokenize, lowercase))
            if encoder is not None:
                return encoder
            tokenizer = load_tokenizer(tokenize)
            encoder = TextEncoder(tokenizer, lowercase)
            if tokenize not in SPM_MODELS:  # a model's path follows $SACREBLEU: not kept
                _BY_NAME[tokenize, lowercase] = encoder
            return encoder
        if not isinstance(tokenize, Tokenizer):
            load_tokenizer(tokenize)  # the ValueError that names the choices
        kept = _BY_TOKENIZER.get((id(tokenize), lowercase))
        if kept is not None and kept[0] is tokenize:
            return kept[1]
        encoder = TextEncoder(tokenize, lowercase)
        if len(_BY_TOKENIZER) >= _KEPT_TOKENIZERS:
            _BY_TOKENIZER.clear()
        _BY_TOKENIZER[id(tokenize), lowercase] = (tokenize, encoder)  # kept alive: its id holds
        return encoder

    def compiled_numbering(self, compiled: ModuleType) -> Callable[[], Any]:
        """What makes a new compiled ``Numbering`` of this encoder."""
        made = self._compiled
        if made is not None and made[0] is compiled:
            return made[1]
        make: Callable[[], Any] = compiled.Numbering
        if self.rules is not None:
            make = functools.partial(compiled.Numbering, rules=self.rules)
        elif self.word_local:
            make = functools.partial(compiled.Numbering, self.tokenizer.tokenize)
        self._compiled = (compiled, make)
        return make

    def numbering(self) -> PythonNumbering | CompiledNumbering:
        """A new numbering (NumPy face) of lines :meth:`prepared` first."""
        return numbering(self.tokenizer.tokenize if self.word_local else None, self.rules)

    def prepared(self, lines: list[str]) -> list[str]:
        """:attr:`line_transform` of each line (lowercasing in one call)."""
        if self.lowercase:
            lines = lowercased(lines)
        after = self._after_lowercase
        return lines if after is None else list(map(after, lines))

    def number(self, lines: list[str]) -> NumberedLines:
        """The token ids of ``lines``, in a new numbering of their own."""
        numbered = self.numbering()
        ids, lengths = numbered.number(self.prepared(lines))
        return NumberedLines(ids, lengths, numbered)


#: the encoders of tokenizer names, and of :class:`Tokenizer` objects (by identity, the
#: object kept with its encoder; at most :data:`_KEPT_TOKENIZERS`)
_BY_NAME: dict[tuple[str, bool], TextEncoder] = {}
_BY_TOKENIZER: dict[tuple[int, bool], tuple[Tokenizer, TextEncoder]] = {}
_KEPT_TOKENIZERS = 256


def _then(first: Callable[[str], str] | None, second: Callable[[str], str]) -> Callable[
        [str], str]:
    if first is None:
        return second
    return lambda line: second(first(line))


def _newlines_as_spaces(line: str) -> str:
    return line.replace("\n", " ") if "\n" in line else line


def _marked_whole(whole: Callable[[str], Any], line: str) -> str:
    """A line the tokenizer must see whole, marked by a final newline (tokenised as one)."""
    return f"{line}\n" if whole(line) else line


def number_sides(first: TextEncoder, first_lines: list[str], second: TextEncoder,
                 second_lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(ids, lengths)`` of the lines of two sides, each tokenised by its own encoder, in
    one vocabulary (equal tokens, equal ids): the first side's lines, then the second's
    (TER tokenises its references twice).

    >>> from bleusuite.text.encoder import TextEncoder, number_sides
    >>> lower = TextEncoder.of("none", lowercase=True)
    >>> ids, lengths = number_sides(TextEncoder.of("none"), ["A b"], lower, ["A B c"])
    >>> ids.tolist(), lengths.tolist()
    ([0, 1, 2, 1, 3], [2, 3])
    """
    if first is second:
        return first.numbering().number(first.prepared(first_lines + second_lines))
    one, other = first.number(first_lines), second.number(second_lines)
    # each token of the second side gets the id of the same token of the first
    vocabulary = {token: i for i, token in enumerate(one.vocabulary)}
    other_tokens = other.vocabulary
    to_first = np.fromiter((vocabulary.setdefault(token, len(vocabulary))
                            for token in other_tokens), dtype=np.int64, count=len(other_tokens))
    return (np.concatenate([one.ids, to_first[other.ids]]),
            np.concatenate([one.lengths, other.lengths]))


def number_token_lists(token_lists: Iterable[Sequence[Hashable]]) -> tuple[
        np.ndarray, np.ndarray, list[Any]]:
    """Texts already split into tokens by a caller's tokenizer (any hashable tokens):
    ``(ids, lengths, vocabulary)``, numbered by a dictionary in order of first appearance.

    >>> from bleusuite.text.encoder import number_token_lists
    >>> ids, lengths, vocabulary = number_token_lists([["a", "b"], ["b", ("c",)]])
    >>> ids.tolist(), lengths.tolist(), vocabulary
    ([0, 1, 1, 2], [2, 2], ['a', 'b', ('c',)])
    """
    tokens = [list(tokens) for tokens in token_lists]
    lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
    index: dict[Any, int] = {}
    ids = np.fromiter((index.setdefault(token, len(index))
                       for token in itertools.chain.from_iterable(tokens)),
                      dtype=np.int64, count=int(lengths.sum()))
    return ids, lengths, list(index)


# ------------------------------------------------------------------------ streams


class ProgressBar(Protocol):
    """What encoding needs of a progress bar (tqdm's ``update``)."""

    def update(self, n: int = 1) -> Any: ...


class Encoder:
    """Token ids of line-aligned texts, tokenised as sacrebleu does, numbered with one
    vocabulary across calls (a :class:`TextEncoder`'s numbering kept): calls on consecutive
    chunks of lines give the ids of one call on them all, chunk by chunk.

    >>> encoder = Encoder("13a", lowercase=True)
    >>> first = encoder.encode([["Hello, world!"], ["hello world ."]])
    >>> first.lengths.tolist(), first.ids.tolist()
    ([[4], [3]], [0, 1, 2, 3, 0, 2, 4])
    >>> encoder.encode([["World"], ["hello"]]).ids.tolist(), encoder.vocabulary[:3]
    ([2, 0], ['hello', ',', 'world'])
    """

    def __init__(self, tokenizer: str | Tokenizer, lowercase: bool) -> None:
        self.text_encoder = TextEncoder.of(tokenizer, lowercase)
        self.tokenizer = self.text_encoder.tokenizer
        self.lowercase = lowercase
        self.numbering = self.text_encoder.numbering()

    @property
    def vocabulary(self) -> list[str]:
        """The token of each id so far (a copy)."""
        return self.numbering.tokens

    def encode(self, texts: Sequence[list[str]], bar: ProgressBar | None = None) -> TokenIds:
        """The token ids of ``texts``: streams of lines of the same length (hypotheses, then
        each reference stream); ``bar`` is updated by the number of lines encoded."""
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
            if bar is not None:
                bar.update(len(pending))
            pending.clear()

        # the Python numbering's millions of small lists (the compiled one makes none) would
        # trigger full collections (3x slower); nothing here makes cycles
        paused = isinstance(self.numbering, PythonNumbering) and gc.isenabled()
        if paused:
            gc.disable()
        try:
            for lines in texts:
                for begin in range(0, len(lines), ENCODE_CHUNK_LINES):
                    chunk = self.text_encoder.prepared(lines[begin : begin + ENCODE_CHUNK_LINES])
                    if len(pending) + len(chunk) > ENCODE_CHUNK_LINES and pending:
                        number()
                    pending.extend(chunk)
            if pending:
                number()
        finally:
            if paused:
                gc.enable()
        lengths = np.concatenate(counts).reshape(len(texts), next(iter(sizes), 0))
        # the lines lie stream after stream, line after line
        starts = (np.cumsum(lengths) - lengths.reshape(-1)).reshape(lengths.shape)
        return TokenIds(np.concatenate(ids), starts, lengths, self.vocabulary)


def encode_texts(
    texts: Sequence[list[str]],
    tokenizer: str | Tokenizer,
    lowercase: bool,
    bar: ProgressBar | None = None,
) -> TokenIds:
    """Token ids of line-aligned texts, tokenised as sacrebleu does (:class:`Encoder`).

    Args:
        texts: streams of lines of the same length (hypotheses, then each reference file).
        tokenizer: a name of :data:`~bleusuite.text.TOKENIZERS`, or a tokenizer from
            :func:`~bleusuite.text.tokenizers.load_tokenizer`.
        lowercase: lowercase every line first (sacrebleu's ``lowercase=True``).
        bar: a progress bar, updated by the number of lines encoded.

    >>> from bleusuite.text import load_tokenizer
    >>> tok = load_tokenizer("13a")
    >>> ids = encode_texts([["Hello, world!"], ["hello world ."]], tok, lowercase=True)
    >>> ids.lengths.tolist(), ids.ids.tolist()
    ([[4], [3]], [0, 1, 2, 3, 0, 2, 4])
    """
    return Encoder(tokenizer, lowercase).encode(texts, bar)
