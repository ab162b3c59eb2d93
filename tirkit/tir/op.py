"""Operator functions that build TIR with TVM's type rules (mirrors ``tvm.tir.op`` / ``op.cc``).

These are what expression operator overloading calls. Python numbers become int32/float32
constants (TVM's FFI conversion), operands are then matched as TVM's ``BinaryOpMatchTypes`` does
(scalar→vector broadcast; int→float; narrower→wider; signed/unsigned mixing), and constants fold
(:mod:`.const_fold`).
Intrinsic calls (``exp``, ``if_then_else``...) live in :mod:`.builtin` and are re-exported here.
"""
from __future__ import annotations

import math

import sys as _sys
from typing import Any, Callable

from .. import _layers
from ..ir.dtype import DataType, dtype as _dtype
from ..ir.expr import FloatImm, IntImm, PrimExpr
from . import expr as E
from .const_fold import try_const_fold, wrap_int

# PrimExpr's operator overloads (tirkit.ir.expr, one layer down) call this module's functions
_layers.provide("tir.op", _sys.modules[__name__])

_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


# ------------------------------------------------------------------------------- constants
def const(value: Any, dtype: str | DataType | None = None, span: Any = None) -> PrimExpr:
    """A constant (mirrors ``tvm.tir.const``): ``const(1)`` is int32 (int64 when it does not fit),
    ``const(1.0)`` float32, ``const(True)`` bool; a vector dtype gives a ``Broadcast``.

    Raises:
        ValueError: when an integer ``value`` does not fit ``dtype``.
    """
    if dtype is None:
        if isinstance(value, bool):
            dtype = "bool"
        elif isinstance(value, int):
            dtype = "int32" if _INT32_MIN <= value <= _INT32_MAX else "int64"
        elif isinstance(value, float):
            dtype = "float32"
        else:
            raise TypeError(f"const: cannot infer a dtype for {type(value).__name__} {value!r}")
    t = _dtype(dtype)
    if t.lanes > 1:
        return E.Broadcast(const(value, t.element_of(), span), t.lanes, span=span)
    if t.is_floating():
        return FloatImm(t, float(value), span=span)
    if t.is_int() or t.is_uint():
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(f"const: {value!r} is not an integer but dtype is {t}")
        return IntImm(t, int(value), span=span)
    raise TypeError(f"const: no constants of dtype {t}")


def make_const(dtype: str | DataType, value: Any, span: Any = None) -> PrimExpr:
    """``const(value, dtype)`` with TVM's ``make_const`` argument order."""
    return const(value, dtype, span)


def convert(value: Any, dtype: str | DataType | None = None) -> PrimExpr:
    """Coerce a Python value to a PrimExpr (mirrors ``tvm.runtime.convert`` for PrimExprs).

    PrimExprs pass through. A Python ``int``/``float``/``bool`` becomes a constant of ``dtype`` when
    that dtype can hold it (a float into an int dtype gives float32), else TVM's default dtype; a
    ``str`` becomes a ``StringImm``.

    Raises:
        TypeError: for objects that are not expressions.
    """
    if isinstance(value, PrimExpr):
        return value
    if isinstance(value, E.IterVar):  # TVM converts an IterVar to its var
        return value.var
    hint = _dtype(dtype).element_of() if dtype is not None else None
    if isinstance(value, bool):
        return IntImm("bool", int(value))
    if isinstance(value, int):
        if hint is not None and (hint.is_int() or hint.is_uint() or hint.is_floating()) \
                and not hint.is_bool():
            return const(value, hint)
        return const(value)
    if isinstance(value, float):
        return const(value, hint if hint is not None and hint.is_floating() else "float32")
    if isinstance(value, str):
        return E.StringImm(value)
    if hasattr(value, "dtype") and hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
        return const(value.item(), str(value.dtype))  # NumPy scalar
    if type(value).__name__ == "BufferRegion":
        return _region_load(value)
    raise TypeError(f"cannot convert {type(value).__name__} {value!r} to a PrimExpr")


def _region_load(region: Any) -> PrimExpr:
    """A buffer region as the (vector) load TVM's FFI makes of it (``PrimExpr::FromObject_``):
    an extent-1 range is its min, a constant extent a unit-stride ``Ramp``.

    Raises:
        TypeError: for a region with a symbolic extent.
    """
    indices = []
    for r in region.region:
        if isinstance(r.extent, IntImm) and r.extent.value == 1:
            indices.append(r.min)
        elif isinstance(r.extent, IntImm):
            indices.append(E.Ramp(r.min, const(1, r.min.dtype), r.extent.value))
        else:
            raise TypeError(f"cannot convert buffer region {region.buffer.name}[...] with the "
                            f"symbolic extent {r.extent} to a load")
    return E.BufferLoad(region.buffer, tuple(indices))


def convert_pair(a: Any, b: Any) -> tuple[PrimExpr, PrimExpr]:
    """Convert two operands, Python numbers taking the other side's dtype (the conversion TVM's
    ``tvm.tir.generic`` binary ops apply before ``BinaryOpMatchTypes``)."""
    a = a.var if isinstance(a, E.IterVar) else a
    b = b.var if isinstance(b, E.IterVar) else b
    if isinstance(a, PrimExpr):
        return a, convert(b, a.dtype)
    if isinstance(b, PrimExpr):
        return convert(a, b.dtype), b
    return convert(a), convert(b)


# ------------------------------------------------------------------------------ type matching
def cast(dtype: str | DataType, value: Any, span: Any = None) -> PrimExpr:
    """Convert ``value`` to ``dtype`` (mirrors ``tvm.tir.cast``): identity when equal, constants
    fold (integers wrap, floats truncate toward zero into ints), a scalar cast to a vector dtype
    is broadcast.

    Raises:
        TypeError: when lane counts cannot be matched.
    """
    t = _dtype(dtype)
    value = convert(value)
    if value.dtype == t:
        return value
    if t.lanes > 1 and value.dtype.lanes == 1:
        return E.Broadcast(cast(t.element_of(), value, span), t.lanes, span=span)
    if isinstance(value, (IntImm, FloatImm)) and t.lanes == 1:
        v = value.value
        if t.is_floating():
            return FloatImm(t, float(v), span=span)
        if t.is_bool():
            return IntImm(t, int(v != 0), span=span)
        if (t.is_int() or t.is_uint()) and math.isfinite(v):
            # (a NaN or an infinity has no integer value: TVM's make_const is undefined
            # behaviour there; the cast stays for the target's conversion)
            return IntImm(t, wrap_int(int(v), t), span=span)
    if isinstance(value, E.Broadcast) and t.lanes == value.dtype.lanes:
        return E.Broadcast(cast(t.element_of(), value.value, span), t.lanes, span=span)
    return E.Cast(t, value, span=span)


def match_types(a: Any, b: Any) -> tuple[PrimExpr, PrimExpr]:
    """Bring two operands to one dtype as TVM's ``BinaryOpMatchTypes`` does.

    Python numbers become constants of TVM's default dtypes first (``int32``, ``int64`` when
    too large, ``float32``, ``bool``), as TVM's FFI conversion does: ``int8_var + 1`` is int32 and
    ``float16_var * 2.0`` is float32, exactly as in TVM.

    Raises:
        TypeError: naming both dtypes when they cannot be matched (different vector lanes,
        handle operands...).
    """
    a, b = convert(a), convert(b)
    ta, tb = a.dtype, b.dtype
    if ta == tb:
        return a, b
    if ta.lanes == 1 and tb.lanes != 1:
        a = E.Broadcast(a, tb.lanes)
    elif tb.lanes == 1 and ta.lanes != 1:
        b = E.Broadcast(b, ta.lanes)
    elif ta.lanes != tb.lanes:
        raise TypeError(f"Cannot match type {ta} vs {tb}: different lane counts")
    if a.dtype == b.dtype:
        return a, b
    ta, tb = a.dtype, b.dtype
    if ta.is_handle() or tb.is_handle() or ta.is_void() or tb.is_void():
        raise TypeError(f"Cannot match type {ta} vs {tb}")
    if ta.is_floating() and tb.is_floating():
        return (cast(tb, a), b) if ta.bits < tb.bits else (a, cast(ta, b))
    if not ta.is_floating() and tb.is_floating():
        return cast(tb, a), b
    if ta.is_floating() and not tb.is_floating():
        return a, cast(ta, b)
    if ta.code == tb.code:  # both int or both uint (bool included)
        return (cast(tb, a), b) if ta.bits < tb.bits else (a, cast(ta, b))
    # signed / unsigned mix
    if ta.bits < tb.bits:
        return cast(tb, a), b
    if ta.bits > tb.bits:
        return a, cast(ta, b)
    return (a, cast(ta, b)) if ta.is_uint() else (cast(tb, a), b)


#: what ``try_const_fold`` computes for two integer constants of one dtype, by class (their
#: sum, difference or product wrapped to the dtype): done without its dispatch, the most
#: frequent folding (the bounds of the index sets of a region, EvalSet)
_INT_FOLD: dict[type, Callable[[int, int], int]] = {
    E.Add: lambda x, y: x + y, E.Sub: lambda x, y: x - y, E.Mul: lambda x, y: x * y}


def _binary(cls: type, a: Any, b: Any, span: Any = None) -> PrimExpr:
    if type(a) is IntImm and type(b) is IntImm:  # pylint: disable=unidiomatic-typecheck
        t = a.dtype
        fold = _INT_FOLD.get(cls)
        if fold is not None and (t is b.dtype or t == b.dtype):
            return IntImm(t, wrap_int(fold(a.value, b.value), t))
    if not (isinstance(a, PrimExpr) and isinstance(b, PrimExpr)
            and a.dtype == b.dtype):
        a, b = match_types(a, b)  # (which keeps two expressions of one dtype as they are)
    folded = try_const_fold(cls, a, b)
    if folded is not None:
        return folded
    return cls(a, b, span=span)


# ------------------------------------------------------------------------------ arithmetic
def add(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a + b`` with type matching and folding (mirrors ``tvm.tir.add``)."""
    return _binary(E.Add, a, b, span)


def subtract(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a - b`` (mirrors ``tvm.tir.subtract``)."""
    return _binary(E.Sub, a, b, span)


def multiply(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a * b`` (mirrors ``tvm.tir.multiply``)."""
    return _binary(E.Mul, a, b, span)


def div(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a / b`` with C semantics: truncating for integers (mirrors ``tvm.tir.div``).

    Raises:
        ZeroDivisionError: on a constant zero divisor.
    """
    return _binary(E.Div, a, b, span)


def true_divide(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """Python ``a / b`` on expressions: ``Div`` when either side is a float.

    Raises:
        TypeError: when both sides are integers (ambiguous, as in TVM): use ``floordiv``,
        ``truncdiv``, ``indexdiv`` or ``div``.
    """
    a, b = convert_pair(a, b)
    if not a.dtype.is_floating() and not b.dtype.is_floating():
        raise TypeError("TVM supports multiple types of integer divisions, please call div, "
                        "indexdiv/indexmod, floordiv/floormod or truncdiv/truncmod directly to "
                        "avoid ambiguity in the code")
    return div(a, b, span)


def truncdiv(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """Integer division rounding toward zero (mirrors ``tvm.tir.truncdiv``; a ``Div`` node)."""
    return _binary(E.Div, a, b, span)


def truncmod(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """Remainder with the sign of ``a`` (mirrors ``tvm.tir.truncmod``; a ``Mod`` node)."""
    return _binary(E.Mod, a, b, span)


def floordiv(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """Division rounding toward minus infinity (mirrors ``tvm.tir.floordiv``)."""
    return _binary(E.FloorDiv, a, b, span)


def floormod(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """Remainder with the sign of ``b`` (mirrors ``tvm.tir.floormod``)."""
    return _binary(E.FloorMod, a, b, span)


indexdiv = floordiv  # TVM: index arithmetic uses floor division
indexmod = floormod


def min(a: Any, b: Any, span: Any = None) -> PrimExpr:  # pylint: disable=redefined-builtin
    """``min(a, b)`` (mirrors ``tvm.tir.min`` called on two expressions)."""
    return _binary(E.Min, a, b, span)


def max(a: Any, b: Any, span: Any = None) -> PrimExpr:  # pylint: disable=redefined-builtin
    """``max(a, b)`` (mirrors ``tvm.tir.max`` called on two expressions)."""
    return _binary(E.Max, a, b, span)


def negative(a: Any, span: Any = None) -> PrimExpr:
    """``-a``, built as ``a * -1`` like TVM's ``PrimExpr.__neg__`` (constants fold)."""
    a = convert(a)
    return multiply(a, const(-1, a.dtype.element_of()), span)


# ------------------------------------------------------------------------------ comparison
def equal(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a == b`` (an ``EQ`` node; constants fold to a bool ``IntImm``; ``tvm.tir.EQ`` via ``==``)."""
    return _binary(E.EQ, a, b, span)


def not_equal(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a != b`` (an ``NE`` node; TVM's ``PrimExpr.__ne__``)."""
    return _binary(E.NE, a, b, span)


def less(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a < b`` (an ``LT`` node; TVM's ``PrimExpr.__lt__``)."""
    return _binary(E.LT, a, b, span)


def less_equal(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a <= b`` (an ``LE`` node; TVM's ``PrimExpr.__le__``)."""
    return _binary(E.LE, a, b, span)


def greater(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a > b`` (a ``GT`` node; TVM's ``PrimExpr.__gt__``)."""
    return _binary(E.GT, a, b, span)


def greater_equal(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a >= b`` (a ``GE`` node; TVM's ``PrimExpr.__ge__``)."""
    return _binary(E.GE, a, b, span)


def _as_bool(x: Any) -> PrimExpr:
    x = convert(x)
    if not x.dtype.is_bool():
        raise TypeError(f"expected a bool expression, got {x.dtype}")
    return x


def logical_and(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a && b`` on bools (an ``And`` node; mirrors ``tvm.tir.And`` via ``all``)."""
    a, b = _as_bool(a), _as_bool(b)
    folded = try_const_fold(E.And, a, b)
    return folded if folded is not None else E.And(a, b, span=span)


def logical_or(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a || b`` on bools (an ``Or`` node; mirrors ``tvm.tir.Or`` / ``tvm.tir.any``)."""
    a, b = _as_bool(a), _as_bool(b)
    folded = try_const_fold(E.Or, a, b)
    return folded if folded is not None else E.Or(a, b, span=span)


def logical_not(a: Any, span: Any = None) -> PrimExpr:
    """``!a`` on a bool (a ``Not`` node; mirrors ``tvm.tir.Not``)."""
    a = _as_bool(a)
    folded = try_const_fold(E.Not, a)
    return folded if folded is not None else E.Not(a, span=span)


def all(*args: Any, span: Any = None) -> PrimExpr:  # pylint: disable=redefined-builtin
    """Conjunction of bool expressions (mirrors ``tvm.tir.all``).

    Raises:
        ValueError: with no arguments.
    """
    if not args:
        raise ValueError("all: needs at least one argument")
    out = _as_bool(args[0])
    for x in args[1:]:
        out = logical_and(out, x, span)
    return out


def any(*args: Any, span: Any = None) -> PrimExpr:  # pylint: disable=redefined-builtin
    """Disjunction of bool expressions (mirrors ``tvm.tir.any``).

    Raises:
        ValueError: with no arguments.
    """
    if not args:
        raise ValueError("any: needs at least one argument")
    out = _as_bool(args[0])
    for x in args[1:]:
        out = logical_or(out, x, span)
    return out


# ---------------------------------------------------------------------------- bit operations
def _int_binary_call(name: str, a: Any, b: Any, span: Any) -> PrimExpr:
    a, b = match_types(a, b)
    if a.dtype.is_floating():
        raise TypeError(f"{name}: operands must be integers, got {a.dtype}")
    folded = try_const_fold(f"tir.{name}", a, b)
    if folded is not None:
        return folded
    return E.Call(a.dtype, f"tir.{name}", (a, b), span=span)


def bitwise_and(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a & b`` on integers (a ``tir.bitwise_and`` call; ``tvm.tir.bitwise_and``); two int32/int64
    constants fold, as in TVM."""
    return _int_binary_call("bitwise_and", a, b, span)


def bitwise_or(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a | b`` on integers (a ``tir.bitwise_or`` call; mirrors ``tvm.tir.bitwise_or``); two
    int32/int64 constants fold."""
    return _int_binary_call("bitwise_or", a, b, span)


def bitwise_xor(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a ^ b`` on integers (a ``tir.bitwise_xor`` call; mirrors ``tvm.tir.bitwise_xor``); two
    int32/int64 constants fold."""
    return _int_binary_call("bitwise_xor", a, b, span)


def bitwise_not(a: Any, span: Any = None) -> PrimExpr:
    """``~a`` on integers (a ``tir.bitwise_not`` call; mirrors ``tvm.tir.bitwise_not``)."""
    a = convert(a)
    if a.dtype.is_floating():
        raise TypeError(f"bitwise_not: operand must be an integer, got {a.dtype}")
    return E.Call(a.dtype, "tir.bitwise_not", (a,), span=span)


def shift_left(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a << b`` (a ``tir.shift_left`` call; mirrors ``tvm.tir.shift_left``). On int32/int64, two
    constants fold (wrapping) and a shift by 0 is ``a``, as in TVM's ``left_shift``.

    Raises:
        ValueError: on a constant shift amount outside ``[0, bits)`` (int32/int64).
    """
    return _int_binary_call("shift_left", a, b, span)


def shift_right(a: Any, b: Any, span: Any = None) -> PrimExpr:
    """``a >> b``, arithmetic for signed types (a ``tir.shift_right`` call; mirrors
    ``tvm.tir.shift_right``). On int32/int64, two constants fold and a shift by 0 is ``a``.

    Raises:
        ValueError: on a constant shift amount outside ``[0, bits)`` (int32/int64).
    """
    return _int_binary_call("shift_right", a, b, span)


def abs(x: Any, span: Any = None) -> PrimExpr:  # pylint: disable=redefined-builtin
    """``|x|`` (mirrors ``tvm.tir.abs``): ``Select(x >= 0, x, -x)`` for signed ints, the value itself
    for unsigned, a ``tir.fabs`` call for floats; constants fold."""
    x = convert(x)
    t = x.dtype
    if isinstance(x, IntImm):
        return IntImm(t, builtins_abs(x.value), span=span)
    if isinstance(x, FloatImm):
        return FloatImm(t, builtins_abs(x.value), span=span)
    if t.is_uint():
        return x
    if t.is_int():
        return E.Select(greater_equal(x, 0), x, negative(x), span=span)
    return E.Call(t, "tir.fabs", (x,), span=span)


import builtins as _builtins  # noqa: E402

builtins_abs = _builtins.abs
