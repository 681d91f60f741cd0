"""What the Ignite metrics share: the checks of their settings and of ``output``, torch
tensors of ``(y_pred, y)`` brought to the core's input forms (detached; CPU tensors as NumPy
views), and the state's sums."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from bleusuite import checks
from bleusuite.inputs import Batch, normalize_batch

__all__ = ["ARGNAMES", "as_input", "check_output", "check_special", "id_batch", "identity",
           "to_state"]

#: the names of an Ignite metric's inputs, as its error messages give them
ARGNAMES = ("y_pred", "y")


def identity(output: Any) -> Any:
    return output


def check_output(output: Any) -> Sequence[Any]:
    """``output`` as the pair ``(y_pred, y)``, or a TypeError that names it."""
    if isinstance(output, str | bytes) or not isinstance(output, Sequence) or (
        len(output) != 2
    ):
        raise TypeError(
            "output must be a pair (y_pred, y) (or, through an Engine, a dict with keys "
            f"'y_pred' and 'y'); got {type(output).__name__}"
            + (f" of length {len(output)}" if isinstance(output, Sequence) else "")
        )
    return output


def id_batch(output: Any, pad_id: Any, eos_id: Any) -> Batch:
    """The core's batch of ``output``, ``(y_pred, y)`` of token ids."""
    y_pred, y = check_output(output)
    return normalize_batch(as_input(y_pred, "y_pred"), as_input(y, "y"), pad_id=pad_id,
                           eos_id=eos_id, argnames=ARGNAMES)


def to_state(value: Any, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """A batch's sum (a tensor on any device, or NumPy) as a state tensor on ``device``."""
    if isinstance(value, torch.Tensor):
        return value.to(device=device, dtype=dtype)
    return torch.as_tensor(np.asarray(value)).to(dtype).to(device)


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


def as_input(value: Any, argname: str) -> Any:
    """One of ``y_pred`` / ``y`` as the core takes it: tensors (also inside lists) on the CPU
    as NumPy views (zero-copy; the faster backend there), others left on their device."""
    if isinstance(value, torch.Tensor):
        if value.dtype == torch.bool or value.is_floating_point() or value.is_complex():
            raise TypeError(
                f"{argname} must hold integer token ids; got a tensor of dtype {value.dtype} "
                "(did you pass logits or probabilities? take the argmax first)"
            )
        return _host(value)
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
