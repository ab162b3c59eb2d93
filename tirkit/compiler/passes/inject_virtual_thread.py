"""``InjectVirtualThread``: run the virtual threads of a ``vthread`` axis one after the other
(mirrors ``tvm.tir.transform.InjectVirtualThread``, src/tir/transforms/inject_virtual_thread.cc,
in its simplest form).

``T.attr(iv, "virtual_thread", n)`` with ``iv`` bound to ``vthread[.x/.y/.z]`` becomes
``for v in T.unroll(n): body``: each virtual thread runs the body in turn inside the same real
thread. Allocations inside the body get one copy per virtual thread (their scope is the loop
body), as TVM's injector gives them; TVM additionally interleaves the statements of the virtual
threads, which changes only the schedule of the instructions, not the results.
"""
from __future__ import annotations

from typing import Any

from tirkit.ir.expr import IntImm
from tirkit.tir.expr import IterVar
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import AttrStmt, For, ForKind, Stmt
from tirkit.tir.stmt_functor import StmtMutator

from ..transform import Pass, prim_func_pass, register_pass

__all__ = ["InjectVirtualThread", "inject_virtual_thread"]


class _VirtualThreadInjector(StmtMutator):
    def visit_attr_stmt_(self, op: AttrStmt) -> Stmt:
        if op.attr_key != "virtual_thread" or not isinstance(op.node, IterVar):
            return super().visit_attr_stmt_(op)
        body = self.visit_stmt(op.body)
        iv = op.node
        zero = IntImm(iv.var.dtype, 0)
        return For(iv.var, zero, op.value, ForKind.UNROLLED, body, span=op.span)


def inject_virtual_thread(func: PrimFunc) -> PrimFunc:
    """``func`` with every ``virtual_thread`` attribute turned into an unrolled loop."""
    body = _VirtualThreadInjector()(func.body)
    return func if body is func.body else func.with_body(body)


@register_pass("InjectVirtualThread")
def InjectVirtualThread() -> Pass:  # pylint: disable=invalid-name
    """Lower ``vthread`` axes to unrolled loops (``tvm.tir.transform.InjectVirtualThread``,
    opt_level 0)."""
    @prim_func_pass("InjectVirtualThread", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return inject_virtual_thread(func)
    return run
