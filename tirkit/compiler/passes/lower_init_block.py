"""``LowerInitBlock``: turn a reduction block's ``T.init()`` into a guarded statement
(mirrors ``tvm.tir.transform.LowerInitBlock``, src/tir/transforms/lower_init_block.cc).

A block ``with T.init(): I`` whose reduction iter vars are ``k1..kn`` gets the body
``if k1 == k1_min and ... and kn == kn_min: I`` followed by its old body; a block without
reduction iter vars gets ``I`` unguarded. The block keeps its iter vars and signature.
"""
from __future__ import annotations

from typing import Any

from tirkit.compiler.transform import Pass, prim_func_pass, register_pass
from tirkit.tir import op as tir_op
from tirkit.tir.expr import IterVarType
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import Block, IfThenElse, SeqStmt, Stmt
from tirkit.tir.stmt_functor import StmtMutator


def _lower_init(init: Stmt, iter_vars: Any) -> Stmt:
    """``init`` guarded by ``v == dom.min`` for every reduction iter var (TVM ``DoLowering``)."""
    conds = [tir_op.equal(iv.var, iv.dom.min, span=iv.span) for iv in iter_vars
             if iv.iter_type == IterVarType.CommReduce]
    if not conds:
        return init
    cond = conds[0]
    for c in conds[1:]:
        cond = tir_op.logical_and(cond, c)
    return IfThenElse(cond, init, span=init.span)


class _InitBlockLower(StmtMutator):
    """``InitBlockLower``: rewrite every Block that has an ``init``."""

    def visit_block_(self, op: Block) -> Stmt:
        if op.init is None:
            return super().visit_block_(op)
        init = _lower_init(op.init, op.iter_vars)
        body = self.visit_stmt(op.body)
        return op.with_changes(init=None, body=SeqStmt.flatten(init, body))


def lower_init_block(func: PrimFunc) -> PrimFunc:
    """``func`` with every block init lowered; the same object when there is none."""
    body = _InitBlockLower()(func.body)
    return func if body is func.body else func.with_body(body)


@register_pass("LowerInitBlock")
def LowerInitBlock() -> Pass:  # pylint: disable=invalid-name
    """Lower ``T.init()`` of reduction blocks to ``if`` statements
    (``tvm.tir.transform.LowerInitBlock``, opt_level 0)."""
    @prim_func_pass("LowerInitBlock", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return lower_init_block(func)
    return run
