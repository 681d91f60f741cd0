"""The ``(y_pred, y)`` of an Ignite metric as the core's inputs (whose error messages then
name ``y_pred`` and ``y``).

Used by :mod:`bleusuite.metrics` (which needs torch and pytorch-ignite).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from bleusuite import checks
from bleusuite.inputs import Batch, normalize_batch

__all__ = ["as_input", "check_special", "core_batch"]


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
