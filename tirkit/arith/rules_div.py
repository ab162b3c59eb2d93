"""Division and modulo rules of the simplifier (mirrors the ``FloorDiv``/``FloorMod``/``Div``/
``Mod`` rules of TVM's ``rewrite_simplify.cc`` and ``canonical_simplify.cc``).

``floordiv``/``floormod`` by a positive constant split off the terms whose coefficients the
divisor divides (``floordiv(x*c + y, c) -> x + floordiv(y, c)``), reduce common factors and use
bounds of the remainder (``floordiv(y, c) -> 0`` when ``0 <= y < c``). ``truncdiv``/``truncmod``
(``Div``/``Mod`` on integers) get the same rules only when the dividend is provably non-negative,
where both kinds agree, or when the division is exact.
"""
from __future__ import annotations

import math
from typing import Any

from ..ir.expr import IntImm, PrimExpr
from ..tir import expr as E
from ..tir.const_fold import try_const_fold
from .linear import LinearSum, const
from .simplify import Simplifier, _generic, is_index, register

_DIV = {"floor": E.FloorDiv, "trunc": E.Div}
_MOD = {"floor": E.FloorMod, "trunc": E.Mod}


def _split(lin: LinearSum, c: int) -> tuple[LinearSum, LinearSum]:
    """``lin == c*q + r`` with the divisible terms in ``q`` and ``0 <= r.base < c``."""
    q, r = LinearSum(lin.dtype, lin.base // c), LinearSum(lin.dtype, lin.base % c)
    for key, atom, coeff in lin.items():
        if coeff % c == 0:
            q.add_term(key, atom, coeff // c)
        else:
            r.add_term(key, atom, coeff)
    return q, r


def _reduce(r: LinearSum, c: int) -> tuple[LinearSum, int, int]:
    """Divide ``r`` and ``c`` by their common factor ``g``: returns ``(r/g, c/g, g)``."""
    g = math.gcd(math.gcd(c, r.coeff_gcd()), r.base)
    if g <= 1:
        return r, c, 1
    out = LinearSum(r.dtype, r.base // g)
    for key, atom, coeff in r.items():
        out.add_term(key, atom, coeff // g)
    return out, c // g, g


def _finite(iv: tuple[Any, Any]) -> bool:
    return not (math.isinf(iv[0]) or math.isinf(iv[1]))


def div_const(s: Simplifier, lin: LinearSum, c: int, mode: str) -> PrimExpr | None:
    """``floordiv``/``truncdiv`` (``mode`` "floor"/"trunc") of ``lin`` by constant ``c > 0``;
    (mirrors TVM's ``SplitDivConst``)
    ``None`` when no rule applies."""
    q, r = _split(lin, c)
    if r.is_const and r.base == 0:
        return s.from_lin(q)  # exact division: valid for both kinds
    if mode == "trunc" and s.bound_lin(lin)[0] < 0:
        return None
    r, c, _ = _reduce(r, c)
    lo, hi = s.bound_lin(r)
    if mode == "trunc" and lo < 0:
        return None
    if _finite((lo, hi)) and lo // c == hi // c:
        q.base += lo // c
        return s.from_lin(q)
    q.iadd(s.lin(_div_atom(s, r, c, mode)))
    return s.from_lin(q)


def _div_atom(s: Simplifier, r: LinearSum, c: int, mode: str) -> PrimExpr:
    one = r.single() if r.base == 0 else None
    if one is not None and one[2] == 1:
        x = one[1]
        cls = _DIV[mode]
        if isinstance(x, cls) and isinstance(x.b, IntImm) and x.b.value > 0:
            return s.simplify(cls(x.a, const(r.dtype, x.b.value * c)))
        if mode == "floor" and isinstance(x, E.FloorMod) and isinstance(x.b, IntImm) \
                and x.b.value > 0 and x.b.value % c == 0:
            inner = E.FloorDiv(x.a, const(r.dtype, c))
            return s.simplify(E.FloorMod(inner, const(r.dtype, x.b.value // c)))
    return s.final(_DIV[mode](s.from_lin(r), const(r.dtype, c)))


def mod_const(s: Simplifier, lin: LinearSum, c: int, mode: str) -> PrimExpr | None:
    """``floormod``/``truncmod`` of ``lin`` by constant ``c > 0``; ``None`` when no rule applies
    (mirrors TVM's ``SplitModConst``)."""
    _, r = _split(lin, c)
    if r.is_const and r.base == 0:
        return const(lin.dtype, 0)
    if mode == "trunc" and s.bound_lin(lin)[0] < 0:
        return None
    r, c, g = _reduce(r, c)
    lo, hi = s.bound_lin(r)
    if mode == "trunc" and lo < 0:
        return None
    if 0 <= lo and hi < c:
        out = r
    elif _finite((lo, hi)) and lo // c == hi // c:
        out = r.copy()
        out.base -= c * (lo // c)
    else:
        out = s.lin(_mod_atom(s, r, c, mode))
    return s.from_lin(out.scaled(g))


def _mod_atom(s: Simplifier, r: LinearSum, c: int, mode: str) -> PrimExpr:
    one = r.single() if r.base == 0 else None
    cls = _MOD[mode]
    if one is not None and one[2] == 1:
        x = one[1]
        if isinstance(x, cls) and isinstance(x.b, IntImm) and x.b.value > 0 \
                and x.b.value % c == 0:
            return s.simplify(cls(x.a, const(r.dtype, c)))
    return s.final(cls(s.from_lin(r), const(r.dtype, c)))


def _var_divisor(s: Simplifier, cls: type, a: PrimExpr, b: PrimExpr) -> PrimExpr:
    """Rules for a non-constant divisor known to be positive."""
    is_div = cls in (E.FloorDiv, E.Div)
    if s.bound(b)[0] <= 0:
        return cls(a, b)
    t = a.dtype
    if s.key(a) == s.key(b):
        return const(t, 1 if is_div else 0)
    if isinstance(a, E.Mul):
        for x, y in ((a.a, a.b), (a.b, a.a)):
            if s.key(y) == s.key(b):
                return x if is_div else const(t, 0)
    if s.bound(a)[0] >= 0:
        diff = s.lin(b).iadd(s.lin(a), -1)
        if s.bound_lin(diff)[0] > 0:
            return const(t, 0) if is_div else a
    return cls(a, b)


@register(E.FloorDiv, E.Div, E.FloorMod, E.Mod)
def _divmod(s: Simplifier, e: Any) -> PrimExpr:
    if not is_index(e):
        return _generic(s, e)
    cls = type(e)
    a, b = s.simplify(e.a), s.simplify(e.b)
    folded = try_const_fold(cls, a, b)
    if folded is not None:
        return folded
    if isinstance(b, IntImm) and b.value > 0:
        mode = "floor" if cls in (E.FloorDiv, E.FloorMod) else "trunc"
        fn = div_const if cls in (E.FloorDiv, E.Div) else mod_const
        out = fn(s, s.lin(a), b.value, mode)
        return out if out is not None else cls(a, b)
    return _var_divisor(s, cls, a, b)
