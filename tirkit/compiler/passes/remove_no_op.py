"""``RemoveNoOp``: drop statements that do nothing (mirrors ``tvm.tir.transform.RemoveNoOp``,
``src/tir/transforms/remove_no_op.cc``).

Removed: ``Evaluate`` of side-effect-free expressions, loops of extent 0 or with empty bodies,
``if`` statements whose branches are empty (the condition is kept when it has side effects),
empty ``else`` branches, stores of a value read from the same place (``A[i] = A[i]``), and
``LetStmt``/``AttrStmt``/``Allocate``/``DeclBuffer`` scopes around nothing.
"""
from __future__ import annotations

from tirkit.ir.expr import IntImm
from tirkit.tir import stmt as S
from tirkit.tir.expr import Not
from tirkit.tir.stmt_functor import StmtMutator

from ..transform import register_pass, prim_func_pass
from ._opt_common import is_no_op, is_self_store, make_evaluate, with_body


def _nop(span=None) -> S.Stmt:
    return S.Evaluate(IntImm("int32", 0), span=span)


class NoOpRemover(StmtMutator):
    """The mutator behind :func:`RemoveNoOp` (TVM's ``NoOpRemover``)."""

    def visit_let_stmt_(self, op: S.LetStmt) -> S.Stmt:
        new = super().visit_let_stmt_(op)
        return make_evaluate(new.value, op.span) if is_no_op(new.body) else new

    def visit_attr_stmt_(self, op: S.AttrStmt) -> S.Stmt:
        new = super().visit_attr_stmt_(op)
        if op.attr_key == "pragma_debug_skip_region":
            return _nop(op.span)
        return make_evaluate(new.value, op.span) if is_no_op(new.body) else new

    def visit_if_then_else_(self, op: S.IfThenElse) -> S.Stmt:
        new = super().visit_if_then_else_(op)
        cond = new.condition
        if isinstance(cond, IntImm):
            taken = new.then_case if cond.value else new.else_case
            return taken if taken is not None else _nop(op.span)
        else_case = None if is_no_op(new.else_case) else new.else_case
        if is_no_op(new.then_case):
            if else_case is None:
                return make_evaluate(cond, op.span)
            return S.IfThenElse(Not(cond, span=cond.span), else_case, None, span=op.span)
        if else_case is not new.else_case:
            return new.with_changes(else_case=None)
        return new

    def visit_for_(self, op: S.For) -> S.Stmt:
        new = super().visit_for_(op)
        if isinstance(new.extent, IntImm) and new.extent.value <= 0:
            return _nop(op.span)
        return _nop(op.span) if is_no_op(new.body) else new

    def visit_while_(self, op: S.While) -> S.Stmt:
        new = super().visit_while_(op)
        if isinstance(new.condition, IntImm) and not new.condition.value:
            return _nop(op.span)
        return new

    def visit_allocate_(self, op: S.Allocate) -> S.Stmt:
        new = super().visit_allocate_(op)
        return _nop(op.span) if is_no_op(new.body) else new

    def visit_decl_buffer_(self, op: S.DeclBuffer) -> S.Stmt:
        new = super().visit_decl_buffer_(op)
        return _nop(op.span) if is_no_op(new.body) else new

    def visit_evaluate_(self, op: S.Evaluate) -> S.Stmt:
        if is_no_op(op):
            return op
        new = make_evaluate(op.value, op.span)
        return new if is_no_op(new) else op

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        return _nop(op.span) if is_self_store(op) else op

    def visit_seq_stmt_(self, op: S.SeqStmt) -> S.Stmt:
        seq = [self.visit_stmt(s) for s in op.seq]
        kept = [s for s in seq if not is_no_op(s)]
        if len(kept) == len(op.seq) and all(a is b for a, b in zip(kept, op.seq)):
            return op
        if not kept:
            return _nop(op.span)
        return S.SeqStmt.flatten(*kept) if len(kept) > 1 else kept[0]


def remove_no_op(body: S.Stmt) -> S.Stmt:
    """``body`` without its no-op statements (TVM's ``RemoveNoOp(Stmt)``); ``body`` itself
    when nothing was removed."""
    return NoOpRemover()(body)


@register_pass("RemoveNoOp")
def RemoveNoOp():  # pylint: disable=invalid-name
    """The pass removing no-op statements (mirrors ``tvm.tir.transform.RemoveNoOp``)."""
    @prim_func_pass("RemoveNoOp", opt_level=0)
    def run(func, mod, ctx):  # pylint: disable=unused-argument
        return with_body(func, remove_no_op(func.body))
    return run
