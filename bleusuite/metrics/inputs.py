"""The ``(y_pred, y)`` of an Ignite metric as the core's inputs (whose error messages then
name ``y_pred`` and ``y``): token ids or token lists as they are, text (with ``tokenize=``)
through sacrebleu's tokenizers.

Used by :mod:`bleusuite.metrics` (which needs torch and pytorch-ignite).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from bleusuite import checks
from bleusuite.inputs import Batch, normalize_batch
from bleusuite.text.tokenizers import TOKENIZERS, load_tokenizer

__all__ = ["as_input", "check_special", "check_text_settings", "core_batch", "text_inputs"]


def check_special(value: Any, argname: str) -> Any:
    """A pad / eos token: an int id (arrays or int token lists) or a str token (str lists)."""
    if isinstance(value, str):
        return value
    try:
        return checks.token_id(value, argname)
    except TypeError:
        raise TypeError(
            f"{argname} must be an int token id, a str token or None; got {value!r}"
        ) from None


def check_text_settings(
    tokenize: Any, lowercase: Any, pad_id: Any, eos_id: Any
) -> tuple[str | None, bool]:
    """``tokenize`` / ``lowercase`` of a metric (the rules of the functions' ``tokenize=``),
    checked when the metric is built; the tokenizer is loaded then too (sacrebleu needed).

    >>> check_text_settings("13a", True, None, None)
    ('13a', True)
    >>> check_text_settings(None, True, None, None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: lowercase=True applies to text: give tokenize= too (e.g. tokenize='13a'); ...
    """
    if not isinstance(lowercase, bool):
        raise TypeError(f"lowercase must be a bool; got {lowercase!r}")
    if tokenize is None:
        if lowercase:
            raise ValueError(
                "lowercase=True applies to text: give tokenize= too (e.g. tokenize='13a'); "
                "token lists and ids are compared as they are"
            )
        return None, False
    if not isinstance(tokenize, str) or tokenize not in TOKENIZERS:
        raise ValueError(
            f"tokenize must be one of {', '.join(TOKENIZERS)} (sacrebleu's tokenizers) or "
            f"None; got {tokenize!r}"
        )
    if pad_id is not None or eos_id is not None:
        raise ValueError(
            "pad_id and eos_id apply to token ids; with tokenize= the inputs are strings"
        )
    load_tokenizer(tokenize)  # ImportError now, not at the first update, without sacrebleu
    return tokenize, lowercase


def _kind(obj: object) -> str:
    return type(obj).__name__


def text_inputs(y_pred: Any, y: Any, tokenize: str, lowercase: bool) -> tuple[Any, Any]:
    """``y_pred`` (one string per sentence) and ``y`` (per sentence, a reference string or a
    list of them; ``None`` entries are no reference) as token ids, tokenised as sacrebleu
    does (:func:`bleusuite.text.encode_pairs`); the checks name ``y_pred`` and ``y``.

    >>> hyps, refs = text_inputs(["The cat."], [["the cat .", None]], "13a", True)
    >>> hyps[0].tolist(), [r.tolist() for r in refs[0]]
    ([0, 1, 2], [[0, 1, 2]])
    """
    from bleusuite.text import encode_pairs  # the text layer loads only for text

    if isinstance(y_pred, str) or not isinstance(y_pred, Sequence):
        raise TypeError(
            "y_pred must be a list of strings when tokenize= is given (one per sentence); "
            f"got {_kind(y_pred)}"
        )
    for row, hyp in enumerate(y_pred):
        if not isinstance(hyp, str):
            raise TypeError(
                f"y_pred[{row}] must be a string when tokenize= is given; got {_kind(hyp)} "
                "(token lists and ids are scored without tokenize=)"
            )
    if isinstance(y, str) or not isinstance(y, Sequence):
        raise TypeError(
            "y must be a list with, for each sentence of y_pred, a reference string or a "
            f"list of them; got {_kind(y)}"
        )
    if len(y) != len(y_pred):
        raise ValueError(
            f"y_pred and y must have the same batch size; got {len(y_pred)} hypotheses and "
            f"{len(y)} entries of y"
        )
    for row, refs in enumerate(y):
        if isinstance(refs, str):
            continue
        if not isinstance(refs, Sequence):
            raise TypeError(
                f"y[{row}] must be a reference string or a list of them; got {_kind(refs)}"
            )
        for position, ref in enumerate(refs):
            if ref is not None and not isinstance(ref, str):
                raise TypeError(
                    f"y[{row}][{position}] must be a string (or None: no such reference); "
                    f"got {_kind(ref)}"
                )
    return encode_pairs(y_pred, y, tokenize=tokenize, lowercase=lowercase)


def core_batch(y_pred: Any, y: Any, pad_id: Any, eos_id: Any) -> Batch:
    """The core's :class:`~bleusuite.inputs.Batch` of one update; its errors name y_pred / y.

    >>> core_batch([[1, 2]], [[[1, 2]]], None, None).hyp_len.tolist()
    [2]
    >>> core_batch([[1, 2]], [[]], None, None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: y: hypothesis 0 has no reference ...
    """
    return normalize_batch(y_pred, y, pad_id=pad_id, eos_id=eos_id, argnames=("y_pred", "y"))


def as_input(value: Any, argname: str) -> Any:
    """Bring one of ``y_pred`` / ``y`` to a form the core accepts.

    CPU tensors become NumPy views (zero-copy: the NumPy backend is the faster one on CPU);
    tensors on an accelerator stay there (torch backend). Tensors inside Python lists (one
    per sentence, or one per reference) are treated the same way, and the core packs them
    (with any token lists on the other side) into padded arrays on their device.
    """
    if isinstance(value, torch.Tensor):
        if value.dtype == torch.bool or value.is_floating_point() or value.is_complex():
            raise TypeError(
                f"{argname} must hold integer token ids; got a tensor of dtype {value.dtype} "
                "(did you pass logits or probabilities? take the argmax first)"
            )
        value = value.detach()
        return value.numpy() if value.device.type == "cpu" else value
    if isinstance(value, np.ndarray) or not isinstance(value, Sequence):
        return value  # arrays, or anything the core will reject with a message
    if isinstance(value, str | bytes):
        raise TypeError(
            f"{argname} must be a batch (a list of token lists, or a 2-D array of token ids); "
            f"got a string ({value!r:.40})"
        )
    return [_untensor(item) for item in value] if _holds_tensors(value) else value


def _holds_tensors(items: Sequence[Any]) -> bool:
    for item in items:
        if isinstance(item, torch.Tensor):
            return True
        if isinstance(item, list | tuple) and item and isinstance(item[0], torch.Tensor):
            return True
    return False


def _host(tensor: torch.Tensor) -> Any:
    """A CPU tensor as a NumPy view (as whole batches are); others stay on their device."""
    tensor = tensor.detach()
    return tensor.numpy() if tensor.device.type == "cpu" else tensor


def _untensor(item: Any) -> Any:
    if isinstance(item, torch.Tensor):
        return _host(item)
    if isinstance(item, list | tuple):
        return [_host(x) if isinstance(x, torch.Tensor) else x for x in item]
    return item
