"""The checks of every input form (token-id arrays, token sequences, text), whose messages
name the caller's arguments (an Ignite metric's ``y_pred`` and ``y``, say)."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from bleusuite import backends, checks
from bleusuite.backends.base import Backend
from bleusuite.text.streams import STREAMS_HINT

_INT64_MAX = np.iinfo(np.int64).max

#: the caller's names of its (hypotheses, references) arguments, as error messages give them
ArgNames = tuple[str, str]
#: the names of the scoring functions' arguments (an Ignite metric has ``("y_pred", "y")``)
SCORING_ARGNAMES: ArgNames = ("hypotheses", "references")


def is_text(hypotheses: Any, allow_empty: bool = False, argname: str = "hypotheses") -> bool:
    """Whether ``hypotheses`` are text: a list of strings (``allow_empty``: an empty list
    too); a list that starts as text and holds something else is text with a wrong element.

    >>> is_text(["a b", "c"]), is_text([[1, 2]]), is_text([]), is_text([], allow_empty=True)
    (True, False, False, True)

    >>> is_text(["a b", None, "c"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: hypotheses[1] must be a string like hypotheses[0] (...); got NoneType

    Raises:
        TypeError: a list of strings with another element (named after ``argname``).
    """
    listed = isinstance(hypotheses, Sequence) and not isinstance(hypotheses, str)
    if not listed or not len(hypotheses):
        return listed and allow_empty
    if not isinstance(hypotheses[0], str):
        return False  # token ids or token lists: their checks name a wrong element
    for row, hyp in enumerate(hypotheses):
        if not isinstance(hyp, str):
            raise TypeError(
                f"{argname}[{row}] must be a string like {argname}[0] (text is one string "
                f"per sentence, '' for an empty one); got {kind_of(hyp)}"
            )
    return True


def check_tokenizer_name(tokenize: Any) -> str:
    """A tokenizer's name (``tokenize=``), checked and loaded (an ``ImportError`` now).

    >>> check_tokenizer_name("13a")
    '13a'
    >>> check_tokenizer_name("bpe")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: tokenize must be one of 13a, none, char, ... (sacrebleu's tokenizers); got 'bpe'
    """
    from bleusuite.text.tokenizers import TOKENIZERS, load_tokenizer

    if not isinstance(tokenize, str) or tokenize not in TOKENIZERS:
        raise ValueError(f"tokenize must be one of {', '.join(TOKENIZERS)} (sacrebleu's "
                         f"tokenizers); got {tokenize!r}")
    load_tokenizer(tokenize)
    return tokenize


def kind_of(obj: object) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}".replace("builtins.", "")


def check_int_array(be: Backend, a: Any, argname: str) -> Any:
    if not be.is_integer_dtype(a):
        hint = " (did you pass logits or probabilities?)" if be.is_floating_dtype(a) else ""
        raise TypeError(
            f"{argname} must be an array of integer token ids; got dtype "
            f"{be.describe_dtype(a)}{hint}"
        )
    # ids above 2**63 - 1 would wrap to negative int64 values: still one distinct value per
    # id (the counts stay exact), but refused where the check costs no device read
    # (NumPy names a uint64 array of the other byte order ">u8" or "<u8")
    unsigned_64 = be.describe_dtype(a) in ("uint64", ">u8", "<u8", "torch.uint64")
    if (unsigned_64 and be.numel(a) and be.reads_are_free(a)
            and be.to_int(be.max_(a)) > _INT64_MAX):
        raise ValueError(f"{argname} holds token ids above 2**63 - 1, which int64 cannot hold")
    return be.to_int64(a)


def check_same_arrays(be: Backend, array: Any, like: Any, argname: str) -> None:
    if backends.backend_name(array) != be.name:
        raise TypeError(
            f"{argname} is a {kind_of(array)} but the other arrays of the call are {be.name} "
            "arrays: all arrays in one call must come from the same array library"
        )
    if be.device_of(array) != be.device_of(like):
        raise ValueError(
            f"{argname} is on {be.device_of(array)} but the other arrays of the call are on "
            f"{be.device_of(like)}: all arrays must be on the same device"
        )


def plain_array(a: Any, argname: str) -> Any:
    """NumPy subclasses as plain arrays; a masked array is refused (its mask would be lost)."""
    if not isinstance(a, np.ndarray) or type(a) is np.ndarray:
        return a
    if isinstance(a, np.ma.MaskedArray):
        raise TypeError(
            f"{argname} must be a plain array of token ids, not a masked array: fill the "
            "masked positions with a padding id (a.filled(pad_id)) and pass pad_id"
        )
    return np.asarray(a)


def two_dimensional(hyp: Any, argname: str) -> Any:
    if hyp.ndim != 2:
        raise ValueError(
            f"{argname} must be a 2-D array (batch, length); got shape {tuple(hyp.shape)}"
        )
    return hyp


def three_dimensional(refs: Any, argname: str) -> Any:
    """(B, R, L) references from a (B, L) array (one reference each) or a (B, R, L) one."""
    if refs.ndim == 2:
        return refs.reshape(refs.shape[0], 1, refs.shape[1])
    if refs.ndim != 3:
        raise ValueError(
            f"{argname} must be a 2-D array (batch, length) with one reference per hypothesis "
            f"or 3-D (batch, references, length); got shape {tuple(refs.shape)}"
        )
    return refs


def check_special(value: Any, argname: str, be: Backend | None = None) -> int | None:
    try:
        token = checks.token_id(value, argname)
    except TypeError:
        jax = sys.modules.get("jax")  # looked up, never imported here
        if jax is None or not isinstance(value, jax.core.Tracer):
            raise
        # a jitted function's argument is traced, not an int: say how to keep it static
        raise TypeError(
            f"{argname} must be an int token id or None; got a value traced by JAX "
            f"({value!r}): a token id must be a Python int when the function is traced. "
            f"Pass it as a static argument, jax.jit(f, static_argnames={argname!r}), or "
            f"bind it before tracing, jax.jit(functools.partial(f, {argname}=...))"
        ) from None
    # a backend with narrower integers (JAX without x64) checks the id fits them
    return token if token is None or be is None else be.check_special(token, argname)


def is_token_sequence(obj: object) -> bool:
    if isinstance(obj, str | bytes):
        return False
    if isinstance(obj, np.ndarray):
        return obj.ndim == 1
    return isinstance(obj, Sequence)


def check_sentence(sentence: object, argname: str) -> None:
    if isinstance(sentence, str | bytes):
        raise TypeError(
            f"{argname} must be a sequence of tokens, not a string ({sentence!r:.40}); "
            "split it into tokens first, or pass tokenize='13a' (sacrebleu's tokenizers) to "
            "score text"
        )
    if not is_token_sequence(sentence):
        raise TypeError(f"{argname} must be a sequence of tokens; got {kind_of(sentence)}")
    first = sentence[0] if len(sentence) else None  # type: ignore[arg-type,index]
    # a list or array where a token should be is nesting gone wrong; a tuple is a token
    if isinstance(first, list | np.ndarray):
        raise ValueError(
            f"{argname} must be a sequence of tokens, but its first token is itself a "
            "sequence: the nesting is one level too deep"
        )


def check_batch(batch: int, rows: int, what: str, names: ArgNames) -> None:
    if rows != batch:
        raise ValueError(
            f"{names[0]} and {names[1]} must have the same batch size; got {batch} "
            f"hypotheses and {rows} {what}"
        )


def check_texts(hypotheses: Any, references: Any, names: ArgNames = SCORING_ARGNAMES
                ) -> list[list[str]]:
    """:func:`~bleusuite.inputs.text_rows` without its warning; messages use ``names``.

    Raises:
        TypeError: a hypothesis or a reference that is not a string.
        ValueError: batch sizes that differ (the message says how to turn sacrebleu's
            reference streams into references per hypothesis).
    """
    hyp_name, ref_name = names
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise TypeError(
            f"{hyp_name} must be a list of strings when tokenize= is given (wrap a single "
            f"sentence in a list); got {kind_of(hypotheses)}"
        )
    for row, hyp in enumerate(hypotheses):
        if not isinstance(hyp, str):
            raise TypeError(
                f"{hyp_name}[{row}] must be a string when tokenize= is given; got "
                f"{kind_of(hyp)} (token ids and token lists are scored without tokenize=)"
            )
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(
            f"{ref_name} must be a list with, for each sentence of {hyp_name}, a reference "
            f"string or a list of them; got {kind_of(references)}"
        )
    if len(references) != len(hypotheses):
        raise ValueError(
            f"{hyp_name} and {ref_name} must have the same batch size; got "
            f"{len(hypotheses)} hypotheses and {len(references)} entries of {ref_name} "
            f"(references are given per hypothesis; {STREAMS_HINT})"
        )
    for row, refs in enumerate(references):
        if isinstance(refs, str):
            continue
        if not isinstance(refs, Sequence):
            raise TypeError(
                f"{ref_name}[{row}] must be a reference string or a list of them; got "
                f"{kind_of(refs)}"
            )
        for position, ref in enumerate(refs):
            if ref is not None and not isinstance(ref, str):
                raise TypeError(
                    f"{ref_name}[{row}][{position}] must be a string (or None: no such "
                    f"reference); got {kind_of(ref)}"
                )
    rows = [[refs] if isinstance(refs, str) else refs for refs in references]
    return [[ref for ref in refs if ref is not None] for refs in rows]


def check_token_lists(hypotheses: Any, references: Any, names: ArgNames) -> None:
    """Raise the TypeError or ValueError that names what is wrong in NLTK-form token lists."""
    hyp_name, ref_name = names
    if not is_token_sequence(hypotheses):
        raise TypeError(
            f"{hyp_name} must be an integer array or a list of token sequences; got "
            f"{kind_of(hypotheses)}"
        )
    if not is_token_sequence(references):
        raise TypeError(
            f"{ref_name} must be an integer array or a list (one entry per hypothesis) of "
            f"lists of token sequences; got {kind_of(references)}"
        )
    check_batch(len(hypotheses), len(references), "entries of references", names)
    for row, hyp in enumerate(hypotheses):
        check_sentence(hyp, f"{hyp_name}[{row}]")
    for row, row_refs in enumerate(references):
        check_reference_list(row_refs, f"{ref_name}[{row}]", "a list of reference token sequences")
        for position, ref in enumerate(row_refs):
            check_sentence(ref, f"{ref_name}[{row}][{position}]")


def check_reference_list(row_refs: Any, argname: str, expected: str,
                         is_sentence: Callable[[Any], bool] = is_token_sequence) -> None:
    """Raise where one hypothesis's ``row_refs`` is not ``expected``, or holds tokens."""
    if not is_token_sequence(row_refs):
        raise TypeError(f"{argname} must be {expected}; got {kind_of(row_refs)}")
    if len(row_refs) and not is_sentence(row_refs[0]):
        raise ValueError(
            f"{argname} must be a list of reference token sequences (NLTK form: one list of "
            "references per hypothesis), but it holds tokens: wrap a single reference in a list"
        )


class PaddingWarning(UserWarning):
    """Arrays of token ids that look padded, scored without ``pad_id``: every row of both
    arguments ends with the same id, repeated in some row. Without ``pad_id`` that id is a
    token like any other, and the scores change. Pass ``pad_id``, or filter this warning
    (``warnings.filterwarnings("ignore", category=bleusuite.PaddingWarning)``) where the
    repetition is real text."""


def warn_if_padded(hyp: np.ndarray, refs: np.ndarray, names: ArgNames) -> None:
    """Warn (:class:`PaddingWarning`) where NumPy arrays look right-padded."""
    if hyp.ndim != 2 or hyp.shape[0] == 0 or hyp.shape[1] < 2 or refs.shape[-1] < 1:
        return
    last = hyp[0, -1]
    if not ((hyp[:, -1] == last).all() and (refs[..., -1] == last).all()):
        return
    if not ((hyp[:, -2] == last).any() or (refs.shape[-1] > 1 and (refs[..., -2] == last).any())):
        return
    warnings.warn(
        f"{names[0]} and {names[1]} look padded: every row ends with token id {int(last)}, "
        f"repeated; without pad_id it is scored as a token. Pass pad_id={int(last)} (or "
        "filter bleusuite.PaddingWarning where the repetition is real text)",
        PaddingWarning, stacklevel=checks.caller_level())


def check_references_present(references: Sequence[Sequence[Any]], ref_name: str) -> None:
    """Raise, as :func:`check_missing`, for a hypothesis whose list of references is empty.

    >>> check_references_present([["a"], []], "references")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: references: hypothesis 1 has no reference (...); 1 such row(s) in all
    """
    empty = [row for row, refs in enumerate(references) if not len(refs)]
    if empty:
        check_missing(empty[0], len(empty), ref_name)


def check_missing(missing: int, rows: int, ref_name: str) -> None:
    """Raise for a hypothesis without reference (``missing``: the first such row, or -1)."""
    if missing >= 0:
        raise ValueError(
            f"{ref_name}: hypothesis {missing} has no reference (every reference row is "
            f"padding or the list is empty); {rows} such row(s) in all"
        )
