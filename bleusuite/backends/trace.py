"""The formulas as straight-line Python over one row: a backend that traces.

Every formula of bleusuite (the smoothing families, the brevity penalty, GLEU, chrF, the
reference-length rules) is written once, against a :class:`~bleusuite.backends.base.Backend`,
element-wise over the leading axes of its statistics. On NumPy a one-sentence call still
pays for a few dozen array operations of a microsecond each, most of its time. This backend
runs such a function once on one row whose arrays are NumPy object arrays of expressions:
each operation on an element writes one statement of scalar Python (constants folded), and
NumPy itself broadcasts, indexes and reshapes. :func:`row_function` compiles the statements
into a function of the row's numbers, so that a small batch is scored row by row at
Python's speed by code generated from the one definition (:mod:`bleusuite.scores.rows`).

The generated code does what NumPy does, to the bit:

* ``+ - * /`` and comparisons are IEEE operations on the kinds NumPy's promotion gives
  (bool, int64, float64; a Python scalar is weak); a division by zero gives ``inf``/``nan``;
* float sums along an axis take NumPy's order (pairwise, in blocks of eight);
* ``log`` and ``exp`` are the C library's, as the NumPy backend's are;
* ``maximum``, ``minimum``, ``min``, ``max``, ``argmax`` propagate NaN as NumPy does.

What the trace cannot follow (a value read on the host, a branch on a value, indexing by an
array, an operation not traced) raises :class:`TraceError`: the caller keeps the array face.
``tests/backends/test_trace.py`` holds the traced formulas bit for bit against the array face.

>>> def formula(be, x, y):
...     return be.where(y > 0, be.log(x) / y, 0.0)
>>> f = row_function(formula, (), [((), "f"), ((), "i")])
>>> f(2.0, 4) == float(np.log(2.0)) / 4, f(2.0, 0)
(True, 0.0)
>>> print(f.__doc__)
def row(a0, a1):
    v0 = (a1 > 0)
    v1 = _log(a0)
    v2 = float(a1)
    v3 = _div(v1, v2)
    v4 = (v3 if v0 else 0.0)
    return v4
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["TraceError", "row_function", "scalar_exp", "scalar_log"]


class TraceError(Exception):
    """The traced function does what the trace cannot follow; keep the array face."""


# ------------------------------------------------- what the generated code calls


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


_HELPERS: dict[str, Any] = {
    "_div": _div, "_log": scalar_log, "_exp": scalar_exp, "_maximum": _maximum,
    "_minimum": _minimum, "_argmax": _argmax, "_first_true": _first_true,
    "_min": lambda *xs: functools.reduce(_minimum, xs),
    "_max": lambda *xs: functools.reduce(_maximum, xs),
    "_P2": tuple(2.0**k for k in range(1024)),  # every float64 power of two a formula takes
    "_nan": math.nan, "_inf": math.inf,
}


# ------------------------------------------------------------------ the elements


class _Program:
    """The statements of one trace: ``v<k> = <expression>``, in order."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def assign(self, expression: str, kind: str) -> _Expr:
        name = f"v{len(self.lines)}"
        self.lines.append(f"    {name} = {expression}")
        return _Expr(name, kind, self)


class _Expr:
    """An element of a symbolic array: a variable of ``program``'s code, or a constant
    (``program`` None, ``value`` a Python bool, int or float); ``kind`` is ``"b"``, ``"i"``
    or ``"f"``, as NumPy's dtype would be (bool, int64, float64). Its operators (``+ - * /``,
    comparisons, ``& | ~``, unary ``-``) write the operation as one new statement."""

    __slots__ = ("kind", "program", "text", "value")

    def __init__(self, text: str, kind: str, program: _Program | None = None,
                 value: Any = None) -> None:
        self.text, self.kind, self.program, self.value = text, kind, program, value

    def __bool__(self) -> bool:
        raise TraceError("a formula branches on a value")

    def __neg__(self) -> _Expr:
        if self.kind == "b":
            raise TraceError("the negative of a bool array")
        return _apply(self.kind, f"(-{self.text})", [self])

    def __invert__(self) -> _Expr:
        if self.kind != "b":
            raise TraceError("~ of a non-bool array")
        return _apply("b", f"(not {self.text})", [self])


def _operand(value: Any) -> _Expr:
    """An element, or a Python or NumPy scalar as a constant (its source text exact)."""
    if isinstance(value, _Expr):
        return value
    if isinstance(value, np.generic):
        value = value.item()
    kind = {bool: "b", int: "i", float: "f"}.get(type(value))
    if kind is None:
        raise TraceError(f"a constant of type {type(value).__name__} in a formula")
    text = repr(value)
    if value != value:
        text = "_nan"
    elif value in (math.inf, -math.inf):
        text = "_inf" if value > 0 else "(-_inf)"
    return _Expr(text, kind, value=value)


def _apply(kind: str, expression: str, operands: Sequence[_Expr]) -> _Expr:
    """``expression`` of ``operands``: a new variable, or a constant where they all are."""
    for operand in operands:
        if operand.program is not None:
            return operand.program.assign(expression, kind)
    return _operand(eval(expression, dict(_HELPERS)))


def _call(kind: str, helper: str, items: Sequence[_Expr]) -> _Expr:
    return _apply(kind, f"{helper}({', '.join(item.text for item in items)})", items)


def _promote(*kinds: str) -> str:
    return "f" if "f" in kinds else "i" if "i" in kinds else "b"


def _cast(item: _Expr, kind: str) -> _Expr:
    """``item`` as NumPy casts it to ``kind``."""
    if item.kind == kind:
        return item
    if kind == "f":
        cast = "(1.0 if {} else 0.0)" if item.kind == "b" else "float({})"
    elif kind == "i" and item.kind == "b":
        cast = "(1 if {} else 0)"
    else:
        raise TraceError(f"a cast from {item.kind} to {kind}")
    return _apply(kind, cast.format(item.text), [item])


def _binary(symbol: str, x: Any, y: Any) -> _Expr:
    a, b = _operand(x), _operand(y)
    if symbol == "/":  # on float64 (Python's int / int would round otherwise)
        a, b = _cast(a, "f"), _cast(b, "f")
        if b.program is None and b.value != 0.0:
            return _apply("f", f"({a.text} / {b.text})", [a, b])
        return _call("f", "_div", [a, b])
    if symbol in ("and", "or"):
        if a.kind != "b" or b.kind != "b":
            raise TraceError(f"{symbol} of non-bool arrays")
        for first, second in ((a, b), (b, a)):
            if first.program is None:  # a constant decides, or drops out
                decides = first.value if symbol == "or" else not first.value
                return first if decides else second
        kind = "b"
    elif symbol in ("+", "-", "*"):
        if a.kind == b.kind == "b":
            raise TraceError(f"bool {symbol} bool")
        kind = _promote(a.kind, b.kind)
    else:  # a comparison
        kind = "b"
    return _apply(kind, f"({a.text} {symbol} {b.text})", [a, b])


def _operator(symbol: str, swapped: bool) -> Callable[[_Expr, Any], _Expr]:
    def method(self: _Expr, other: Any) -> _Expr:
        return _binary(symbol, other, self) if swapped else _binary(symbol, self, other)

    return method


_ARITHMETIC = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "and": "and", "or": "or"}
_COMPARISONS = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}
for _name, _symbol in {**_ARITHMETIC, **_COMPARISONS}.items():
    setattr(_Expr, f"__{_name}__", _operator(_symbol, swapped=False))
for _name, _symbol in _ARITHMETIC.items():
    setattr(_Expr, f"__r{_name}__", _operator(_symbol, swapped=True))

_COMPARISON_UFUNCS = (np.less, np.less_equal, np.greater, np.greater_equal, np.equal,
                      np.not_equal)


class _Symbols(np.ndarray):
    """A symbolic array: an object array of :class:`_Expr`, whose comparisons give
    expressions too (NumPy's comparisons of objects give bools)."""

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if ufunc in _COMPARISON_UFUNCS:
            kwargs["dtype"] = object
        plain = [x.view(np.ndarray) if isinstance(x, _Symbols) else x for x in inputs]
        return _symbols(getattr(ufunc, method)(*plain, **kwargs))


def _symbols(items: Any) -> _Symbols:
    return np.asarray(items, dtype=object).view(_Symbols)


def _each(function: Callable[..., _Expr], *arrays: Any) -> _Symbols:
    """``function`` of the elements of ``arrays`` broadcast together."""
    def element(*items: Any) -> _Expr:
        return function(*map(_operand, items))

    return _symbols(np.frompyfunc(element, len(arrays), 1)(*arrays))


def _along(a: Any, axis: int | None, combine: Callable[[list[_Expr]], _Expr]) -> _Symbols:
    """``combine`` of the elements along ``axis`` (of all where None), at each position of
    the other axes."""
    lines = np.reshape(a, -1) if axis is None else np.moveaxis(a, axis, -1)
    if lines.shape[-1] == 0:
        raise TraceError("a reduction of no elements")
    out = np.empty(lines.shape[:-1], dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = combine([_operand(item) for item in lines[index]])
    return out.view(_Symbols)


def _pairwise(items: list[_Expr]) -> _Expr:
    """NumPy's float64 sum of ``items`` (its ``pairwise_sum``)."""
    def add(p: _Expr, q: _Expr) -> _Expr:
        return _binary("+", p, q)

    n = len(items)
    if n < 8:
        return functools.reduce(add, items, _operand(0.0))
    if n <= 128:
        partial = items[:8]
        i = 8
        while i < n - n % 8:
            partial = [add(partial[j], items[i + j]) for j in range(8)]
            i += 8
        total = add(add(add(partial[0], partial[1]), add(partial[2], partial[3])),
                    add(add(partial[4], partial[5]), add(partial[6], partial[7])))
        return functools.reduce(add, items[i:], total)
    half = n // 2 - (n // 2) % 8
    return add(_pairwise(items[:half]), _pairwise(items[half:]))


def _exact_sum(items: list[_Expr]) -> _Expr:
    """An integer (or bool) sum, exact in any order; a float sum in NumPy's order."""
    if items[0].kind == "f":
        return _pairwise(items)
    items = [_cast(item, "i") for item in items]
    return functools.reduce(functools.partial(_binary, "+"), items, _operand(0))


def _extremum(helper: str, keep_first: str, p: _Expr, q: _Expr) -> _Expr:
    kind = _promote(p.kind, q.kind)
    p, q = _cast(p, kind), _cast(q, kind)
    if kind == "f":
        return _call(kind, helper, [p, q])
    return _apply(kind, f"({p.text} if {p.text} {keep_first} {q.text} else {q.text})", [p, q])


def _where(test: _Expr, p: _Expr, q: _Expr) -> _Expr:
    if test.kind != "b":
        raise TraceError("where() on a non-bool condition")
    kind = _promote(p.kind, q.kind)
    p, q = _cast(p, kind), _cast(q, kind)
    if test.program is None:
        return p if test.value else q
    return _apply(kind, f"({p.text} if {test.text} else {q.text})", [p, q, test])


def _any(items: list[_Expr]) -> _Expr:
    if any(item.kind != "b" for item in items):
        raise TraceError("any() of a non-bool array")
    if any(item.program is None and item.value for item in items):
        return _operand(True)
    variables = [item for item in items if item.program is not None]
    if not variables:
        return _operand(False)
    return _apply("b", f"({' or '.join(item.text for item in variables)})", variables)


def _abs(item: _Expr) -> _Expr:
    if item.kind == "b":
        raise TraceError("abs of a bool array")
    return _call(item.kind, "abs", [item])


def _power_of_two(exponent: _Expr) -> _Expr:
    if exponent.kind != "i":
        raise TraceError("power_of_two of a non-integer exponent")
    return _apply("f", f"_P2[{exponent.text}]", [exponent])


def _python_sum(items: list[_Expr]) -> _Expr:
    if items[0].kind != "f":
        return _exact_sum(items)
    return _apply("f", f"sum(({', '.join(item.text for item in items)},))", items)


def _combine(helper: str, builtin: str) -> Callable[[list[_Expr]], _Expr]:
    def combine(items: list[_Expr]) -> _Expr:
        if len(items) == 1:
            return items[0]
        return _call(items[0].kind, helper if items[0].kind == "f" else builtin, items)

    return combine


# ------------------------------------------------------------------- the backend


class TraceBackend:
    """The backend of a trace: the primitives the formulas use, on symbolic arrays."""

    name = "trace"
    int64, float64, bool_ = "i", "f", "b"

    def compiled(self, fn: Callable[..., Any], static_argnums: tuple[int, ...]) -> Callable[
            ..., Any]:
        return fn

    def full(self, shape: tuple[int, ...], value: Any, dtype: Any, like: Any = None) -> Any:
        python = {"b": bool, "i": int, "f": float}.get(dtype)
        if python is None:
            raise TraceError(f"dtype {dtype!r} in a formula")
        return _symbols(np.full(shape, _operand(python(value)), dtype=object))

    def zeros(self, shape: tuple[int, ...], dtype: Any, like: Any = None) -> Any:
        return self.full(shape, 0, dtype)

    def arange(self, n: int, like: Any = None) -> Any:
        return self.asarray(np.arange(n, dtype=np.int64))

    def asarray(self, obj: Any, like: Any = None, dtype: Any = None) -> Any:
        return obj if isinstance(obj, _Symbols) else _each(lambda x: x, np.asarray(obj))

    def to_float64(self, a: Any) -> Any:
        return _each(lambda x: _cast(x, "f"), a)

    def to_int64(self, a: Any) -> Any:
        return _each(lambda x: _cast(x, "i"), a)

    def where(self, cond: Any, a: Any, b: Any) -> Any:
        return _each(_where, cond, a, b)

    def maximum(self, a: Any, b: Any) -> Any:
        return _each(functools.partial(_extremum, "_maximum", ">="), a, b)

    def minimum(self, a: Any, b: Any) -> Any:
        return _each(functools.partial(_extremum, "_minimum", "<="), a, b)

    def abs_(self, a: Any) -> Any:
        return _each(_abs, a)

    def log(self, a: Any) -> Any:
        return _each(lambda x: _call("f", "_log", [_cast(x, "f")]), a)

    def exp(self, a: Any) -> Any:
        return _each(lambda x: _call("f", "_exp", [_cast(x, "f")]), a)

    def power_of_two(self, exponent: Any, largest: int) -> Any:
        if largest >= len(_HELPERS["_P2"]):
            raise TraceError("power_of_two of too large an exponent")
        return _each(_power_of_two, exponent)

    def sum_(self, a: Any, axis: int | None = None) -> Any:
        return _along(a, axis, _exact_sum)

    def python_sum(self, a: Any, axis: int = -1) -> Any:
        """Python's own ``sum`` of the values (its order, and from 3.12 its compensation)."""
        return _along(a, axis, _python_sum)

    def min_(self, a: Any, axis: int | None = None) -> Any:
        return _along(a, axis, _combine("_min", "min"))

    def max_(self, a: Any, axis: int | None = None) -> Any:
        return _along(a, axis, _combine("_max", "max"))

    def any_(self, a: Any, axis: int | None = None) -> Any:
        return _along(a, axis, _any)

    def argmax(self, a: Any, axis: int) -> Any:
        return _along(a, axis, functools.partial(_call, "i", "_argmax"))

    def first_true(self, mask: Any, axis: int) -> Any:
        return _along(mask, axis, functools.partial(_call, "i", "_first_true"))

    def cumsum(self, a: Any, axis: int) -> Any:
        lines = np.moveaxis(a, axis, -1)
        out = np.empty(lines.shape, dtype=object)
        for index in np.ndindex(lines.shape[:-1]):
            total = _operand(0)
            for k, item in enumerate(lines[index]):
                if item.kind == "f":
                    raise TraceError("cumsum of a float array")
                total = _binary("+", total, _cast(item, "i"))
                key = (*index, k)
                out[key] = total
        return np.moveaxis(out, -1, axis).view(_Symbols)

    def take_along(self, a: Any, index: Any, axis: int) -> Any:
        a, index = self.asarray(a), self.asarray(index)
        if a.ndim != 2 or index.ndim != 2 or axis not in (1, -1):
            raise TraceError("take_along beyond (B, K) rows")
        out = np.empty(index.shape, dtype=object)
        for row, column in np.ndindex(index.shape):
            choices, position = list(a[row]), index[row, column]
            if position.kind != "i":
                raise TraceError("take_along by a non-integer index")
            if position.program is None:
                out[row, column] = choices[position.value]
                continue
            options = ", ".join(choice.text for choice in choices)
            out[row, column] = _apply(choices[0].kind, f"({options},)[{position.text}]",
                                      [*choices, position])
        return out.view(_Symbols)

    def concat(self, arrays: list[Any], axis: int) -> Any:
        parts = [self.asarray(a) for a in arrays]
        kind = _promote(*(item.kind for part in parts for item in part.flat))
        cast = [_each(lambda x: _cast(x, kind), part) for part in parts]
        return _symbols(np.concatenate(cast, axis=axis))

    # what a trace cannot do: a value read on the host decides
    def _host_read(self, a: Any) -> Any:
        raise TraceError("a formula reads a value on the host")

    reads_are_free = to_bool = to_int = to_numpy = _host_read

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
    arguments: list[str] = []
    arrays = []
    for shape, kind in inputs:
        if kind not in ("b", "i", "f"):
            raise TraceError(f"an input of kind {kind!r}")
        items = np.empty((1, *shape), dtype=object)
        for index in np.ndindex(items.shape):
            items[index] = _Expr(f"a{len(arguments)}", kind, program)
            arguments.append(items[index].text)
        arrays.append(items.view(_Symbols))
    try:
        result = fn(TraceBackend(), *arrays, *static)
    except (TypeError, ValueError, IndexError, AttributeError) as error:
        raise TraceError(f"the trace failed: {error}") from error
    if not isinstance(result, _Symbols) or result.shape[:1] != (1,):
        raise TraceError("the traced function returns no array of rows")
    out = [_operand(item).text for item in result.reshape(-1)]
    returned = out[0] if len(out) == 1 and result.ndim == 1 else f"({', '.join(out)},)"
    source = "\n".join([f"def row({', '.join(arguments)}):", *program.lines,
                        f"    return {returned}"])
    namespace = dict(_HELPERS)
    exec(compile(source, "<bleusuite traced formula>", "exec"), namespace)
    function: Callable[..., Any] = namespace["row"]
    function.__doc__ = source
    return function
