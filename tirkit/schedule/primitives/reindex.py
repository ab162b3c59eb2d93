"""reindex (mirrors ``ReIndex`` of TVM's ``src/tir/schedule/primitive/cache_read_write.cc``).

``reindex(block, ("read"|"write", i))`` gives the block a buffer ``{name}_reindex`` indexed by
the block iters its access uses (``A[vi + vk, vj]`` becomes ``A_reindex[vi, vj, vk]``) and a
copy stage between it and the original buffer, placed right before (read) or after (write) the
block's loop nest. The block must be a leaf, access the buffer with one index pattern and never
opaquely, and sit in a chain of loops under its scope.
"""
from __future__ import annotations

from typing import Any, cast

from ...arith import Analyzer
from ...ir.expr import IntImm, PrimExpr, Range
from ...tir import expr as E
from ...tir import op as tir_op
from ...tir import stmt as S
from ...tir.analysis import expr_deep_equal
from ...tir.buffer import Buffer
from ...tir.stmt_functor import StmtExprMutator, StmtExprVisitor, post_order_visit, substitute
from . import _ir_utils as U
from .cache_layout_errors import (InvalidBufferAccessError, NotLeafBlockError,
                                  ReadModifyWriteError, ReIndexPartialWriteError)
from ._ir_utils import PrimitiveResult
from .cache_read_write import CacheStageInfo, nth_access_buffer


class _Collector(StmtExprVisitor):
    """TVM's ``ReIndexCollector``: the one index pattern of ``buffer`` in the block."""

    def __init__(self, buffer: Buffer, block: S.Block) -> None:
        super().__init__()
        self.buffer, self.block = buffer, block
        self.indices: tuple[PrimExpr, ...] | None = None

    def _record(self, indices: tuple[PrimExpr, ...]) -> None:
        if self.indices is None:
            self.indices = indices
        elif len(indices) != len(self.indices) or not all(
                expr_deep_equal(a, b) for a, b in zip(indices, self.indices)):
            raise InvalidBufferAccessError(self.block, reason=f"the buffer {self.buffer.name} is "
                                           "accessed with different indices in the block")

    def visit_buffer_load_(self, op: E.BufferLoad) -> None:
        super().visit_buffer_load_(op)
        if op.buffer is self.buffer:
            self._record(op.indices)

    def visit_buffer_store_(self, op: S.BufferStore) -> None:
        super().visit_buffer_store_(op)
        if op.buffer is self.buffer:
            self._record(op.indices)

    def visit_block_(self, op: S.Block) -> None:
        raise NotLeafBlockError(self.block)

    def visit_var_(self, op: E.Var) -> None:
        if op is self.buffer.data:
            raise InvalidBufferAccessError(self.block, reason=f"the buffer {self.buffer.name} is "
                                           "accessed opaquely (through its data pointer)")


def _collect(buffer: Buffer, block: S.Block) -> tuple[PrimExpr, ...]:
    col = _Collector(buffer, block)
    col.visit_stmt(block.body)
    if col.indices is None:
        raise InvalidBufferAccessError(block, reason=f"the buffer {buffer.name} is not accessed "
                                       "by a BufferLoad or BufferStore in the block")
    return col.indices


def _reindex_buffer(buffer: Buffer, block: S.Block, covered: set[int]) -> Buffer:
    """TVM's ``CreateReindexBuffer``."""
    doms = [cast(Range, iv.dom) for iv in block.iter_vars if id(iv.var) in covered]  # (block's)
    shape = tuple(dom.min + dom.extent for dom in doms)
    buf = U.with_scope(buffer, buffer.scope(), f"{buffer.name}_reindex")
    return buf.with_changes(shape=shape, strides=())


def _stage(block: S.Block, info: CacheStageInfo, covered: set[int],
           indices: tuple[PrimExpr, ...], is_write: bool, index_map: Any = None,
           name: str | None = None) -> S.Block:
    """TVM's ``MakeReIndexStage`` (with ``index_map``: ``MakeReindexCacheStage``, the new
    buffer indexed by the map of the iters, iters the access does not use at their min)."""
    ivs: list[E.IterVar] = []
    loops: list[E.Var] = []
    vmap, re_idx, all_vars = {}, [], []
    for iv in block.iter_vars:
        var = E.Var(f"v{len(ivs)}", iv.var.dtype)
        vmap[id(iv.var)] = var
        all_vars.append(var if id(iv.var) in covered else cast(Range, iv.dom).min)
        if id(iv.var) in covered:
            ivs.append(E.IterVar(iv.dom, var, E.IterVarType.DataPar))
            re_idx.append(var)
            loops.append(E.Var(f"ax{len(loops)}", iv.var.dtype))
    if index_map is not None:
        re_idx = list(index_map.map_indices(all_vars))
    target = tuple(substitute(i, lambda v: vmap.get(id(v))) for i in indices)
    src, dst = (tuple(re_idx), target) if is_write else (target, tuple(re_idx))
    point = lambda b, idx: S.BufferRegion(b, tuple(  # noqa: E731
        Range.from_min_extent(i, IntImm(i.dtype, 1)) for i in idx))
    if name is None:
        name = f"{(info.write_buffer if is_write else info.read_buffer).name}_reindex"
    new = S.Block(tuple(ivs), (point(info.read_buffer, src),), (point(info.write_buffer, dst),),
                  name,
                  S.BufferStore(info.write_buffer, E.BufferLoad(info.read_buffer, src), dst))
    stmt: S.Stmt = S.BlockRealize(tuple(loops), IntImm("bool", 1), new)
    for var, iv in reversed(list(zip(loops, ivs))):
        dom = cast(Range, iv.dom)  # (made above from the block's)
        stmt = S.For(var, dom.min, dom.extent, S.ForKind.SERIAL, stmt)
    info.stage = stmt
    return new


class _Rewriter(StmtExprMutator):
    """TVM's ``ReIndexRewriter``."""

    def __init__(self, scope: S.Block, block: S.Block, info: CacheStageInfo, old: Buffer,
                 covered: set[int], index_map: Any = None) -> None:
        super().__init__()
        self.scope, self.block, self.info, self.old = scope, block, info, old
        self.new = info.alloc
        self.indices = tuple(iv.var for iv in block.iter_vars if id(iv.var) in covered)
        if index_map is not None:
            self.indices = tuple(index_map.map_indices([iv.var for iv in block.iter_vars]))

    def visit_block_(self, op: S.Block) -> S.Stmt:
        if op is self.scope:
            new = super().visit_block_(op)
            new = new.with_changes(body=U.insert_stage(new.body, self.info.pos, self.info.stage),
                                   alloc_buffers=tuple(new.alloc_buffers) + (self.new,))
        elif op is self.block:
            new = super().visit_block_(op)
            region = S.BufferRegion(self.new, tuple(Range.from_min_extent(
                i, IntImm(i.dtype, 1)) for i in self.indices))
            swap = lambda rs: tuple(region if r.buffer is self.old else r for r in rs)  # noqa
            new = new.with_changes(reads=swap(new.reads), writes=swap(new.writes))
        else:
            return op
        self.info.block_reuse[op] = new
        return new

    def visit_buffer_load_(self, op: E.BufferLoad) -> Any:
        new = super().visit_buffer_load_(op)
        return new.with_changes(buffer=self.new, indices=self.indices) \
            if op.buffer is self.old else new

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        new = super().visit_buffer_store_(op)
        return new.with_changes(buffer=self.new, indices=self.indices) \
            if op.buffer is self.old else new


def reindex_impl(body: S.Stmt, block: S.Block, buffer_index: int,
                 buffer_index_type: str) -> PrimitiveResult:
    """TVM's ``ReIndex`` on the function ``body``; ``buffer_index_type`` is ``"read"`` or
    ``"write"``.

    Raises:
        BufferIndexOutOfRangeError, NotLeafBlockError, InvalidBufferAccessError, and
        InvalidBufferAccessError when the block's loops do not form a chain under the scope;
        ReadModifyWriteError for a read the block also writes, or a write it also reads
        without a T.init; ReIndexPartialWriteError for a write the block does not make at
        every point of its iter domain.
    """
    is_write = buffer_index_type == "write"
    buffer = nth_access_buffer(block, buffer_index, buffer_index_type)
    site = U.locate(body, block)
    indices = _collect(buffer, block)
    _check_read_write(block, buffer, is_write)
    ana = Analyzer()
    for iv in block.iter_vars:
        ana.bind(iv.var, cast(Range, iv.dom))  # (a block iter var's domain)
    indices = tuple(ana.simplify(i) for i in indices)
    _check_in_bounds(ana, buffer, block, indices)
    covered: set[int] = set()
    for i in indices:
        post_order_visit(i, lambda n: covered.add(id(n)) if isinstance(n, E.Var) else None)
    if is_write:
        check_writes_whole_domain(site, buffer, covered)
    new_buf = _reindex_buffer(buffer, block, covered)
    info = CacheStageInfo(read_buffer=new_buf if is_write else buffer,
                          write_buffer=buffer if is_write else new_buf, alloc=new_buf)
    top = _chain_top(site)
    seq = site.scope.body.seq if isinstance(site.scope.body, S.SeqStmt) else (site.scope.body,)
    info.pos = next((k for k, s in enumerate(seq) if s is top), 0) + (1 if is_write else 0)
    stage = _stage(block, info, covered, indices, is_write)
    new_scope = _Rewriter(site.scope, block, info, buffer, covered).visit_stmt(site.scope)
    return PrimitiveResult(site.scope, new_scope, info.block_reuse, [stage])


def _check_read_write(block: S.Block, buffer: Buffer, is_write: bool,
                      new: str | None = None) -> None:
    """Every access of ``buffer`` in the block moves to the new buffer (named ``new``), but the
    copy stage goes one way only: refuse a read the block also writes (its results would stay in
    the new buffer) and a write it reads without a T.init (it would start from the
    uninitialised new buffer)."""
    new = new or f"{buffer.name}_reindex"
    if not is_write and any(w.buffer is buffer for w in block.writes):
        raise ReadModifyWriteError(
            block, buffer=buffer.name, reason=f"reindexing the read would move its writes to "
            f"{new} too, and only a copy into {new} is made: the results would never reach "
            f"{buffer.name}")
    if is_write and U.reads_before_init(block, buffer):
        raise ReadModifyWriteError(
            block, buffer=buffer.name, reason=f"it has no T.init, so with the write reindexed "
            f"it would read {new} before anything is written there (only a copy out of {new} "
            "is made); reindex it before decompose_reduction")


def check_writes_whole_domain(site: U.Site, buffer: Buffer, covered: set[int]) -> None:
    """The copy stage of a reindexed write copies the new buffer back at every value of the
    iters the access uses (``covered``), unguarded: refuse (ReIndexPartialWriteError) when the
    block surely or possibly skips some of them -- a loop nest whose bindings do not reach an
    iter's whole domain, a predicate its iter domains do not imply (a split by a non-divisor's
    ``i0 * 4 + i1 < 14`` is implied; a padding block's ``14 <= i`` is not), or a store to
    ``buffer`` under an ``if``. The copy would overwrite what other blocks wrote there with
    values never computed (no TVM counterpart: TVM 0.27 applies)."""
    block, realize = site.block, site.realize
    ana = Analyzer()
    for loop in site.loops:
        ana.bind(loop.loop_var, Range.from_min_extent(loop.min, loop.extent))
    in_dom = []
    for iv, value in zip(block.iter_vars, realize.iter_values):
        lo, ext = cast(Range, iv.dom).min, cast(Range, iv.dom).extent
        in_dom += [tir_op.greater_equal(value, lo), tir_op.less(value, lo + ext)]
        if id(iv.var) not in covered or not (isinstance(lo, IntImm) and isinstance(ext, IntImm)):
            continue
        bound = ana.const_int_bound(value)
        hi = lo.value + ext.value - 1
        if bound.min_value > lo.value or bound.max_value < hi:
            raise ReIndexPartialWriteError(
                block, buffer=buffer.name, reason=f"iter {iv.var.name_hint} takes values in "
                f"[{bound.min_value}, {bound.max_value}] over its loops, not all of "
                f"[{lo.value}, {hi}]")
    pred = realize.predicate
    if not U.is_const(pred, 1):
        with ana.constraint_scope(tir_op.all(*in_dom) if in_dom else IntImm("bool", 1)):
            implied = ana.can_prove(pred)
        if not implied:
            raise ReIndexPartialWriteError(
                block, buffer=buffer.name, reason=f"its predicate {pred.script()} may skip "
                "points of the iter domains")
    if _store_under_condition(block.body, buffer):
        raise ReIndexPartialWriteError(block, buffer=buffer.name,
                                       reason=f"the store to {buffer.name} is under a condition")


def _store_under_condition(stmt: S.Stmt, buffer: Buffer) -> bool:
    """Whether a BufferStore to ``buffer`` in ``stmt`` sits under an ``if`` or a ``while``."""
    found: list[bool] = []

    def visit(node: S.Stmt, under: bool) -> None:
        if isinstance(node, S.BufferStore):
            if node.buffer is buffer and under:
                found.append(True)
        elif isinstance(node, S.IfThenElse):
            visit(node.then_case, True)
            if node.else_case is not None:
                visit(node.else_case, True)
        elif isinstance(node, S.While):
            visit(node.body, True)
        elif isinstance(node, S.SeqStmt):
            for child in node.seq:
                visit(child, under)
        elif hasattr(node, "body") and isinstance(node.body, S.Stmt):
            visit(node.body, under)
    visit(stmt, False)
    return bool(found)


def _check_in_bounds(ana: Analyzer, buffer: Buffer, block: S.Block,
                     indices: tuple[PrimExpr, ...]) -> None:
    """The copy stage runs the access over every value of the block's iters, unguarded: refuse
    when that reaches outside ``buffer`` (an access the block makes under a guard, such as
    ``T.if_then_else(1 <= vh, data[vh - 1], 0)``, would become an out-of-bounds read)."""
    iters = {id(iv.var) for iv in block.iter_vars}
    for dim, (idx, extent) in enumerate(zip(indices, buffer.shape)):
        used: list[E.Var] = []
        post_order_visit(idx, lambda n: used.append(n) if isinstance(n, E.Var) else None)
        if not isinstance(extent, IntImm) or any(id(v) not in iters for v in used):
            continue  # not bounded by the block's iters alone: nothing shown
        bound = ana.const_int_bound(idx)
        if bound.min_value < 0 or bound.max_value >= extent.value:
            raise InvalidBufferAccessError(
                block, reason=f"the copy stage would access {buffer.name} out of bounds: index "
                f"{dim} takes values in [{bound.min_value}, {bound.max_value}] over the block's "
                f"iter domains, outside [0, {extent.value - 1}] (is the access guarded?)")


def _chain_top(site: U.Site) -> S.Stmt:
    """The outermost statement of the block's loop chain under its scope."""
    at = max(i for i, s in enumerate(site.path[:-2]) if s is site.scope)
    chain = site.path[at + 1:-1]
    while chain and isinstance(chain[0], S.SeqStmt):
        chain = chain[1:]
    for outer, inner in zip(chain, chain[1:]):
        if not (isinstance(outer, S.For) and outer.body is inner):
            raise InvalidBufferAccessError(site.block, reason="the block's loops do not form a "
                                           "chain under its scope (reindex needs a loop nest "
                                           "holding only this block)")
    return chain[0]


# ----------------------------------------------------------------------- schedule methods
def _normalize(sch: Any, args: dict) -> None:
    from ._args import as_block_rv, normalize_buffer  # pylint: disable=C0415

    args["block"] = as_block_rv(sch, args["block"])
    args["buffer"] = normalize_buffer(sch, args["block"], args["buffer"])


def _register() -> None:
    from ..schedule import primitive  # pylint: disable=import-outside-toplevel
    from ._args import apply_result, block_of, func_body  # pylint: disable=C0415

    @primitive("ReIndex", attrs=("buffer",), outputs="one", normalize=_normalize)
    def reindex(sch: Any, block: Any, buffer: Any) -> Any:
        """Give ``block`` a buffer indexed by its iters for ``buffer`` (``("read"|"write", i)``,
        a name or a Buffer) plus the copy stage; returns the copy block
        (``Schedule.reindex``).

        Raises:
            ScheduleError: BufferIndexOutOfRangeError, NotLeafBlockError,
                InvalidBufferAccessError, ReadModifyWriteError (a read the block also
                writes, or a write it also reads without a T.init), ReIndexPartialWriteError
                (a write the block does not make at every point of its iter domain).
        """
        kind, index = buffer
        return apply_result(sch, reindex_impl(func_body(sch, block), block_of(sch, block),
                                              index, kind))[0]


_register()
