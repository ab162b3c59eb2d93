"""Symbolic integer interval sets (mirrors ``tvm.arith.IntSet`` / ``IntervalSet`` and
``tvm.arith.EvalSet``): the range an index expression covers when some vars sweep their domains.

Used for buffer access regions (a block reading ``A[vi, k]`` for ``k`` in ``[0, 4)`` reads
``A[vi, 0:4]``). Bounds are PrimExprs (inclusive); ``None`` stands for unbounded.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..ir.expr import IntImm, PrimExpr, Range
from ..tir import expr as E
from ..tir import op


@dataclass(frozen=True, slots=True, init=False)
class IntervalSet:
    """``[min_value, max_value]`` (inclusive; ``None`` = unbounded) — ``tvm.arith.IntervalSet``."""

    min_value: PrimExpr | None
    max_value: PrimExpr | None

    def __init__(self, min_value: PrimExpr | None, max_value: PrimExpr | None) -> None:
        # the frozen dataclass's __init__, through the slots' setters (an EvalSet makes one set
        # per node it evaluates: the generic frozen __init__ took 60% longer)
        _SET_MIN(self, min_value)
        _SET_MAX(self, max_value)

    @staticmethod
    def point(value: PrimExpr) -> "IntervalSet":
        """The single value ``value`` (``IntSet.single_point``)."""
        return IntervalSet(value, value)

    @staticmethod
    def from_range(r: Range) -> "IntervalSet":
        """``[min, min + extent - 1]`` of a Range (``IntSet.from_range``)."""
        return IntervalSet(r.min, op.subtract(op.add(r.min, r.extent), 1))

    @staticmethod
    def everything() -> "IntervalSet":
        """The unbounded set (``IntSet.everything``)."""
        return IntervalSet(None, None)

    def is_point(self) -> bool:
        """Whether min and max are the same object (``IntSet.is_single_point``)."""
        return self.min_value is not None and self.min_value is self.max_value

    def is_bounded(self) -> bool:
        """Whether both bounds are known."""
        return self.min_value is not None and self.max_value is not None

    def union(self, other: "IntervalSet") -> "IntervalSet":
        """The hull of both sets (``arith.Union``)."""
        lo = None if self.min_value is None or other.min_value is None \
            else op.min(self.min_value, other.min_value)
        hi = None if self.max_value is None or other.max_value is None \
            else op.max(self.max_value, other.max_value)
        return IntervalSet(lo, hi)


_SET_MIN = IntervalSet.__dict__["min_value"].__set__
_SET_MAX = IntervalSet.__dict__["max_value"].__set__

_Eval = Callable[[Any, Mapping[E.Var, IntervalSet]], IntervalSet]
_RULES: dict[type, _Eval] = {}


def _rule(*classes: type) -> Callable[[_Eval], _Eval]:
    def deco(fn: _Eval) -> _Eval:
        for cls in classes:
            _RULES[cls] = fn
        return fn
    return deco


def eval_set(expr: PrimExpr, dom_map: Mapping[E.Var, IntervalSet | Range],
             known: tuple[PrimExpr, IntervalSet] | None = None) -> IntervalSet:
    """The interval ``expr`` covers when each var of ``dom_map`` ranges over its set
    (``tvm.arith.eval_set``). Vars outside ``dom_map`` stay symbolic. Only integer arithmetic
    is followed (``+ - *``, division/modulo by positive constants, min/max, casts); anything
    else is unbounded unless it uses no var of ``dom_map``.

    ``known``: ``(sub, eval_set(sub, dom_map))`` for a node ``sub`` of ``expr``, whose set is
    then taken as it is instead of being evaluated again (the last index of a region,
    ``min + extent - 1``, holds the node ``min`` whose set was just evaluated). No TVM
    counterpart (TVM evaluates it again, in C++)."""
    if any(isinstance(s, Range) for s in dom_map.values()):
        dom_map = {v: (IntervalSet.from_range(s) if isinstance(s, Range) else s)
                   for v, s in dom_map.items()}
    if known is None:
        return _eval(expr, dom_map)  # type: ignore[arg-type]
    saved = dict(_KNOWN)
    _KNOWN[id(known[0])] = known
    try:
        return _eval(expr, dom_map)  # type: ignore[arg-type]
    finally:
        _KNOWN.clear()
        _KNOWN.update(saved)


_ABSENT: Any = object()
#: id -> (node, set) of the ``known`` node of the :func:`eval_set` call running, if any
_KNOWN: dict[int, tuple[Any, IntervalSet]] = {}


def _eval(expr: Any, sets: Mapping[E.Var, IntervalSet]) -> IntervalSet:
    if _KNOWN:
        hit = _KNOWN.get(id(expr))
        if hit is not None and hit[0] is expr:
            return hit[1]
    if isinstance(expr, E.Var):
        found = sets.get(expr, _ABSENT)
        return IntervalSet.point(expr) if found is _ABSENT else found
    if isinstance(expr, IntImm):
        return IntervalSet.point(expr)
    rule = _RULES.get(type(expr))
    if rule is not None:
        return rule(expr, sets)
    if _opaque(expr):
        return IntervalSet.everything()
    return IntervalSet.point(expr) if not _uses(expr, sets) else IntervalSet.everything()


def _opaque(expr: Any) -> bool:
    """What TVM's ``IntervalSetEvaluator`` gives no bound for even when it uses no relaxed var:
    a call (other than ``vscale``), a float/string constant (``VisitExprDefault_``) and a load of
    a non-integer buffer."""
    if isinstance(expr, E.Call):
        return getattr(expr.op, "name", None) != "tir.vscale"
    if isinstance(expr, (E.FloatImm, E.StringImm)):
        return True
    return isinstance(expr, E.BufferLoad) and not (expr.dtype.is_int() or expr.dtype.is_uint())


def _uses(expr: Any, sets: Mapping[E.Var, IntervalSet]) -> bool:
    from ..tir.stmt_functor import post_order_visit  # pylint: disable=import-outside-toplevel

    found = []
    post_order_visit(expr, lambda n: found.append(n) if isinstance(n, E.Var) and n in sets
                     else None)
    return bool(found)


def _both(fn: Callable[[Any, Any], Any], a: Any, b: Any) -> Any:
    return None if a is None or b is None else fn(a, b)


@_rule(E.Add)
def _add(e: E.Add, s: Mapping[E.Var, IntervalSet]) -> IntervalSet:
    a, b = _eval(e.a, s), _eval(e.b, s)
    if a.is_point() and b.is_point():
        return IntervalSet.point(e if a.min_value is e.a and b.min_value is e.b
                                 else op.add(a.min_value, b.min_value))
    return IntervalSet(_both(op.add, a.min_value, b.min_value),
                       _both(op.add, a.max_value, b.max_value))


@_rule(E.Sub)
def _sub(e: E.Sub, s: Mapping[E.Var, IntervalSet]) -> IntervalSet:
    a, b = _eval(e.a, s), _eval(e.b, s)
    if a.is_point() and b.is_point():
        return IntervalSet.point(e if a.min_value is e.a and b.min_value is e.b
                                 else op.subtract(a.min_value, b.min_value))
    return IntervalSet(_both(op.subtract, a.min_value, b.max_value),
                       _both(op.subtract, a.max_value, b.min_value))


def _const(x: Any) -> int | None:
    return x.value if isinstance(x, IntImm) else None


@_rule(E.Mul)
def _mul(e: E.Mul, s: Mapping[E.Var, IntervalSet]) -> IntervalSet:
    a, b = _eval(e.a, s), _eval(e.b, s)
    if a.is_point() and b.is_point():
        return IntervalSet.point(e if a.min_value is e.a and b.min_value is e.b
                                 else op.multiply(a.min_value, b.min_value))
    for x, y in ((a, b), (b, a)):
        c = _const(y.min_value) if y.is_point() else None
        if c is not None:
            lo = _both(op.multiply, x.min_value, y.min_value)
            hi = _both(op.multiply, x.max_value, y.min_value)
            return IntervalSet(lo, hi) if c >= 0 else IntervalSet(hi, lo)
    return IntervalSet.everything()


@_rule(E.FloorDiv)
def _floordiv(e: E.FloorDiv, s: Mapping[E.Var, IntervalSet]) -> IntervalSet:
    a, b = _eval(e.a, s), _eval(e.b, s)
    c = _const(b.min_value) if b.is_point() else None
    if a.is_point() and b.is_point():
        return IntervalSet.point(e if a.min_value is e.a else op.floordiv(a.min_value, e.b))
    if c is not None and c > 0:
        return IntervalSet(_both(op.floordiv, a.min_value, b.min_value),
                           _both(op.floordiv, a.max_value, b.min_value))
    return IntervalSet.everything()


@_rule(E.FloorMod)
def _floormod(e: E.FloorMod, s: Mapping[E.Var, IntervalSet]) -> IntervalSet:
    a, b = _eval(e.a, s), _eval(e.b, s)
    if a.is_point() and b.is_point():
        return IntervalSet.point(e if a.min_value is e.a else op.floormod(a.min_value, e.b))
    c = _const(b.min_value) if b.is_point() else None
    if c is not None and c > 0:
        return IntervalSet(op.const(0, e.dtype), op.const(c - 1, e.dtype))
    return IntervalSet.everything()


@_rule(E.Min, E.Max)
def _minmax(e: Any, s: Mapping[E.Var, IntervalSet]) -> IntervalSet:
    a, b = _eval(e.a, s), _eval(e.b, s)
    fn = op.min if isinstance(e, E.Min) else op.max
    if a.is_point() and b.is_point():
        return IntervalSet.point(e if a.min_value is e.a and b.min_value is e.b
                                 else fn(a.min_value, b.min_value))
    return IntervalSet(_both(fn, a.min_value, b.min_value), _both(fn, a.max_value, b.max_value))


@_rule(E.Cast)
def _cast(e: E.Cast, s: Mapping[E.Var, IntervalSet]) -> IntervalSet:
    a = _eval(e.value, s)
    if a.is_point() and a.min_value is e.value:
        return IntervalSet.point(e)
    conv = (lambda x: None if x is None else op.cast(e.dtype, x))
    return IntervalSet(conv(a.min_value), conv(a.max_value))
