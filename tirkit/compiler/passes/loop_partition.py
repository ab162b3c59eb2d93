"""``LoopPartition``: split a loop where a ``likely`` condition changes value (mirrors
``tvm.tir.transform.LoopPartition``, ``src/tir/transforms/loop_partition.cc``).

Candidates are loops annotated ``"pragma_loop_partition_hint"`` and, with config
``"tir.LoopPartition": {"partition_const_loop": True}``, every loop of constant extent. In a
candidate's body, the first ``if T.likely(cond)`` whose ``cond`` depends on the loop var and is
true on a prefix (or suffix) of the range decides the split: the loop becomes two loops, each
with the ``if`` replaced by the branch its constant condition takes (TVM leaves
``if T.bool(True)`` for a later Simplify, which TVMScript cannot print back faithfully); the
second loop counts from 0 with its body shifted, and a one-iteration part is inlined. The parts
are partitioned again if they hold further conditions. Finally every ``likely`` tag is
removed (TVM's ``RemoveLikelyTagsAndHints``).
"""
from __future__ import annotations

from typing import Any, cast

from tirkit.arith import Analyzer
from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.tir import expr as E
from tirkit.tir import op as tir_op
from tirkit.tir import stmt as S
from tirkit.tir.stmt_functor import StmtMutator, ir_transform, pre_order_visit, substitute

from ..transform import register_pass, prim_func_pass
from ._opt_common import uses_var, with_body
from .canonicalize_loop import require_trivial_step

HINT = "pragma_loop_partition_hint"


def _is_likely(e: Any) -> bool:
    return isinstance(e, E.Call) and getattr(e.op, "name", "") == "tir.likely"


def find_likely_cond(body: S.Stmt, var: E.Var) -> E.Call | None:
    """The first ``likely(c)`` condition of an ``if`` in ``body`` that uses ``var`` (TVM's
    ``PartitionFinder`` candidates)."""
    found: list[E.Call] = []

    def visit(n: Any) -> Any:
        if found or isinstance(n, PrimExpr):
            return False  # an `if` is a statement: the expressions are not walked
        if isinstance(n, S.IfThenElse) and _is_likely(n.condition) \
                and uses_var(n.condition, lambda v: v is var):
            found.append(cast(E.Call, n.condition))  # (_is_likely checked)
        return None
    pre_order_visit(body, visit)
    return found[0] if found else None


def split_point(cond: PrimExpr, var: E.Var, lo: int, extent: int) -> tuple[int, bool] | None:
    """``(k, first)``: ``cond`` has value ``first`` for the first ``k`` iterations and the other
    value after, or ``None`` when it is not such a two-piece condition or not decidable."""
    ana = Analyzer()
    values = []
    for k in range(extent):
        v = ana.simplify(substitute(cond, {var: IntImm(var.dtype, lo + k)}))
        if not isinstance(v, IntImm):
            return None
        values.append(bool(v.value))
    k = next((n for n, v in enumerate(values) if v != values[0]), extent)
    if k in (0, extent) or any(v == values[0] for v in values[k:]):
        return None
    return k, values[0]


class ConditionEliminator(StmtMutator):
    """Replace one ``likely`` condition by a constant (TVM's ``ConditionEliminator``)."""

    def __init__(self, cond: E.Call, value: bool) -> None:
        self.cond, self.value = cond, value

    def visit_if_then_else_(self, op: S.IfThenElse) -> S.Stmt:
        new = super().visit_if_then_else_(op)
        if new.condition is self.cond:
            taken = new.then_case if self.value else new.else_case
            return taken if taken is not None else S.Evaluate(IntImm("int32", 0), span=op.span)
        return new


class LoopPartitioner(StmtMutator):
    """Partition candidate loops (TVM's ``LoopPartitioner``)."""

    def __init__(self, partition_const_loop: bool = False) -> None:
        self.partition_const_loop = partition_const_loop

    def _candidate(self, op: S.For) -> bool:
        if op.kind != S.ForKind.SERIAL or not isinstance(op.extent, IntImm) \
                or not isinstance(op.min, IntImm):
            return False
        return bool(op.annotations.get(HINT)) or self.partition_const_loop

    def visit_for_(self, op: S.For) -> S.Stmt:
        require_trivial_step(op, "LoopPartition")
        new = super().visit_for_(op)
        if not self._candidate(new):
            return new
        cond = find_likely_cond(new.body, new.loop_var)
        got = split_point(cond.args[0], new.loop_var, new.min.value, new.extent.value) \
            if cond is not None else None
        if cond is None or got is None:
            return new
        k, first = got
        pre = self.make_for(new, new.min.value, k, ConditionEliminator(cond, first)(new.body),
                            shift=False)
        post = self.make_for(new, new.min.value + k, new.extent.value - k,
                             ConditionEliminator(cond, not first)(new.body), shift=True)
        return S.SeqStmt([self.visit_stmt(pre), self.visit_stmt(post)], span=op.span)

    def make_for(self, op: S.For, lo: int, extent: int, body: S.Stmt, shift: bool) -> S.Stmt:
        """One part of the loop over ``[lo, lo + extent)`` (TVM's ``MakeFor``)."""
        var, t = op.loop_var, op.loop_var.dtype
        if extent == 1:
            return substitute(body, {var: IntImm(t, lo)})
        if shift:
            new_var = E.Var(var.name_hint, t, span=var.span)
            body = substitute(body, {var: tir_op.add(new_var, IntImm(t, lo))})
            return op.with_changes(loop_var=new_var, min=IntImm(t, 0),
                                   extent=IntImm(t, extent), body=body)
        return op.with_changes(min=IntImm(t, lo), extent=IntImm(t, extent), body=body)


def _has_likely(body: S.Stmt) -> bool:
    """Whether ``body`` calls ``likely`` anywhere (one walk that stops at the first)."""
    found = [False]

    def visit(n: Any) -> bool:
        if found[0]:
            return False
        if _is_likely(n):
            found[0] = True
        return not found[0]
    pre_order_visit(body, visit)
    return found[0]


def remove_likely_tags(stmt: S.Stmt) -> S.Stmt:
    """``stmt`` without ``likely`` tags (TVM's ``RemoveLikelyTagsAndHints``)."""
    return ir_transform(stmt, None, lambda n: n.args[0] if _is_likely(n) else None,
                        only_enable=[E.Call])


@register_pass("LoopPartition")
def LoopPartition():  # pylint: disable=invalid-name
    """The pass partitioning loops at ``likely`` boundaries (mirrors
    ``tvm.tir.transform.LoopPartition``); reads config ``"tir.LoopPartition"``."""
    @prim_func_pass("LoopPartition", opt_level=0)
    def run(func, mod, ctx):  # pylint: disable=unused-argument
        if not _has_likely(func.body):  # no split point and no tag to remove: nothing changes
            return func
        cfg = ctx.get("tir.LoopPartition", {}) or {}
        body = LoopPartitioner(bool(cfg.get("partition_const_loop", False)))(func.body)
        return with_body(func, remove_likely_tags(body))
    return run
