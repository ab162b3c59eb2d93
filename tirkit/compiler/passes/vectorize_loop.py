"""``VectorizeLoop``: ``T.vectorized`` loops become vector code (mirrors
``tvm.tir.transform.VectorizeLoop``, ``src/tir/transforms/vectorize_loop.cc``).

A vectorized loop of constant extent ``n`` is replaced by its body in which the loop var is the
vector ``Ramp(0, 1, n)``: arithmetic on it yields Ramps and Broadcasts, loads and stores get
vector indices (``A[T.Ramp(b, s, n)]``), scalar operands are broadcast. An extent that is not a
native width is still one vector of ``n`` lanes (LLVM legalises it), as TVM. A statement that
cannot be vectorized (a vector ``if`` condition, a non-vectorizable call on vector arguments, a
vector loop extent, an allocation inside the loop) is kept as a serial loop over its lanes
(TVM's ``Scalarize``; the loop var is renamed ``<var>_s``). Config ``"tir.disable_vectorize"``
turns vectorized loops into serial ones instead.
"""
from __future__ import annotations

from typing import Any

from tirkit.arith import Analyzer
from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.ir.op import Op
from tirkit.tir import expr as E
from tirkit.tir import op as tir_op
from tirkit.tir import stmt as S
from tirkit.tir.stmt_functor import StmtExprMutator, StmtMutator, substitute

from ..transform import register_pass, prim_func_pass
from ._opt_common import with_body
from .canonicalize_loop import require_trivial_step


def lanes_of(e: PrimExpr) -> int:
    """The number of lanes of ``e``'s dtype."""
    return e.dtype.lanes


def broadcast_to(e: PrimExpr, lanes: int) -> PrimExpr:
    """``e`` widened to ``lanes`` by a Broadcast (TVM's ``BroadcastTo``).

    Raises:
        ValueError: when ``e`` is already a vector of another width.
    """
    if lanes_of(e) == lanes:
        return e
    if lanes_of(e) != 1:
        raise ValueError(f"VectorizeLoop: cannot broadcast {e.dtype} to {lanes} lanes")
    return E.Broadcast(e, lanes, span=e.span)


def _unchanged(new: tuple, old: tuple) -> bool:
    return all(a is b for a, b in zip(new, old))


class Vectorizer(StmtExprMutator):
    """Vectorize a loop body over ``var`` with ``lanes`` lanes (TVM's ``Vectorizer``)."""

    def __init__(self, var: E.Var, lanes: int) -> None:
        self.var, self.lanes = var, lanes
        self.ramp = E.Ramp(IntImm(var.dtype, 0), IntImm(var.dtype, 1), lanes, span=var.span)
        self.let_binding: dict[int, PrimExpr] = {}
        self.need_scalarize = False
        self.analyzer = Analyzer()

    # --------------------------------------------------------------------------- statements
    def visit_stmt(self, stmt: S.Stmt) -> S.Stmt:
        assert not self.need_scalarize
        out = super().visit_stmt(stmt)
        if self.need_scalarize:
            self.need_scalarize = False
            return self.scalarize(stmt)
        return out

    def scalarize(self, stmt: S.Stmt) -> S.Stmt:
        """``stmt`` run serially over the lanes (TVM's ``Scalarize``)."""
        idx = E.Var(f"{self.var.name_hint}_s", self.var.dtype, span=self.var.span)
        body = substitute(stmt, {self.var: idx})
        return S.For(idx, IntImm(idx.dtype, 0), IntImm(idx.dtype, self.lanes),
                     S.ForKind.SERIAL, body, span=stmt.span)

    def _vector_in(self, *exprs: Any) -> bool:
        return any(e is not None and lanes_of(e) != 1 for e in exprs)

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        indices = tuple(self.visit_expr(i) for i in op.indices)
        value = self.visit_expr(op.value)
        if _unchanged(indices, op.indices) and value is op.value:
            return op
        if self._vector_in(*indices[:-1]) or op.predicate is not None:
            self.need_scalarize = True
            return op
        total = max(lanes_of(indices[-1]), lanes_of(value))
        indices = indices[:-1] + (broadcast_to(indices[-1], total),)
        return op.with_changes(indices=indices, value=broadcast_to(value, total))

    def visit_if_then_else_(self, op: S.IfThenElse) -> S.Stmt:
        cond = self.visit_expr(op.condition)
        if lanes_of(cond) != 1:
            return self.scalarize(op)
        then_case = self.visit_stmt(op.then_case)
        else_case = self.visit_stmt(op.else_case) if op.else_case is not None else None
        if cond is op.condition and then_case is op.then_case and else_case is op.else_case:
            return op
        return op.with_changes(condition=cond, then_case=then_case, else_case=else_case)

    def visit_for_(self, op: S.For) -> S.Stmt:
        lo, ext = self.visit_expr(op.min), self.visit_expr(op.extent)
        if self._vector_in(lo, ext):
            return self.scalarize(op)
        body = self.visit_stmt(op.body)
        if lo is op.min and ext is op.extent and body is op.body:
            return op
        return op.with_changes(min=lo, extent=ext, body=body)

    def visit_while_(self, op: S.While) -> S.Stmt:
        return self.scalarize(op) if self._vector_in(self.visit_expr(op.condition)) \
            else super().visit_while_(op)

    def visit_assert_stmt_(self, op: S.AssertStmt) -> S.Stmt:
        return self.scalarize(op) if self._vector_in(self.visit_expr(op.condition)) \
            else super().visit_assert_stmt_(op)

    def visit_allocate_(self, op: S.Allocate) -> S.Stmt:
        return self.scalarize(op)

    def visit_let_stmt_(self, op: S.LetStmt) -> S.Stmt:
        value = self.visit_expr(op.value)
        if lanes_of(value) != lanes_of(op.value):
            new_var = E.Var(op.var.name_hint, value.dtype, span=op.var.span)
            self.let_binding[id(op.var)] = new_var
            return S.LetStmt(new_var, value, self.visit_stmt(op.body), span=op.span)
        self.let_binding[id(op.var)] = op.var
        body = self.visit_stmt(op.body)
        if value is op.value and body is op.body:
            return op
        return op.with_changes(value=value, body=body)

    # -------------------------------------------------------------------------- expressions
    def visit_var_(self, op: E.Var) -> PrimExpr:
        if op is self.var:
            return self.ramp
        return self.let_binding.get(id(op), op)

    def _binary(self, op: Any) -> tuple[PrimExpr, PrimExpr, int] | None:
        a, b = self.visit_expr(op.a), self.visit_expr(op.b)
        if a is op.a and b is op.b:
            return None
        return a, b, max(lanes_of(a), lanes_of(b))

    def _binary_vec(self, op: Any) -> PrimExpr:
        got = self._binary(op)
        if got is None:
            return op
        a, b, lanes = got
        return type(op)(broadcast_to(a, lanes), broadcast_to(b, lanes), span=op.span)

    def _add_sub(self, op: Any, fcompute: Any) -> PrimExpr:
        got = self._binary(op)
        if got is None:
            return op
        a, b, lanes = got
        if lanes != 1:
            if lanes_of(a) == 1 and isinstance(b, E.Ramp):
                return E.Ramp(fcompute(a, b.base), fcompute(IntImm(b.stride.dtype, 0), b.stride),
                              b.lanes, span=op.span)
            if lanes_of(b) == 1 and isinstance(a, E.Ramp):
                return E.Ramp(fcompute(a.base, b), a.stride, a.lanes, span=op.span)
        return fcompute(broadcast_to(a, lanes), broadcast_to(b, lanes))

    def visit_add_(self, op: E.Add) -> PrimExpr:
        return self._add_sub(op, tir_op.add)

    def visit_sub_(self, op: E.Sub) -> PrimExpr:
        return self._add_sub(op, tir_op.subtract)

    def visit_mul_(self, op: E.Mul) -> PrimExpr:
        got = self._binary(op)
        if got is None:
            return op
        a, b, lanes = got
        if lanes != 1:
            for ramp, k in ((a, b), (b, a)):
                if isinstance(ramp, E.Ramp) and lanes_of(k) == 1 \
                        and self.analyzer.can_prove(tir_op.greater(k, 0)):
                    return E.Ramp(tir_op.multiply(ramp.base, k), tir_op.multiply(ramp.stride, k),
                                  ramp.lanes, span=op.span)
        return E.Mul(broadcast_to(a, lanes), broadcast_to(b, lanes), span=op.span)

    visit_div_ = visit_mod_ = visit_floor_div_ = visit_floor_mod_ = _binary_vec
    visit_min_ = visit_max_ = visit_and_ = visit_or_ = _binary_vec
    visit_eq_ = visit_ne_ = visit_lt_ = visit_le_ = visit_gt_ = visit_ge_ = _binary_vec

    def visit_not_(self, op: E.Not) -> PrimExpr:
        a = self.visit_expr(op.a)
        return op if a is op.a else E.Not(a, span=op.span)

    def visit_select_(self, op: E.Select) -> PrimExpr:
        parts = (op.condition, op.true_value, op.false_value)
        new = tuple(self.visit_expr(p) for p in parts)
        if _unchanged(new, parts):
            return op
        lanes = max(lanes_of(p) for p in new)
        return E.Select(*(broadcast_to(p, lanes) for p in new), span=op.span)

    def visit_cast_(self, op: E.Cast) -> PrimExpr:
        value = self.visit_expr(op.value)
        if value is op.value:
            return op
        return E.Cast(op.dtype.with_lanes(lanes_of(value)), value, span=op.span)

    def visit_buffer_load_(self, op: E.BufferLoad) -> PrimExpr:
        indices = tuple(self.visit_expr(i) for i in op.indices)
        if _unchanged(indices, op.indices):
            return op
        if self._vector_in(*indices[:-1]) or op.predicate is not None:
            self.need_scalarize = True
            return op
        return op.with_changes(indices=indices)

    def visit_let_(self, op: E.Let) -> PrimExpr:
        value = self.visit_expr(op.value)
        if lanes_of(value) != lanes_of(op.value):
            new_var = E.Var(op.var.name_hint, value.dtype, span=op.var.span)
            self.let_binding[id(op.var)] = new_var
            return E.Let(new_var, value, self.visit_expr(op.body), span=op.span)
        self.let_binding[id(op.var)] = op.var
        body = self.visit_expr(op.body)
        return op if value is op.value and body is op.body else \
            op.with_changes(value=value, body=body)

    def _scalar_only(self, op: PrimExpr) -> PrimExpr:
        self.need_scalarize = True
        return op

    visit_ramp_ = visit_broadcast_ = visit_shuffle_ = visit_reduce_ = _scalar_only

    def visit_call_(self, op: E.Call) -> PrimExpr:
        name = op.op.name if isinstance(op.op, Op) else ""
        if name in ("tir.if_then_else", "tir.reinterpret"):
            return getattr(self, "_" + name[len("tir."):])(op)
        vectorizable = isinstance(op.op, Op) and op.op.attrs.get("TVectorizable", False)
        args = tuple(self.visit_expr(a) if isinstance(a, PrimExpr) else a for a in op.args)
        if _unchanged(args, op.args):
            return op
        if not vectorizable:
            return self._scalar_only(op) if self._vector_in(*args) else \
                op.with_changes(args=args)
        first = 1 if name == "tir.call_llvm_pure_intrin" else 0
        lanes = max(lanes_of(a) for a in args[first:])
        args = args[:first] + tuple(broadcast_to(a, lanes) for a in args[first:])
        return E.Call(op.dtype.with_lanes(lanes), op.op, args, span=op.span)

    def _reinterpret(self, op: E.Call) -> PrimExpr:
        """TVM's ``MutateReinterpretExpr_``: a bit cast of a vector is a vector bit cast, its
        lanes scaled by the width ratio (float32x4 <- int32x4)."""
        value = self.visit_expr(op.args[0])
        if value is op.args[0]:
            return op
        lanes = value.dtype.bits * lanes_of(value) // op.dtype.bits
        return E.Call(op.dtype.with_lanes(lanes), op.op, (value,), span=op.span)

    def _if_then_else(self, op: E.Call) -> PrimExpr:
        cond = self.visit_expr(op.args[0])
        if lanes_of(cond) != 1:
            return self._scalar_only(op)
        t, f = self.visit_expr(op.args[1]), self.visit_expr(op.args[2])
        if cond is op.args[0] and t is op.args[1] and f is op.args[2]:
            return op
        lanes = max(lanes_of(t), lanes_of(f))
        return E.Call(op.dtype.with_lanes(lanes), op.op,
                      (cond, broadcast_to(t, lanes), broadcast_to(f, lanes)), span=op.span)


class LoopVectorizer(StmtMutator):
    """Find ``T.vectorized`` loops and vectorize them (TVM's ``LoopVectorizer``)."""

    def visit_for_(self, op: S.For) -> S.Stmt:
        if op.kind != S.ForKind.VECTORIZED:
            return super().visit_for_(op)
        require_trivial_step(op, "VectorizeLoop")
        ext = op.extent
        if not isinstance(ext, IntImm) or ext.value < 1:
            return super().visit_for_(op).with_changes(kind=S.ForKind.SERIAL)
        body = op.body
        if not (isinstance(op.min, IntImm) and op.min.value == 0):
            idx = E.Var(op.loop_var.name_hint, op.loop_var.dtype, span=op.loop_var.span)
            body = substitute(body, {op.loop_var: tir_op.add(idx, op.min)})
            return vectorize_body(idx, ext.value, body)
        return vectorize_body(op.loop_var, ext.value, body)


def vectorize_body(var: E.Var, lanes: int, body: S.Stmt) -> S.Stmt:
    """``body`` vectorized over ``var`` in ``[0, lanes)`` (TVM's ``Vectorizer(var, lanes)(body)``);
    a one-lane loop just binds ``var`` to 0."""
    if lanes == 1:
        return substitute(body, {var: IntImm(var.dtype, 0)})
    return Vectorizer(var, lanes)(body)


class VectorizeSkipper(StmtMutator):
    """Turn vectorized loops into serial loops (TVM's ``VectorizeSkipper``)."""

    def visit_for_(self, op: S.For) -> S.Stmt:
        new = super().visit_for_(op)
        if new.kind == S.ForKind.VECTORIZED:
            return new.with_changes(kind=S.ForKind.SERIAL)
        return new


@register_pass("VectorizeLoop")
def VectorizeLoop(enable_vectorize: bool = True):  # pylint: disable=invalid-name
    """The pass vectorizing ``T.vectorized`` loops (mirrors ``tvm.tir.transform.VectorizeLoop``).

    Args:
        enable_vectorize: when False (or config ``"tir.disable_vectorize"`` is true), vectorized
            loops become serial loops instead.
    """
    @prim_func_pass("VectorizeLoop", opt_level=0)
    def run(func, mod, ctx):  # pylint: disable=unused-argument
        enabled = enable_vectorize and not ctx.get("tir.disable_vectorize", False)
        mutator = LoopVectorizer() if enabled else VectorizeSkipper()
        return with_body(func, mutator(func.body))
    return run
