"""Modular set analysis: every value of ``e`` is ``coeff * k + base`` (mirrors
``tvm.arith.ModularSet`` and TVM's ``ModularSetAnalyzer``, ``src/arith/modular_set.cc``)."""
from __future__ import annotations

from math import gcd
from typing import Any, Callable

from ..ir.expr import IntImm, PrimExpr
from ..ir.node import Node, node
from ..tir import expr as E
from ..ir.dispatch import DispatchTable


@node
class ModularSet(Node):
    """The set ``{coeff * k + base | k integer}`` (mirrors ``tvm.arith.ModularSet``).

    ``coeff == 0`` means the single value ``base``; ``(1, 0)`` means nothing is known. ``base`` is
    normalized into ``[0, coeff)`` when ``coeff > 0``.
    """

    coeff: int
    base: int

    def __repr__(self) -> str:
        return f"ModularSet(coeff={self.coeff}, base={self.base})"


def _make(coeff: int, base: int) -> tuple[int, int]:
    coeff = abs(coeff)
    return (coeff, base % coeff) if coeff else (0, base)


_EVERYTHING = (1, 0)
_Handler = Callable[["ModularSetAnalyzer", Any], tuple[int, int]]
_TABLE = DispatchTable()
#: register the modular-set handler of node classes (TVM's ``ExprFunctor`` dispatch)
register = _TABLE.register


class ModularSetAnalyzer:
    """Modular set of integer expressions (TVM's ``arith::ModularSetAnalyzer``).

    ``known`` maps a variable's id to ``(var, (coeff, base))`` for bound variables.
    """

    def __init__(self) -> None:
        self.known: dict[int, tuple[Any, tuple[int, int]]] = {}

    def analyze(self, e: PrimExpr) -> tuple[int, int]:
        """``(coeff, base)`` of ``e``."""
        for cls in type(e).__mro__:
            fn = _TABLE.get(cls)
            if fn is not None:
                return fn(self, e)
        return _EVERYTHING


@register(IntImm)
def _imm(_: ModularSetAnalyzer, e: IntImm) -> tuple[int, int]:
    return (0, e.value)


@register(E.Var)
def _var(an: ModularSetAnalyzer, e: E.Var) -> tuple[int, int]:
    hit = an.known.get(id(e))
    return hit[1] if hit is not None and hit[0] is e else _EVERYTHING


@register(E.Add)
def _add(an: ModularSetAnalyzer, e: Any) -> tuple[int, int]:
    (c1, b1), (c2, b2) = an.analyze(e.a), an.analyze(e.b)
    return _make(gcd(c1, c2), b1 + b2)


@register(E.Sub)
def _sub(an: ModularSetAnalyzer, e: Any) -> tuple[int, int]:
    (c1, b1), (c2, b2) = an.analyze(e.a), an.analyze(e.b)
    return _make(gcd(c1, c2), b1 - b2)


@register(E.Mul)
def _mul(an: ModularSetAnalyzer, e: Any) -> tuple[int, int]:
    (c1, b1), (c2, b2) = an.analyze(e.a), an.analyze(e.b)
    return _make(gcd(gcd(c1 * c2, c1 * b2), c2 * b1), b1 * b2)


def _const_divisor(an: ModularSetAnalyzer, e: Any) -> int | None:
    c, b = an.analyze(e.b)
    return b if c == 0 and b > 0 else None


@register(E.FloorDiv)
def _floordiv(an: ModularSetAnalyzer, e: Any) -> tuple[int, int]:
    d = _const_divisor(an, e)
    c1, b1 = an.analyze(e.a)
    if d is not None and c1 % d == 0:
        return _make(c1 // d, b1 // d)
    return _EVERYTHING


@register(E.FloorMod)
def _floormod(an: ModularSetAnalyzer, e: Any) -> tuple[int, int]:
    d = _const_divisor(an, e)
    if d is None:
        return _EVERYTHING
    c1, b1 = an.analyze(e.a)
    g = gcd(c1, d)
    return _make(0 if c1 % d == 0 and c1 else g, b1 % d if c1 % d == 0 and c1 else b1 % g) \
        if c1 else (0, b1 % d)


@register(E.Min, E.Max, E.Select)
def _union(an: ModularSetAnalyzer, e: Any) -> tuple[int, int]:
    a, b = (e.a, e.b) if not isinstance(e, E.Select) else (e.true_value, e.false_value)
    (c1, b1), (c2, b2) = an.analyze(a), an.analyze(b)
    return _make(gcd(gcd(c1, c2), b1 - b2), b1)
