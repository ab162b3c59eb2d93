"""``PlanAndUpdateBufferAllocationLocation``: move each block-allocated buffer to the lowest
common ancestor (LCA) of its accesses (mirrors ``tvm.tir.transform.
PlanAndUpdateBufferAllocationLocation``, src/tir/transforms/plan_update_buffer_allocation_location.cc,
with ``tvm.tir.analysis.detect_buffer_access_lca``).

Only ``For`` and ``Block`` nodes are LCA candidates. A buffer whose LCA is a block is allocated in
that block's ``alloc_buffers``; one whose LCA is a loop is allocated in a new opaque block
(``BlockRealize([], True, Block(name ""))``) wrapping the loop body, whose reads/writes are
detected from its body. Allocated buffers that are never accessed are dropped; the reads/writes
of blocks no longer mention buffers allocated inside them. Unlike TVM 0.27, a buffer a reduction
block writes is never placed inside the loops its reduction iter vars are bound to (TVM builds a
wrong kernel there: the accumulator is compacted to what one iteration touches).
"""
from __future__ import annotations

from typing import Any, cast

from tirkit.compiler.transform import Pass, prim_func_pass, register_pass
from tirkit.tir.block_access import get_block_read_write_region
from tirkit.tir.buffer import Buffer
from tirkit.tir.expr import BufferLoad, IterVarType, Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import Block, BlockRealize, BufferStore, For, ForKind, Stmt
from tirkit.tir.stmt_functor import StmtExprMutator, StmtExprVisitor, post_order_visit


class _Scope:
    """A For/Block on the path from the root (TVM ``LCADetector::ScopeInfo``)."""

    __slots__ = ("parent", "stmt", "depth")

    def __init__(self, parent: "_Scope | None", stmt: Stmt | None, depth: int) -> None:
        self.parent, self.stmt, self.depth = parent, stmt, depth


def _lca(lhs: _Scope | None, rhs: _Scope) -> _Scope:
    if lhs is None:
        return rhs
    a, b = lhs, rhs
    while a.parent is not None and b.parent is not None and a is not b:
        if a.depth == b.depth:
            a, b = a.parent, b.parent
        elif a.depth < b.depth:
            b = cast(_Scope, b.parent)  # (the loop condition)
        else:
            a = cast(_Scope, a.parent)
    if a.parent is None:
        return a
    return b if b.parent is None else a


class _LCADetector(StmtExprVisitor):
    """TVM ``LCADetector``: the LCA scope of every buffer's accesses (loads, stores, opaque uses
    of the data var, match_buffer sources), lifted above loops an opaque iter var depends on
    and, for global buffers, above ``blockIdx`` loops."""

    def __init__(self, func: PrimFunc) -> None:
        self.stack: list[_Scope | None] = [None]
        self.lca: dict[Buffer, _Scope] = {}
        self.data_to_buffer: dict[Var, Buffer] = {b.data: b for b in func.buffer_map.values()}
        self.match_buffers: set[Buffer] = set()
        self.loop_scope: dict[Var, _Scope] = {}
        self.blockidx_scopes: list[_Scope] = []
        self.alloc_scope: dict[Buffer, _Scope] = {}

    def _push(self, stmt: Stmt) -> _Scope:
        scope = _Scope(self.stack[-1], stmt, len(self.stack))
        self.stack.append(scope)
        return scope

    def visit_for_(self, op: For) -> None:
        scope = self._push(op)
        tb = op.thread_binding
        if op.kind == ForKind.THREAD_BINDING and tb is not None \
                and tb.thread_tag.startswith("blockIdx"):
            self.blockidx_scopes.append(scope)
        self.loop_scope[op.loop_var] = scope
        super().visit_for_(op)
        del self.loop_scope[op.loop_var]
        self.stack.pop()

    def visit_block_realize_(self, op: BlockRealize) -> None:
        block = op.block
        for buf in block.alloc_buffers:
            self.data_to_buffer[buf.data] = buf
        scope = self._push(block)
        self.alloc_scope.update(dict.fromkeys(block.alloc_buffers, scope))
        self._opaque_iter_scopes(op)
        self._reduction_scopes(op)
        for m in block.match_buffers:
            self.update(m.source.buffer, self.stack[-1])
            self.match_buffers.add(m.buffer)
        super().visit_block_realize_(op)
        self.stack.pop()

    def _opaque_iter_scopes(self, op: BlockRealize) -> None:
        """TVM ``UpdateDominateScopeOfOpaqueIter``: accesses through an opaque iter var are
        placed above every loop its binding uses."""
        dom: dict[Var, _Scope] = {}
        for iv, value in zip(op.block.iter_vars, op.iter_values):
            if iv.iter_type in (IterVarType.DataPar, IterVarType.CommReduce):
                continue
            for var in _vars(value):
                loop = self.loop_scope.get(var)
                above = cast(_Scope, loop.parent) if loop is not None else None  # (a loop's)
                if above is not None and (iv.var not in dom or above.depth
                                          < dom[iv.var].depth):
                    dom[iv.var] = above
        if not dom:
            return
        for region in (*op.block.reads, *op.block.writes):
            scope: Any = self.stack[-1]  # (a scope when a var is in dom: its loop's is inside)
            for r in region.region:
                for var in _vars(r.min) + _vars(r.min + r.extent - 1):
                    if var in dom and dom[var].depth < scope.depth:
                        scope = dom[var]
            self.update(region.buffer, scope)

    def _reduction_scopes(self, op: BlockRealize) -> None:
        """A buffer a reduction block writes is placed above every loop its reduction iter
        vars' bindings use: the element it accumulates is carried from one iteration of such a
        loop to the next. No TVM counterpart: TVM 0.27 places it at the LCA of its accesses,
        which is inside the reduction loop when a consumer was moved there (reverse_compute_at
        of a cache_write copy under the k loop of ``C[i, j] += A[i, k] * B[k, j]``), and
        compacts the accumulator to one element that each k starts afresh (a wrong kernel).
        Never above the block that allocates the buffer; thread-bound loops do not count (their
        reduction is a cross-thread allreduce, not carried in memory)."""
        top: _Scope | None = None
        for iv, value in zip(op.block.iter_vars, op.iter_values):
            if iv.iter_type != IterVarType.CommReduce:
                continue
            for var in _vars(value):
                loop = self.loop_scope.get(var)
                if loop is not None and loop.parent is not None and \
                        cast(For, loop.stmt).kind != ForKind.THREAD_BINDING and \
                        (top is None or loop.parent.depth < top.depth):
                    top = loop.parent
        if top is None:
            return
        for region in op.block.writes:
            own = self.alloc_scope.get(region.buffer)  # not above the block allocating it
            self.update(region.buffer, own if own is not None and own.depth > top.depth else top)

    def visit_buffer_load_(self, op: BufferLoad) -> None:
        self.update(op.buffer, self.stack[-1])
        super().visit_buffer_load_(op)

    def visit_buffer_store_(self, op: BufferStore) -> None:
        self.update(op.buffer, self.stack[-1])
        super().visit_buffer_store_(op)

    def visit_var_(self, op: Var) -> None:
        buf = self.data_to_buffer.get(op)
        if buf is not None:
            self.update(buf, self.stack[-1])

    def update(self, buf: Buffer, scope: _Scope | None) -> None:
        """Join ``scope`` into ``buf``'s LCA (TVM ``UpdateBufferLCA``)."""
        if buf in self.match_buffers or scope is None:
            return
        self.lca[buf] = _lca(self.lca.get(buf), scope)

    def finish(self) -> dict[Buffer, Stmt | None]:
        """Apply the ``blockIdx`` rule (TVM ``UpdateWithBlockidx``) and return the LCAs."""
        for buf, lca in self.lca.items():
            if buf.scope() == "global":
                for scope in self.blockidx_scopes:
                    lca = _lca(lca, scope.parent) if scope.parent is not None else lca
                self.lca[buf] = lca
        return {buf: scope.stmt for buf, scope in self.lca.items()}


def _vars(expr: Any) -> list[Var]:
    out: list[Var] = []
    post_order_visit(expr, lambda n: out.append(n) if isinstance(n, Var) else None)
    return out


def detect_buffer_access_lca(func: PrimFunc) -> dict[Buffer, Stmt | None]:
    """``{buffer: For or Block}``: the lowest loop or block containing every access of each
    buffer (``tvm.tir.analysis.detect_buffer_access_lca``); buffers never accessed are absent."""
    det = _LCADetector(func)
    det(func.body)
    return det.finish()


def _alloc_order(func: PrimFunc, managed: set[Var] | None = None) -> list[Buffer]:
    """Param buffers, then buffers in first allocation/access order (TVM
    ``BufferAllocateOrderCollector``). ``managed``, when given, receives the data vars of the
    buffers blocks allocate or match (TVM's ``collect_managed_allocations``), in the same walk."""
    order: dict[Buffer, None] = dict.fromkeys(func.buffer_map.values())

    def visit(node: Any) -> None:
        if isinstance(node, Block):
            order.update(dict.fromkeys(node.alloc_buffers))
            order.update(dict.fromkeys(m.source.buffer for m in node.match_buffers))
            if managed is not None:
                _collect_managed(node, managed)
        elif isinstance(node, (BufferLoad, BufferStore)):
            order.setdefault(node.buffer, None)
    _pre_order(func.body, visit)
    return list(order)


def _pre_order(body: Stmt, fvisit: Any) -> None:
    from tirkit.tir.stmt_functor import pre_order_visit  # pylint: disable=import-outside-toplevel

    pre_order_visit(body, lambda n: fvisit(n) or True)


class _BufferAllocationLocator(StmtExprMutator):
    """TVM ``BufferAllocationLocator``. ``gone`` holds the data vars of buffers allocated (or
    matched) in an already visited subtree: the reads/writes of the allocating block and of its
    ancestors no longer mention them."""

    def __init__(self, func: PrimFunc) -> None:
        lca = detect_buffer_access_lca(func)
        managed: set[Var] = set()
        order = _alloc_order(func, managed)
        params = {b.data for b in func.buffer_map.values()}
        self.alloc_at: dict[int, list[Buffer]] = {}
        for buf in order:
            if buf in lca and buf.data not in params and buf.data in managed:
                self.alloc_at.setdefault(id(lca[buf]), []).append(buf)
        self.gone: set[Var] = set()

    def visit_for_(self, op: For) -> Stmt:
        bufs = self.alloc_at.get(id(op))
        if not bufs:
            return super().visit_for_(op)
        new = super().visit_for_(op)
        self.gone.update(b.data for b in bufs)
        block = Block((), (), (), "", new.body, alloc_buffers=tuple(bufs), span=op.span)
        reads, writes = get_block_read_write_region(block)
        block = block.with_changes(reads=tuple(reads), writes=tuple(writes))
        return new.with_changes(body=BlockRealize((), True, block, span=op.span))

    def visit_block_(self, op: Block) -> Stmt:
        if op.init is not None:
            raise ValueError(f"PlanAndUpdateBufferAllocationLocation: block {op.name_hint!r} "
                             "still has an init part; run LowerInitBlock first")
        allocs = tuple(self.alloc_at.get(id(op), ()))
        new = super().visit_block_(op)
        self.gone.update(b.data for b in allocs)
        self.gone.update(m.buffer.data for m in op.match_buffers)
        reads, writes = self._visible(new.reads), self._visible(new.writes)
        if _same(allocs, new.alloc_buffers) and reads is new.reads and writes is new.writes:
            return new
        return new.with_changes(alloc_buffers=allocs, reads=reads, writes=writes)

    def _visible(self, regions: tuple) -> tuple:
        kept = tuple(r for r in regions if r.buffer.data not in self.gone)
        return regions if len(kept) == len(regions) else kept


def _same(a: tuple, b: tuple) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def _collect_managed(node: Any, managed: set[Var]) -> None:
    if isinstance(node, Block):
        managed.update(b.data for b in node.alloc_buffers)
        managed.update(m.buffer.data for m in node.match_buffers)


def plan_and_update_buffer_allocation_location(func: PrimFunc) -> PrimFunc:
    """``func`` with block allocations moved to their access LCA; the same object when every
    buffer is already there.

    Raises:
        ValueError: when a block still has an init part.
    """
    body = _BufferAllocationLocator(func)(func.body)
    return func if body is func.body else func.with_body(body)


@register_pass("PlanAndUpdateBufferAllocationLocation")
def PlanAndUpdateBufferAllocationLocation() -> Pass:  # pylint: disable=invalid-name
    """Allocate each buffer at the LCA of its accesses
    (``tvm.tir.transform.PlanAndUpdateBufferAllocationLocation``, opt_level 0)."""
    @prim_func_pass("PlanAndUpdateBufferAllocationLocation", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return plan_and_update_buffer_allocation_location(func)
    return run
