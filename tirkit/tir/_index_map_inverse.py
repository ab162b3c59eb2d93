"""Inversion of an affine IndexMap (mirrors ``IndexMapInverseImpl`` and
``arith::InverseAffineIterMap`` of TVM).

The final indices are detected as an affine iterator map of the initial ones
(``tirkit.arith.detect_iter_map``); each output var's value is then pushed back through the
marks: a fused mark's value is split into its parts by ``floordiv``/``floormod`` by their scales,
a split's value is scaled by its lower factor into its mark, and an input mark's value (plus its
range's min) is the input var. With padding, the detection runs over the padded input ranges and
the padding predicate says when an input falls outside its original range.
"""
from __future__ import annotations

from typing import Any

from .. import _layers
from ..ir.expr import IntImm, PrimExpr, Range
from . import expr as E
from . import op as tir_op
from .index_map import IndexMap, _analyzer, padded_ranges


def _marks_top_down(tops: list[Any]) -> list[Any]:
    """Marks reachable from ``tops``, every mark before the marks it is made of."""
    iter_sum_expr = _layers.get("arith").IterSumExpr
    order: list[Any] = []
    seen: set[int] = set()

    def visit(mark: Any) -> None:
        if id(mark) in seen:
            return
        seen.add(id(mark))
        if isinstance(mark.source, iter_sum_expr):
            for arg in mark.source.args:
                visit(arg.source)
        order.append(mark)

    for top in tops:
        visit(top)
    return order[::-1]


def _leaf_var(source: PrimExpr) -> tuple[E.Var, PrimExpr | None]:
    """The input var of an input mark's source (``v`` or ``v - min``) and the offset to add."""
    if isinstance(source, E.Var):
        return source, None
    if isinstance(source, E.Sub) and isinstance(source.a, E.Var):
        return source.a, source.b
    if isinstance(source, E.Add) and isinstance(source.a, E.Var):
        return source.a, tir_op.negative(source.b)
    raise ValueError(f"IndexMap inverse: unexpected iterator source {source.script()}")


def _sum(parts: list[PrimExpr], dtype: Any) -> PrimExpr:
    out: PrimExpr | None = None
    for p in parts:
        out = p if out is None else tir_op.add(out, p)
    return out if out is not None else IntImm(dtype, 0)


def inverse_affine_iter_map(indices: list[Any], outputs: list[PrimExpr]) -> dict[int, Any]:
    """``{id(var): (var, expr)}`` expressing each input var through ``outputs``, the values of
    ``indices`` (``IterSumExpr`` from ``detect_iter_map``), mirroring
    TVM's ``arith::InverseAffineIterMap``."""
    iter_sum_expr = _layers.get("arith").IterSumExpr
    contrib: dict[int, list[PrimExpr]] = {}
    tops = []
    for index, out in zip(indices, outputs):
        if not index.args:
            continue
        split = index.args[0]
        value = tir_op.subtract(out, index.base)
        if not (isinstance(split.scale, IntImm) and split.scale.value == 1):
            value = tir_op.floordiv(value, split.scale)
        contrib.setdefault(id(split.source), []).append(
            tir_op.multiply(value, split.lower_factor))
        tops.append(split.source)
    result: dict[int, Any] = {}
    for mark in _marks_top_down(tops):
        value = _sum(contrib.get(id(mark), []), mark.extent.dtype)
        if isinstance(mark.source, iter_sum_expr):
            args = sorted(mark.source.args, key=lambda a: -a.scale.value)
            for k, arg in enumerate(args):
                part = value if arg.scale.value == 1 else tir_op.floordiv(value, arg.scale)
                if k > 0:
                    part = tir_op.floormod(part, arg.extent)
                contrib.setdefault(id(arg.source), []).append(
                    tir_op.multiply(part, arg.lower_factor))
            continue
        var, offset = _leaf_var(mark.source)
        result[id(var)] = (var, value if offset is None else tir_op.add(value, offset))
    return result


def _detect(imap: IndexMap, ranges: list[Range], level: str) -> Any:
    detect_iter_map = _layers.get("arith").detect_iter_map
    return detect_iter_map(imap.final_indices, dict(zip(imap.initial_indices, ranges)),
                           check_level=level, simplify_trivial_iterators=True)


def inverse_impl(imap: IndexMap, ranges: list[Range], bijective: bool
                 ) -> tuple[IndexMap, PrimExpr]:
    """The inverse of ``imap`` over ``ranges`` and its padding predicate
    (TVM's ``IndexMapInverseImpl``).

    Raises:
        ValueError: when the map is not (bijectively, if asked) an affine map over ``ranges``.
    """
    imap._check_arity(ranges, "ranges")  # pylint: disable=protected-access
    if imap.inverse_index_map is not None:
        return imap.inverse_index_map, IntImm("bool", 0)
    padded = ranges
    res = _detect(imap, ranges, "bijective")
    if res.errors and not bijective:
        padded = padded_ranges(imap, ranges) or ranges
        res = _detect(imap, padded, "bijective")
    if res.errors:
        raise ValueError(f"Could not parse mapping as sum of iterators over "
                         f"{[_range_text(r) for r in ranges]}. Error: {res.errors[0]}")
    outs = [E.Var(f"axis{i}", e.dtype) for i, e in enumerate(imap.final_indices)]
    solved = inverse_affine_iter_map(list(res.indices), list[PrimExpr](outs))
    out_ranges = imap.map_ranges(ranges)
    ana = _analyzer(list(zip(outs, out_ranges)))
    exprs: list[PrimExpr] = []
    pred: PrimExpr = IntImm("bool", 0)
    for var, orig, pad in zip(imap.initial_indices, ranges, padded):
        expr = solved.get(id(var), (var, orig.min))[1]
        expr = ana.simplify(expr)
        exprs.append(expr)
        if pad is not orig:
            outside = tir_op.greater_equal(expr, tir_op.add(orig.min, orig.extent))
            if not ana.can_prove_equal(pad.min, orig.min):
                outside = tir_op.logical_or(tir_op.less(expr, orig.min), outside)
            pred = outside if isinstance(pred, IntImm) else tir_op.logical_or(pred, outside)
    return IndexMap(outs, exprs), ana.simplify(pred)


# IndexMap.inverse / non_surjective_inverse (tirkit.tir.index_map, imported above) call it
_layers.provide("index_map_inverse", inverse_impl)


def _range_text(r: Range) -> str:
    return f"[{r.min.script()}, {tir_op.add(r.min, r.extent).script()})"
