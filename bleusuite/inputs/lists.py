"""Token lists and text to ragged rows, in one call of the compiled ``gather``
(``csrc/gather.c``: ids read or numbered, padding dropped, rows cut at eos and laid out
flat). What it does not take (other token types, malformed input) goes the general path: the
checks that name what is wrong, then the tokens numbered by a dictionary (compared by ``==``,
as in NLTK); without the compiled part, that path takes everything."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from bleusuite import backends, native, threads
from bleusuite.inputs.batch import Batch, RaggedPairs, identity
from bleusuite.inputs.checks import (
    SCORING_ARGNAMES,
    ArgNames,
    check_batch,
    check_missing,
    check_texts,
    check_token_lists,
    kind_of,
)
from bleusuite.text.encoder import TextEncoder
from bleusuite.text.streams import STREAMS_CHECK_LIMIT, warn_if_streams
from bleusuite.text.tokenizers import Tokenizer

__all__ = ["from_token_lists", "gathered_batch", "text_batch"]

#: the backend of every host batch
_NUMPY = backends.get_backend()
#: what gather returns: (ids, layout, present, R, missing)
Gathered = tuple[bytes, bytearray, bytearray, int, int]


#: rows from which a call that numbers words or str tokens row by row is split into blocks,
#: numbered on the worker threads (``gather`` releases the GIL while it numbers)
THREADED_GATHER_ROWS = 4096


def gather(compiled: Any, hypotheses: Any, references: Any, numbering: Callable[[], Any] | None,
           text: bool, pad: Any, eos: Any, transform: Callable[[str], str] | None,
           by_row: bool) -> Gathered | None:
    """The compiled ``gather``; a large batch numbered row by row on blocks of rows on the
    worker threads (each block with a ``numbering()`` of its own), joined."""
    rows = len(hypotheses) if isinstance(hypotheses, list | tuple) else 0
    workers = threads.worker_threads()
    if (not by_row or numbering is None or workers <= 1 or rows < THREADED_GATHER_ROWS
            or not isinstance(references, list | tuple) or len(references) != rows):
        return compiled.gather(hypotheses, references, None if numbering is None else
                               numbering(), text, pad, eos, transform, by_row)
    # blocks of at least 512 rows, 16 per thread: a block's str objects, read in the first
    # pass, are still in the cache when the second numbers them
    blocks = min(rows // (THREADED_GATHER_ROWS // 8), 16 * workers)
    spans = list(itertools.pairwise(rows * k // blocks for k in range(blocks + 1)))
    parts = threads.run_blocks(lambda span: compiled.gather(
        hypotheses[span[0] : span[1]], references[span[0] : span[1]], numbering(), text, pad,
        eos, transform, True), spans, workers)
    if any(part is None for part in parts):
        return None
    return _joined(parts, [b - a for a, b in spans])


def _joined(parts: list[Gathered], sizes: list[int]) -> Gathered:
    """The ``gather`` results of consecutive blocks of rows as one."""
    num_refs = max(part[3] for part in parts)
    rows = sum(sizes)
    hyp_starts, hyp_lengths = np.empty(rows, np.int64), np.empty(rows, np.int64)
    ref_starts = np.zeros((rows, num_refs), np.int64)
    ref_lengths = np.zeros((rows, num_refs), np.int64)
    present = np.zeros((rows, num_refs), np.uint8)
    missing, row, offset = -1, 0, 0
    for (ids, layout_bytes, present_bytes, refs, block_missing), size in zip(
            parts, sizes, strict=True):
        layout = np.frombuffer(layout_bytes, dtype=np.int64)
        slots = size * refs
        block = slice(row, row + size)
        hyp_starts[block] = layout[:size] + offset
        hyp_lengths[block] = layout[size : 2 * size]
        ref_starts[block, :refs] = layout[2 * size : 2 * size + slots].reshape(size, refs) + offset
        ref_lengths[block, :refs] = layout[2 * size + slots :].reshape(size, refs)
        present[block, :refs] = np.frombuffer(present_bytes, np.uint8).reshape(size, refs)
        if missing < 0 <= block_missing:
            missing = row + block_missing
        row += size
        offset += len(ids) // 8
    layout = np.concatenate([hyp_starts, hyp_lengths, ref_starts.reshape(-1),
                             ref_lengths.reshape(-1)])
    return (b"".join(part[0] for part in parts), bytearray(layout.tobytes()),
            bytearray(present.tobytes()), num_refs, missing)


def gathered_batch(gathered: Gathered, rows: int, ref_name: str, check: bool = True,
                   to_caller: Any = identity) -> Batch:
    """The host batch of one ``gather`` result; ``check``: raise for a row without reference."""
    ids_bytes, layout_bytes, present_bytes, num_refs, missing = gathered
    present = np.frombuffer(present_bytes, dtype=np.bool_).reshape(rows, num_refs)
    if check and missing >= 0:
        check_missing(missing, rows - int(present.any(axis=1).sum()), ref_name)
    ids = np.frombuffer(ids_bytes, dtype=np.int64)
    layout = np.frombuffer(layout_bytes, dtype=np.int64)
    slots = rows * num_refs
    hyp_len = layout[rows : 2 * rows]
    ref_len = layout[2 * rows + slots :].reshape(rows, num_refs)
    pairs = RaggedPairs(ids, layout[:rows], hyp_len, ids,
                        layout[2 * rows : 2 * rows + slots].reshape(rows, num_refs), ref_len)
    return Batch(_NUMPY, to_caller, hyp_len, ref_len, present, pairs)


# ----------------------------------------------------------------------- token lists


def from_token_lists(hypotheses: Any, references: Any, pad: Any, eos: Any,
                     names: ArgNames, global_ids: bool = False) -> Batch:
    """The host batch of NLTK-form token lists; ``pad`` / ``eos`` are tokens as the lists
    hold them; str tokens get ids within each row, or across rows with ``global_ids``."""
    compiled = native.module()
    if compiled is not None:
        # int ids (lists or arrays) need no numbering: one call, no blocks on threads
        numbering = compiled.Numbering if _may_hold_str(hypotheses) else None
        gathered = gather(compiled, hypotheses, references, numbering, False, pad,
                          eos, None, not global_ids)
        if gathered is not None:
            return gathered_batch(gathered, len(hypotheses), names[1])
    check_token_lists(hypotheses, references, names)
    listed, rows = list(hypotheses), [list(r) for r in references]
    # the sizes read, which a __len__ that lies would not give
    check_batch(len(listed), len(rows), "entries of references", names)
    hyps, refs, pad_id, eos_id = _numbered(listed, rows, pad, eos, names)
    gathered = (python_gather(hyps, refs, pad_id, eos_id) if compiled is None else
                compiled.gather(hyps, refs, None, False, pad_id, eos_id, None, False))
    assert gathered is not None, "int id lists are gather's own form"
    return gathered_batch(gathered, len(hyps), names[1])


def _may_hold_str(hypotheses: Any) -> bool:
    """Whether the first token of the first non-empty of a few hypotheses is a str (or none
    is found): then the lists are numbered, else read as int ids."""
    if not isinstance(hypotheses, list | tuple):
        return True
    for sentence in hypotheses[:64]:
        if isinstance(sentence, list | tuple) and sentence:
            return isinstance(sentence[0], str)
        if isinstance(sentence, np.ndarray) and sentence.size:
            return False
    return True


def _numbered(hyps: list[Any], refs: list[list[Any]], pad: Any, eos: Any,
              names: ArgNames) -> tuple[list[list[int]], list[list[list[int]]], Any, Any]:
    """Every token as an int id (ints keep their value, unless some token is not an int in
    int64: then all are numbered by a dictionary), with pad and eos mapped alike."""
    # each sentence read once, as a list: its length is that of its tokens (a __len__ that
    # lies would shift every sentence after it)
    sentences = list(map(list, itertools.chain(hyps, itertools.chain.from_iterable(refs))))
    flat = list(itertools.chain.from_iterable(sentences))
    ids: np.ndarray | None = None
    vocabulary: dict[Any, int] | None = None
    if all(isinstance(t, int | np.integer) for t in flat):
        try:
            ids = np.asarray(flat, dtype=np.int64) if flat else np.zeros(0, np.int64)
        except OverflowError:  # Python ints beyond int64: numbered, as any other token
            ids = None
    if ids is None:
        vocabulary = {}
        try:
            ids = np.fromiter(map(vocabulary.setdefault, flat, range(len(flat))),
                              dtype=np.int64, count=len(flat))
        except TypeError as error:
            raise TypeError(_unhashable(hyps, refs, names, error)) from None
    lengths = list(map(len, sentences))
    bounds = list(itertools.accumulate(lengths, initial=0))
    id_lists = ids.tolist()
    numbered = [id_lists[a:b] for a, b in itertools.pairwise(bounds)]
    per_row = [numbered[len(hyps) + a : len(hyps) + b] for a, b in
               itertools.pairwise(itertools.accumulate(map(len, refs), initial=0))]
    return numbered[: len(hyps)], per_row, _mapped(pad, vocabulary), _mapped(eos, vocabulary)


def _mapped(token: Any, vocabulary: dict[Any, int] | None) -> int | None:
    if token is None:
        return None
    if vocabulary is None:
        return int(token) if isinstance(token, int | np.integer) else None
    try:
        return vocabulary.get(token)
    except TypeError:  # an unhashable pad token matches nothing
        return None


def _unhashable(hyps: list[Any], refs: list[list[Any]], names: ArgNames,
                error: TypeError) -> str:
    where = [(f"{names[0]}[{row}]", sentence) for row, sentence in enumerate(hyps)]
    where += [(f"{names[1]}[{row}][{k}]", sentence) for row, row_refs in enumerate(refs)
              for k, sentence in enumerate(row_refs)]
    for name, sentence in where:
        for position, token in enumerate(sentence):
            try:
                hash(token)
            except TypeError:
                return (f"{name}[{position}] must be a hashable token (str, int, tuple, ...); "
                        f"got {kind_of(token)}")
    return f"tokens must be hashable (str, int, tuple, ...): {error}"


def python_gather(hyps: Sequence[Sequence[int]], refs: Sequence[Sequence[Sequence[int] | None]],
                  pad: int | None, eos: int | None) -> Gathered:
    """The compiled ``gather`` in Python, on lists of int ids (None: no such reference).

    >>> ids, layout, present, refs, missing = python_gather([[0, 7, 8]], [[[7, 0, 9]]], 0, 9)
    >>> np.frombuffer(ids, np.int64).tolist(), np.frombuffer(layout, np.int64).tolist()
    ([7, 8, 7], [0, 2, 2, 1])
    """
    rows = len(hyps)
    num_refs = max(1, max(map(len, refs), default=1))
    ids: list[int] = []
    layout = np.zeros(2 * rows + 2 * rows * num_refs, dtype=np.int64)
    present = np.zeros(rows * num_refs, dtype=np.uint8)

    def add(sentence: Sequence[int] | None) -> tuple[int, int, bool]:
        start, started = len(ids), False
        for token in sentence or ():
            padding = pad is not None and token == pad
            started = started or not padding
            if eos is not None and token == eos and started:
                break
            if not padding:
                ids.append(token)
        return start, len(ids) - start, bool(sentence) and not started

    missing, base = -1, 2 * rows
    for b, (hyp, row) in enumerate(zip(hyps, refs, strict=True)):  # row after row
        layout[b], layout[rows + b] = add(hyp)[:2]
        found = False
        for k in range(num_refs):
            slot = b * num_refs + k
            layout[base + slot] = len(ids)
            if k >= len(row) or row[k] is None:
                continue
            start, length, padding_only = add(row[k])
            if padding_only:
                del ids[start:]
                continue
            layout[base + rows * num_refs + slot] = length
            present[slot] = found = True
        if not found and missing < 0:
            missing = b
    return (np.asarray(ids, dtype=np.int64).tobytes(), bytearray(layout.tobytes()),
            bytearray(present.tobytes()), num_refs, missing)


# ------------------------------------------------------------------------------ text


def text_batch(hypotheses: Any, references: Any, *, tokenize: str | Tokenizer,
               lowercase: bool = False, argnames: ArgNames = SCORING_ARGNAMES,
               require_references: bool = True,
               global_ids: bool = False) -> tuple[Batch, list[str]]:
    """The batch of text (one string per hypothesis; per hypothesis, a reference string or a
    list of them, ``None`` for none), tokenised as sacrebleu does (``tokenize``: a name of
    :data:`bleusuite.text.TOKENIZERS` or a :class:`~bleusuite.text.Tokenizer`), and the
    token of each id where ``global_ids`` (else ids hold only within each row, and no token
    is returned). ``require_references`` False: a hypothesis without reference counts 0
    instead of raising (for a caller that checks itself).

    >>> batch, tokens = text_batch(["The cat sat."], [["The cat sat on the mat."]],
    ...                            tokenize="13a", global_ids=True)
    >>> batch.hyp_len.tolist(), batch.ref_len.tolist(), tokens[:4]
    ([4], [[7]], ['The', 'cat', 'sat', '.'])
    """
    encoder = TextEncoder.of(tokenize, lowercase)
    compiled = native.module()
    if compiled is None:  # numbered in Python, laid out by python_gather
        hypotheses, rows = _checked_texts(hypotheses, references, argnames)
        numbered = encoder.number(hypotheses + list(itertools.chain.from_iterable(rows)))
        bounds = list(itertools.accumulate(numbered.lengths.tolist(), initial=0))
        ids = numbered.ids.tolist()
        sentences = [ids[a:b] for a, b in itertools.pairwise(bounds)]
        refs = [sentences[a:b] for a, b in itertools.pairwise(
            itertools.accumulate(map(len, rows), initial=len(hypotheses)))]
        gathered: Gathered | None = python_gather(sentences[: len(hypotheses)], refs, None, None)
        tokens = numbered.vocabulary
    else:
        # the encoder decides the numbering, the transform of each line, and whether the
        # ids may be numbered row by row (each row's small table, on the worker threads)
        make = encoder.compiled_numbering(compiled)
        transform = encoder.line_transform
        by_row = not global_ids and encoder.per_row_ids
        numbering = None if by_row else make()
        kept: Callable[[], Any] = make if by_row else lambda: numbering
        gathered = gather(compiled, hypotheses, references, kept, True, None, None, transform,
                          by_row)
        if gathered is None:  # the checks say what is wrong, or the lists are rebuilt
            hypotheses, rows = _checked_texts(hypotheses, references, argnames)
            gathered = gather(compiled, hypotheses, rows, kept, True, None, None, transform,
                              by_row)
        tokens = [] if numbering is None else numbering.tokens
    assert gathered is not None, "checked text is gather's own form"
    batch = gathered_batch(gathered, len(hypotheses), argnames[1], require_references)
    if 2 <= batch.size <= STREAMS_CHECK_LIMIT and batch.ref_present.shape[1] == batch.size:
        warn_if_streams(hypotheses, references)
    return batch, tokens


def _checked_texts(hypotheses: Any, references: Any, names: ArgNames) -> tuple[
        list[str], list[list[str]]]:
    """The hypotheses and the references of each (:func:`check_texts`) as lists, of the
    sizes read (which a ``__len__`` that lies would not give)."""
    rows = check_texts(hypotheses, references, names)
    hyps = list(hypotheses)
    check_batch(len(hyps), len(rows), "entries of references", names)
    return hyps, rows
