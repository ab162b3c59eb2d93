"""``Simplify``: arithmetic simplification of every expression with loop ranges and branch
conditions known (mirrors ``tvm.tir.transform.Simplify``, ``src/tir/transforms/simplify.cc``).

An :class:`~tirkit.arith.Analyzer` learns each loop var's range, each thread extent, each
``if`` condition inside its ``then`` branch (and its negation inside ``else``), each assert's
condition after it, and let-bound constants and vars (which are inlined, the ``LetStmt``
dropped, as TVM's ``CanInlineLetStmt``). Branches whose condition simplifies to a constant are
replaced by the taken branch; ``likely(c)`` of a constant ``c`` becomes ``c``; stores of a value
read from the same place (``A[i] = A[i]``) become no-ops.
"""
from __future__ import annotations

from typing import Any

from tirkit.arith import Analyzer
from tirkit.ir.expr import FloatImm, IntImm, PrimExpr, Range
from tirkit.tir import stmt as S
from tirkit.tir.expr import NE, Call, IterVar, Not, StringImm, Var
from tirkit.tir.stmt_functor import StmtExprMutator, ir_transform

from ..transform import register_pass, prim_func_pass
from ._opt_common import is_self_store, with_body


def _strip_const_likely(e: PrimExpr) -> PrimExpr:
    def post(node: Any) -> Any:
        if isinstance(node, Call) and getattr(node.op, "name", "") == "tir.likely" \
                and isinstance(node.args[0], IntImm):
            return node.args[0]
        return None
    return ir_transform(e, None, post, only_enable=[Call])


class StmtSimplifier(StmtExprMutator):
    """The mutator behind :func:`Simplify` (TVM's ``StmtSimplifier``, an
    ``IRMutatorWithAnalyzer``)."""

    def __init__(self, analyzer: Analyzer | None = None) -> None:
        self.analyzer = analyzer or Analyzer()
        #: structural key -> (expression, its result) under the analyzer state ``_state``
        self._done: dict[Any, tuple[PrimExpr, PrimExpr]] = {}
        self._state = -1
        self._blocks = 0  # blocks being visited

    def visit_expr(self, expr: PrimExpr) -> PrimExpr:
        """The simplified ``expr``. A block's regions repeat its accesses' indices (and a load
        of the stored element the store's), under the same loop ranges: in a block, an
        expression equal to one simplified since the analyzer's state last changed is given
        what simplifying it again gives, without doing it, when the first was left as it was
        (the expression itself) or became a var (that var) or a new constant (a copy); other
        results are made again (the node of another expression would be shared)."""
        if isinstance(expr, _CONSTANTS):
            return expr  # what the analyzer returns for them, without a simplification run
        t = expr.dtype
        if not self._blocks or t.lanes != 1 or not t.is_int():
            return self._simplify(expr)  # (no region or index: a key costs more than it saves)
        state = self.analyzer.state
        if state != self._state:
            self._done.clear()
            self._state = state
        key = self.analyzer.key(expr)
        hit = self._done.get(key)
        if hit is not None:
            first, out = hit
            if out is first:
                return expr
            if isinstance(out, Var):
                return out
            if type(out) is IntImm and out.span is None:  # pylint: disable=unidiomatic-typecheck
                return IntImm(out.dtype, out.value)
        out = self._simplify(expr)
        self._done[key] = (expr, out)
        return out

    def _simplify(self, expr: PrimExpr) -> PrimExpr:
        out = self.analyzer.simplify(expr)
        if isinstance(out, Call) or any(isinstance(a, Call) for a in getattr(out, "args", ())):
            out = _strip_const_likely(out)
        return expr if out is not expr and _same_const(out, expr) else out

    def visit_for_(self, op: S.For) -> S.Stmt:
        lo, ext = self.visit_expr(op.min), self.visit_expr(op.extent)
        self.analyzer.bind(op.loop_var, Range.from_min_extent(lo, ext))
        body = self.visit_stmt(op.body)
        if lo is op.min and ext is op.extent and body is op.body:
            return op
        return op.with_changes(min=lo, extent=ext, body=body)

    def visit_let_stmt_(self, op: S.LetStmt) -> S.Stmt:
        value = self.visit_expr(op.value)
        if isinstance(value, (IntImm, FloatImm, Var)) and not op.var.dtype.is_handle():
            # a handle let (``raw: T.handle("int8") = A.data``) views memory with another type
            # and may be a buffer's data: it is kept, as TVM keeps it
            self.analyzer.bind(op.var, value)
            return self.visit_stmt(op.body)
        if value.dtype.is_int() and value.dtype.lanes == 1:
            self.analyzer.update(op.var, self.analyzer.const_int_bound(value), override=True)
        body = self.visit_stmt(op.body)
        if value is op.value and body is op.body:
            return op
        return op.with_changes(value=value, body=body)

    def visit_attr_stmt_(self, op: S.AttrStmt) -> S.Stmt:
        if op.attr_key in ("thread_extent", "virtual_thread") and isinstance(op.node, IterVar):
            value = self.visit_expr(op.value)
            self.analyzer.bind(op.node.var, Range.from_min_extent(0, value))
        return super().visit_attr_stmt_(op)

    def visit_if_then_else_(self, op: S.IfThenElse) -> S.Stmt:
        cond = self.visit_expr(op.condition)
        if isinstance(cond, IntImm):
            taken = op.then_case if cond.value else op.else_case
            return self.visit_stmt(taken) if taken is not None else _nop(op)
        fact = cond if cond.dtype.is_bool() else NE(cond, IntImm(cond.dtype, 0))  # `if i:`
        with self.analyzer.constraint_scope(fact):
            then_case = self.visit_stmt(op.then_case)
        else_case = op.else_case
        if else_case is not None:
            with self.analyzer.constraint_scope(Not(fact)):
                else_case = self.visit_stmt(else_case)
        if cond is op.condition and then_case is op.then_case and else_case is op.else_case:
            return op
        return op.with_changes(condition=cond, then_case=then_case, else_case=else_case)

    def visit_assert_stmt_(self, op: S.AssertStmt) -> S.Stmt:
        cond = self.visit_expr(op.condition)
        message = self.visit_expr(op.message)
        if isinstance(cond, IntImm) and not cond.value:
            body = self.visit_stmt(op.body)
        else:
            with self.analyzer.constraint_scope(cond):
                body = self.visit_stmt(op.body)
        if cond is op.condition and message is op.message and body is op.body:
            return op
        return op.with_changes(condition=cond, message=message, body=body)

    def visit_block_(self, op: S.Block) -> S.Stmt:
        for iv in op.iter_vars:
            if iv.dom is not None:
                self.analyzer.bind(iv.var, iv.dom)
        self._blocks += 1
        try:
            return super().visit_block_(op)
        finally:
            self._blocks -= 1

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        new = super().visit_buffer_store_(op)
        return _nop(op) if is_self_store(new) else new

    def visit_seq_stmt_(self, op: S.SeqStmt) -> S.Stmt:
        seq = [self.visit_stmt(s) for s in op.seq]
        if all(a is b for a, b in zip(seq, op.seq)):
            return op
        out = S.SeqStmt.flatten(*seq)
        return out.with_changes(span=op.span) if isinstance(out, S.SeqStmt) else out


_CONSTANTS = (IntImm, FloatImm, StringImm)


def _nop(op: S.Stmt) -> S.Stmt:
    return S.Evaluate(IntImm("int32", 0), span=op.span)


def _same_const(a: PrimExpr, b: PrimExpr) -> bool:
    return isinstance(a, (IntImm, FloatImm)) and type(a) is type(b) and a.dtype == b.dtype \
        and a.value == b.value


def simplify_stmt(stmt: S.Stmt, analyzer: Analyzer | None = None) -> S.Stmt:
    """Simplify a statement (TVM's ``arith::StmtSimplifier::Apply``); ``stmt`` itself when
    nothing changed."""
    return StmtSimplifier(analyzer)(stmt)


@register_pass("Simplify")
def Simplify():  # pylint: disable=invalid-name
    """The pass simplifying every PrimFunc (mirrors ``tvm.tir.transform.Simplify``).

    Buffer shapes of the parameters are known to be non-negative sizes; loop ranges, branch
    and assert conditions are used as facts.
    """
    @prim_func_pass("Simplify", opt_level=0)
    def run(func, mod, ctx):  # pylint: disable=unused-argument
        return with_body(func, simplify_stmt(func.body))
    return run
