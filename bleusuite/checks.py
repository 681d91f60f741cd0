"""Checks of scalar arguments and environment settings: one rule and one wording per kind.

Every public entry point (functions, Ignite metrics, losses, the command) checks its numbers
here, so ``max_order``, ``weights``, ``smooth_value``, ``pad_id`` and the environment
settings accept the same things and fail with the same kind of message, naming the argument:

* a number is a Python ``int``/``float``, a NumPy scalar (``np.float32(0.2)``) or a 0-d
  array or tensor of a numeric dtype; ``bool`` is not a number here;
* an integer is the same without fractional types (``2.0`` is rejected, not truncated);
* an environment setting is read on every call and goes through the same integer check.
"""

from __future__ import annotations

import math
import numbers
import os
from typing import Any

__all__ = ["check_environment", "environment_integer", "integer", "number", "token_id"]

#: environment settings the library reads -> smallest accepted value
ENVIRONMENT_INTEGERS: dict[str, int] = {"BLEUSUITE_NUM_THREADS": 1}


def _scalar(value: Any) -> Any:
    """A 0-d array, tensor or NumPy scalar as the Python number it holds; anything else as is."""
    if getattr(value, "ndim", None) == 0 and hasattr(value, "item"):
        try:
            return value.item()
        except (TypeError, ValueError, RuntimeError):  # e.g. a tensor without data
            return value
    return value


def integer(
    value: Any, argname: str, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """``value`` as an ``int``, checked against ``minimum`` and ``maximum`` (inclusive).

    >>> import numpy as np
    >>> integer(np.int32(3), "max_order", minimum=1)
    3
    >>> integer(2.0, "max_order")
    Traceback (most recent call last):
    ...
    TypeError: max_order must be an int; got 2.0
    """
    item = _scalar(value)
    if isinstance(item, bool) or not isinstance(item, numbers.Integral):
        raise TypeError(f"{argname} must be an int; got {value!r}")
    result = int(item)
    if minimum is not None and maximum is not None and not minimum <= result <= maximum:
        raise ValueError(f"{argname} must be between {minimum} and {maximum}; got {result}")
    if minimum is not None and result < minimum:
        raise ValueError(f"{argname} must be >= {minimum}; got {result}")
    if maximum is not None and result > maximum:
        raise ValueError(f"{argname} must be <= {maximum}; got {result}")
    return result


def number(value: Any, argname: str, *, minimum: float | None = None,
           positive: bool = False) -> float:
    """``value`` as a finite ``float`` (``>= minimum``, or ``> 0`` with ``positive``).

    >>> import numpy as np
    >>> number(np.float32(0.5), "smooth_value", minimum=0)
    0.5
    >>> number("0.5", "smooth_value")
    Traceback (most recent call last):
    ...
    TypeError: smooth_value must be a number; got '0.5'
    """
    item = _scalar(value)
    if isinstance(item, bool) or not isinstance(item, numbers.Real):
        raise TypeError(f"{argname} must be a number; got {value!r}")
    result = float(item)
    if not math.isfinite(result):
        raise ValueError(f"{argname} must be a finite number; got {value!r}")
    if positive and not result > 0:
        raise ValueError(f"{argname} must be a number > 0; got {value!r}")
    if minimum is not None and result < minimum:
        raise ValueError(f"{argname} must be a number >= {minimum}; got {value!r}")
    return result


def token_id(value: Any, argname: str) -> int | None:
    """A ``pad_id`` / ``eos_id``: an int token id, or None.

    >>> token_id(None, "pad_id") is None, token_id(0, "pad_id")
    (True, 0)
    """
    if value is None:
        return None
    item = _scalar(value)
    if isinstance(item, bool) or not isinstance(item, numbers.Integral):
        raise TypeError(f"{argname} must be an int token id or None; got {value!r}")
    return int(item)


def environment_integer(name: str) -> int | None:
    """The integer environment setting ``name`` (None when unset or blank), checked.

    >>> import os
    >>> saved = os.environ.get("BLEUSUITE_NUM_THREADS")
    >>> os.environ["BLEUSUITE_NUM_THREADS"] = "3"
    >>> environment_integer("BLEUSUITE_NUM_THREADS")
    3
    >>> os.environ["BLEUSUITE_NUM_THREADS"] = "abc"
    >>> environment_integer("BLEUSUITE_NUM_THREADS")
    Traceback (most recent call last):
    ...
    ValueError: BLEUSUITE_NUM_THREADS (environment variable) must be an integer >= 1; got 'abc'
    >>> if saved is None:
    ...     del os.environ["BLEUSUITE_NUM_THREADS"]
    ... else:
    ...     os.environ["BLEUSUITE_NUM_THREADS"] = saved
    """
    minimum = ENVIRONMENT_INTEGERS[name]
    setting = os.environ.get(name, "").strip()
    if not setting:
        return None
    argname = f"{name} (environment variable)"
    try:
        value = int(setting, 10)
    except ValueError:
        raise ValueError(
            f"{argname} must be an integer >= {minimum}; got {setting!r}"
        ) from None
    return integer(value, argname, minimum=minimum)


def check_environment() -> None:
    """Check every environment setting the library reads (each scoring call does this first,
    so a bad setting fails whatever the batch, not only where the setting is used)."""
    for name in ENVIRONMENT_INTEGERS:
        environment_integer(name)
