"""``CompactBufferAllocation``: shrink every block-allocated buffer to the region its accesses
cover (mirrors ``tvm.tir.transform.CompactBufferAllocation``,
src/tir/transforms/compact_buffer_region.cc).

For a buffer allocated by block ``B``, every access inside ``B`` (loads, stores, the reads/
writes of nested blocks, match_buffer sources; an opaque use of the data var counts as the
block's annotated regions or the whole buffer) is relaxed over the loops *inside* ``B`` (and
over thread loops outside it when the storage scope allows: ``global`` under ``blockIdx``/
``threadIdx``, ``shared`` under ``threadIdx``). The union per dimension, clamped to the old
shape, gives the new shape; every access index is shifted by the region's min. A region extent
that still depends on an enclosing loop becomes its constant upper bound (or the whole
dimension). A ``buffer_dim_align`` block annotation gives the compacted buffer padded strides.
"""
from __future__ import annotations

from typing import Any

from tirkit.arith.bound import ConstIntBound
from tirkit.arith.int_set import IntervalSet, eval_set
from tirkit.compiler.transform import Pass, prim_func_pass, register_pass
from tirkit.ir.expr import IntImm, PrimExpr, Range
from tirkit.ir.structural import structural_equal
from tirkit.tir import op as tir_op
from tirkit.tir.buffer import Buffer
from tirkit.tir.expr import BufferLoad, Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import Block, BufferRegion, BufferStore, For, ForKind, LetStmt, Stmt
from tirkit.tir.stmt_functor import StmtExprMutator, StmtExprVisitor, post_order_visit

from ._opt_common import DeferredBinds
from .lower_opaque_block import collect_storage_align

_STORAGE_RANK = {"global": 0, "shared": 1, "shared.dyn": 1, "warp": 2, "local": 3}


def can_relax_storage_under_thread(scope: str, thread_tag: str) -> bool:
    """Whether a buffer of storage ``scope`` is shared by the threads of ``thread_tag``, so its
    region is relaxed over that thread loop (TVM ``CanRelaxStorageUnderThread``)."""
    rank = _STORAGE_RANK.get(scope.split(".")[0] if scope != "shared.dyn" else scope, 3)
    if thread_tag.startswith("blockIdx"):
        thread_rank, dim = 0, thread_tag[-1]
    elif thread_tag.startswith("threadIdx"):
        thread_rank, dim = 1, thread_tag[-1]
    else:  # vthread / cthread: the level of threadIdx
        thread_rank, dim = 1, ""
    if rank == 2:
        return thread_rank == 1 and dim == "x"
    return rank <= thread_rank


def _relax_region(region: tuple[Range, ...], dom: dict[Var, IntervalSet]) -> list[IntervalSet]:
    out = []
    for r in region:
        lo = eval_set(r.min, dom)  # (the last index holds the node r.min: its set is lo)
        hi = eval_set(tir_op.subtract(tir_op.add(r.min, r.extent), 1), dom, (r.min, lo))
        out.append(IntervalSet(lo.min_value, hi.max_value))
    return out


class _AccessRegionCollector(StmtExprVisitor):
    """TVM ``BufferAccessRegionCollector``: the compacted region of each block-allocated buffer."""

    def __init__(self, is_strict: bool) -> None:
        self.loops: list[For] = []
        self.dom: dict[Var, IntervalSet] = {}
        self.ana = DeferredBinds()
        self.in_scope: dict[Var, tuple[Buffer, int]] = {}
        self.relaxed: dict[Buffer, list[IntervalSet]] = {}
        self.annotated: dict[Buffer, list[BufferRegion]] = {}
        self.regions: dict[Buffer, tuple[Range, ...]] = {}
        self.is_strict = is_strict

    def visit_buffer_store_(self, op: BufferStore) -> None:
        if op.buffer.data in self.in_scope:  # (a parameter's buffer: no region to make)
            self.access(BufferRegion.from_point(op.buffer, op.indices))
        super().visit_buffer_store_(op)

    def visit_buffer_load_(self, op: BufferLoad) -> None:
        if op.buffer.data in self.in_scope:
            self.access(BufferRegion.from_point(op.buffer, op.indices))
        super().visit_buffer_load_(op)

    def visit_var_(self, op: Var) -> None:
        entry = self.in_scope.get(op)
        if entry is not None:
            buf = entry[0]
            for region in self.annotated.get(buf) or [BufferRegion.full_region(buf)]:
                self.access(region)

    def visit_for_(self, op: For) -> None:
        self.loops.append(op)
        rng = Range.from_min_extent(op.min, op.extent)
        self.ana.bind(op.loop_var, rng)
        self.dom[op.loop_var] = IntervalSet.from_range(rng)
        super().visit_for_(op)
        del self.dom[op.loop_var]
        self.loops.pop()

    def visit_let_stmt_(self, op: LetStmt) -> None:
        self.visit_expr(op.value)
        index = op.value.dtype.is_int() or op.value.dtype.is_uint()
        if index:
            self.ana.bind(op.var, op.value)
            self.dom[op.var] = IntervalSet.point(op.value)
        self.visit_stmt(op.body)
        if index:
            self.dom.pop(op.var, None)

    def visit_block_(self, op: Block) -> None:
        if op.init is not None:
            raise ValueError(f"CompactBufferAllocation: block {op.name_hint!r} still has an init "
                             "part; run LowerInitBlock first")
        saved: dict[Buffer, Any] = {}
        for region in (*op.reads, *op.writes):
            saved.setdefault(region.buffer, self.annotated.get(region.buffer))
        for buf in saved:
            self.annotated[buf] = [r for r in (*op.reads, *op.writes) if r.buffer is buf]
        for buf in op.alloc_buffers:
            self.in_scope[buf.data] = (buf, len(self.loops))
        for m in op.match_buffers:
            self.access(m.source)
        super().visit_block_(op)
        for buf, old in saved.items():
            if old is None:
                self.annotated.pop(buf, None)
            else:
                self.annotated[buf] = old
        for buf in op.alloc_buffers:
            sets = self.relaxed.get(buf)
            if sets is not None:
                self.regions[buf] = self._narrow(sets, buf.shape)

    def access(self, region: BufferRegion) -> None:
        """Record an access to ``region`` relaxed over the loops inside the allocating block
        (TVM ``VisitBufferAccess``)."""
        entry = self.in_scope.get(region.buffer.data)
        if entry is None:
            return
        buf, n_outer = entry
        dom = dict(self.dom)
        for loop in self.loops[:n_outer]:
            if not _need_relax_thread(loop, buf.scope()):
                dom.pop(loop.loop_var, None)
        sets = _relax_region(region.region, dom)
        old = self.relaxed.get(buf)
        self.relaxed[buf] = sets if old is None else [a.union(b) for a, b in zip(old, sets)]

    def _narrow(self, sets: list[IntervalSet], shape: tuple) -> tuple[Range, ...]:
        """TVM ``SimplifyAndNarrowBufferRegionFromNDIntSet``."""
        loop_vars = {loop.loop_var for loop in self.loops}
        out = []
        for s, dim in zip(sets, shape):
            zero = tir_op.const(0, dim.dtype)
            if not s.is_bounded():
                out.append(Range.from_min_extent(zero, dim))
                continue
            lo = self.ana.simplify(s.min_value)
            ext = self.ana.simplify(tir_op.subtract(tir_op.add(s.max_value, 1), s.min_value))
            lo = self.ana.simplify(tir_op.max(zero, lo))
            if self.is_strict and not self._provably_within(ext, dim):
                ext = self.ana.simplify(tir_op.min(dim, ext))
            if any(v in loop_vars for v in _vars(ext)):
                bound = self.ana.const_int_bound(ext).max_value
                if bound != ConstIntBound.POS_INF:
                    ext = tir_op.const(bound, ext.dtype)
                else:
                    lo, ext = zero, dim
            out.append(Range.from_min_extent(lo, ext))
        return tuple(out)


    def _provably_within(self, ext: PrimExpr, dim: PrimExpr) -> bool:
        """``ext <= dim`` knowing that every enclosing loop runs at least once (the role of
        TVM's ``CanProveLessEqualThanSymbolicShapeValue``)."""
        facts = [tir_op.greater_equal(loop.extent, 1) for loop in self.loops
                 if not isinstance(loop.extent, IntImm)]
        if not facts:
            return self.ana.can_prove(tir_op.less_equal(ext, dim))
        with self.ana.constraint_scope(tir_op.all(*facts)):
            return self.ana.can_prove(tir_op.less_equal(ext, dim))


def _need_relax_thread(loop: For, scope: str) -> bool:
    if loop.kind != ForKind.THREAD_BINDING or loop.thread_binding is None:
        return False
    return can_relax_storage_under_thread(scope, loop.thread_binding.thread_tag)


def _vars(expr: Any) -> list[Var]:
    out: list[Var] = []
    post_order_visit(expr, lambda n: out.append(n) if isinstance(n, Var) else None)
    return out


class _AllocInfo:
    """A compacted buffer: its region in the old buffer and the new buffer."""

    __slots__ = ("region", "new_buffer")

    def __init__(self, region: tuple[Range, ...], new_buffer: Buffer) -> None:
        self.region, self.new_buffer = region, new_buffer


def _aligned_strides(shape: tuple, aligns: list) -> tuple:
    """Strides padding each dimension to ``stride % factor == offset`` (the stride computation
    of TVM ``BufferCompactor::RewriteAllocBuffer``)."""
    per_dim: dict[int, tuple[int, int]] = {}
    for entry in aligns:
        _, dim, factor, offset = (x.value if isinstance(x, IntImm) else int(x) for x in entry)
        per_dim[dim] = (factor, offset)
    strides: list[PrimExpr] = [None] * len(shape)  # type: ignore[list-item]
    stride: PrimExpr = tir_op.const(1, shape[0].dtype)
    for dim in range(len(shape) - 1, -1, -1):
        factor, offset = per_dim.get(dim, (0, 0))
        if factor:
            f, o = tir_op.const(factor, stride.dtype), tir_op.const(offset, stride.dtype)
            stride = stride + tir_op.floormod(f + o - tir_op.floormod(stride, f), f)
        strides[dim] = stride
        stride = stride * shape[dim]
    return tuple(strides)


def _plan(regions: dict[Buffer, tuple[Range, ...]], aligns: dict[int, list]) -> dict:
    info: dict[Buffer, _AllocInfo] = {}
    for buf, region in regions.items():
        shape = tuple(r.extent for r in region)
        align = aligns.get(id(buf.data))
        untouched = all(isinstance(r.min, IntImm) and r.min.value == 0 for r in region) \
            and structural_equal(shape, buf.shape)
        if untouched and not align:
            continue
        strides = _aligned_strides(shape, align) if align else buf.strides
        info[buf] = _AllocInfo(region, buf.with_changes(shape=shape, strides=strides))
    return info


class _BufferCompactor(StmtExprMutator):
    """TVM ``BufferCompactor``: reallocate with the minimal shape, shift every access."""

    def __init__(self, info: dict[Buffer, _AllocInfo]) -> None:
        self.info = info

    def visit_buffer_store_(self, op: BufferStore) -> Stmt:
        new = super().visit_buffer_store_(op)
        return self._access(new)

    def visit_buffer_load_(self, op: BufferLoad) -> PrimExpr:
        new = super().visit_buffer_load_(op)
        return self._access(new)

    def _access(self, node: Any) -> Any:
        info = self.info.get(node.buffer)
        if info is None:
            return node
        indices = tuple(tir_op.subtract(i, r.min) for i, r in zip(node.indices, info.region))
        return node.with_changes(buffer=info.new_buffer, indices=indices)

    def _region(self, br: BufferRegion) -> BufferRegion:
        info = self.info.get(br.buffer)
        if info is None:
            return br
        region = tuple(Range.from_min_extent(tir_op.subtract(r.min, a.min), r.extent,
                                             span=r.span)
                       for r, a in zip(br.region, info.region))
        return br.with_changes(buffer=info.new_buffer, region=region)

    def visit_block_(self, op: Block) -> Stmt:
        new = super().visit_block_(op)
        allocs = tuple(self.info[b].new_buffer if b in self.info else b
                       for b in op.alloc_buffers)
        reads = tuple(self._region(r) for r in new.reads)
        writes = tuple(self._region(w) for w in new.writes)
        matches = tuple(m.with_changes(source=self._region(m.source)) for m in new.match_buffers)
        changes = {k: v for k, v, old in (("alloc_buffers", allocs, new.alloc_buffers),
                                          ("reads", reads, new.reads),
                                          ("writes", writes, new.writes),
                                          ("match_buffers", matches, new.match_buffers))
                   if any(a is not b for a, b in zip(v, old))}
        if not changes:
            return new
        return new.with_changes(**changes)


def compact_buffer_allocation(func: PrimFunc, is_strict: bool = True) -> PrimFunc:
    """``func`` with block-allocated buffers shrunk to their accessed regions; the same object
    when no buffer shrinks.

    Raises:
        ValueError: when a block still has an init part.
    """
    collector = _AccessRegionCollector(is_strict)
    collector(func.body)
    info = _plan(collector.regions, collect_storage_align(func.body))
    if not info:
        return func
    body = _BufferCompactor(info)(func.body)
    return func if body is func.body else func.with_body(body)


@register_pass("CompactBufferAllocation")
def CompactBufferAllocation(is_strict: bool = True) -> Pass:  # pylint: disable=invalid-name
    """Shrink intermediate buffers to the region they are accessed in
    (``tvm.tir.transform.CompactBufferAllocation(is_strict=True)``, opt_level 0). With
    ``is_strict=False`` a region may grow beyond the original shape."""
    @prim_func_pass("CompactBufferAllocation", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return compact_buffer_allocation(func, is_strict)
    return run
