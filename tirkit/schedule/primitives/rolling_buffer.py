"""rolling_buffer (mirrors TVM's ``src/tir/schedule/primitive/rolling_buffer.cc``).

For an intermediate buffer produced and consumed under a common loop (after ``compute_at``),
the region the producer writes per iteration of that loop is relaxed; the outermost block loop
that strides a dimension whose per-iteration region overlaps the next one becomes the rolling
axis: the buffer is folded to the region's extent along it (indices ``% extent``), and the
producer skips the overlapping part already computed by the previous iteration (block
predicate ``loop < 1 or overlap <= index``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from ...arith import Analyzer
from ...arith.int_set import eval_set
from ...ir.expr import IntImm, PrimExpr, Range
from ...tir import expr as E
from ...tir import op as tir_op
from ...tir import stmt as S
from ...tir.block_access import get_block_read_write_region
from ...tir.buffer import Buffer
from ...tir.stmt_functor import StmtExprMutator, substitute
from .. import errors as err
from . import _ir_utils as U
from ._ir_utils import PrimitiveResult
from .cache_layout_errors import (RollingBufferDependencyError, RollingBufferInsertionError,
                                  RollingBufferMatchError)
from .cache_read_write import nth_access_buffer


@dataclass
class _Info:
    old: Buffer
    new: Buffer
    axis: int
    extent: PrimExpr
    overlaps: list[int]
    iter_vars: list[E.Var | None]


def _match_dim(r: Range) -> tuple[E.Var | None, int] | None:
    """``(var, stride)`` of a region min ``var``, ``var * stride`` or
    ``floordiv(var * stride, d)``; ``(None, 0)`` for a constant; ``None`` otherwise."""
    m = r.min
    div = 1
    if isinstance(m, E.FloorDiv) and isinstance(m.b, IntImm):
        div, m = m.b.value, m.a
    if isinstance(m, E.Mul) and isinstance(m.a, E.Var) and isinstance(m.b, IntImm):
        return m.a, -(-m.b.value // div)
    if isinstance(m, E.Var) and div == 1:
        return m, 1
    if isinstance(m, IntImm) and div == 1:
        return None, 0
    return None


def _collect(site: U.Site, region: S.BufferRegion) -> _Info:
    """TVM's ``RollingBufferInfoCollector``."""
    vars_: list[E.Var | None] = []
    overlaps: list[int] = []
    for r in region.region:
        hit = _match_dim(r)
        if hit is None or not isinstance(r.extent, IntImm):
            raise RollingBufferMatchError(site.block, buffer=region.buffer.name,
                                          region=_region_text(region))
        var, stride = hit
        overlap = r.extent.value - stride if var is not None else 0
        vars_.append(var if overlap > 0 else None)
        overlaps.append(overlap)
    for lp in site.loops:
        for axis, var in enumerate(vars_):
            if var is lp.loop_var:
                extent = region.region[axis].extent
                shape = list(region.buffer.shape)
                shape[axis] = extent
                new = region.buffer.with_changes(shape=tuple(shape))
                return _Info(region.buffer, new, axis, extent, overlaps, vars_)
    raise RollingBufferMatchError(site.block, buffer=region.buffer.name,
                                  region=_region_text(region))


def _region_text(region: S.BufferRegion) -> str:
    return "[" + ", ".join(f"{r.min.script()}:{(r.min + r.extent).script()}"
                           for r in region.region) + "]"


class _Rewriter(StmtExprMutator):
    """TVM's ``RollingBufferRewriter``."""

    def __init__(self, scope: S.Block, info: _Info) -> None:
        super().__init__()
        self.scope, self.info = scope, info
        self.reuse: dict[S.Block, S.Block] = {}
        self.rewrite_pred = False

    def _indices(self, indices: Any) -> tuple[PrimExpr, ...]:
        return tuple(tir_op.floormod(i, self.info.extent) if k == self.info.axis else i
                     for k, i in enumerate(indices))

    def visit_buffer_load_(self, op: E.BufferLoad) -> Any:
        new = super().visit_buffer_load_(op)
        if op.buffer is self.info.old:
            return new.with_changes(buffer=self.info.new, indices=self._indices(new.indices))
        return new

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        new = super().visit_buffer_store_(op)
        if op.buffer is self.info.old:
            self.rewrite_pred = True
            return new.with_changes(buffer=self.info.new, indices=self._indices(new.indices))
        return new

    def visit_block_(self, op: S.Block) -> S.Stmt:
        new = super().visit_block_(op)
        if op is self.scope:
            new = new.with_changes(alloc_buffers=tuple(
                self.info.new if b is self.info.old else b for b in new.alloc_buffers))
        elif any(r.buffer is self.info.old for r in (*op.reads, *op.writes)):
            ivs = tuple(iv.with_changes(iter_type=E.IterVarType.DimInfo)
                        if k == self.info.axis else iv for k, iv in enumerate(new.iter_vars))
            reads, writes = get_block_read_write_region(new)
            pick = lambda rs: next(r for r in rs if r.buffer is self.info.new)  # noqa: E731
            new = new.with_changes(
                iter_vars=ivs,
                reads=tuple(pick(reads) if r.buffer is self.info.old else r for r in new.reads),
                writes=tuple(pick(writes) if r.buffer is self.info.old else r
                             for r in new.writes))
        self.reuse[op] = new
        return new

    def visit_block_realize_(self, op: S.BlockRealize) -> S.Stmt:
        new = super().visit_block_realize_(op)
        if not self.rewrite_pred:
            return new
        self.rewrite_pred = False
        ana = Analyzer()
        cond = new.predicate
        for k, var in enumerate(self.info.iter_vars):
            if var is None or self.info.overlaps[k] <= 0:
                continue
            at_zero = eval_set(op.iter_values[k], {var: Range.from_min_extent(
                IntImm(var.dtype, 0), IntImm(var.dtype, 1))}).min_value
            term = tir_op.logical_or(tir_op.less(var, 1),
                                     tir_op.greater_equal(at_zero, self.info.overlaps[k]))
            cond = ana.simplify(tir_op.logical_and(cond, term))
        return new.with_changes(predicate=cond)


def rolling_buffer_impl(body: S.Stmt, block: S.Block, write_buffer_index: int
                        ) -> PrimitiveResult:
    """TVM's ``RollingBuffer``.

    Raises:
        BufferIndexOutOfRangeError; NotOutputBlockError (the buffer is not an intermediate
        allocated in the scope); RollingBufferDependencyError (a WAR/WAW dependency);
        RollingBufferInsertionError (producer and consumers do not meet under a loop);
        RollingBufferMatchError (no dimension with an overlapping rolling pattern).
    """
    buffer = nth_access_buffer(block, write_buffer_index, "write")
    site = U.locate(body, block)
    scope = site.scope
    if not any(b is buffer for b in scope.alloc_buffers):
        raise err.NotOutputBlockError(block, reason=f"rolling_buffer needs {buffer.name} to be "
                                      "an intermediate buffer allocated in the scope")
    _check_deps(scope, block)
    consumers = U.raw_consumers(scope, block)
    lca = _lca(body, [block, *consumers])
    if not isinstance(lca, S.For):
        raise RollingBufferInsertionError(block, buffer=buffer.name)
    at = next(i for i, lp in enumerate(site.loops) if lp is lca)
    relaxed = U.relax_region(cast(S.BufferRegion, U.region_of(block.writes, buffer)), site.realize,
                             site.loops[at + 1:])
    info = _collect(site, relaxed)
    rewriter = _Rewriter(scope, info)
    new_scope = rewriter.visit_stmt(scope)
    return PrimitiveResult(scope, new_scope, rewriter.reuse, [])


def _check_deps(scope: S.Block, block: S.Block) -> None:
    """Only RAW dependencies in and out of the block (TVM's ``RollingBufferDependencyError``):
    no other block writes what it writes (WAW), reads it earlier, or overwrites later what it
    reads (WAR)."""
    blocks = U.child_blocks(scope)
    me = blocks.index(block)
    written = {id(r.buffer) for r in block.writes}
    read = {id(r.buffer) for r in block.reads}
    for k, other in enumerate(blocks):
        if k == me:
            continue
        o_writes = {id(r.buffer) for r in other.writes}
        o_reads = {id(r.buffer) for r in other.reads}
        if o_writes & written or (k < me and o_reads & written) or (k > me and o_writes & read):
            raise RollingBufferDependencyError(block)


def _lca(body: S.Stmt, blocks: list[S.Block]) -> S.Stmt | None:
    paths = [U.path_to(body, b) for b in blocks]
    common = None
    for nodes in zip(*paths):
        if all(n is nodes[0] for n in nodes):
            common = nodes[0] if isinstance(nodes[0], (S.For, S.Block)) else common
        else:
            break
    return common


def _register() -> None:
    from ..schedule import primitive  # pylint: disable=import-outside-toplevel
    from ._args import apply_result, as_block_rv, block_of, func_body  # pylint: disable=C0415

    def _normalize(sch: Any, args: dict) -> None:
        args["block"] = as_block_rv(sch, args["block"])

    @primitive("RollingBuffer", attrs=("write_buffer_index",), normalize=_normalize)
    def rolling_buffer(sch: Any, block: Any, write_buffer_index: int) -> None:
        """Fold the intermediate buffer ``block`` writes along its outermost rolling axis and
        skip recomputing the overlap (``Schedule.rolling_buffer``).

        Raises:
            ScheduleError: BufferIndexOutOfRangeError, NotOutputBlockError,
                RollingBufferDependencyError, RollingBufferInsertionError,
                RollingBufferMatchError.
        """
        apply_result(sch, rolling_buffer_impl(func_body(sch, block), block_of(sch, block),
                                              write_buffer_index))


_register()
