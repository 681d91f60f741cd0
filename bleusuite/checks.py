"""Checks of scalar arguments: one rule and one wording per kind, naming the argument, for
every public entry point (functions, Ignite metrics, losses, the command). Callers look the
rules up on this module (``checks.weights(...)``), so a test's monkeypatch of one changes
every front end. A number is a Python ``int``/``float``, a NumPy scalar or a 0-d array or
tensor of a numeric dtype, never a ``bool``; an integer has no fractional type (``2.0`` is
rejected, not truncated); a flag is a ``bool``, not merely truthy.
"""

from __future__ import annotations

import math
import numbers
import os
import sys
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any

__all__ = [
    "MAX_ORDER_LIMIT",
    "beta",
    "boolean",
    "caller_level",
    "counted",
    "gleu_orders",
    "integer",
    "keywords",
    "number",
    "order",
    "token_id",
    "weights",
]

#: the highest n-gram order any function accepts
MAX_ORDER_LIMIT = 256


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


def order(value: Any, argname: str) -> int:
    """An n-gram order (``max_order``, ``min_len``, ...): an int in 1..MAX_ORDER_LIMIT.

    >>> order(4, "max_order")
    4
    >>> order(0, "max_order")
    Traceback (most recent call last):
    ...
    ValueError: max_order must be between 1 and 256; got 0
    """
    return integer(value, argname, minimum=1, maximum=MAX_ORDER_LIMIT)


def counted(count: int, noun: str) -> str:
    """``count`` things in a message, in the singular for one: ``"1 line"``, ``"2 lines"``.

    >>> counted(1, "line"), counted(0, "line"), counted(3, "entry"), counted(2, "hypothesis")
    ('1 line', '0 lines', '3 entries', '2 hypotheses')
    """
    if count == 1:
        return f"1 {noun}"
    if noun.endswith("is"):
        return f"{count} {noun[:-2]}es"
    return f"{count} {noun[:-1]}ies" if noun.endswith("y") else f"{count} {noun}s"


def beta(value: Any, argname: str = "beta") -> int | float:
    """chrF's ``beta``: a finite number >= 0, as sacrebleu takes it; an integer stays an
    ``int``, so that the score's name reads ``chrF2``, not ``chrF2.0``.

    >>> beta(0), beta(1.5), beta(2.0)
    (0, 1.5, 2.0)
    >>> beta(-1)
    Traceback (most recent call last):
    ...
    ValueError: beta must be a number >= 0; got -1
    """
    item = _scalar(value)
    if isinstance(item, numbers.Integral) and not isinstance(item, bool):
        if item < 0:
            raise ValueError(f"{argname} must be a number >= 0; got {value!r}")
        return int(item)
    return number(value, argname, minimum=0)


def gleu_orders(min_len: Any, max_len: Any) -> tuple[int, int]:
    """GLEU's ``min_len`` and ``max_len``: orders (see :func:`order`), ``min_len <= max_len``.

    >>> gleu_orders(3, 2)
    Traceback (most recent call last):
    ...
    ValueError: min_len must be <= max_len; got min_len=3, max_len=2
    """
    low, high = order(min_len, "min_len"), order(max_len, "max_len")
    if low > high:
        raise ValueError(f"min_len must be <= max_len; got min_len={low}, max_len={high}")
    return low, high


def weights(value: Any, max_order: int | None = None) -> tuple[float, ...]:
    """BLEU's ``weights`` (a sequence, or a 1-D array or tensor): one finite number >= 0 per
    order (``max_order`` of them, where given), as floats.

    >>> import numpy as np
    >>> weights(np.array([0.5, 0.5]))
    (0.5, 0.5)
    >>> weights([0.5, 0.5], max_order=4)
    Traceback (most recent call last):
    ...
    ValueError: weights has 2 entries but max_order is 4; give one weight per order
    """
    if isinstance(value, str | bytes):
        raise TypeError(f"weights must be a sequence of numbers; got {value!r}")
    try:
        entries = list(value)
    except TypeError:  # not iterable (a number, a 0-d array)
        raise TypeError(f"weights must be a sequence of numbers; got {value!r}") from None
    if not entries:
        raise ValueError("weights must hold at least one weight")
    result = tuple(number(w, f"weights[{i}]", minimum=0) for i, w in enumerate(entries))
    if max_order is not None and len(result) != max_order:
        raise ValueError(
            f"weights has {counted(len(result), 'entry')} but max_order is {max_order}; give one "
            "weight per order"
        )
    return result


def boolean(value: Any, argname: str) -> bool:
    """``value`` if it is a bool (not merely truthy).

    >>> boolean(True, "lowercase")
    True
    >>> boolean(1, "lowercase")
    Traceback (most recent call last):
    ...
    TypeError: lowercase must be a bool; got 1
    """
    if not isinstance(value, bool):
        raise TypeError(f"{argname} must be a bool; got {value!r}")
    return value


def token_id(value: Any, argname: str, *, or_else: str | None = None) -> int | None:
    """A ``pad_id`` / ``eos_id``: an int token id, or None (``or_else``: one more value the
    caller accepts and handles itself, named in the message).

    >>> token_id(None, "pad_id") is None, token_id(0, "pad_id")
    (True, 0)
    """
    if value is None:
        return None
    item = _scalar(value)
    if isinstance(item, bool) or not isinstance(item, numbers.Integral):
        accepted = " or None" if or_else is None else f", None, or {or_else!r}"
        raise TypeError(f"{argname} must be an int token id{accepted}; got {value!r}")
    return int(item)


def caller_level() -> int:
    """The ``stacklevel`` of a warning that points at the first frame outside bleusuite."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and os.path.abspath(frame.f_code.co_filename).startswith(
            package + os.sep):
        frame, level = frame.f_back, level + 1
    return level


def keywords(options: Mapping[str, Any], accepted: AbstractSet[str], function: str) -> None:
    """Raise Python's own ``TypeError`` for a keyword argument that ``function`` (which takes
    ``**options``) does not take: ``accepted`` is the set of its names.

    >>> keywords({"smoth": "exp"}, frozenset({"smooth"}), "sentence_bleu")
    Traceback (most recent call last):
    TypeError: sentence_bleu() got an unexpected keyword argument 'smoth'
    """
    if options.keys() <= accepted:  # one comparison in C: the common case
        return
    for name in options:
        if name not in accepted:
            raise TypeError(f"{function}() got an unexpected keyword argument {name!r}")
