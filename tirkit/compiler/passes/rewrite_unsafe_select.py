"""``RewriteUnsafeSelect``: a ``Select`` whose branches may fault becomes ``if_then_else``
(mirrors ``tvm.tir.transform.RewriteUnsafeSelect``,
``src/tir/transforms/rewrite_unsafe_select.cc``).

``Select`` evaluates both branches; when one of them loads memory (``A[i]`` may be out of
bounds exactly when the condition guards it) or calls an impure function, the select is
rewritten to the short-circuiting ``T.if_then_else(cond, a, b)``.
"""
from __future__ import annotations

from typing import Any

from tirkit.ir.expr import PrimExpr
from tirkit.ir.op import Op
from tirkit.tir import expr as E
from tirkit.tir.stmt_functor import StmtExprMutator

from ..transform import register_pass, prim_func_pass
from ._opt_common import with_body

def is_unsafe(expr: PrimExpr) -> bool:
    """Whether evaluating ``expr`` may fault or have side effects (TVM's
    ``UnsafeExprDetector``): memory loads and impure calls are unsafe; ``if_then_else`` is as
    unsafe as its condition; ``address_of`` and pure calls as their arguments."""
    fn = _UNSAFE.get(type(expr))
    if fn is not None:
        return fn(expr)
    children = [getattr(expr, n) for n in ("a", "b", "value", "base", "stride", "condition",
                                          "true_value", "false_value", "body")
                if isinstance(getattr(expr, n, None), PrimExpr)]
    children += [v for v in getattr(expr, "vectors", ()) if isinstance(v, PrimExpr)]
    return any(is_unsafe(c) for c in children)


def _call_unsafe(call: E.Call) -> bool:
    op = call.op
    if not isinstance(op, Op):
        return True
    if op.name == "tir.if_then_else":
        return is_unsafe(call.args[0])
    if op.name == "tir.address_of" or op.is_pure:
        return any(is_unsafe(a) for a in call.args if isinstance(a, PrimExpr))
    return True


_UNSAFE: dict[type, Any] = {
    E.BufferLoad: lambda e: True,
    E.ProducerLoad: lambda e: True,
    E.Call: _call_unsafe,
    E.Var: lambda e: False,
    E.SizeVar: lambda e: False,
    E.StringImm: lambda e: False,
}


class UnsafeSelectRewriter(StmtExprMutator):
    """The mutator behind :func:`RewriteUnsafeSelect` (TVM's ``UnsafeSelectRewriter``)."""

    def visit_select_(self, op: E.Select) -> PrimExpr:
        new = super().visit_select_(op)
        if is_unsafe(new.true_value) or is_unsafe(new.false_value):
            return E.Call(new.dtype, Op.get("tir.if_then_else"),
                          (new.condition, new.true_value, new.false_value), span=op.span)
        return new


@register_pass("RewriteUnsafeSelect")
def RewriteUnsafeSelect():  # pylint: disable=invalid-name
    """The pass rewriting unsafe selects (mirrors ``tvm.tir.transform.RewriteUnsafeSelect``)."""
    @prim_func_pass("RewriteUnsafeSelect", opt_level=0)
    def run(func, mod, ctx):  # pylint: disable=unused-argument
        return with_body(func, UnsafeSelectRewriter()(func.body))
    return run
