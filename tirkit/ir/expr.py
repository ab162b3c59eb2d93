"""Generic expressions: PrimExpr with TVM's operator overloading, constants, Range, GlobalVar.

Mirrors ``tvm.ir.expr`` and ``tvm.tir.expr.ExprOp``. Arithmetic on expressions builds IR through the
op functions of :mod:`tirkit.tir.op` (type matching and constant folding as in TVM's ``op.cc``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Union

from .. import _layers
from .dtype import DataType, dtype as _dtype
from .node import Coerced, Node, node

_INT_RANGE_MSG = "value {v} does not fit in {t}"


def _op():  # the op functions live one layer up in tir, which provides them (tirkit._layers)
    op = _OP_MODULE.get("op")
    if op is None:  # (every operator overload asks: the slot table once, a dict after)
        op = _OP_MODULE["op"] = _layers.get("tir.op")
    return op


_OP_MODULE: dict[str, Any] = {}


@node
class BaseExpr(Node):
    """Base of all expressions (mirrors ``tvm.ir.BaseExpr``)."""


@node
class PrimExpr(BaseExpr):
    """A primitive (scalar or vector) expression with a ``dtype`` (mirrors ``tvm.tir.PrimExpr``).

    Supports TVM's operator overloading: ``+ - * // % < <= > >= == != & | ^ ~ << >> -`` build IR;
    ``//`` and ``%`` are ``floordiv``/``floormod``; ``/`` is true division for floats and raises
    ``TypeError`` on two integers (ambiguous, as in TVM); ``bool(expr)`` raises ``ValueError``
    except for constants and ``==``/``!=`` (which compare identity, like TVM's ``EqualOp``).

    Raises:
        TypeError: when operands have dtypes that cannot be matched (e.g. ``float32x4 + float32x8``).
    """

    __hash__ = object.__hash__

    if TYPE_CHECKING:  # every subclass has a dtype field (stored or derived)
        @property
        def dtype(self) -> DataType:
            """The expression's dtype."""

    # arithmetic
    def __add__(self, other: Any) -> "PrimExpr":
        return _op().add(self, other)

    def __radd__(self, other: Any) -> "PrimExpr":
        return _op().add(other, self)

    def __sub__(self, other: Any) -> "PrimExpr":
        return _op().subtract(self, other)

    def __rsub__(self, other: Any) -> "PrimExpr":
        return _op().subtract(other, self)

    def __mul__(self, other: Any) -> "PrimExpr":
        return _op().multiply(self, other)

    def __rmul__(self, other: Any) -> "PrimExpr":
        return _op().multiply(other, self)

    def __truediv__(self, other: Any) -> "PrimExpr":
        return _op().true_divide(self, other)

    def __rtruediv__(self, other: Any) -> "PrimExpr":
        return _op().true_divide(other, self)

    def __floordiv__(self, other: Any) -> "PrimExpr":
        return _op().floordiv(self, other)

    def __rfloordiv__(self, other: Any) -> "PrimExpr":
        return _op().floordiv(other, self)

    def __mod__(self, other: Any) -> "PrimExpr":
        return _op().floormod(self, other)

    def __rmod__(self, other: Any) -> "PrimExpr":
        return _op().floormod(other, self)

    def __neg__(self) -> "PrimExpr":
        return _op().negative(self)

    def __pos__(self) -> "PrimExpr":
        return self

    def __abs__(self) -> "PrimExpr":
        return _op().abs(self)

    # bitwise
    def __lshift__(self, other: Any) -> "PrimExpr":
        return _op().shift_left(self, other)

    def __rlshift__(self, other: Any) -> "PrimExpr":
        return _op().shift_left(other, self)

    def __rshift__(self, other: Any) -> "PrimExpr":
        return _op().shift_right(self, other)

    def __rrshift__(self, other: Any) -> "PrimExpr":
        return _op().shift_right(other, self)

    def __and__(self, other: Any) -> "PrimExpr":
        return _op().bitwise_and(self, other)

    def __rand__(self, other: Any) -> "PrimExpr":
        return _op().bitwise_and(other, self)

    def __or__(self, other: Any) -> "PrimExpr":
        return _op().bitwise_or(self, other)

    def __ror__(self, other: Any) -> "PrimExpr":
        return _op().bitwise_or(other, self)

    def __xor__(self, other: Any) -> "PrimExpr":
        return _op().bitwise_xor(self, other)

    def __rxor__(self, other: Any) -> "PrimExpr":
        return _op().bitwise_xor(other, self)

    def __invert__(self) -> "PrimExpr":
        return _op().bitwise_not(self)

    # comparison
    def __lt__(self, other: Any) -> "PrimExpr":
        return _op().less(self, other)

    def __le__(self, other: Any) -> "PrimExpr":
        return _op().less_equal(self, other)

    def __gt__(self, other: Any) -> "PrimExpr":
        return _op().greater(self, other)

    def __ge__(self, other: Any) -> "PrimExpr":
        return _op().greater_equal(self, other)

    def __eq__(self, other: Any) -> "PrimExpr":  # type: ignore[override]
        return _op().equal(self, other)

    def __ne__(self, other: Any) -> "PrimExpr":  # type: ignore[override]
        return _op().not_equal(self, other)

    def __bool__(self) -> bool:
        raise ValueError("Cannot use and / or / not operator to Expr, hint: use tirkit.tir.all / "
                         "tirkit.tir.any / tirkit.tir.Not instead")

    def astype(self, dtype: "str | DataType") -> "PrimExpr":
        """Cast to ``dtype`` (``PrimExpr.astype``); constants fold."""
        return _op().cast(dtype, self)

    @property
    def lanes(self) -> int:
        """Number of lanes of ``dtype``."""
        return self.dtype.lanes


#: what an expression argument may be: Python numbers are converted (``tirkit.tir.op.convert``)
ExprLike = Union[PrimExpr, int, float]
#: a ``dtype`` field whose constructor takes a dtype string too
DTypeField = Coerced[DataType, Union[str, DataType]]
#: an expression field whose constructor takes a Python number too
ExprField = Coerced[PrimExpr, ExprLike]
#: a tuple-of-expressions field whose constructor takes any iterable of them or of numbers
ExprsField = Coerced[tuple[PrimExpr, ...], Iterable[ExprLike]]


def _fits(value: int, t: DataType) -> bool:
    if t.is_bool():
        return value in (0, 1)
    if t.is_uint():
        return 0 <= value < (1 << t.bits)
    if t.is_int():
        return -(1 << (t.bits - 1)) <= value < (1 << (t.bits - 1))
    return True


def _int_range(t: DataType) -> tuple[int, int]:
    """The values a scalar integer dtype holds (what :func:`_fits` accepts), inclusive."""
    if t.is_bool():
        return (0, 1)
    if t.is_uint():
        return (0, (1 << t.bits) - 1)
    return (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1)


#: (code, bits, lanes) of each scalar integer dtype an IntImm was made with -> its value range
_INT_RANGES: dict[tuple[Any, int, int], tuple[int, int]] = {}


@node
class IntImm(PrimExpr):
    """Integer constant (mirrors ``tvm.tir.IntImm``): ``IntImm("int32", 3)``.

    ``dtype`` is an integer, unsigned or bool type (scalar). ``bool(imm)`` is ``value != 0``,
    ``int(imm)`` is ``value``.

    Raises:
        TypeError: for a non-integer dtype; ValueError: when ``value`` does not fit ``dtype``.
    """

    dtype: DTypeField
    value: int

    def __post_init__(self) -> None:
        t = self.dtype
        if type(t) is not DataType:
            t = _dtype(t)
            object.__setattr__(self, "dtype", t)
        if type(self.value) is int:  # the common case, checked by one table lookup
            rng = _INT_RANGES.get((t.code, t.bits, t.lanes))
            if rng is not None and rng[0] <= self.value <= rng[1]:
                return
        if not (t.is_int() or t.is_uint()) or t.lanes != 1:
            raise TypeError(f"IntImm requires a scalar integer dtype, got {t}")
        value = int(self.value)
        if not _fits(value, t):
            raise ValueError(_INT_RANGE_MSG.format(v=value, t=t))
        object.__setattr__(self, "value", value)
        if (t.code, t.bits, t.lanes) not in _INT_RANGES:
            _INT_RANGES[(t.code, t.bits, t.lanes)] = _int_range(t)

    def __bool__(self) -> bool:
        return self.value != 0

    def __repr__(self) -> str:
        if self.dtype == "int32":
            return str(self.value)
        return f"T.{self.dtype}({'True' if self.value else 'False'})" if self.dtype.is_bool() \
            else f"T.{self.dtype}({self.value})"

    def __int__(self) -> int:
        return self.value

    def __index__(self) -> int:
        return self.value

    __hash__ = PrimExpr.__hash__


@node
class FloatImm(PrimExpr):
    """Floating-point constant (mirrors ``tvm.tir.FloatImm``): ``FloatImm("float32", 0.5)``.

    Raises:
        TypeError: for a non-floating dtype.
    """

    dtype: DTypeField
    value: float

    def __post_init__(self) -> None:
        t = _dtype(self.dtype)
        object.__setattr__(self, "dtype", t)
        if not t.is_floating() or t.lanes != 1:
            raise TypeError(f"FloatImm requires a scalar floating-point dtype, got {t}")
        object.__setattr__(self, "value", float(self.value))

    def __float__(self) -> float:
        return self.value

    def __repr__(self) -> str:
        return f"T.{self.dtype}({self.value!r})"

    __hash__ = PrimExpr.__hash__


@node
class Range(Node):
    """A half-open interval ``[min, min + extent)`` (mirrors ``tvm.ir.Range``).

    ``Range(begin, end)`` follows TVM's Python constructor: ``end`` is exclusive and ``extent`` is
    ``end - begin``; use :meth:`from_min_extent` for the (min, extent) form. Python ints become
    ``int32`` constants (``int64`` when the other bound is int64).
    """

    min: PrimExpr
    extent: PrimExpr

    def __init__(self, begin: Any, end: Any = None, *, span: Any = None) -> None:
        op = _op()
        if end is None:
            begin, end = 0, begin
        lo, hi = op.convert_pair(begin, end)
        object.__setattr__(self, "min", lo)
        object.__setattr__(self, "extent", hi if _is_zero(lo) else op.subtract(hi, lo))
        object.__setattr__(self, "span", span)

    @staticmethod
    def from_min_extent(min_value: Any, extent: Any, span: Any = None) -> "Range":
        """``Range`` from its minimum and extent (``Range::FromMinExtent``)."""
        r = object.__new__(Range)
        lo, ext = _op().convert_pair(min_value, extent)
        object.__setattr__(r, "min", lo)
        object.__setattr__(r, "extent", ext)
        object.__setattr__(r, "span", span)
        return r

    def __replace__(self, **changes: Any) -> "Range":
        return Range.from_min_extent(changes.get("min", self.min), changes.get("extent", self.extent),
                                     changes.get("span", self.span))

    def with_changes(self, **changes: Any) -> "Range":
        return self.__replace__(**changes)


def _is_zero(e: PrimExpr) -> bool:
    return isinstance(e, IntImm) and e.value == 0


@node
class GlobalVar(BaseExpr):
    """A global function name in an ``IRModule`` (mirrors ``tvm.ir.GlobalVar``).

    Compared by identity outside a module; two modules are structurally equal when their global
    vars with equal ``name_hint`` map to equal functions.
    """

    name_hint: str

    def __hash__(self) -> int:
        return object.__hash__(self)
