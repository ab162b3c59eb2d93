"""Predicate-aware region bounds for the region-cover check (mirrors TVM's
``AnalyzeRegionUpperBound`` / ``AnalyzeRegionLowerBound`` / ``ProducerCoversConsumer`` of
``src/tir/schedule/state.cc``).

A block under a non-divisible split carries a predicate such as ``T.where(i_0 * 16 + i_1 < 100)``:
relaxing its region over the loops alone overshoots the iterations that really run. The
conjuncts of the predicate that compare an affine expression with a bound tighten each
dimension whose index differs from that expression by a constant. A consumer may ignore a
conjunct it cannot read (its read region only grows, the check stays sound); a producer may
not (its written region would be over-estimated), so such a producer covers nothing, as in TVM.
"""
from __future__ import annotations

from typing import Any, cast

from ..arith import Analyzer, detect_iter_map
from ..arith.int_set import IntervalSet
from ..ir.expr import IntImm, PrimExpr
from ..tir import op
from ..tir.expr import GE, GT, LE, LT, And, Var
from ..tir.stmt_functor import post_order_visit

# (lhs, rhs, strict): ``lhs < rhs`` when strict, else ``lhs <= rhs``
_Bound = tuple[Any, Any, bool]


def predicate_bounds(pred: Any) -> tuple[list[_Bound], bool]:
    """The comparisons of a block predicate as ``lhs < rhs`` / ``lhs <= rhs``, and whether every
    conjunct was such a comparison."""
    if isinstance(pred, bool) or (isinstance(pred, IntImm) and pred.value == 1):
        return [], True
    if isinstance(pred, And):
        a, ok_a = predicate_bounds(pred.a)
        b, ok_b = predicate_bounds(pred.b)
        return a + b, ok_a and ok_b
    if isinstance(pred, (LT, LE)):
        return [(pred.a, pred.b, isinstance(pred, LT))], True
    if isinstance(pred, (GT, GE)):
        return [(pred.b, pred.a, isinstance(pred, GT))], True
    return [], False


def _offset(ana: Analyzer, expr: Any, base: Any) -> int | None:
    diff = ana.simplify(op.subtract(expr, base))
    return diff.value if isinstance(diff, IntImm) else None


def _tighter(ana: Analyzer, old: Any, new: Any, upper: bool) -> Any:
    if old is None:
        return new
    better = op.less_equal(new, old) if upper else op.greater_equal(new, old)
    return new if ana.can_prove(better) else old


def _uses(expr: Any, variables: set) -> bool:
    hit: list[bool] = []
    post_order_visit(expr, lambda n: hit.append(True)
                     if isinstance(n, Var) and any(n is v for v in variables) else None)
    return bool(hit)


def _iter_map_bound(expr: Any, dom: dict, pred: Any, relaxed: set) -> IntervalSet | None:
    """The range of ``expr`` over ``dom`` under ``pred`` through iterator-map detection, as
    TVM's ``EstimateRegionUpperBound`` does: ``(i_0 * 7 + i_1) // 20`` with
    ``i_0 * 7 + i_1 < 240`` is a split of extent 12."""
    res = detect_iter_map([expr], dom, pred, "no_check")
    if res.errors or len(res.indices[0].args) > 1 or _uses(res.indices[0].base, relaxed):
        return None
    total = res.indices[0]
    if not total.args:
        return IntervalSet(total.base, total.base)
    split = total.args[0]
    if not (isinstance(split.extent, IntImm) and isinstance(split.scale, IntImm)):
        return None
    span = (split.extent.value - 1) * split.scale.value
    return IntervalSet(total.base + min(span, 0), total.base + max(span, 0))


def tighten(ana: Analyzer, lo_expr: Any, hi_expr: Any, interval: IntervalSet,
            bounds: list[_Bound], relaxed: set, dom: dict | None = None,
            pred: Any = None) -> IntervalSet:
    """``interval`` (the relaxed ``[lo_expr, hi_expr]`` of one dimension) narrowed by the
    predicate comparisons ``bounds`` and, given the loop domains ``dom`` and the predicate
    ``pred``, by iterator-map detection; a bound that uses a ``relaxed`` loop var is no bound."""
    lo, hi = interval.min_value, interval.max_value
    if dom is not None:
        low, high = _iter_map_bound(lo_expr, dom, pred, relaxed), \
            _iter_map_bound(hi_expr, dom, pred, relaxed)
        if low is not None:
            lo = _tighter(ana, lo, ana.simplify(cast(PrimExpr, low.min_value)), False)  # bounded
        if high is not None:
            hi = _tighter(ana, hi, ana.simplify(cast(PrimExpr, high.max_value)), True)
    for lhs, rhs, strict in bounds:
        k = _offset(ana, hi_expr, lhs)        # hi_expr = lhs + k <(=) rhs + k
        if k is not None and not _uses(rhs, relaxed):
            hi = _tighter(ana, hi, ana.simplify(rhs + (k - 1 if strict else k)), True)
        k = _offset(ana, lo_expr, rhs)        # lo_expr = rhs + k >(=) lhs + k
        if k is not None and not _uses(lhs, relaxed):
            lo = _tighter(ana, lo, ana.simplify(lhs + (k + 1 if strict else k)), False)
    return IntervalSet(lo, hi)


def clip_to_shape(ana: Analyzer, sets: list[IntervalSet], shape: Any) -> list[IntervalSet]:
    """Each dimension intersected with ``[0, shape[d] - 1]`` (TVM intersects both regions with
    the buffer before comparing them)."""
    out = []
    for s, extent in zip(sets, shape):
        if not s.is_bounded():
            out.append(s)
            continue
        out.append(IntervalSet(ana.simplify(op.max(s.min_value, 0)),
                               ana.simplify(op.min(s.max_value, op.subtract(extent, 1)))))
    return out


# ------------------------------------------------------------ producer lower bound (TVM exact)
def _eval_iter_sum(ana: Analyzer, total: Any, extent: Any) -> IntervalSet | None:
    """TVM's ``EvalIterSum``: the elements ``base + split + [0, extent)`` surely cover, or
    ``None`` when they leave gaps (a stride larger than the region's extent)."""
    if not total.args:
        return IntervalSet(total.base, ana.simplify(op.add(total.base, extent - 1)))
    if len(total.args) != 1:
        return None
    split = total.args[0]
    scale = split.scale.value if isinstance(split.scale, IntImm) else None
    n = split.extent.value if isinstance(split.extent, IntImm) else None
    if scale is None or n is None or extent < abs(scale):
        return None  # the rows written are `scale` apart but only `extent` wide: gaps
    span = (n - 1) * scale
    lo = op.add(total.base, min(span, 0))
    hi = op.add(total.base, max(span, 0) + extent - 1)
    return IntervalSet(ana.simplify(lo), ana.simplify(hi))


def region_lower_bound(ana: Analyzer, mins: list[Any], extents: list[Any], dom: dict,
                       predicate: Any) -> list[IntervalSet] | None:
    """The region a block surely writes when its loops in ``dom`` run: TVM's
    ``EstimateRegionLowerBound`` (``EstimateRegionStrictBound``). The region's mins must be a
    surjective affine map of the loops (under ``predicate``) and each dimension one fused
    iterator whose stride does not exceed the region's extent; a strided write such as
    ``B[2 * i]`` leaves holes, so nothing is known to be written (``None``) and the producer
    covers nothing, exactly as in TVM."""
    if any(not isinstance(e, IntImm) for e in extents):
        return None
    if not mins:
        return []
    dom, predicate = _narrow_dom(dom, predicate)
    res = detect_iter_map(mins, dom, predicate, "surjective")
    if res.errors or len(res.indices) != len(mins):
        return None
    out = []
    for total, extent in zip(res.indices, extents):
        if extent.value == 0:
            return None
        bound = _eval_iter_sum(ana, total, extent.value)
        if bound is None:
            return None
        out.append(bound)
    return out


def union_lower_bound(ana: Analyzer, sets: list[IntervalSet | None]) -> IntervalSet | None:
    """TVM's ``UnionLowerBound``: intervals that touch or overlap are merged, a disjoint one
    is dropped (the result stays a lower bound); ``None`` stands for Nothing."""
    acc: IntervalSet | None = None
    for s in sets:
        if s is None:
            continue
        if acc is None:
            acc = s
            continue
        if ana.can_prove(op.less_equal(s.min_value, op.add(acc.max_value, 1))) and \
                ana.can_prove(op.less_equal(acc.min_value, op.add(s.max_value, 1))):
            acc = IntervalSet(ana.simplify(op.min(acc.min_value, s.min_value)),
                              ana.simplify(op.max(acc.max_value, s.max_value)))
    return acc


def _conjuncts(pred: Any) -> list[Any]:
    if isinstance(pred, And):
        return _conjuncts(pred.a) + _conjuncts(pred.b)
    return [pred]


def _narrow_dom(dom: dict, predicate: Any) -> tuple[dict, Any]:
    """Conjuncts ``v >= c`` / ``v < c`` (and their mirrors) on a single loop var narrow that
    loop's range, as TVM's iter-map constraints do; the others stay in the predicate for the
    iterator-map detection."""
    if predicate is None or isinstance(predicate, bool) or (
            isinstance(predicate, IntImm) and predicate.value == 1):
        return dom, True
    dom = dict(dom)
    rest = []
    for c in _conjuncts(predicate):
        bounds, ok = predicate_bounds(c)
        if not ok or not _narrow_one(dom, *bounds[0]):
            rest.append(c)
    out: Any = True
    for c in rest:
        out = c if out is True else And(out, c)
    return dom, out


def _narrow_one(dom: dict, lhs: Any, rhs: Any, strict: bool) -> bool:
    """Apply ``lhs < rhs`` (``<=`` unless strict) to ``dom`` when one side is a loop var of
    ``dom`` and the other a constant."""
    from ..ir.expr import Range  # pylint: disable=import-outside-toplevel
    for var, const, is_upper in ((lhs, rhs, True), (rhs, lhs, False)):
        key = next((v for v in dom if v is var), None) if isinstance(var, Var) else None
        if key is None or not isinstance(const, IntImm) or \
                not isinstance(dom[key].min, IntImm) or not isinstance(dom[key].extent, IntImm):
            continue
        lo, hi = dom[key].min.value, dom[key].min.value + dom[key].extent.value  # [lo, hi)
        if is_upper:
            hi = min(hi, const.value if strict else const.value + 1)
        else:
            lo = max(lo, const.value + 1 if strict else const.value)
        dom[key] = Range.from_min_extent(op.const(lo, key.dtype),
                                         op.const(max(hi - lo, 0), key.dtype))
        return True
    return False
