"""``StorageRewrite``: allocations with disjoint lifetimes share memory (mirrors
``tvm.tir.transform.StorageRewrite``, ``src/tir/transforms/storage_rewrite.cc``).

The function body is seen as a linear sequence of top-level units (statements under the chain
of ``Allocate``/``DeclBuffer``/``LetStmt``/``AttrStmt``/``SeqStmt`` from the root); an
allocation lives from the first to the last unit touching its data var (an access inside a loop
keeps it alive for the whole loop, as TVM's scope-pair liveness). Constant-size allocations of
one dtype and storage scope whose lifetimes do not overlap share one storage: the first one's
data var, sized for the largest (TVM's ``StoragePlanRewriter`` with its size match range of
16). Shared and nested allocations are hoisted to the top of the function (TVM's root attach
scope); allocations inside parallel loops or thread scopes, or of non-constant size, stay where
they are.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tirkit.ir.expr import IntImm
from tirkit.tir import expr as E
from tirkit.tir import stmt as S
from tirkit.tir.stmt_functor import StmtExprMutator, StmtExprVisitor

from ..transform import register_pass, prim_func_pass
from ._opt_common import with_body

MATCH_RANGE = 16
_CHAIN = (S.Allocate, S.DeclBuffer, S.LetStmt, S.AttrStmt)


@dataclass
class AllocInfo:
    """One allocation: the node, where it is, and its live units (TVM's ``AllocEntry``)."""

    node: S.Allocate
    size: int
    scope: str
    in_chain: bool
    first: int = -1
    last: int = -1


@dataclass
class StorageEntry:
    """One storage shared by allocations (TVM's ``StorageEntry``)."""

    owner: AllocInfo
    size: int
    end: int
    members: list[AllocInfo] = field(default_factory=list)


def _const_size(op: S.Allocate) -> int | None:
    total = 1
    for e in op.extents:
        if not isinstance(e, IntImm):
            return None
        total *= e.value
    return total


def _scope(var: E.Var) -> str:
    return getattr(var.type_annotation, "storage_scope", "global") or "global"


class LinearAccessPatternFinder(StmtExprVisitor):
    """Collect allocations and the top-level units touching them (TVM's
    ``LinearAccessPatternFinder``)."""

    def __init__(self) -> None:
        self.allocs: dict[int, AllocInfo] = {}
        self.unit = 0
        self.chain = True
        self.blocked = 0  # > 0 inside parallel loops / thread scopes

    def top(self, stmt: S.Stmt) -> None:
        """Walk the root chain; each other statement is one unit."""
        if isinstance(stmt, S.SeqStmt):
            for s in stmt.seq:
                self.top(s)
        elif isinstance(stmt, _CHAIN) and not _is_thread_attr(stmt):
            if isinstance(stmt, S.Allocate):
                self._record(stmt)
            self.visit_expr(stmt.value) if isinstance(stmt, (S.LetStmt, S.AttrStmt)) else None
            self.top(stmt.body)
        else:
            self.chain = False
            self.visit_stmt(stmt)
            self.chain = True
            self.unit += 1

    def _record(self, op: S.Allocate) -> None:
        size = _const_size(op)
        if size is not None and not self.blocked:
            self.allocs[id(op.buffer_var)] = AllocInfo(op, size, _scope(op.buffer_var),
                                                       self.chain)

    def _touch(self, var: E.Var) -> None:
        info = self.allocs.get(id(var))
        if info is not None:
            info.first = self.unit if info.first < 0 else info.first
            info.last = self.unit

    def visit_allocate_(self, op: S.Allocate) -> None:
        self._record(op)
        super().visit_allocate_(op)

    def visit_for_(self, op: S.For) -> None:
        blocked = op.kind in (S.ForKind.PARALLEL, S.ForKind.THREAD_BINDING)
        self.blocked += blocked
        super().visit_for_(op)
        self.blocked -= blocked

    def visit_attr_stmt_(self, op: S.AttrStmt) -> None:
        blocked = _is_thread_attr(op)
        self.blocked += blocked
        super().visit_attr_stmt_(op)
        self.blocked -= blocked

    def visit_var_(self, op: E.Var) -> None:
        self._touch(op)

    def visit_buffer_load_(self, op: E.BufferLoad) -> None:
        self._touch(op.buffer.data)
        super().visit_buffer_load_(op)

    def visit_buffer_store_(self, op: S.BufferStore) -> None:
        self._touch(op.buffer.data)
        super().visit_buffer_store_(op)


def _is_thread_attr(stmt: S.Stmt) -> bool:
    return isinstance(stmt, S.AttrStmt) and stmt.attr_key in ("thread_extent", "virtual_thread")


def plan(allocs: list[AllocInfo]) -> list[StorageEntry]:
    """Assign allocations to storages by lifetime, dtype and scope (TVM's ``PlanMemory`` with
    ``FindAlloc``)."""
    entries: list[StorageEntry] = []
    for info in sorted(allocs, key=lambda a: a.first):
        free = [e for e in entries if e.end < info.first and e.owner.scope == info.scope
                and e.owner.node.dtype == info.node.dtype
                and e.size // MATCH_RANGE <= info.size <= e.size * MATCH_RANGE]
        bigger = [e for e in free if e.size >= info.size]
        pick = min(bigger, key=lambda e: e.size) if bigger else \
            max(free, key=lambda e: e.size, default=None)
        if pick is None:
            pick = StorageEntry(info, info.size, info.last)
            entries.append(pick)
        pick.size = max(pick.size, info.size)
        pick.end = max(pick.end, info.last)
        pick.members.append(info)
    return entries


class StoragePlanRewriter(StmtExprMutator):
    """Drop the planned Allocates and rename reused data vars (TVM's ``StoragePlanRewriter``)."""

    def __init__(self, entries: list[StorageEntry]) -> None:
        self.drop = {id(m.node) for e in entries for m in e.members}
        self.remap = {id(m.node.buffer_var): e.owner.node.buffer_var
                      for e in entries for m in e.members if m is not e.owner}
        self.buffers: dict[int, Any] = {}

    def visit_allocate_(self, op: S.Allocate) -> S.Stmt:
        new = super().visit_allocate_(op)
        return new.body if id(op) in self.drop else new

    def visit_var_(self, op: E.Var) -> Any:
        return self.remap.get(id(op), op)

    def _buf(self, node: Any) -> Any:
        buf = node.buffer
        data = self.remap.get(id(buf.data))
        if data is None:
            return node
        new = self.buffers.get(id(buf))
        if new is None:
            new = self.buffers[id(buf)] = buf.with_changes(data=data)
        return node.with_changes(buffer=new)

    def visit_decl_buffer_(self, op: S.DeclBuffer) -> S.Stmt:
        return self._buf(super().visit_decl_buffer_(op))

    def visit_buffer_load_(self, op: E.BufferLoad) -> Any:
        return self._buf(super().visit_buffer_load_(op))

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        return self._buf(super().visit_buffer_store_(op))


def storage_rewrite(body: S.Stmt) -> S.Stmt:
    """``body`` with storage shared and hoisted; ``body`` itself when no allocation is shared
    or moved (TVM's ``StorageRewrite`` on one function body)."""
    finder = LinearAccessPatternFinder()
    finder.top(body)
    allocs = [a for a in finder.allocs.values() if a.first >= 0]
    entries = plan(allocs)
    if all(len(e.members) == 1 and e.owner.in_chain for e in entries):
        return body
    moved = [e for e in entries if len(e.members) > 1 or not e.owner.in_chain]
    new = StoragePlanRewriter(moved)(body)
    for e in reversed(moved):
        node = e.owner.node
        new = S.Allocate(node.buffer_var, node.dtype, (IntImm("int32", e.size),)
                         if e.size != e.owner.size else node.extents, node.condition, new,
                         node.annotations, span=node.span)
    return new


@register_pass("StorageRewrite")
def StorageRewrite():  # pylint: disable=invalid-name
    """The pass sharing memory between allocations (mirrors
    ``tvm.tir.transform.StorageRewrite``)."""
    @prim_func_pass("StorageRewrite", opt_level=0)
    def run(func, mod, ctx):  # pylint: disable=unused-argument
        return with_body(func, storage_rewrite(func.body))
    return run
