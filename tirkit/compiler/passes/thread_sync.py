"""``ThreadSync``: insert ``T.tvm_storage_sync(scope)`` where threads of a block could race on
``shared`` memory (mirrors ``tvm.tir.transform.ThreadSync``, src/tir/transforms/
thread_storage_sync.cc, with a simpler, conservative analysis).

Inside device code (under ``T.launch_thread``), each statement sequence is scanned in order,
keeping the buffers of storage ``scope`` read and written since the last barrier. A barrier is
inserted before a statement that reads a buffer written since then, or writes a buffer read
since then (read-after-write, write-after-read). Like TVM, two writes need no barrier between
them (threads storing their own elements in turn, as in a loop filling a tile, is the common
case; two threads writing the same element is a race with or without one). In a loop, accesses
at the top of the body are also checked against those left at its end (the next iteration), and
a barrier ends the body when they conflict. Existing barriers are kept and counted.

Unlike TVM, accesses are not compared index by index (a thread re-reading the element it wrote
still gets a barrier), which costs speed, never correctness. Barriers are never put inside a
branch whose condition depends on ``threadIdx`` (a divergent ``__syncthreads`` would hang):
such an ``if`` counts as one statement of its sequence.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tirkit.tir.expr import BufferLoad, Call, IterVar, StringImm, Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import (AttrStmt, BufferStore, Evaluate, For, IfThenElse, SeqStmt, Stmt,
                             While)
from tirkit.tir.stmt_functor import StmtMutator, post_order_visit

from ..transform import Pass, prim_func_pass, register_pass
from ._gpu_common import storage_scope

__all__ = ["ThreadSync", "thread_sync"]


def _is_sync(stmt: Any, scope: str) -> bool:
    if not isinstance(stmt, Evaluate) or not isinstance(stmt.value, Call):
        return False
    call = stmt.value
    return getattr(call.op, "name", "") == "tir.tvm_storage_sync" and bool(call.args) and \
        isinstance(call.args[0], StringImm) and call.args[0].value == scope


@dataclass
class _Access:
    """Buffer vars (by id) read and written, and whether a barrier of the scope is inside."""

    reads: set[int] = field(default_factory=set)
    writes: set[int] = field(default_factory=set)
    synced: bool = False

    def conflicts(self, later: "_Access") -> bool:
        """Whether ``later`` reading what this wrote (or writing what this read) races."""
        return bool(later.reads & self.writes or later.writes & self.reads)

    def add(self, other: "_Access") -> None:
        """Accumulate ``other``."""
        self.reads |= other.reads
        self.writes |= other.writes


class _ThreadSyncInserter(StmtMutator):
    def __init__(self, scope: str) -> None:
        self.scope = scope
        self.threads: set[int] = set()  # ids of threadIdx vars in scope
        self.in_device = False

    def sync(self) -> Stmt:
        """A barrier statement of the scope."""
        return Evaluate(Call("handle", "tir.tvm_storage_sync", (StringImm(self.scope),)))

    def access(self, stmt: Stmt) -> _Access:
        """What ``stmt`` reads and writes of the scope's buffers."""
        acc = _Access()

        def visit(node: Any) -> None:
            if isinstance(node, (BufferLoad, BufferStore)) and \
                    storage_scope(node.buffer) == self.scope:
                (acc.writes if isinstance(node, BufferStore) else acc.reads).add(
                    id(node.buffer.data))
            elif _is_sync(node, self.scope):
                acc.synced = True
        post_order_visit(stmt, visit)
        return acc

    def divergent(self, cond: Any) -> bool:
        """Whether ``cond`` depends on a threadIdx var."""
        found = []
        post_order_visit(cond, lambda n: found.append(n) if isinstance(n, Var)
                         and id(n) in self.threads else None)
        return bool(found)

    # ------------------------------------------------------------------------------ traversal
    def visit_attr_stmt_(self, op: AttrStmt) -> Stmt:
        if op.attr_key != "thread_extent" or not isinstance(op.node, IterVar):
            return super().visit_attr_stmt_(op)
        tag, var = op.node.thread_tag, op.node.var
        saved = self.in_device
        self.in_device = True
        if tag.startswith("threadIdx."):
            self.threads.add(id(var))
        try:
            return super().visit_attr_stmt_(op)
        finally:
            self.in_device = saved

    def visit_if_then_else_(self, op: IfThenElse) -> Stmt:
        if self.in_device and self.divergent(op.condition):
            return op
        return super().visit_if_then_else_(op)

    def visit_while_(self, op: While) -> Stmt:
        return op if self.in_device else super().visit_while_(op)

    def visit_seq_stmt_(self, op: SeqStmt) -> Stmt:
        if not self.in_device:
            return super().visit_seq_stmt_(op)
        items = [self.visit_stmt(s) for s in op.seq]
        out, _ = self.schedule(items, _Access())
        changed = len(out) != len(op.seq) or any(a is not b for a, b in zip(out, op.seq))
        return SeqStmt.flatten(*out) if changed else op

    def schedule(self, items: list[Stmt], pending: _Access) -> tuple[list[Stmt], _Access]:
        """``items`` with barriers inserted, given what is pending before them; returns the
        accesses pending after them."""
        out: list[Stmt] = []
        for stmt in items:
            if _is_sync(stmt, self.scope):
                out.append(stmt)
                pending = _Access()
                continue
            acc = self.access(stmt)
            if pending.conflicts(acc):
                out.append(self.sync())
                pending = _Access()
            out.append(stmt)
            if acc.synced:
                pending = acc  # conservative: what it touched may be pending after its barrier
            else:
                pending.add(acc)
        return out, pending

    def visit_for_(self, op: For) -> Stmt:
        new = super().visit_for_(op)
        if not self.in_device:
            return new
        body = new.body
        items = list(body.seq) if isinstance(body, SeqStmt) else [body]
        first = _Access()
        for stmt in items:  # what the body touches before its first barrier
            if _is_sync(stmt, self.scope):
                break
            acc = self.access(stmt)
            first.add(acc)
            if acc.synced:
                break
        _, last = self.schedule(items, _Access())
        if last.conflicts(first) or first.conflicts(last):
            return new.with_changes(body=SeqStmt.flatten(*items, self.sync()))
        return new


def thread_sync(func: PrimFunc, scope: str = "shared") -> PrimFunc:
    """``func`` with barriers for ``scope`` inserted where needed (the same object when none)."""
    body = _ThreadSyncInserter(scope)(func.body)
    return func if body is func.body else func.with_body(body)


@register_pass("ThreadSync")
def ThreadSync(storage_scope: str = "shared") -> Pass:  # pylint: disable=invalid-name,redefined-outer-name
    """Insert ``tvm_storage_sync(storage_scope)`` barriers (``tvm.tir.transform.ThreadSync``,
    opt_level 0); ``storage_scope`` is ``"shared"`` or ``"shared.dyn"``."""
    @prim_func_pass("ThreadSync", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return thread_sync(func, storage_scope)
    return run
