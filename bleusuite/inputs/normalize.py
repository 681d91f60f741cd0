"""The front door: every input form of a scoring call becomes one :class:`Batch`, by the
route of its form (the modules ``arrays``, ``lists`` and ``ragged`` beside this one)."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

import numpy as np

from bleusuite import backends, checks
from bleusuite.inputs import arrays, lists, ragged
from bleusuite.inputs.batch import Batch, RaggedPairs, identity
from bleusuite.inputs.checks import SCORING_ARGNAMES, ArgNames, check_special, check_texts
from bleusuite.inputs.lists import text_batch
from bleusuite.text.streams import STREAMS_CHECK_LIMIT, warn_if_streams
from bleusuite.text.token_ids import TokenIds

__all__ = ["CORPUS_BLOCK_ROWS", "check_text_options", "normalize_batch",
           "options_batch", "options_corpus_batches", "scoring_batch", "streams_batch",
           "text_batch", "text_rows"]


def normalize_batch(
    hypotheses: Any,
    references: Any,
    *,
    pad_id: Any = None,
    eos_id: Any = None,
    argnames: ArgNames = SCORING_ARGNAMES,
    global_ids: bool = False,
) -> Batch:
    """Check token-id or token-list inputs of a scoring call and bring them to the
    :class:`Batch` form: padded arrays, ragged (lists of 1-D arrays) or mixed calls, or
    NLTK-form token lists.

    ``argnames`` are the caller's names of its two inputs, which every error message uses
    (an Ignite metric's are ``("y_pred", "y")``). ``global_ids``: str tokens get ids that
    compare across rows (else only within each row: a hypothesis and its references).

    >>> import numpy as np
    >>> batch = normalize_batch([[5, 6, 7]], [[[5, 6], [7]]])
    >>> batch.hyp_len.tolist(), batch.ref_len.tolist()
    ([3], [[2, 1]])

    Raises:
        TypeError: wrong kinds of objects (float arrays, strings where token sequences are
            expected, arrays from two libraries, non-integer tokens beside id arrays).
        ValueError: wrong shapes, batch-size mismatch, or a hypothesis without reference.
    """
    hyp_is_array = backends.backend_name(hypotheses) is not None
    ref_is_array = backends.backend_name(references) is not None
    if hyp_is_array and ref_is_array:
        be = backends.get_backend(hypotheses, references)
        return arrays.from_arrays(be, hypotheses, references, pad_id, eos_id, argnames)
    like = ragged.array_inside(hypotheses, references)
    if like is not None:
        return ragged.from_mixed(hypotheses, references, pad_id, eos_id, like, argnames)
    return lists.from_token_lists(hypotheses, references, _list_special(pad_id, "pad_id"),
                                  _list_special(eos_id, "eos_id"), argnames, global_ids)


def _list_special(value: Any, argname: str) -> Any:
    """A pad / eos token of token lists: an int id (int tokens) or a str token."""
    if isinstance(value, str):
        return value
    try:
        return check_special(value, argname)
    except TypeError:
        raise TypeError(
            f"{argname} must be an int token id, a str token or None; got {value!r}"
        ) from None


def text_rows(hypotheses: Any, references: Any, names: ArgNames = SCORING_ARGNAMES
              ) -> list[list[str]]:
    """Text for a metric with a tokenizer of its own (ROUGE, TER): the references of each
    hypothesis as a list of strings (``None`` ones dropped), with :func:`text_batch`'s
    checks and warning.

    >>> text_rows(["a b", "c"], ["a b", ["c", None, "d"]])
    [['a b'], ['c', 'd']]
    """
    rows = check_texts(hypotheses, references, names)
    if 2 <= len(rows) <= STREAMS_CHECK_LIMIT and max(map(len, rows)) == len(rows):
        warn_if_streams(hypotheses, references)
    return rows


def check_text_options(tokenize: Any, lowercase: Any, pad_id: Any, eos_id: Any) -> None:
    """``lowercase`` (a bool) only with ``tokenize``, ``pad_id`` and ``eos_id`` only without.

    >>> check_text_options(None, True, None, None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: lowercase=True applies to text: give tokenize= too (e.g. tokenize='13a'); ...
    """
    checks.boolean(lowercase, "lowercase")
    if tokenize is None:
        if lowercase:
            raise ValueError(
                "lowercase=True applies to text: give tokenize= too (e.g. tokenize='13a'); "
                "token lists and ids are compared as they are"
            )
    elif pad_id is not None or eos_id is not None:
        raise ValueError(
            "pad_id and eos_id apply to token ids; with tokenize= the inputs are strings"
        )


def streams_batch(streams: TokenIds, num_systems: int) -> Batch:
    """The host batch of line-aligned streams of token ids (:class:`~bleusuite.text.TokenIds`:
    the ``num_systems`` systems first, then the references): every line of every system with
    the reference lines of its position (an empty line is an empty reference).

    >>> from bleusuite.text import encode_texts, load_tokenizer
    >>> ids = encode_texts([["a b"], ["a c"], ["a b c"]], load_tokenizer("none"), False)
    >>> batch = streams_batch(ids, 2)
    >>> batch.hyp_len.tolist(), batch.ref_len.tolist()
    ([2, 2], [[3], [3]])
    """
    pairs = RaggedPairs.from_streams(streams, num_systems)
    present = np.ones(pairs.ref_lengths.shape, dtype=bool)
    return Batch(backends.get_backend(), identity, pairs.hyp_lengths, pairs.ref_lengths,
                 present, pairs)


def scoring_batch(
    hypotheses: Any,
    references: Any,
    *,
    pad_id: Any,
    eos_id: Any,
    tokenize: str | None,
    lowercase: bool,
    corpus: str | None = None,
    argnames: ArgNames = SCORING_ARGNAMES,
) -> Batch:
    """The batch of a scoring function: text when ``tokenize`` is given, else token ids or
    token lists (``corpus``: a corpus function's name, which needs a sentence).

    Raises:
        ValueError: ``lowercase`` without ``tokenize``, ``pad_id``/``eos_id`` with it, an
            empty batch for a corpus function; and as :func:`normalize_batch`.
    """
    check_text_options(tokenize, lowercase, pad_id, eos_id)
    if tokenize is None:
        batch = normalize_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id,
                                argnames=argnames)
    else:
        batch = text_batch(hypotheses, references, tokenize=tokenize, lowercase=lowercase,
                           argnames=argnames)[0]
    if corpus is not None and batch.size == 0:
        raise ValueError(f"{argnames[0]}: {corpus} needs at least one sentence; got an empty "
                         "batch")
    return batch


#: rows per block of a corpus score of lists or text (:func:`options_corpus_batches`): each
#: block's ids are counted and dropped before the next is read
CORPUS_BLOCK_ROWS = 1 << 16


class TextSettings(Protocol):
    """Checked settings that say how text is read (every metric's settings type)."""

    @property
    def tokenize(self) -> str | None: ...

    @property
    def lowercase(self) -> bool: ...


def options_batch(hypotheses: Any, references: Any, options: Mapping[str, Any],
                  text: TextSettings | None = None, corpus: str | None = None) -> Batch:
    """:func:`scoring_batch` of a function's keyword arguments ``options`` (``tokenize`` and
    ``lowercase`` from the checked settings ``text`` where given)."""
    get = options.get
    tokenize, lowercase = ((get("tokenize"), get("lowercase", False)) if text is None
                           else (text.tokenize, text.lowercase))
    return scoring_batch(hypotheses, references, pad_id=get("pad_id"), eos_id=get("eos_id"),
                         tokenize=tokenize, lowercase=lowercase, corpus=corpus)


def options_corpus_batches(hypotheses: Any, references: Any, options: Mapping[str, Any],
                           text: TextSettings, corpus: str) -> Iterator[Batch]:
    """The batches of a corpus score of keyword arguments (read as :func:`options_batch`
    reads them), whose statistics the caller sums: the one batch of :func:`scoring_batch`,
    or, for lists or text of more than :data:`CORPUS_BLOCK_ROWS` rows, blocks of rows, so
    that memory holds one block's ids at a time. A fault in a block is reported as the whole
    input's (the row it names is the caller's).

    >>> from types import SimpleNamespace
    >>> text = SimpleNamespace(tokenize=None, lowercase=False)
    >>> hyps, refs = [[1, 2, 3]] * 5, [[[1, 2, 4]]] * 5
    >>> [batch.size for batch in options_corpus_batches(hyps, refs, {}, text, "corpus_bleu")]
    [5]
    """
    batch_of = functools.partial(options_batch, options=options, text=text, corpus=corpus)
    rows = len(hypotheses) if isinstance(hypotheses, list | tuple) else 0
    if rows <= CORPUS_BLOCK_ROWS or not isinstance(references, list | tuple) or (
            len(references) != rows):
        yield batch_of(hypotheses, references)
        return
    for start in range(0, rows, CORPUS_BLOCK_ROWS):
        stop = start + CORPUS_BLOCK_ROWS
        try:
            batch = batch_of(hypotheses[start:stop], references[start:stop])
        except (TypeError, ValueError):
            # the whole input's checks name the caller's row; raise the block's otherwise
            batch_of(hypotheses, references)
            raise
        yield batch

