"""The formulas as straight-line Python over one row: a backend that traces.

Every formula of bleusuite (the smoothing families, the brevity penalty, GLEU, chrF, the
reference-length rules) is written once, against a :class:`~bleusuite.backends.base.Backend`,
element-wise over the leading axes of its statistics. On NumPy a one-sentence call still
pays for a few dozen array operations of a microsecond each, most of its time. This backend
runs such a function once on symbolic arrays of one row (every shape known: the orders, the
references) and writes down the scalar Python it amounts to, one statement per element and
operation, constants folded; :func:`row_function` compiles that into a function of the
row's numbers. A small batch is then scored row by row at Python's speed, by code generated
from the one definition, not written twice.

The generated code does what NumPy does, to the bit:

* ``+ - * /`` and comparisons are IEEE operations in both (an int meets a float as NumPy
  casts it); a division by zero gives NumPy's ``inf``/``nan``, not an exception;
* float sums along an axis take NumPy's order (pairwise, in blocks of eight), integer sums
  are exact in any order;
* ``log`` and ``exp`` are the C library's (``math``), as the NumPy backend's are
  (:mod:`bleusuite.backends.numpy`);
* ``maximum``, ``minimum``, ``min``, ``argmax`` propagate NaN as NumPy does.

A function that reads a value on the host (``to_bool``, ``reads_are_free``...) or uses an
operation this backend does not trace raises :class:`TraceError`: its callers then keep the
array face. ``tests/backends/test_trace.py`` holds every traced formula bit for bit against
the array face on many rows.

>>> def formula(be, x, y):
...     return be.where(y > 0, be.log(x) / y, 0.0)
>>> f = row_function(formula, (), [((), "f"), ((), "i")])
>>> f(2.0, 4) == float(np.log(2.0)) / 4, f(2.0, 0)
(True, 0.0)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["TraceError", "row_function", "scalar_exp", "scalar_log"]

#: element kinds: bool, int (int64), float (float64)
KINDS = ("b", "i", "f")


class TraceError(Exception):
    """The traced function does what the trace cannot follow; keep the array face."""


# ------------------------------------------------------------------- runtime helpers


def _div(x: Any, y: Any) -> float:
    """NumPy's float64 ``x / y``: IEEE ``inf``/``nan`` where ``y`` is 0."""
    try:
        return x / y
    except ZeroDivisionError:
        x = float(x)
        if x != x or x == 0.0:
            return math.nan
        negative = (x < 0) != (math.copysign(1.0, float(y)) < 0)
        return -math.inf if negative else math.inf


def scalar_log(x: float) -> float:
    """The C library's ``log`` (``math.log``) with NumPy's results where it raises."""
    if x > 0.0:
        return math.log(x)
    if x == 0.0:
        return -math.inf
    return math.nan  # negative, or NaN


def scalar_exp(x: float) -> float:
    """The C library's ``exp`` (``math.exp``), ``inf`` where it overflows."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _maximum(x: Any, y: Any) -> Any:
    if x != x:
        return x
    if y != y:
        return y
    return x if x >= y else y


def _minimum(x: Any, y: Any) -> Any:
    if x != x:
        return x
    if y != y:
        return y
    return x if x <= y else y


def _min(*xs: Any) -> Any:
    result = xs[0]
    for x in xs[1:]:
        result = _minimum(result, x)
    return result


def _max(*xs: Any) -> Any:
    result = xs[0]
    for x in xs[1:]:
        result = _maximum(result, x)
    return result


def _argmax(*xs: Any) -> int:
    """NumPy's ``argmax``: the first maximum, or the first NaN."""
    best = 0
    for k, x in enumerate(xs):
        if x != x:
            return k
        if x > xs[best]:
            best = k
    return best


def _first_true(*xs: bool) -> int:
    for k, x in enumerate(xs):
        if x:
            return k
    return len(xs)


#: ``2.0 ** k`` for every float64 exponent a formula takes
_POWERS_OF_TWO = tuple(2.0**k for k in range(1024))

_HELPERS: dict[str, Any] = {
    "_div": _div, "_log": scalar_log, "_exp": scalar_exp, "_maximum": _maximum,
    "_minimum": _minimum,
    "_min": _min, "_max": _max, "_argmax": _argmax, "_first_true": _first_true,
    "_P2": _POWERS_OF_TWO, "_nan": math.nan, "_inf": math.inf,
}


# ------------------------------------------------------------------------- the trace


class _Program:
    """The statements of one trace: ``v<k> = <expression>``, in order."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.count = itertools.count()

    def value(self, expression: str, operands: Sequence[Any]) -> Any:
        """The value of ``expression``: folded now where every operand is a constant, else
        a new variable assigned it."""
        if not any(isinstance(o, _Var) for o in operands):
            return eval(expression, dict(_HELPERS))
        name = _Var(f"v{next(self.count)}")
        self.lines.append(f"    {name} = {expression}")
        return name


class _Var(str):
    """The name of a variable of the generated code (a constant is a Python value)."""


def _text(item: Any) -> str:
    """An element as source text (a float constant exactly, by its repr)."""
    if isinstance(item, _Var):
        return str(item)
    if isinstance(item, float):
        if item != item:
            return "_nan"
        if item in (math.inf, -math.inf):
            return "_inf" if item > 0 else "(-_inf)"
        return repr(item)
    if isinstance(item, bool | int):
        return repr(item)
    raise TraceError(f"a constant of type {type(item).__name__} in a formula")


def _promote(*kinds: str) -> str:
    return "f" if "f" in kinds else "i" if "i" in kinds else "b"


def _converted(program: _Program, kind: str, to: str, item: Any) -> Any:
    """:func:`_as_kind` with the item last (for ``functools.partial``)."""
    return _as_kind(program, item, kind, to)


def _as_kind(program: _Program, item: Any, kind: str, to: str) -> Any:
    """An element of ``kind`` as NumPy casts it to ``to``."""
    if kind == to:
        return item
    if to == "f":
        if kind == "b":
            return program.value(f"(1.0 if {_text(item)} else 0.0)", [item])
        return program.value(f"float({_text(item)})", [item])
    if to == "i" and kind == "b":
        return program.value(f"(1 if {_text(item)} else 0)", [item])
    raise TraceError(f"a cast from {kind} to {to}")


class Sym:
    """A symbolic array of the trace: a shape, an element kind, and its elements (an object
    array of constants and variable names, so that indexing, broadcasting and reshaping are
    NumPy's own)."""

    __array_ufunc__ = None  # NumPy scalars leave the operators to this class

    def __init__(self, program: _Program, items: np.ndarray, kind: str) -> None:
        self.program = program
        self.items = items
        self.kind = kind

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.items.shape)

    @property
    def ndim(self) -> int:
        return int(self.items.ndim)

    @property
    def size(self) -> int:
        return int(self.items.size)

    @property
    def T(self) -> Sym:
        return Sym(self.program, self.items.T, self.kind)

    def reshape(self, *shape: Any) -> Sym:
        return Sym(self.program, self.items.reshape(*shape), self.kind)

    def __getitem__(self, index: Any) -> Sym:
        for part in index if isinstance(index, tuple) else (index,):
            if not (part is None or part is Ellipsis or isinstance(part, int | slice)):
                raise TraceError("indexing by an array in a formula")
        return Sym(self.program, np.asarray(self.items[index], dtype=object), self.kind)

    def __len__(self) -> int:
        return int(self.items.shape[0])

    def __bool__(self) -> bool:
        raise TraceError("a formula branches on a value")

    # operators
    def __add__(self, other: Any) -> Sym:
        return _arithmetic(self, other, "+")

    def __radd__(self, other: Any) -> Sym:
        return _arithmetic(other, self, "+")

    def __sub__(self, other: Any) -> Sym:
        return _arithmetic(self, other, "-")

    def __rsub__(self, other: Any) -> Sym:
        return _arithmetic(other, self, "-")

    def __mul__(self, other: Any) -> Sym:
        return _arithmetic(self, other, "*")

    def __rmul__(self, other: Any) -> Sym:
        return _arithmetic(other, self, "*")

    def __truediv__(self, other: Any) -> Sym:
        return _division(self, other)

    def __rtruediv__(self, other: Any) -> Sym:
        return _division(other, self)

    def __neg__(self) -> Sym:
        if self.kind == "b":
            raise TraceError("the negative of a bool array")
        return _map(self, lambda x: self.program.value(f"(-{_text(x)})", [x]), self.kind)

    def __lt__(self, other: Any) -> Sym:
        return _compare(self, other, "<")

    def __le__(self, other: Any) -> Sym:
        return _compare(self, other, "<=")

    def __gt__(self, other: Any) -> Sym:
        return _compare(self, other, ">")

    def __ge__(self, other: Any) -> Sym:
        return _compare(self, other, ">=")

    def __eq__(self, other: Any) -> Sym:  # type: ignore[override]
        return _compare(self, other, "==")

    def __ne__(self, other: Any) -> Sym:  # type: ignore[override]
        return _compare(self, other, "!=")

    def __and__(self, other: Any) -> Sym:
        return _logical(self, other, "and")

    def __rand__(self, other: Any) -> Sym:
        return _logical(other, self, "and")

    def __or__(self, other: Any) -> Sym:
        return _logical(self, other, "or")

    def __ror__(self, other: Any) -> Sym:
        return _logical(other, self, "or")

    def __invert__(self) -> Sym:
        if self.kind != "b":
            raise TraceError("~ of a non-bool array")
        return _map(self, lambda x: self.program.value(f"(not {_text(x)})", [x]), "b")

    __hash__ = None  # type: ignore[assignment]


def _constant(program: _Program, value: Any) -> Sym:
    """A Python or NumPy scalar, or a NumPy array, as a symbolic constant."""
    array = np.asarray(value)
    kind = {"b": "b", "i": "i", "u": "i", "f": "f"}.get(array.dtype.kind)
    if kind is None:
        raise TraceError(f"a constant of dtype {array.dtype} in a formula")
    python = {"b": bool, "i": int, "f": float}[kind]
    items = np.empty(array.shape, dtype=object)
    for index in np.ndindex(array.shape):
        items[index] = python(array[index])
    return Sym(program, items, kind)


def _operand(program: _Program, value: Any) -> Sym:
    if isinstance(value, Sym):
        return value
    return _constant(program, value)


def _broadcast(a: Sym, b: Sym) -> tuple[np.ndarray, np.ndarray]:
    shape = np.broadcast_shapes(a.shape, b.shape)
    return np.broadcast_to(a.items, shape), np.broadcast_to(b.items, shape)


def _zip(a: Sym, b: Sym, kind: str, element: Callable[[Any, Any], Any]) -> Sym:
    left, right = _broadcast(a, b)
    out = np.empty(left.shape, dtype=object)
    for index in np.ndindex(left.shape):
        out[index] = element(left[index], right[index])
    return Sym(a.program, out, kind)


def _map(a: Sym, element: Callable[[Any], Any], kind: str) -> Sym:
    out = np.empty(a.items.shape, dtype=object)
    for index in np.ndindex(a.items.shape):
        out[index] = element(a.items[index])
    return Sym(a.program, out, kind)


def _program_of(*values: Any) -> _Program:
    for value in values:
        if isinstance(value, Sym):
            return value.program
    raise TraceError("no symbolic array among the operands")


def _arithmetic(x: Any, y: Any, op: str) -> Sym:
    program = _program_of(x, y)
    a, b = _operand(program, x), _operand(program, y)
    if a.kind == "b" and b.kind == "b":
        raise TraceError(f"bool {op} bool")
    kind = _promote(a.kind, b.kind)

    def element(p: Any, q: Any) -> Any:
        return program.value(f"({_text(p)} {op} {_text(q)})", [p, q])

    return _zip(a, b, kind, element)


def _division(x: Any, y: Any) -> Sym:
    program = _program_of(x, y)
    a, b = _operand(program, x), _operand(program, y)

    def element(p: Any, q: Any) -> Any:
        p = _as_kind(program, p, a.kind, "f")
        q = _as_kind(program, q, b.kind, "f")
        if not isinstance(q, _Var) and q != 0.0:
            return program.value(f"({_text(p)} / {_text(q)})", [p, q])
        return program.value(f"_div({_text(p)}, {_text(q)})", [p, q])

    return _zip(a, b, "f", element)


def _compare(x: Any, y: Any, op: str) -> Sym:
    program = _program_of(x, y)
    a, b = _operand(program, x), _operand(program, y)

    def element(p: Any, q: Any) -> Any:
        return program.value(f"({_text(p)} {op} {_text(q)})", [p, q])

    return _zip(a, b, "b", element)


def _logical(x: Any, y: Any, op: str) -> Sym:
    program = _program_of(x, y)
    a, b = _operand(program, x), _operand(program, y)
    if a.kind != "b" or b.kind != "b":
        raise TraceError(f"{op} of non-bool arrays")

    def element(p: Any, q: Any) -> Any:
        for first, second in ((p, q), (q, p)):
            if not isinstance(first, _Var):  # a constant decides, or drops out
                if op == "and":
                    return second if first else False
                return True if first else second
        return program.value(f"({_text(p)} {op} {_text(q)})", [p, q])

    return _zip(a, b, "b", element)


def _pairwise(program: _Program, items: list[Any]) -> Any:
    """NumPy's float64 sum of ``items`` (its ``pairwise_sum``), as expressions."""
    def add(p: Any, q: Any) -> Any:
        return program.value(f"({_text(p)} + {_text(q)})", [p, q])

    n = len(items)
    if n < 8:
        total: Any = 0.0
        for item in items:
            total = add(total, item)
        return total
    if n <= 128:
        partial = list(items[:8])
        i = 8
        while i < n - n % 8:
            for j in range(8):
                partial[j] = add(partial[j], items[i + j])
            i += 8
        total = add(add(add(partial[0], partial[1]), add(partial[2], partial[3])),
                    add(add(partial[4], partial[5]), add(partial[6], partial[7])))
        for item in items[i:]:
            total = add(total, item)
        return total
    half = n // 2
    half -= half % 8
    return add(_pairwise(program, items[:half]), _pairwise(program, items[half:]))


def _reduce(a: Sym, axis: int | None, kind: str, combine: Callable[[list[Any]], Any]) -> Sym:
    items = a.items.reshape(-1) if axis is None else np.moveaxis(a.items, axis, -1)
    if axis is None:
        out = np.empty((), dtype=object)
        out[()] = combine(list(items))
        return Sym(a.program, out, kind)
    out = np.empty(items.shape[:-1], dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = combine(list(items[index]))
    return Sym(a.program, out, kind)


class TraceBackend:
    """The backend of a trace: the primitives the formulas use, on :class:`Sym` arrays."""

    name = "trace"
    int64, float64, bool_ = "i", "f", "b"

    def __init__(self, program: _Program) -> None:
        self.program = program

    def compiled(self, fn: Callable[..., Any], static_argnums: tuple[int, ...]) -> Callable[
            ..., Any]:
        return fn

    # constants
    def _kind_of(self, dtype: Any) -> str:
        if dtype not in KINDS:
            raise TraceError(f"dtype {dtype!r} in a formula")
        return str(dtype)

    def full(self, shape: tuple[int, ...], value: Any, dtype: Any, like: Any = None) -> Sym:
        kind = self._kind_of(dtype)
        python = {"b": bool, "i": int, "f": float}[kind]
        items = np.empty(shape, dtype=object)
        items.fill(python(value))
        return Sym(self.program, items, kind)

    def zeros(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Sym:
        return self.full(shape, 0, dtype)

    def arange(self, n: int, like: Any = None) -> Sym:
        return _constant(self.program, np.arange(n, dtype=np.int64))

    def asarray(self, obj: Any, like: Any = None, dtype: Any = None) -> Sym:
        if isinstance(obj, Sym):
            return obj
        return _constant(self.program, np.asarray(obj))

    # casts
    def to_float64(self, a: Sym) -> Sym:
        return _map(a, lambda x: _as_kind(self.program, x, a.kind, "f"), "f")

    def to_int64(self, a: Sym) -> Sym:
        if a.kind == "f":
            raise TraceError("a float array cast to int64")
        return _map(a, lambda x: _as_kind(self.program, x, a.kind, "i"), "i")

    # element-wise
    def where(self, cond: Any, a: Any, b: Any) -> Sym:
        program = self.program
        c, x, y = (_operand(program, v) for v in (cond, a, b))
        if c.kind != "b":
            raise TraceError("where() on a non-bool condition")
        kind = _promote(x.kind, y.kind)
        shape = np.broadcast_shapes(c.shape, x.shape, y.shape)
        cs, xs, ys = (np.broadcast_to(s.items, shape) for s in (c, x, y))
        out = np.empty(shape, dtype=object)
        for index in np.ndindex(shape):
            p = _as_kind(program, xs[index], x.kind, kind)
            q = _as_kind(program, ys[index], y.kind, kind)
            test = cs[index]
            if not isinstance(test, _Var):
                out[index] = p if test else q
            else:
                out[index] = program.value(f"({_text(p)} if {test} else {_text(q)})", [p, q, test])
        return Sym(program, out, kind)

    def _extremum(self, a: Any, b: Any, helper: str, op: str) -> Sym:
        program = self.program
        x, y = _operand(program, a), _operand(program, b)
        kind = _promote(x.kind, y.kind)

        def element(p: Any, q: Any) -> Any:
            p, q = _as_kind(program, p, x.kind, kind), _as_kind(program, q, y.kind, kind)
            if kind == "f":
                return program.value(f"{helper}({_text(p)}, {_text(q)})", [p, q])
            return program.value(f"({_text(p)} if {_text(p)} {op} {_text(q)} else {_text(q)})",
                                 [p, q])

        return _zip(x, y, kind, element)

    def maximum(self, a: Any, b: Any) -> Sym:
        return self._extremum(a, b, "_maximum", ">=")

    def minimum(self, a: Any, b: Any) -> Sym:
        return self._extremum(a, b, "_minimum", "<=")

    def abs_(self, a: Sym) -> Sym:
        if a.kind == "b":
            raise TraceError("abs of a bool array")
        return _map(a, lambda x: self.program.value(f"abs({_text(x)})", [x]), a.kind)

    def log(self, a: Sym) -> Sym:
        return self._float_function(a, "_log")

    def exp(self, a: Sym) -> Sym:
        return self._float_function(a, "_exp")

    def _float_function(self, a: Sym, helper: str) -> Sym:
        program = self.program

        def element(x: Any) -> Any:
            x = _as_kind(program, x, a.kind, "f")
            return program.value(f"{helper}({_text(x)})", [x])

        return _map(a, element, "f")

    def power_of_two(self, exponent: Sym, largest: int) -> Sym:
        if exponent.kind != "i" or largest >= len(_POWERS_OF_TWO):
            raise TraceError("power_of_two of a non-integer or too large exponent")
        return _map(exponent, lambda x: self.program.value(f"_P2[{_text(x)}]", [x]), "f")

    # along an axis
    def sum_(self, a: Sym, axis: int | None = None) -> Sym:
        program = self.program
        if a.kind == "f":
            return _reduce(a, axis, "f", lambda items: _pairwise(program, items))
        kind = "i"

        def exact(items: list[Any]) -> Any:
            items = [_as_kind(program, x, a.kind, "i") for x in items]
            total: Any = 0
            for item in items:
                total = program.value(f"({_text(total)} + {_text(item)})", [total, item])
            return total

        return _reduce(a, axis, kind, exact)

    def _combine(self, a: Sym, axis: int | None, helper: str, builtin: str) -> Sym:
        program = self.program

        def combine(items: list[Any]) -> Any:
            function = helper if a.kind == "f" else builtin
            if len(items) == 1:
                return items[0]
            return program.value(f"{function}({', '.join(map(_text, items))})", items)

        return _reduce(a, axis, a.kind, combine)

    def python_sum(self, a: Sym, axis: int = -1) -> Sym:
        """Python's own ``sum`` of the values (its order, and from 3.12 its compensation)."""
        program = self.program
        if a.kind != "f":
            return self.sum_(a, axis)

        def combine(items: list[Any]) -> Any:
            return program.value(f"sum(({', '.join(map(_text, items))},))", items)

        return _reduce(a, axis, "f", combine)

    def min_(self, a: Sym, axis: int | None = None) -> Sym:
        return self._combine(a, axis, "_min", "min")

    def max_(self, a: Sym, axis: int | None = None) -> Sym:
        return self._combine(a, axis, "_max", "max")

    def any_(self, a: Sym, axis: int | None = None) -> Sym:
        program = self.program
        if a.kind != "b":
            raise TraceError("any() of a non-bool array")

        def combine(items: list[Any]) -> Any:
            if any(item is True for item in items):
                return True
            variables = [item for item in items if isinstance(item, _Var)]
            if not variables:
                return False
            return program.value(f"({' or '.join(variables)})", variables)

        return _reduce(a, axis, "b", combine)

    def cumsum(self, a: Sym, axis: int) -> Sym:
        if a.kind == "f":
            raise TraceError("cumsum of a float array")
        program = self.program
        items = np.moveaxis(a.items, axis, -1)
        out = np.empty(items.shape, dtype=object)
        for index in np.ndindex(items.shape[:-1]):
            total: Any = 0
            for k, item in enumerate(items[index]):
                item = _as_kind(program, item, a.kind, "i")
                total = program.value(f"({_text(total)} + {_text(item)})", [total, item])
                key = (*index, k)
                out[key] = total
        return Sym(program, np.moveaxis(out, -1, axis), "i")

    def argmax(self, a: Sym, axis: int) -> Sym:
        program = self.program

        def combine(items: list[Any]) -> Any:
            return program.value(f"_argmax({', '.join(map(_text, items))})", items)

        return _reduce(a, axis, "i", combine)

    def first_true(self, mask: Sym, axis: int) -> Sym:
        program = self.program

        def combine(items: list[Any]) -> Any:
            return program.value(f"_first_true({', '.join(map(_text, items))})", items)

        return _reduce(mask, axis, "i", combine)

    def take_along(self, a: Sym, index: Sym, axis: int) -> Sym:
        if a.ndim != 2 or index.ndim != 2 or axis not in (1, -1) or index.kind != "i":
            raise TraceError("take_along beyond (B, K) rows")
        program = self.program
        out = np.empty(index.shape, dtype=object)
        for row, column in np.ndindex(index.shape):
            choices = list(a.items[row])
            position = index.items[row, column]
            if not isinstance(position, _Var):
                out[row, column] = choices[position]
                continue
            options = ", ".join(map(_text, choices))
            out[row, column] = program.value(f"({options},)[{position}]", [*choices, position])
        return Sym(program, out, a.kind)

    def concat(self, arrays: list[Any], axis: int) -> Sym:
        program = self.program
        parts = [_operand(program, a) for a in arrays]
        kind = _promote(*(p.kind for p in parts))
        converted = [_map(p, functools.partial(_converted, program, p.kind, kind), kind)
                     for p in parts]
        return Sym(program, np.concatenate([p.items for p in converted], axis=axis), kind)

    # what a trace cannot do: a value read on the host decides
    def reads_are_free(self, a: Any) -> bool:
        raise TraceError("a formula reads a value on the host")

    def to_bool(self, a: Any) -> bool:
        raise TraceError("a formula reads a value on the host")

    def to_int(self, a: Any) -> int:
        raise TraceError("a formula reads a value on the host")

    def to_numpy(self, a: Any) -> Any:
        raise TraceError("a formula reads a value on the host")

    def __getattr__(self, name: str) -> Any:
        raise TraceError(f"the backend operation {name!r} is not traced")


#: one row's input: its shape (without the batch axis) and its kind
RowShape = tuple[tuple[int, ...], str]


def row_function(fn: Callable[..., Any], static: tuple[Any, ...],
                 inputs: Sequence[RowShape]) -> Callable[..., Any]:
    """``fn(be, *arrays, *static)`` (element-wise over a leading batch axis) traced on one
    row and compiled: a function of the row's numbers (each input's elements in row-major
    order, one argument each) that returns its result (one number per element, a number
    for one element).

    Raises:
        TraceError: ``fn`` does what the trace cannot follow.
    """
    program = _Program()
    be = TraceBackend(program)
    arguments: list[str] = []
    arrays = []
    for shape, kind in inputs:
        if kind not in KINDS:
            raise TraceError(f"an input of kind {kind!r}")
        items = np.empty((1, *shape), dtype=object)
        for index in np.ndindex(items.shape):
            name = _Var(f"a{len(arguments)}")
            arguments.append(name)
            items[index] = name
        arrays.append(Sym(program, items, kind))
    try:
        result = fn(be, *arrays, *static)
    except (TypeError, ValueError, IndexError, AttributeError) as error:
        raise TraceError(f"the trace failed: {error}") from error
    if not isinstance(result, Sym) or result.shape[:1] != (1,):
        raise TraceError("the traced function returns no array of rows")
    row = np.empty(result.shape[1:], dtype=object)
    row[...] = result.items[0]
    out = [_text(item) for item in row.reshape(-1)]
    returned = out[0] if len(out) == 1 and result.ndim == 1 else f"({', '.join(out)},)"
    source = "\n".join([f"def row({', '.join(arguments)}):", *program.lines,
                        f"    return {returned}"])
    namespace = dict(_HELPERS)
    exec(compile(source, "<bleusuite traced formula>", "exec"), namespace)
    function: Callable[..., Any] = namespace["row"]
    function.__doc__ = source
    return function
