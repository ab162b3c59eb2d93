"""``ConvertBlocksToOpaque``: substitute block iter vars by their bindings and drop them
(mirrors ``tvm.tir.transform.ConvertBlocksToOpaque``, src/tir/transforms/convert_blocks_to_opaque.cc).

Every ``BlockRealize`` becomes ``BlockRealize([], predicate, block)`` where the block has no iter
vars and every use of an iter var in its body, reads/writes, match_buffers and nested blocks is
replaced by the value it was bound to. Must run after ``LowerInitBlock``.
"""
from __future__ import annotations

from typing import Any, cast

from tirkit.compiler.transform import Pass, prim_func_pass, register_pass
from tirkit.ir.expr import PrimExpr
from tirkit.tir.expr import Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.functor import map_tuple
from tirkit.tir.stmt import Block, BlockRealize, Stmt
from tirkit.tir.stmt_functor import StmtExprMutator


class _OpaqueBlockConverter(StmtExprMutator):
    """``OpaqueBlockConverter``: iter var -> binding substitution while descending."""

    def __init__(self) -> None:
        self.subst: dict[int, PrimExpr] = {}
        self.forbidden: dict[int, Var] = {}

    def visit_var_(self, op: Var) -> PrimExpr:
        if id(op) in self.forbidden:
            raise ValueError(f"ConvertBlocksToOpaque: variable {op.name_hint!r} occurs in the "
                             "predicate or iter_values of a block, but isn't defined until the "
                             "body of the block")
        return self.subst.get(id(op), op)

    def visit_block_(self, op: Block) -> Stmt:
        _check_no_init(op)
        new = super().visit_block_(op)
        return new.with_changes(iter_vars=()) if new.iter_vars else new

    def visit_block_realize_(self, op: BlockRealize) -> Stmt:
        block = op.block
        _check_no_init(block)
        for iv in block.iter_vars:
            self.forbidden[id(iv.var)] = iv.var
        pred = self.visit_expr(op.predicate)
        values = map_tuple(op.iter_values, self.visit_expr)
        for iv in block.iter_vars:
            del self.forbidden[id(iv.var)]
        for iv, v in zip(block.iter_vars, values):
            self.subst[id(iv.var)] = v
        new_block = self.visit_stmt(block)
        for iv in block.iter_vars:
            del self.subst[id(iv.var)]
        if pred is op.predicate and new_block is block and not op.iter_values:
            return op
        return BlockRealize((), pred, cast(Block, new_block), span=op.span)


def _check_no_init(block: Block) -> None:
    if block.init is not None:
        raise ValueError(f"ConvertBlocksToOpaque: block {block.name_hint!r} still has an init "
                         "part; run LowerInitBlock first")


def convert_blocks_to_opaque(func: PrimFunc) -> PrimFunc:
    """``func`` with every block opaque; the same object when all already are.

    Raises:
        ValueError: when a block still has ``T.init()`` or a block binding uses its own iter vars.
    """
    body = _OpaqueBlockConverter()(func.body)
    return func if body is func.body else func.with_body(body)


@register_pass("ConvertBlocksToOpaque")
def ConvertBlocksToOpaque() -> Pass:  # pylint: disable=invalid-name
    """Substitute block iter vars by their bindings (``tvm.tir.transform.ConvertBlocksToOpaque``,
    opt_level 0)."""
    @prim_func_pass("ConvertBlocksToOpaque", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return convert_blocks_to_opaque(func)
    return run
