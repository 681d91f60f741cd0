"""The ``(y_pred, y)`` of an Ignite metric as the core's inputs, and the core's errors in
the metric's words (``y_pred`` / ``y`` for ``hypotheses`` / ``references``).

Used by :mod:`bleusuite.metrics` (which needs torch and pytorch-ignite).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch

from bleusuite import checks

__all__ = ["as_input", "call_core", "check_special"]


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


def _rename(message: str) -> str:
    """The core's messages name ``hypotheses`` / ``references``; here they are y_pred / y."""
    message = message.replace("hypotheses and references", "y_pred and y", 1)
    message = re.sub(r"(^hypotheses\b|\bhypotheses(?=[\[=]))", "y_pred", message)
    return re.sub(r"(^references\b|\breferences(?=[\[=]))", "y", message)


def call_core(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return function(*args, **kwargs)
    except (TypeError, ValueError) as error:
        raise type(error)(_rename(str(error))) from error


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
