"""Statement handlers of the legacy hybrid dialect of seed 000 (tokens ``legacy`` for function
bodies, ``legacy_ir`` for ``class Module:``), see :mod:`tirkit.lang.legacy`.

The table reuses the classic handlers where the two dialects mean the same (loops, ``if``,
``assert``, annotated lets, expression statements) and adds its own for what differs: a store
through a pointer (``C_1.data[i] = v``, ``C[i] = v`` on a handle) and the module class, whose
methods are parsed with the legacy table. No TVM counterpart (TVM dropped the dialect in v0.9).
"""
from __future__ import annotations

from typing import Any

from tirkit import tir

from ..ir_builder import tir_stmts as TS
from . import dispatch, ir_handlers, tir_handlers
from .core import ParseError, Parser
from .dispatch import register

#: statements whose classic handler means the same in the legacy dialect
SHARED = ("FunctionDef", "For", "While", "If", "AugAssign", "AnnAssign", "Assert", "Return",
          "Expr", "Pass", "With")

for _name in SHARED:
    register("legacy", _name)(dispatch.get("tir", _name))  # type: ignore[arg-type]
register("legacy_ir", "Expr")(ir_handlers.visit_expr)
register("legacy_ir", "Pass")(ir_handlers.visit_pass)


# ``class Module:`` of legacy functions: an IRModule whose methods use the legacy table
# (``Parser.function_token`` gives ``"legacy"`` for every def of a legacy unit)
register("legacy_ir", "ClassDef")(ir_handlers.visit_class_def)


@register("legacy", "Assign")
def visit_assign(self: Parser, node: Any) -> None:
    """``ptr[i] = v`` on a pointer stores into its flat buffer; anything else as in classic."""
    target = node.targets[0] if len(node.targets) == 1 else None
    if target is not None and type(target).__name__ == "Subscript":
        base = self.eval_expr(target.value)
        if isinstance(base, tir.Var):
            _pointer_store(self, node, target, base)
            return
    tir_handlers.visit_assign(self, node)


def _pointer_store(self: Parser, node: Any, target: Any, ptr: tir.Var) -> None:
    value = tir.convert(self.evaluator.eval_operand(node.value))
    index = self.eval_expr(target.slice)
    if isinstance(index, tuple):
        raise ParseError(target.slice, "a store through a pointer takes one flat index",
                         code="rank-mismatch")
    legacy_tir: Any = self.evaluator.env.get("tir")
    if not hasattr(legacy_tir, "flat_buffer"):
        raise ParseError(target.value, f"{ptr.name_hint!r} is not a buffer", code="bad-store")
    buf = legacy_tir.flat_buffer(ptr, value.dtype)
    TS.buffer_store(buf, value, [index])
