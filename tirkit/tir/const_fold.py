"""Constant folding used by the op functions (mirrors TVM's ``arith/const_fold.h``).

``try_const_fold(cls, a, b)`` returns the folded expression, or ``None`` when nothing folds.
Besides two constants it applies TVM's unit identities (``x + 0``, ``x * 1``, ``x * 0`` for
integers, ``floordiv(x, 1)``...). Integer results wrap to the dtype's width, as TVM's
``GetFoldResultInt64Repr`` does. Division by a constant zero raises ``ZeroDivisionError``.
"""
from __future__ import annotations

import math
from typing import Any, Callable

from ..ir.dtype import DataType
from ..ir.expr import FloatImm, IntImm, PrimExpr
from . import expr as E

_Fold = Callable[[PrimExpr, PrimExpr], "PrimExpr | None"]
_FOLDERS: dict[type, _Fold] = {}


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
    if (_int(b) == 0) or (_float(b) == 0.0 and not b.dtype.is_floating()):
        raise ZeroDivisionError(f"{what} by zero")


@_register(E.Add)
def _add(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    t = a.dtype
    if _int(a) is not None and _int(b) is not None:
        return _make(t, _int(a) + _int(b))
    if _float(a) is not None and _float(b) is not None:
        return _make(t, _float(a) + _float(b))
    if _int(a) == 0 or _float(a) == 0.0:
        return b
    if _int(b) == 0 or _float(b) == 0.0:
        return a
    return None


@_register(E.Sub)
def _sub(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    t = a.dtype
    if _int(a) is not None and _int(b) is not None:
        return _make(t, _int(a) - _int(b))
    if _float(a) is not None and _float(b) is not None:
        return _make(t, _float(a) - _float(b))
    if _int(b) == 0 or _float(b) == 0.0:
        return a
    return None


@_register(E.Mul)
def _mul(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    t = a.dtype
    if _int(a) is not None and _int(b) is not None:
        return _make(t, _int(a) * _int(b))
    if _float(a) is not None and _float(b) is not None:
        return _make(t, _float(a) * _float(b))
    for x, y in ((a, b), (b, a)):
        if _int(x) == 1 or _float(x) == 1.0:
            return y
        if _int(x) == 0:
            return x
    return None


@_register(E.Div)
def _div(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    _check_zero(b, "Div")
    ia, ib = _int(a), _int(b)
    if ia is not None and ib is not None:
        return _make(a.dtype, trunc_div(ia, ib))
    fa, fb = _float(a), _float(b)
    if fa is not None and fb is not None and fb != 0.0:
        return _make(a.dtype, fa / fb)
    if ia == 0:
        return a
    if ib == 1 or fb == 1.0:
        return a
    return None


@_register(E.Mod)
def _mod(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    _check_zero(b, "Mod")
    ia, ib = _int(a), _int(b)
    if ia is not None and ib is not None:
        return _make(a.dtype, trunc_mod(ia, ib))
    if ia == 0:
        return a
    if ib == 1:
        return _make(a.dtype, 0)
    return None


@_register(E.FloorDiv)
def _floordiv(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    _check_zero(b, "FloorDiv")
    ia, ib = _int(a), _int(b)
    if ia is not None and ib is not None:
        return _make(a.dtype, ia // ib)
    fa, fb = _float(a), _float(b)
    if fa is not None and fb is not None and fb != 0.0:
        return _make(a.dtype, math.floor(fa / fb))
    if ia == 0:
        return a
    if ib == 1 or fb == 1.0:
        return a
    return None


@_register(E.FloorMod)
def _floormod(a: PrimExpr, b: PrimExpr) -> PrimExpr | None:
    _check_zero(b, "FloorMod")
    ia, ib = _int(a), _int(b)
    if ia is not None and ib is not None:
        return _make(a.dtype, ia % ib)
    if ia == 0:
        return a
    if ib == 1:
        return _make(a.dtype, 0)
    return None


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


def try_const_fold(cls: type, a: PrimExpr, b: PrimExpr | None = None) -> PrimExpr | None:
    """Fold ``cls(a, b)`` (or ``Not(a)``) if TVM's rules allow; ``None`` otherwise.

    Raises:
        ZeroDivisionError: on integer division or modulo by a constant zero.
    """
    if cls is E.Not:
        ia = _int(a)
        if ia is not None:
            return IntImm("bool", int(not ia))
        return a.a if isinstance(a, E.Not) else None
    fold = _FOLDERS.get(cls)
    return fold(a, b) if fold is not None and b is not None else None
