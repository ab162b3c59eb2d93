"""Linear (sum of scaled terms) form of integer expressions, the core of canonical simplification
(mirrors TVM's ``SumExpr`` in ``src/arith/canonical_simplify.cc``).

A :class:`LinearSum` is ``sum(coeff_i * atom_i) + base`` over one scalar integer dtype; atoms are
already-simplified non-linear expressions (vars, divisions, min/max, products of non-constants...)
identified by their structural key. :func:`to_expr` rebuilds a deterministic expression from it.
"""
from __future__ import annotations

from math import gcd
from typing import Any, Iterator

from ..ir.dtype import DataType
from ..ir.expr import IntImm, PrimExpr
from ..tir import expr as E
from ..tir.const_fold import wrap_int


class LinearSum:
    """``sum(coeff * atom) + base`` with terms kept in first-appearance order (mirrors TVM's
    ``SumExpr``)."""

    __slots__ = ("dtype", "terms", "base")

    def __init__(self, dtype: DataType, base: int = 0) -> None:
        self.dtype = dtype
        self.terms: dict[Any, list[Any]] = {}  # key -> [atom, coeff]
        self.base = base

    @staticmethod
    def atom(dtype: DataType, key: Any, atom: PrimExpr, coeff: int = 1) -> "LinearSum":
        """The sum ``coeff * atom``."""
        s = LinearSum(dtype)
        s.add_term(key, atom, coeff)
        return s

    def copy(self) -> "LinearSum":
        """An independent copy."""
        s = LinearSum(self.dtype, self.base)
        s.terms = {k: [a, c] for k, (a, c) in self.terms.items()}
        return s

    def add_term(self, key: Any, atom: PrimExpr, coeff: int) -> None:
        """Add ``coeff * atom`` in place (a zero coefficient removes the term)."""
        slot = self.terms.get(key)
        if slot is None:
            if coeff != 0:
                self.terms[key] = [atom, coeff]
            return
        slot[1] += coeff
        if slot[1] == 0:
            del self.terms[key]

    def iadd(self, other: "LinearSum", scale: int = 1) -> "LinearSum":
        """``self += scale * other`` in place; returns ``self``."""
        for key, (atom, coeff) in other.terms.items():
            self.add_term(key, atom, coeff * scale)
        self.base += other.base * scale
        return self

    def scaled(self, c: int) -> "LinearSum":
        """``c * self`` as a new sum."""
        s = LinearSum(self.dtype, self.base * c)
        if c != 0:
            s.terms = {k: [a, co * c] for k, (a, co) in self.terms.items()}
        return s

    def items(self) -> Iterator[tuple[Any, PrimExpr, int]]:
        """``(key, atom, coeff)`` triples."""
        for key, (atom, coeff) in self.terms.items():
            yield key, atom, coeff

    @property
    def is_const(self) -> bool:
        """Whether there are no terms."""
        return not self.terms

    def coeff_gcd(self) -> int:
        """gcd of the term coefficients (0 when there are none)."""
        g = 0
        for _, _, c in self.items():
            g = gcd(g, c)
        return g

    def single(self) -> tuple[Any, PrimExpr, int] | None:
        """The only term ``(key, atom, coeff)`` when there is exactly one, else ``None``."""
        if len(self.terms) != 1:
            return None
        return next(self.items())


def const(dtype: DataType, value: int) -> IntImm:
    """An integer constant of ``dtype``, wrapped to its width as TVM's folding does (mirrors
    TVM's ``make_const``)."""
    return IntImm(dtype, wrap_int(value, dtype))


def _term(atom: PrimExpr, coeff: int, dtype: DataType) -> PrimExpr:
    return atom if coeff == 1 else E.Mul(atom, const(dtype, coeff))


def to_expr(s: LinearSum) -> PrimExpr:
    """Rebuild ``s`` as an expression in TVM's order (mirrors ``SumExprNode::Normalize``):
    positive terms first (``a + b*2``), then a positive constant, then negative terms as
    subtractions (``- c*3``), then a negative constant: ``31 - i``, ``a + 1 - b``. A sum with
    neither positive terms nor a positive constant starts with ``c * -k``."""
    t = s.dtype
    terms = s.terms.values()
    pos = [(a, c) for a, c in terms if c > 0]
    neg = [(a, -c) for a, c in terms if c < 0]
    is_min = s.base == -(1 << (t.bits - 1))  # TVM adds the minimum value, it cannot negate it
    base_first = s.base > 0 or (is_min and s.base != 0)
    acc: PrimExpr | None = None
    for a, c in pos:
        acc = _term(a, c, t) if acc is None else E.Add(acc, _term(a, c, t))
    if base_first:
        acc = const(t, s.base) if acc is None else E.Add(acc, const(t, s.base))
    if acc is None:
        if not neg:
            return const(t, s.base)
        a, c = neg.pop(0)
        acc = E.Mul(a, const(t, -c))
    for a, c in neg:
        acc = E.Sub(acc, _term(a, c, t))
    if s.base < 0 and not base_first:
        acc = E.Sub(acc, const(t, -s.base))
    return acc
