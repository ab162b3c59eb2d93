"""What blockize (:mod:`.blockize_tensorize`, one loop) and blockize of several blocks
(:mod:`.blockize_blocks`) share: dividing a binding into outer and inner parts (TVM's
``SubspaceDivide`` for affine bindings), substituting the new iter vars, and the outer block's
access regions (the region union also gives loop_partition's wrapper blocks theirs).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ...arith import Analyzer, detect_iter_map
from ...arith.int_set import eval_set
from ...ir.expr import IntImm, PrimExpr, Range
from ...tir import expr as E
from ...tir import op as tir_op
from ...tir import stmt as S
from ...tir.stmt_functor import StmtExprMutator, post_order_visit, substitute
from . import _ir_utils as U

__all__ = ["Division", "uses", "divide", "Subst", "eval_regions", "union_regions"]


@dataclass
class Division:
    outer: PrimExpr
    outer_extent: PrimExpr
    inner: PrimExpr
    inner_extent: PrimExpr


def uses(e: PrimExpr, ids: set[int]) -> bool:
    hit: list[bool] = []
    post_order_visit(e, lambda n: hit.append(True) if id(n) in ids else None)
    return bool(hit)


def divide(value: PrimExpr, dom: Range, outer: list[S.For], inner: list[S.For],
            ana: Analyzer) -> Division | None:
    """``value == outer * inner_extent + inner`` with ``inner`` over the inner loops covering
    ``[0, inner_extent)`` exactly, or ``None``."""
    inner_ids = {id(lp.loop_var) for lp in inner}
    outer_ids = {id(lp.loop_var) for lp in outer}
    one = IntImm(value.dtype, 1)
    if not uses(value, inner_ids):
        return Division(value, dom.extent, IntImm(value.dtype, 0), one)
    zero_inner = {lp.loop_var: lp.min for lp in inner}
    out_raw = ana.simplify(substitute(value, zero_inner))
    in_part = ana.simplify(value - out_raw)
    if uses(in_part, outer_ids) or uses(out_raw, inner_ids):
        return None
    res = detect_iter_map([in_part], U.loop_ranges(inner), check_level="surjective")
    if res.errors or len(res.indices[0].args) != 1:
        return None
    split = res.indices[0].args[0]
    if not (U.is_const(split.scale, 1) and U.is_const(res.indices[0].base, 0)):
        return None
    ext = split.extent
    q = ana.simplify(tir_op.floordiv(out_raw, ext))
    if not ana.can_prove_equal(q * ext, out_raw):
        return None
    if not ana.can_prove_equal(tir_op.floormod(dom.extent, ext), 0):
        return None
    return Division(q, ana.simplify(tir_op.floordiv(dom.extent, ext)), in_part, ext)


class Subst(StmtExprMutator):
    """Substitute vars and simplify what changed; record replaced blocks (TVM's blockize
    ``Substitute``)."""

    def __init__(self, vmap: dict[int, PrimExpr], ana: Analyzer,
                 reuse: dict[S.Block, S.Block]) -> None:
        super().__init__()
        self.vmap, self.ana, self.reuse = vmap, ana, reuse

    def visit_expr(self, expr: PrimExpr) -> PrimExpr:
        out = super().visit_expr(expr)
        return out if out is expr else self.ana.simplify(out)

    def visit_var_(self, op: E.Var) -> PrimExpr:
        return self.vmap.get(id(op), op)

    def visit_block_(self, op: S.Block) -> S.Stmt:
        new = super().visit_block_(op)
        if new is not op:
            self.reuse[op] = new
        return new


def eval_regions(regions: Sequence[S.BufferRegion], dom: dict[E.Var, Range],
                  ana: Analyzer) -> tuple[S.BufferRegion, ...]:
    out = []
    for r in regions:
        rng = []
        for x, dim in zip(r.region, r.buffer.shape):
            lo = eval_set(x.min, dom)
            hi = eval_set(x.min + x.extent - 1, dom)
            if lo.min_value is None or hi.max_value is None:
                rng.append(Range.from_min_extent(IntImm(dim.dtype, 0), dim))
                continue
            start = ana.simplify(lo.min_value)
            rng.append(Range.from_min_extent(start, ana.simplify(hi.max_value - start + 1)))
        out.append(S.BufferRegion(r.buffer, tuple(rng)))
    return tuple(out)


def union_regions(regions: Sequence[S.BufferRegion], ana: Analyzer) -> tuple[S.BufferRegion, ...]:
    """TVM's ``UnionRegions``: one hull per buffer, in first-seen order."""
    merged: dict[int, tuple[Any, list]] = {}
    for r in regions:
        lo_hi = [(x.min, x.min + x.extent) for x in r.region]
        if id(r.buffer) not in merged:
            merged[id(r.buffer)] = (r.buffer, lo_hi)
            continue
        buf, old = merged[id(r.buffer)]
        merged[id(r.buffer)] = (buf, [(tir_op.min(a, c), tir_op.max(b, d))
                                      for (a, b), (c, d) in zip(old, lo_hi)])
    out = []
    for buf, lo_hi in merged.values():
        rng = []
        for lo, hi in lo_hi:
            lo = ana.simplify(lo)
            rng.append(Range.from_min_extent(lo, ana.simplify(hi - lo)))
        out.append(S.BufferRegion(buf, tuple(rng)))
    return tuple(out)
