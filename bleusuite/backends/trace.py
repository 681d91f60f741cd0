"""The formulas as straight-line Python over one row: a backend that traces.

A formula written against a :class:`~bleusuite.backends.base.Backend` costs a few dozen
NumPy operations of a microsecond each, most of a one-sentence call. Here it runs once on
a row of symbolic elements, each operation writing a statement of scalar Python, compiled
into a function of the row's numbers (:func:`row_function`) run on each row of a small
batch (:func:`by_rows`), to NumPy's bit: its promotion, ``inf``/``nan`` of a division by
zero, its pairwise float sums, the C library's ``log`` and ``exp``, NaN through ``maximum``,
``min`` and ``argmax``. What it cannot follow (a host read, a branch on a value, an
operation not traced) raises :class:`TraceError`.

>>> f = row_function(lambda be, x, y: be.where(y > 0, be.log(x) / y, 0.0), (),
...                  [((), "f"), ((), "i")])
>>> print(f.__doc__)
def row(a0, a1):
    v0 = (a1 > 0)
    v1 = _log(a0)
    v2 = float(a1)
    v3 = _div(v1, v2)
    v4 = (v3 if v0 else 0.0)
    return v4
>>> f(2.0, 0)
0.0
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["ROW_LIMIT", "TraceError", "by_rows", "row_function", "scalar_exp", "scalar_log"]


class TraceError(Exception):
    """The traced function does what the trace cannot follow; keep the array face."""


def _div(x: Any, y: Any) -> float:
    """NumPy's float64 ``x / y``: IEEE ``inf``/``nan`` where ``y`` is 0."""
    try:
        return x / y
    except ZeroDivisionError:  # by 0.0 or -0.0
        if x != x or x == 0.0:
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)


def scalar_log(x: float) -> float:
    """The C library's ``log`` (``math.log``) with NumPy's results where it raises."""
    if x > 0.0:
        return math.log(x)
    return -math.inf if x == 0.0 else math.nan  # negative, or NaN


def scalar_exp(x: float) -> float:
    """The C library's ``exp`` (``math.exp``), ``inf`` where it overflows."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


#: what the generated code calls (NaN wins ``_maximum``, ``_minimum``, ``_argmax``, as in NumPy)
_HELPERS: dict[str, Any] = {
    "_div": _div, "_log": scalar_log, "_exp": scalar_exp, "nan": math.nan, "inf": math.inf,
    "_maximum": lambda x, y: x if x != x or x >= y else y,
    "_minimum": lambda x, y: x if x != x or x <= y else y,
    "_argmax": lambda *xs: (  # the first NaN, else the first maximum
        [x != x for x in xs].index(True) if any(map(math.isnan, xs)) else xs.index(max(xs))),
    "_first_true": lambda *mask: mask.index(True) if True in mask else len(mask),
    "_P2": tuple(2.0**k for k in range(1024)),  # every float64 power of two a formula takes
}


class _Expr:
    """An element of a symbolic array: a variable of the generated code (``lines``, its
    statements) or a constant (``lines`` None, ``value`` a Python bool, int or float), of
    ``kind`` ``"b"``, ``"i"`` or ``"f"`` as NumPy's dtype (bool, int64, float64). Its
    operators (``+ - * /``, comparisons, ``& | ~``, unary ``-``) write a new statement."""

    __slots__ = ("kind", "lines", "text", "value")

    def __init__(self, text: str, kind: str, lines: list[str] | None, value: Any = None) -> None:
        self.text, self.kind, self.lines, self.value = text, kind, lines, value

    def __bool__(self) -> bool:
        raise TraceError("a formula branches on a value")

    def __neg__(self) -> _Expr:  # of a number (NumPy refuses bools)
        return _unary(self.kind, "(-{})", self)

    def __invert__(self) -> _Expr:
        if self.kind != "b":
            raise TraceError("~ of a non-bool array")
        return _unary("b", "(not {})", self)


def _operand(value: Any) -> _Expr:
    """An element, or a Python or NumPy scalar as a constant (its source text exact)."""
    if isinstance(value, _Expr):
        return value
    if isinstance(value, np.generic):
        value = value.item()
    kind = {bool: "b", int: "i", float: "f"}.get(type(value))
    if kind is None:
        raise TraceError(f"a constant of type {type(value).__name__} in a formula")
    return _Expr(repr(value), kind, None, value)  # nan, inf: names of the generated code


def _apply(kind: str, expression: str, operands: Sequence[_Expr]) -> _Expr:
    """``expression`` of ``operands``: a new variable, or a constant where they all are."""
    for operand in operands:
        if operand.lines is not None:
            name = f"v{len(operand.lines)}"
            operand.lines.append(f"    {name} = {expression}")
            return _Expr(name, kind, operand.lines)
    return _operand(eval(expression, dict(_HELPERS)))


def _unary(kind: str, template: str, item: _Expr) -> _Expr:
    return _apply(kind, template.format(item.text), [item])


def _call(kind: str, helper: str, items: Sequence[_Expr]) -> _Expr:
    return _apply(kind, f"{helper}({', '.join(item.text for item in items)})", items)


def _promote(*kinds: str) -> str:
    return "f" if "f" in kinds else "i" if "i" in kinds else "b"


#: NumPy's casts between the kinds (from, to), as Python
_CASTS = {("b", "i"): "(1 if {} else 0)", ("b", "f"): "(1.0 if {} else 0.0)",
          ("i", "f"): "float({})"}


def _cast(item: _Expr, kind: str) -> _Expr:
    """``item`` as NumPy casts it to ``kind`` (float to int, a KeyError here, is not traced)."""
    return item if item.kind == kind else _unary(kind, _CASTS[item.kind, kind], item)


def _binary(symbol: str, x: Any, y: Any) -> _Expr:
    a, b = _operand(x), _operand(y)
    if symbol == "/":  # of float64s (Python's int / int rounds otherwise)
        a, b = _cast(a, "f"), _cast(b, "f")
        if b.lines is None and b.value != 0.0:
            return _apply("f", f"({a.text} / {b.text})", [a, b])
        return _call("f", "_div", [a, b])
    kind = "b"  # of a comparison, ``and`` or ``or``
    if symbol in ("and", "or") and (a.kind != "b" or b.kind != "b"):
        raise TraceError(f"{symbol} of non-bool arrays")
    if symbol in ("+", "-", "*"):
        if a.kind == b.kind == "b":
            raise TraceError(f"bool {symbol} bool")
        kind = _promote(a.kind, b.kind)
    return _apply(kind, f"({a.text} {symbol} {b.text})", [a, b])


def _operator(symbol: str, swapped: bool) -> Callable[[_Expr, Any], _Expr]:
    def method(self: _Expr, other: Any) -> _Expr:
        return _binary(symbol, other, self) if swapped else _binary(symbol, self, other)

    return method


_OPERATORS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "and": "and", "or": "or"}
_COMPARISONS = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}
for _name, _symbol in {**_OPERATORS, **_COMPARISONS}.items():
    setattr(_Expr, f"__{_name}__", _operator(_symbol, swapped=False))
for _name, _symbol in _OPERATORS.items():  # and their reflections (comparisons swap)
    setattr(_Expr, f"__r{_name}__", _operator(_symbol, swapped=True))
_add = functools.partial(_binary, "+")


class _Symbols(np.ndarray):
    """An object array of :class:`_Expr` whose comparisons are expressions (not bools)."""

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if ufunc in (np.less, np.less_equal, np.greater, np.greater_equal, np.equal,
                     np.not_equal):
            kwargs["dtype"] = object
        plain = [x.view(np.ndarray) if isinstance(x, _Symbols) else x for x in inputs]
        return np.asarray(getattr(ufunc, method)(*plain, **kwargs), dtype=object).view(_Symbols)


def _each(function: Callable[..., _Expr], *arrays: Any) -> Any:
    """``function`` of the elements of ``arrays`` (or Python scalars), broadcast together."""
    out = np.frompyfunc(lambda *items: function(*map(_operand, items)), len(arrays), 1)(*arrays)
    return np.asarray(out, dtype=object).view(_Symbols)


def _elementwise(function: Callable[..., _Expr]) -> Callable[..., Any]:
    """The backend's method of :func:`_each` ``function``."""
    return lambda self, *arrays: _each(function, *arrays)


def _reduction(combine: Callable[..., _Expr], default: int | None = None) -> Callable[..., Any]:
    """The backend's method: ``combine`` of the elements along ``axis`` (of all: None)."""
    def method(self: TraceBackend, a: Any, axis: int | None = default) -> Any:
        lines = np.reshape(a, -1) if axis is None else np.moveaxis(a, axis, -1)
        out = np.empty(lines.shape[:-1], dtype=object)
        for index in np.ndindex(out.shape):
            out[index] = combine([_operand(item) for item in lines[index]])
        return out.view(_Symbols)

    return method


def _pairwise(items: list[_Expr]) -> _Expr:
    """NumPy's float64 sum of ``items`` (its ``pairwise_sum``)."""
    n, whole = len(items), len(items) - len(items) % 8
    if n < 8:
        return functools.reduce(_add, items, _operand(0.0))
    if n > 128:
        half = n // 2 - (n // 2) % 8
        return _add(_pairwise(items[:half]), _pairwise(items[half:]))
    partial = items[:8]
    for i in range(8, whole, 8):
        partial = [_add(p, q) for p, q in zip(partial, items[i : i + 8], strict=True)]
    total = _add(_add(_add(partial[0], partial[1]), _add(partial[2], partial[3])),
                 _add(_add(partial[4], partial[5]), _add(partial[6], partial[7])))
    return functools.reduce(_add, items[whole:], total)


def _sum(items: list[_Expr]) -> _Expr:
    """A float sum in NumPy's order; an integer (or bool) sum, exact in any order."""
    if items[0].kind == "f":
        return _pairwise(items)
    return functools.reduce(_add, [_cast(item, "i") for item in items], _operand(0))


def _python_sum(items: list[_Expr]) -> _Expr:  # as NumPy's, of float64s
    items = [_cast(item, "f") for item in items]
    return _apply("f", f"sum(({', '.join(item.text for item in items)},))", items)


def _extremum(helper: str, op: str) -> Callable[[_Expr, _Expr], _Expr]:
    """NumPy's ``maximum`` (``minimum``) of two elements: NaN wins (integers inline)."""
    def element(p: _Expr, q: _Expr) -> _Expr:
        kind = _promote(p.kind, q.kind)
        p, q = _cast(p, kind), _cast(q, kind)
        if kind == "f":
            return _call(kind, helper, [p, q])
        return _apply(kind, f"({p.text} if {p.text} {op} {q.text} else {q.text})", [p, q])

    return element


def _pick(position: _Expr, *choices: _Expr) -> _Expr:
    """``choices[position]`` (NumPy's ``take_along_axis``)."""
    if position.lines is None:
        return choices[position.value]
    options = ", ".join(choice.text for choice in choices)
    return _apply(choices[0].kind, f"({options},)[{position.text}]", [*choices, position])


def _where(test: _Expr, p: _Expr, q: _Expr) -> _Expr:
    kind = _promote(p.kind, q.kind)
    p, q = _cast(p, kind), _cast(q, kind)
    if test.lines is None:
        return p if test.value else q
    return _apply(kind, f"({p.text} if {test.text} else {q.text})", [p, q, test])


class TraceBackend:
    """The backend of a trace: the primitives the formulas use, on symbolic arrays."""

    name = "trace"
    int64, float64, bool_ = "i", "f", "b"

    to_float64 = _elementwise(functools.partial(_cast, kind="f"))
    to_int64 = _elementwise(functools.partial(_cast, kind="i"))
    where = _elementwise(_where)
    maximum = _elementwise(_extremum("_maximum", ">="))
    minimum = _elementwise(_extremum("_minimum", "<="))
    abs_ = _elementwise(lambda x: x if x.kind == "b" else _unary(x.kind, "abs({})", x))
    log = _elementwise(lambda x: _unary("f", "_log({})", _cast(x, "f")))
    exp = _elementwise(lambda x: _unary("f", "_exp({})", _cast(x, "f")))
    sum_ = _reduction(_sum)
    python_sum = _reduction(_python_sum, default=-1)  # Python's ``sum``: order, compensation
    min_ = _reduction(functools.partial(functools.reduce, _extremum("_minimum", "<=")))
    max_ = _reduction(functools.partial(functools.reduce, _extremum("_maximum", ">=")))
    any_ = _reduction(functools.partial(functools.reduce, functools.partial(_binary, "or")))
    argmax = _reduction(lambda xs: _call("i", "_argmax", xs) if len(xs) > 1 else _operand(0))
    first_true = _reduction(functools.partial(_call, "i", "_first_true"))

    def full(self, shape: tuple[int, ...], value: Any, dtype: Any, like: Any = None) -> Any:
        python = {"b": bool, "i": int, "f": float}[dtype]
        return np.full(shape, _operand(python(value)), dtype=object).view(_Symbols)

    def arange(self, n: int, like: Any = None) -> Any:
        return self.asarray(np.arange(n, dtype=np.int64))

    def asarray(self, obj: Any, like: Any = None, dtype: Any = None) -> Any:
        return obj if isinstance(obj, _Symbols) else _each(_operand, obj)

    def power_of_two(self, exponent: Any, largest: int) -> Any:
        if largest >= len(_HELPERS["_P2"]):
            raise TraceError("power_of_two of too large an exponent")
        return _each(lambda x: _unary("f", "_P2[{}]", _cast(x, "i")), exponent)

    def cumsum(self, a: Any, axis: int) -> Any:
        lines = np.moveaxis(a, axis, -1)
        out = np.empty(lines.shape, dtype=object)
        for index in np.ndindex(lines.shape[:-1]):  # a cast of floats to int raises
            items = (_cast(_operand(item), "i") for item in lines[index])
            out[index] = list(itertools.accumulate(items, _add, initial=_operand(0)))[1:]
        return np.moveaxis(out, -1, axis).view(_Symbols)

    def take_along(self, a: Any, index: Any, axis: int) -> Any:
        choices = [np.take(a, [k], axis=axis) for k in range(np.shape(a)[axis])]
        return _each(_pick, index, *choices)

    def concat(self, arrays: list[Any], axis: int) -> Any:
        parts = [self.asarray(a) for a in arrays]
        cast = functools.partial(_cast, kind=_promote(*(x.kind for p in parts for x in p.flat)))
        return np.concatenate([_each(cast, part) for part in parts], axis=axis).view(_Symbols)

    def _host_read(self, a: Any) -> Any:
        raise TraceError("a formula reads a value on the host")

    reads_are_free = to_bool = to_int = to_numpy = _host_read

    def __getattr__(self, name: str) -> Any:
        raise TraceError(f"the backend operation {name!r} is not traced")


def row_function(fn: Callable[..., Any], static: tuple[Any, ...],
                 inputs: Sequence[tuple[tuple[int, ...], str]]) -> Callable[..., Any]:
    """``fn(be, *arrays, *static)`` (element-wise over a leading batch axis) traced on one
    row of ``inputs`` (each a shape without the batch axis and a NumPy dtype kind, ``"b"``,
    ``"i"``, ``"u"`` or ``"f"``) and compiled: a function of the row's numbers (each input's
    elements in row-major order) returning the result (a number, or a tuple of one per
    element). Raises :class:`TraceError` where ``fn`` does what the trace cannot follow."""
    lines: list[str] = []
    arguments: list[str] = []
    arrays = []
    try:
        for shape, dtype_kind in inputs:
            kind = {"b": "b", "i": "i", "u": "i", "f": "f"}[dtype_kind]
            items = [_Expr(f"a{len(arguments) + k}", kind, lines) for k in range(math.prod(shape))]
            arguments += [item.text for item in items]
            arrays.append(np.array(items, dtype=object).reshape(1, *shape).view(_Symbols))
        result = fn(TraceBackend(), *arrays, *static)
    except (TypeError, ValueError, LookupError, AttributeError) as error:
        raise TraceError(f"the trace failed: {error}") from error
    if not isinstance(result, _Symbols) or result.shape[:1] != (1,):
        raise TraceError("the traced function returns no array of rows")
    out = [_operand(item).text for item in result.reshape(-1)]
    returned = out[0] if len(out) == 1 and result.ndim == 1 else f"({', '.join(out)},)"
    source = "\n".join([f"def row({', '.join(arguments)}):", *lines, f"    return {returned}"])
    namespace = dict(_HELPERS)
    exec(compile(source, "<bleusuite traced formula>", "exec"), namespace)
    function: Callable[..., Any] = namespace["row"]
    function.__doc__ = source
    return function


#: the most rows scored row by row (beyond, the array face, hardly slower with more, is faster)
ROW_LIMIT = 16


@functools.lru_cache(maxsize=512)
def _traced(fn: Callable[..., Any], static: tuple[Any, ...],
            inputs: tuple[tuple[tuple[int, ...], str], ...]) -> Callable[..., Any] | None:
    try:
        return row_function(fn, static, inputs)
    except TraceError:
        return None


def by_rows(fn: Callable[..., Any], static: tuple[Any, ...],
            arrays: Sequence[np.ndarray]) -> np.ndarray | None:
    """``fn(be, *arrays, *static)`` (a number per row, or a row of numbers) row by row by its
    :func:`row_function` (kept per formula, ``static``, which is hashable, and row shape), or
    None where the batch is empty, over :data:`ROW_LIMIT` rows or not traced.

    >>> def formula(be, matches, totals):
    ...     return be.where(totals > 0, matches / be.where(totals > 0, totals, 1), 0.0)
    >>> by_rows(formula, (), [np.array([3, 1]), np.array([4, 0])]).tolist()
    [0.75, 0.0]
    """
    rows = int(arrays[0].shape[0])
    shapes = tuple((a.shape[1:], a.dtype.kind) for a in arrays)
    function = _traced(fn, static, shapes) if 0 < rows <= ROW_LIMIT else None
    if function is None:
        return None
    if rows == 1:
        return np.array([function(*[v for a in arrays for v in a.reshape(-1).tolist()])],
                        dtype=np.float64)
    columns = [a.reshape(rows, -1).tolist() for a in arrays]
    return np.array([function(*[value for column in columns for value in column[row]])
                     for row in range(rows)], dtype=np.float64)
