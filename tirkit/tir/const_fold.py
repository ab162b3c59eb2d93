"""Constant folding used by the op functions (mirrors TVM's ``arith/const_fold.h``).

``try_const_fold(cls, a, b)`` returns the folded expression, or ``None`` when nothing folds.
Besides two constants it applies TVM's unit identities (``x + 0``, ``x * 1``, ``x * 0``,
``floordiv(x, 1)``...) and nothing more: no ``0 - x``, no ``!!x`` (those are the simplifier's).
Integer results wrap to the dtype's width, as TVM's ``GetFoldResultInt64Repr`` does; float
constants fold only at 32 bits (in single precision) and 64 bits, as in TVM; ``%``/``floormod``
and the bit operations (``<<``, ``>>``, ``&``, ``|``, ``^``, keyed by their op names) fold only
on TVM's index types (scalar int32/int64). Division by a constant zero raises
``ZeroDivisionError``.
"""
from __future__ import annotations

import math
import struct
from typing import Any, Callable

from ..ir.dtype import DataType
from ..ir.expr import FloatImm, IntImm, PrimExpr
from . import expr as E

_Fold = Callable[[PrimExpr, PrimExpr], "PrimExpr | None"]
_FOLDERS: dict[type | str, _Fold] = {}
_CONSTANTS = (IntImm, FloatImm)


def _register(*classes: type) -> Callable[[_Fold], _Fold]:
    def deco(fn: _Fold) -> _Fold:
        for cls in classes:
            _FOLDERS[cls] = fn
        return fn
    return deco


def wrap_int(value: int, t: DataType) -> int:
    """``value`` wrapped to the two's-complement range of integer dtype ``t`` (TVM's
    ``GetFoldResultInt64Repr``)."""
    if t.is_bool():
        return 1 if value else 0
    mask = (1 << t.bits) - 1
    value &= mask
    if t.is_int() and value >= 1 << (t.bits - 1):
        value -= 1 << t.bits
    return value


def _int(e: PrimExpr) -> int | None:
    return e.value if isinstance(e, IntImm) else None


def _float(e: PrimExpr) -> float | None:
    return e.value if isinstance(e, FloatImm) else None


def _is_index(t: DataType) -> bool:
    """TVM's ``IsIndexType``: scalar int32 or int64."""
    return t.is_int() and t.lanes == 1 and t.bits in (32, 64)


def _f32(x: float) -> float:
    """``x`` rounded to single precision (inf past float32's range, as
    ``GetFoldResultDoubleRepr``)."""
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _float_fold(t: DataType, fn: Callable[[float, float], float], fa: float, fb: float
                ) -> PrimExpr | None:
    """``fn(fa, fb)`` as TVM folds floats: in single precision for 32 bits, double for 64
    bits, not at all for other widths."""
    if t.bits == 32:
        return FloatImm(t, _f32(fn(_f32(fa), _f32(fb))))
    if t.bits == 64:
        return FloatImm(t, fn(fa, fb))
    return None


def _make(t: DataType, value: Any) -> PrimExpr:
    if t.is_floating():
        return FloatImm(t, float(value))
    return IntImm(t, wrap_int(int(value), t))


def trunc_div(a: int, b: int) -> int:
    """C-style integer division rounding toward zero (TVM ``truncdiv``)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def trunc_mod(a: int, b: int) -> int:
    """C-style remainder with the sign of ``a`` (TVM ``truncmod``)."""
    return a - trunc_div(a, b) * b


def _check_zero(b: PrimExpr, what: str) -> None:
    if _int(b) == 0 or _float(b) == 0.0:
        raise ZeroDivisionError(f"{what} by zero")


@_register(E.Add)
def _add(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    ia, ib, fa, fb = _int(a), _int(b), _float(a), _float(b)
    if ia is not None and ib is not None:
        return _make(a.dtype, ia + ib)
    if ia == 0:
        return b
    if ib == 0:
        return a
    if fa is not None and fb is not None:
        out = _float_fold(a.dtype, lambda x, y: x + y, fa, fb)
        if out is not None:
            return out
    if fa == 0.0:
        return b
    if fb == 0.0:
        return a
    return None


@_register(E.Sub)
def _sub(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    ia, ib, fa, fb = _int(a), _int(b), _float(a), _float(b)
    if ia is not None and ib is not None:
        return _make(a.dtype, ia - ib)
    if ib == 0:
        return a
    if fa is not None and fb is not None:
        out = _float_fold(a.dtype, lambda x, y: x - y, fa, fb)
        if out is not None:
            return out
    if fb == 0.0:
        return a
    return None


@_register(E.Mul)
def _mul(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    ia, ib, fa, fb = _int(a), _int(b), _float(a), _float(b)
    if ia is not None and ib is not None:
        return _make(a.dtype, ia * ib)
    for x, y in ((a, b), (b, a)):  # 1 * y -> y, 0 * y -> 0 (the constant itself)
        if _int(x) == 1:
            return y
        if _int(x) == 0:
            return x
    if fa is not None and fb is not None:
        out = _float_fold(a.dtype, lambda x, y: x * y, fa, fb)
        if out is not None:
            return out
    for x, y in ((a, b), (b, a)):
        if _float(x) == 1.0:
            return y
        if _float(x) == 0.0:
            return x
    return None


@_register(E.Div)
def _div(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    _check_zero(b, "Div")
    ia, ib, fa, fb = _int(a), _int(b), _float(a), _float(b)
    if ia is not None and ib is not None:
        return _make(a.dtype, trunc_div(ia, ib))
    if ia == 0 or ib == 1:
        return a
    if fa is not None and fb is not None:
        out = _float_fold(a.dtype, lambda x, y: x / y, fa, fb)
        if out is not None:
            return out
    if fa == 0.0 or fb == 1.0:
        return a
    return None


def _index_mod(mod: Callable[[int, int], int], what: str) -> _Fold:
    """``Mod``/``FloorMod``: TVM folds them on index types only."""
    def fold(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
        if not (_is_index(a.dtype) and _is_index(b.dtype)):
            return None
        _check_zero(b, what)
        ia, ib = _int(a), _int(b)
        if ia is not None and ib is not None:
            return _make(a.dtype, mod(ia, ib))
        if ia == 0:
            return a
        if ib == 1:
            return _make(a.dtype, 0)
        return None
    return fold


_FOLDERS[E.Mod] = _index_mod(trunc_mod, "Mod")
_FOLDERS[E.FloorMod] = _index_mod(lambda x, y: x % y, "FloorMod")


@_register(E.FloorDiv)
def _floordiv(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    _check_zero(b, "FloorDiv")
    ia, ib, fa, fb = _int(a), _int(b), _float(a), _float(b)
    if ia is not None and ib is not None:
        return _make(a.dtype, ia // ib)
    if ia == 0 or ib == 1:
        return a
    if fa is not None and fb is not None:  # other float widths stop here, as in TVM
        return _float_fold(a.dtype, lambda x, y: float(math.floor(x / y)), fa, fb)
    if fa == 0.0 or fb == 1.0:
        return a
    return None


def _shift_amount(a: PrimExpr, b: PrimExpr) -> int | None:
    ib = _int(b)
    if ib is not None and not 0 <= ib < a.dtype.bits:
        raise ValueError(f"Shift amount must be non-negative and less than {a.dtype.bits} "
                         f"for type {a.dtype}")
    return ib


def _shift_folder(fn: Callable[[int, int], int]) -> _Fold:
    """``<<``/``>>`` (TVM's ``left_shift``/``right_shift``): index types only; two constants
    fold, a shift by 0 is the operand."""
    def fold(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
        if not (_is_index(a.dtype) and _is_index(b.dtype)):
            return None
        ia, ib = _int(a), _shift_amount(a, b)
        if ia is not None and ib is not None:
            return _make(a.dtype, fn(ia, ib))
        return a if ib == 0 else None
    return fold


_FOLDERS["tir.shift_left"] = _shift_folder(lambda x, y: x << y)
_FOLDERS["tir.shift_right"] = _shift_folder(lambda x, y: x >> y)


def _bitwise_folder(fn: Callable[[int, int], int]) -> _Fold:
    """``&``/``|``/``^`` (TVM's ``bitwise_and/or/xor``): two index-type constants fold."""
    def fold(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
        ia, ib = _int(a), _int(b)
        if _is_index(a.dtype) and _is_index(b.dtype) and ia is not None and ib is not None:
            return _make(a.dtype, fn(ia, ib))
        return None
    return fold


_FOLDERS["tir.bitwise_and"] = _bitwise_folder(lambda x, y: x & y)
_FOLDERS["tir.bitwise_or"] = _bitwise_folder(lambda x, y: x | y)
_FOLDERS["tir.bitwise_xor"] = _bitwise_folder(lambda x, y: x ^ y)


def _minmax_folder(fn: Callable[[Any, Any], Any]) -> _Fold:
    def fold(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
        if _int(a) is not None and _int(b) is not None:
            return _make(a.dtype, fn(_int(a), _int(b)))
        if _float(a) is not None and _float(b) is not None:
            return _make(a.dtype, fn(_float(a), _float(b)))
        if a is b:
            return a
        return None
    return fold


_FOLDERS[E.Min] = _minmax_folder(min)
_FOLDERS[E.Max] = _minmax_folder(max)


def _cmp_folder(fn: Callable[[Any, Any], bool]) -> _Fold:
    def fold(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
        for get in (_int, _float):
            x, y = get(a), get(b)
            if x is not None and y is not None:
                return IntImm("bool", int(fn(x, y)))
        return None
    return fold


for _cls, _fn in ((E.EQ, lambda x, y: x == y), (E.NE, lambda x, y: x != y),
                  (E.LT, lambda x, y: x < y), (E.LE, lambda x, y: x <= y),
                  (E.GT, lambda x, y: x > y), (E.GE, lambda x, y: x >= y)):
    _FOLDERS[_cls] = _cmp_folder(_fn)


@_register(E.And)
def _and(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    ia, ib = _int(a), _int(b)
    if ia is not None and ib is not None:
        return IntImm("bool", int(bool(ia) and bool(ib)))
    if ia == 0 or ib == 1:
        return a
    if ib == 0 or ia == 1:
        return b
    return None


@_register(E.Or)
def _or(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    ia, ib = _int(a), _int(b)
    if ia is not None and ib is not None:
        return IntImm("bool", int(bool(ia) or bool(ib)))
    if ia == 1 or ib == 0:
        return a
    if ib == 1 or ia == 0:
        return b
    return None


def try_const_fold(cls: type | str, a: PrimExpr, b: PrimExpr | None = None
                   ) -> PrimExpr | None:
    """Fold ``cls(a, b)`` (or ``Not(a)``) if TVM's rules allow; ``None`` otherwise (mirrors
    ``arith::TryConstFold<Op>``, and the folding in ``tvm::left_shift`` ... ``bitwise_xor``).

    ``cls`` is a node class (``E.Add`` ...) or, for operations built as calls, the op name
    (``"tir.shift_left"``, ``"tir.shift_right"``, ``"tir.bitwise_and"``, ``"tir.bitwise_or"``,
    ``"tir.bitwise_xor"``). ``a`` and ``b`` already have one dtype (``match_types``).

    Raises:
        ZeroDivisionError: on division or modulo by a constant zero.
        ValueError: on a constant shift amount outside ``[0, bits)``.
    """
    if not isinstance(a, _CONSTANTS) and not isinstance(b, _CONSTANTS):
        # no constant operand (most calls): of the rules below, only min(x, x) / max(x, x)
        # apply, and none raises
        return a if a is b and (cls is E.Min or cls is E.Max) else None
    if cls is E.Not:
        ia = _int(a)
        return IntImm("bool", int(not ia)) if ia is not None else None
    fold = _FOLDERS.get(cls)
    return fold(a, b) if fold is not None and b is not None else None
