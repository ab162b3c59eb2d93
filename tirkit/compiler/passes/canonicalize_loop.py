"""``CanonicalizeLoop``: make every loop start at 0 and step by 1 (mirrors TVM 0.27's
``tvm.s_tir.transform.CanonicalizeLoop``, src/s_tir/transform/canonicalize_loop.cc).

A loop ``for i in range(min, min + extent, step)`` (a ``For`` with ``min != 0`` or a step that is
not trivially 1) becomes ``for i in range(ceildiv(extent, step))`` with ``i`` replaced by
``i * step + min`` in its body: ``range(1, 128, 5)`` -> ``range(26)`` over ``i * 5 + 1``. The
first stage of lowering, so that no later pass, analysis or code generator meets a step.

Unlike TVM, a loop's own bounds are rewritten for the steps of the loops around it too (TVM
substitutes only in the body, leaving an inner stepped loop's ``min`` on the outer loop's old
var).
"""
from __future__ import annotations

from typing import Any

from tirkit.arith import Analyzer
from tirkit.compiler.transform import IllFormedIRError, Pass, prim_func_pass, register_pass
from tirkit.ir import IntImm, PrimExpr
from tirkit.tir import op as O
from tirkit.tir.expr import Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import For, Stmt
from tirkit.tir.stmt_functor import StmtExprMutator

__all__ = ["CanonicalizeLoop", "LoopStepError", "canonicalize_loop", "require_trivial_step"]


class LoopStepError(IllFormedIRError):
    """A loop's step is not provably >= 1 (negative, zero or symbolic): iterating it would not
    end (TVM 0.27 raises ``InternalError: Loop step for i may not be positive: -3``)."""


def _is_zero(e: PrimExpr) -> bool:
    return isinstance(e, IntImm) and e.value == 0


class _LoopCanonicalizer(StmtExprMutator):
    """``LoopCanonicalizer``: rewrite each non-canonical For, remapping its var in the body."""

    def __init__(self) -> None:
        self.analyzer = Analyzer()
        self.remap: dict[int, PrimExpr] = {}  # id(loop var) -> var * step + min

    def visit_var_(self, op: Var) -> PrimExpr:
        return self.remap.get(id(op), op)

    def visit_for_(self, op: For) -> Stmt:
        if _is_zero(op.min) and op.has_trivial_step():
            return super().visit_for_(op)
        var = op.loop_var
        lo, extent = self.visit_expr(op.min), self.visit_expr(op.extent)
        step = IntImm(var.dtype, 1) if op.step is None else self.visit_expr(op.step)
        if not self.analyzer.can_prove_greater_equal(step, 1):
            raise LoopStepError(f"CanonicalizeLoop: the step of loop {var.name_hint!r} may not "
                                f"be positive: {step} (a loop steps by a constant or a value "
                                "provably >= 1)")
        self.remap[id(var)] = O.add(O.multiply(var, step), lo)
        try:
            body = self.visit_stmt(op.body)
        finally:
            del self.remap[id(var)]
        one = IntImm(var.dtype, 1)
        count = self.analyzer.simplify(O.floordiv(O.subtract(O.add(extent, step), one), step))
        return op.with_changes(min=IntImm(var.dtype, 0), extent=count, step=None, body=body)


def require_trivial_step(loop: For, pass_name: str) -> None:
    """For a pass that counts a loop's iterations: LoopStepError naming the loop when its step is
    not 1 (the pipeline runs CanonicalizeLoop first; a pass run on its own may meet one, which
    TVM 0.27's passes silently read as step 1)."""
    if not loop.has_trivial_step():
        raise LoopStepError(f"{pass_name}: loop {loop.loop_var.name_hint!r} steps by "
                            f"{loop.step}: run CanonicalizeLoop (the first stage of lowering) "
                            "before it")


def canonicalize_loop(func: PrimFunc) -> PrimFunc:
    """``func`` with every loop starting at 0 and stepping by 1; the same object when every
    loop already does.

    Raises:
        LoopStepError: naming the loop whose step is not provably >= 1.
    """
    body = _LoopCanonicalizer()(func.body)
    return func if body is func.body else func.with_body(body)


@register_pass("CanonicalizeLoop")
def CanonicalizeLoop() -> Pass:  # pylint: disable=invalid-name
    """Rewrite every loop to start at 0 with step 1 (TVM 0.27
    ``tvm.s_tir.transform.CanonicalizeLoop``, opt_level 0): ``for i in range(a, b, s)`` ->
    ``for i in range(ceildiv(b - a, s))`` over ``i * s + a``.

    Raises:
        LoopStepError: when a loop's step is not provably >= 1.
    """
    @prim_func_pass("CanonicalizeLoop", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return canonicalize_loop(func)
    return run
