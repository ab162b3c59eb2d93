"""Comparison, logic, ``Select`` and ``Min``/``Max`` rules of the simplifier (mirrors the
corresponding rules of TVM's ``rewrite_simplify.cc``).

Integer comparisons are decided by the bound of ``a - b`` when possible; otherwise they are
normalized: ``x > y`` becomes ``y < x``, common factors are divided out (``2*x < 6`` -> ``x < 3``),
positive terms go left and negative terms right (``x + 1 < y + 1`` -> ``x < y``).
``Select`` simplifies its branches under its condition (true) and its negation (false); ``And``
and ``Or`` simplify their operands independently (TVM's default: no
``kApplyConstraintsToBooleanBranches``).
"""
from __future__ import annotations

from typing import Any

from ..ir.expr import IntImm, PrimExpr
from ..tir import expr as E
from ..tir.const_fold import try_const_fold
from .bound import Interval, iv_add, iv_scale
from .linear import LinearSum
from .simplify import NEGATED_CMP, Simplifier, _generic, bool_const, is_index, negate, register
# bound_from_cmp lived here (Simplifier.add_fact, in simplify.py, uses it)
from .simplify import bound_from_cmp

_FLIP = {E.GT: E.LT, E.GE: E.LE}


def _decide(kind: type, iv: Interval) -> bool | None:
    lo, hi = iv
    if kind is E.LT:
        return True if hi < 0 else False if lo >= 0 else None
    if kind is E.LE:
        return True if hi <= 0 else False if lo > 0 else None
    if lo > 0 or hi < 0:
        return kind is E.NE
    if lo == hi == 0:
        return kind is E.EQ
    return None


def _normalize(kind: type, d: LinearSum) -> LinearSum | bool:
    """Divide ``d (kind) 0`` by the gcd of its coefficients (adjusting the constant)."""
    g = d.coeff_gcd()
    if kind is E.LT:
        base = -((-d.base - 1) // g) - 1
    elif kind is E.LE:
        base = -((-d.base) // g)
    else:
        if d.base % g:
            return kind is E.NE
        base = d.base // g
    out = LinearSum(d.dtype, base)
    for key, atom, coeff in d.items():
        out.add_term(key, atom, coeff // g)
    return out


def _build(s: Simplifier, kind: type, d: LinearSum) -> PrimExpr:
    lhs, rhs = LinearSum(d.dtype), LinearSum(d.dtype)
    for key, atom, coeff in d.items():
        (lhs if coeff > 0 else rhs).add_term(key, atom, abs(coeff))
    if lhs.is_const:
        lhs.base = d.base
    elif rhs.is_const or d.base < 0:
        rhs.base = -d.base
    else:
        lhs.base = d.base
    return kind(s.from_lin(lhs), s.from_lin(rhs))


def compare(s: Simplifier, kind: type, a: PrimExpr, b: PrimExpr) -> PrimExpr:
    """Simplify the integer comparison ``kind(a, b)`` of simplified operands (mirrors TVM's
    comparison rules in ``rewrite_simplify.cc``)."""
    if kind in _FLIP:
        kind, a, b = _FLIP[kind], b, a
    d = s.lin(a).iadd(s.lin(b), -1)
    if d.is_const:
        return bool_const(bool(_decide(kind, (d.base, d.base))))  # (a point: never None)
    decided = _decide(kind, s.bound_lin(d))
    if decided is not None:
        return bool_const(decided)
    norm = _normalize(kind, d)
    if isinstance(norm, bool):
        return bool_const(norm)
    return _build(s, kind, norm)


@register(E.EQ, E.NE, E.LT, E.LE, E.GT, E.GE)
def _cmp(s: Simplifier, e: Any) -> PrimExpr:
    a, b = s.simplify(e.a), s.simplify(e.b)
    folded = try_const_fold(type(e), a, b)
    if folded is not None:
        return folded
    if not is_index(a):
        return type(e)(a, b) if (a is not e.a or b is not e.b) else e
    if a is e.a and b is e.b and type(b) is IntImm and isinstance(a, E.Var) \
            and type(e) not in _FLIP and b.dtype == a.dtype:
        return _var_cmp_const(s, e)
    return compare(s, type(e), a, b)


def _var_cmp_const(s: Simplifier, e: Any) -> PrimExpr:
    """``compare`` of a simplified ``var (kind) c`` (``k == 0``, ``i < 4``; the conditions of
    reduction inits and constraint scopes): decided by the bound of ``var - c`` or ``e`` itself,
    which is what the normalized comparison rebuilds (without building it, then comparing it
    with ``e``)."""
    c = e.b.value
    iv = iv_add((-c, -c), iv_scale(s.bound(e.a), 1))
    decided = _decide(type(e), iv)
    return e if decided is None else bool_const(decided)


@register(E.Not)
def _not(s: Simplifier, e: E.Not) -> PrimExpr:
    a = s.simplify(e.a)
    folded = try_const_fold(E.Not, a)
    if folded is not None:
        return folded
    if isinstance(a, E.Not):  # TVM's rewrite rule !(!x) -> x (not a constant fold)
        return a.a
    if isinstance(a, E.CmpExpr) and (is_index(a.a) or isinstance(a, (E.EQ, E.NE))):
        cls, swap = NEGATED_CMP[type(a)]
        return s.simplify(cls(a.b, a.a) if swap else cls(a.a, a.b))
    if isinstance(a, E.And):
        return s.simplify(E.Or(E.Not(a.a), E.Not(a.b)))
    if isinstance(a, E.Or):
        return s.simplify(E.And(E.Not(a.a), E.Not(a.b)))
    return e if a is e.a else E.Not(a)


def _logic(s: Simplifier, e: Any, is_and: bool) -> PrimExpr:
    """``a && b`` / ``a || b``: both operands simplified under the outer facts only, as TVM's
    ``RewriteSimplifier`` does by default (assuming ``a`` while simplifying ``b`` is its
    ``kApplyConstraintsToBooleanBranches`` extension, off unless asked for). Assuming it here
    made a chain of n conditions cost n**3 simplifications: every level entered a constraint
    scope of the whole chain before it (and an ``Or`` level simplified that chain's negation,
    a new expression, again)."""
    cls = E.And if is_and else E.Or
    a = s.simplify(e.a)
    if isinstance(a, IntImm):
        return a if bool(a.value) != is_and else s.simplify(e.b)
    b = s.simplify(e.b)
    folded = try_const_fold(cls, a, b)
    if folded is not None:
        return folded
    if s.key(a) == s.key(b):
        return a
    if not isinstance(a, (E.And, E.Or)) and not isinstance(b, (E.And, E.Or)):
        # ``a || b`` is ``!(!a && !b)``: the same rules on the negations
        pair = _and_pair(s, a, b) if is_and else _and_pair(s, negate(a), negate(b))
        if pair is not None:
            if isinstance(pair, IntImm):
                return pair if is_and else bool_const(not pair.value)
            return a if pair else b
    return e if a is e.a and b is e.b else cls(a, b)


def _and_pair(s: Simplifier, p: PrimExpr, q: PrimExpr) -> IntImm | bool | None:
    """TVM's rules on ``p && q`` for two conditions (not chains), which need no constraint
    scope: ``false`` when ``q`` is ``p``'s negation (``x && !x``, ``x == y && x != y``,
    ``x <= y && y < x``) or both bound one integer term to disjoint intervals (``x < c1 &&
    c2 < x``, ``x == c1 && x == c2``...); ``True`` (keep ``p``) for ``x == c1 && x != c2`` with
    ``c1 != c2``, ``False`` (keep ``q``) for the same the other way round; None otherwise.
    Like TVM's, they leave ``x < 5 && x < 7`` as it is (``RewriteSimplifier`` rules for
    ``And``/``Or``)."""
    if s.key(q) == s.key(negate(p)):
        return bool_const(False)
    if not (isinstance(p, E.CmpExpr) and isinstance(q, E.CmpExpr) and is_index(p.a)
            and is_index(q.a)):
        return None
    for first, x, y in ((True, p, q), (False, q, p)):
        if isinstance(x, E.EQ) and isinstance(y, E.NE):  # x == c1 && x != c2
            bx, by = bound_from_cmp(s, x), bound_from_cmp(s, E.EQ(y.a, y.b))
            if bx is not None and by is not None and bx[0] == by[0] and bx[1][0] == bx[1][1] \
                    and by[1][0] == by[1][1]:
                return bool_const(False) if bx[1] == by[1] else first
    bp, bq = bound_from_cmp(s, p), bound_from_cmp(s, q)
    if bp is None or bq is None or bp[0] != bq[0]:
        return None
    (lo_p, hi_p), (lo_q, hi_q) = bp[1], bq[1]
    return bool_const(False) if max(lo_p, lo_q) > min(hi_p, hi_q) else None


@register(E.And)
def _and(s: Simplifier, e: Any) -> PrimExpr:
    return _logic(s, e, True) if e.dtype.lanes == 1 else _generic(s, e)


@register(E.Or)
def _or(s: Simplifier, e: Any) -> PrimExpr:
    return _logic(s, e, False) if e.dtype.lanes == 1 else _generic(s, e)


@register(E.Select)
def _select(s: Simplifier, e: E.Select) -> PrimExpr:
    c = s.simplify(e.condition)
    if isinstance(c, IntImm):
        return s.simplify(e.true_value if c.value else e.false_value)
    if c.dtype.lanes != 1:
        return _generic(s, e)
    with s.assume(c):
        t = s.simplify(e.true_value)
    with s.assume(negate(c)):
        f = s.simplify(e.false_value)
    if s.key(t) == s.key(f):
        return t
    return E.Select(c, t, f)


@register(E.Min, E.Max)
def _minmax(s: Simplifier, e: Any) -> PrimExpr:
    cls = type(e)
    a, b = s.simplify(e.a), s.simplify(e.b)
    folded = try_const_fold(cls, a, b)
    if folded is not None:
        return folded
    if not is_index(a):  # (the node itself when unchanged: a new one is compared with it)
        return e if a is e.a and b is e.b else cls(a, b)
    lo, hi = s.bound_lin(s.lin(a).iadd(s.lin(b), -1))
    a_first = hi <= 0 if cls is E.Min else lo >= 0
    b_first = lo >= 0 if cls is E.Min else hi <= 0
    if a_first:
        return a
    if b_first:
        return b
    return e if a is e.a and b is e.b else cls(a, b)
