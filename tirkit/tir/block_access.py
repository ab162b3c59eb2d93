"""Detect the regions a block reads and writes (mirrors
``tvm.tir.analysis.get_block_read_write_region`` / TVM's ``BlockReadWriteDetector``).

Each access ``A[idx...]`` in the block body is relaxed over the loops inside the block (and the
iter vars of nested blocks, through their bindings); accesses to one buffer are unioned per
dimension. Buffers allocated by the block itself are not reported. As TVM's ``ScriptComplete``
does, a block with an ``init`` does not report its written buffers as read.
"""
from __future__ import annotations

from typing import Any

from .. import _layers
from ..ir.expr import PrimExpr, Range
from . import expr as E
from . import stmt as S
from .buffer import Buffer
from .stmt_functor import StmtExprVisitor, substitute


class _Detector(StmtExprVisitor):
    def __init__(self, block: S.Block) -> None:
        super().__init__()
        # loop var -> its IntervalSet, made once per loop (eval_set would convert every Range of
        # the map again for each index it relaxes)
        self.dom: dict[E.Var, Any] = {}
        self.reads: dict[Buffer, list] = {}
        self.writes: dict[Buffer, list] = {}
        self.excluded = set(block.alloc_buffers)
        # an access through a match_buffer view is an access of the region it views
        self.views = {m.buffer: m for m in block.match_buffers}

    def _record(self, table: dict[Buffer, list], buffer: Buffer, sets: list) -> None:
        seen = 0
        while buffer in self.views and seen < 8:
            match = self.views[buffer]
            sets = _view_to_source(match, sets)
            buffer, seen = match.source.buffer, seen + 1
        if buffer not in self.excluded:
            table.setdefault(buffer, []).append(sets)

    def _relax(self, indices: Any) -> list:
        eval_set = _layers.get("arith").eval_set
        return [eval_set(i, self.dom) for i in indices]

    def _relax_range(self, r: Range, vmap: dict) -> tuple[Any, Any]:
        """The sets of ``r``'s first and last index with ``vmap`` substituted. The last one,
        ``r.min + r.extent - 1``, is substituted as the node it is built on, ``r.min``, was (the
        same rebuild ``substitute`` makes of it) and evaluated with ``r.min``'s set as known."""
        eval_set = _layers.get("arith").eval_set
        first = substitute(r.min, vmap)
        lo = eval_set(first, self.dom)
        last = r.min + r.extent - 1
        add = last.a if isinstance(last, E.Sub) else None
        if not (isinstance(add, E.Add) and add.a is r.min and add.b is r.extent):
            return lo, eval_set(substitute(last, vmap), self.dom)  # folded: no shared node
        extent = substitute(r.extent, vmap)
        if first is not r.min or extent is not r.extent:
            last = last.with_changes(a=add.with_changes(a=first, b=extent))
        return lo, eval_set(last, self.dom, (first, lo))

    def visit_buffer_load_(self, op: E.BufferLoad) -> None:
        self._record(self.reads, op.buffer, self._relax(op.indices))
        super().visit_buffer_load_(op)

    def visit_buffer_store_(self, op: S.BufferStore) -> None:
        self.visit_expr(op.value)
        for i in op.indices:
            self.visit_expr(i)
        self._record(self.writes, op.buffer, self._relax(op.indices))

    def visit_for_(self, op: S.For) -> None:
        interval_set = _layers.get("arith").IntervalSet
        self.dom[op.loop_var] = interval_set.from_range(Range.from_min_extent(op.min, op.extent))
        super().visit_for_(op)

    def visit_block_realize_(self, op: S.BlockRealize) -> None:
        inner = op.block
        vmap = {iv.var: v for iv, v in zip(inner.iter_vars, op.iter_values)}
        for table, regions in ((self.reads, inner.reads), (self.writes, inner.writes)):
            for region in regions:
                sets = []
                for r in region.region:
                    sets.append(_hull(*self._relax_range(r, vmap)))
                self._record(table, region.buffer, sets)


def _view_to_source(match: S.MatchBufferRegion, sets: list) -> list:
    """Sets over a match_buffer view as sets over the region it views (TVM's
    ``ConvertMatchedRegion`` + ``ConvertRegion``): the source's leading dimensions (the rank the
    view drops) are single points, the others are offset by the source region's start; an
    unbounded set covers the whole view."""
    from .op import add, subtract  # pylint: disable=import-outside-toplevel

    interval_set = _layers.get("arith").IntervalSet
    src = match.source.region
    offset = len(src) - len(sets)
    if offset < 0:
        return [interval_set(r.min, add(r.min, subtract(r.extent, 1))) for r in src]
    out = [interval_set(r.min, r.min) for r in src[:offset]]
    for r, s, extent in zip(src[offset:], sets, match.buffer.shape):
        if s.is_bounded():
            out.append(interval_set(add(r.min, s.min_value), add(r.min, s.max_value)))
        else:
            out.append(interval_set(r.min, add(r.min, subtract(extent, 1))))
    return out


def _hull(lo: Any, hi: Any) -> Any:
    return _layers.get("arith").IntervalSet(lo.min_value, hi.max_value)


def _to_regions(table: dict[Buffer, list]) -> list[S.BufferRegion]:
    ana = _layers.get("arith").Analyzer()
    out = []
    for buffer, accesses in table.items():
        merged = accesses[0]
        for sets in accesses[1:]:
            merged = [a.union(b) for a, b in zip(merged, sets)]
        ranges = []
        for dim, s in enumerate(merged):
            if not s.is_bounded():
                ranges.append(Range.from_min_extent(_zero(buffer.shape[dim]), buffer.shape[dim]))
                continue
            if s.min_value is s.max_value:  # a single point, as EvalSet gave it (TVM's
                lo = s.min_value               # CollectRegions keeps range.min() unsimplified)
                ranges.append(Range.from_min_extent(lo, _one(lo)))
                continue
            lo = ana.simplify(s.min_value)
            extent = ana.simplify(s.max_value - s.min_value + 1)
            ranges.append(Range.from_min_extent(lo, extent))
        out.append(S.BufferRegion(buffer, ranges))
    return out


def _one(like: PrimExpr) -> PrimExpr:
    from .op import const  # pylint: disable=import-outside-toplevel

    return const(1, like.dtype)


def _zero(like: PrimExpr) -> PrimExpr:
    from .op import const  # pylint: disable=import-outside-toplevel

    return const(0, like.dtype)


def get_block_read_write_region(block: S.Block) -> tuple[list[S.BufferRegion],
                                                          list[S.BufferRegion]]:
    """``(reads, writes)`` of ``block`` detected from its body and init
    (mirrors ``tvm.tir.analysis.get_block_read_write_region``), in first-access order."""
    det = _Detector(block)
    if block.init is not None:
        det.visit_stmt(block.init)
    det.visit_stmt(block.body)
    reads, writes = _to_regions(det.reads), _to_regions(det.writes)
    if block.init is not None:
        written = {r.buffer for r in writes}
        reads = [r for r in reads if r.buffer not in written]
    return reads, writes
