"""``NarrowDataType``: int64 index arithmetic narrowed to int32 where bounds allow (mirrors
``tvm.tir.transform.NarrowDataType(target_bits=32)``, ``src/tir/transforms/narrow_datatype.cc``).

An int64 loop whose range fits in ``target_bits`` gets an int32 loop var; index expressions built
only from such loop vars and constants, all of whose sub-expressions are bounded within the
narrow type, are rebuilt in int32. Where an int64 value is still needed (an int64 let var, an
operand next to an un-narrowable int64 value) the narrow value is cast back with
``T.Cast("int64", ...)``. Buffer shapes keep their dtype. Functions holding TensorIR blocks are
left unchanged (TVM narrows them before blocks exist, in the TE flow).
"""
from __future__ import annotations

from typing import Any

from tirkit.arith import Analyzer
from tirkit.ir.expr import IntImm, PrimExpr, Range
from tirkit.tir import expr as E
from tirkit.tir import stmt as S
from tirkit.tir.analysis import has_block
from tirkit.tir.functor import map_tuple
from tirkit.tir.stmt_functor import StmtExprMutator, pre_order_visit

from ..transform import register_pass, prim_func_pass
from ._opt_common import with_body

_ARITH = (E.Add, E.Sub, E.Mul, E.FloorDiv, E.FloorMod, E.Div, E.Mod, E.Min, E.Max)


class DataTypeRewriter(StmtExprMutator):
    """The mutator behind :func:`NarrowDataType` (TVM's ``DataTypeRewriter``)."""

    def __init__(self, target_bits: int = 32) -> None:
        self.bits = target_bits
        self.lo, self.hi = -(2 ** (target_bits - 1)), 2 ** (target_bits - 1) - 1
        self.analyzer = Analyzer()
        self.vmap: dict[int, E.Var] = {}
        self.narrow_t = f"int{target_bits}"

    def _is_wide(self, e: PrimExpr) -> bool:
        return e.dtype.is_int() and e.dtype.lanes == 1 and e.dtype.bits > self.bits

    def _fits(self, e: PrimExpr) -> bool:
        b = self.analyzer.const_int_bound(e)
        return self.lo <= b.min_value and b.max_value <= self.hi

    def narrowable(self, e: PrimExpr) -> bool:
        """Whether ``e`` (int64) can be computed in the narrow type: only narrowed loop vars,
        constants and integer arithmetic, every part bounded within the narrow type."""
        if isinstance(e, IntImm):
            return self.lo <= e.value <= self.hi
        if isinstance(e, E.Var):
            return id(e) in self.vmap
        if isinstance(e, _ARITH) and self._is_wide(e):
            return self.narrowable(e.a) and self.narrowable(e.b) and self._fits(e)
        return False

    def narrow(self, e: PrimExpr) -> PrimExpr:
        """``e`` rebuilt in the narrow type (``e`` must be :meth:`narrowable`)."""
        if isinstance(e, IntImm):
            return IntImm(self.narrow_t, e.value, span=e.span)
        if isinstance(e, E.Var):
            return self.vmap[id(e)]
        binary: Any = e  # (narrowable: a binary op)
        return type(binary)(self.narrow(binary.a), self.narrow(binary.b), span=e.span)

    def rewrite(self, e: PrimExpr, want_narrow: bool) -> PrimExpr:
        """``e`` with narrowed parts; in the narrow type when ``want_narrow`` and possible,
        else of its own dtype."""
        if want_narrow and self._is_wide(e) and self.narrowable(e):
            return self.narrow(e)
        return self.visit_expr(e)

    def visit_expr(self, expr: PrimExpr) -> PrimExpr:
        if self._is_wide(expr) and not isinstance(expr, IntImm) and self.narrowable(expr):
            return E.Cast(expr.dtype, self.narrow(expr), span=expr.span)
        return super().visit_expr(expr)

    # ---------------------------------------------------------------------------- exprs
    def visit_var_(self, op: E.Var) -> PrimExpr:
        new = self.vmap.get(id(op))
        return op if new is None else E.Cast(op.dtype, new, span=op.span)

    def _binary(self, op: Any) -> PrimExpr:
        narrow = self._is_wide(op.a) and self.narrowable(op.a) and self.narrowable(op.b)
        if narrow:
            a, b = self.narrow(op.a), self.narrow(op.b)
        else:
            a, b = self.visit_expr(op.a), self.visit_expr(op.b)
        if a is op.a and b is op.b:
            return op
        return type(op)(a, b, span=op.span)

    visit_add_ = visit_sub_ = visit_mul_ = visit_div_ = visit_mod_ = _binary
    visit_floor_div_ = visit_floor_mod_ = visit_min_ = visit_max_ = _binary
    visit_eq_ = visit_ne_ = visit_lt_ = visit_le_ = visit_gt_ = visit_ge_ = _binary

    def visit_cast_(self, op: E.Cast) -> PrimExpr:
        value = self.rewrite(op.value, not self._is_wide(op))
        if value is op.value:
            return op
        return value if value.dtype == op.dtype else E.Cast(op.dtype, value, span=op.span)

    def _indices(self, indices: tuple) -> tuple:
        return map_tuple(indices, lambda i: self.rewrite(i, True))

    def visit_buffer_load_(self, op: E.BufferLoad) -> PrimExpr:
        indices = self._indices(op.indices)
        return op if indices is op.indices else op.with_changes(indices=indices)

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        indices = self._indices(op.indices)
        value = self.visit_expr(op.value)
        if indices is op.indices and value is op.value:
            return op
        return op.with_changes(indices=indices, value=value)

    # ---------------------------------------------------------------------------- stmts
    def visit_for_(self, op: S.For) -> S.Stmt:
        var = op.loop_var
        if self._is_wide(var) and self._range_fits(op):
            new_var = E.Var(var.name_hint, self.narrow_t, span=var.span)
            self.vmap[id(var)] = new_var
            self.analyzer.bind(new_var, Range.from_min_extent(
                self.narrow(op.min), self.narrow(op.extent)))
            self.analyzer.bind(var, Range.from_min_extent(op.min, op.extent))
            return S.For(new_var, self.narrow(op.min), self.narrow(op.extent), op.kind,
                         self.visit_stmt(op.body), op.thread_binding, op.annotations,
                         None if op.step is None else self.narrow(op.step), span=op.span)
        self.analyzer.bind(var, Range.from_min_extent(op.min, op.extent))
        return super().visit_for_(op)

    def _range_fits(self, op: S.For) -> bool:
        if not (isinstance(op.min, IntImm) or self.narrowable(op.min)):
            return False
        if not (isinstance(op.extent, IntImm) or self.narrowable(op.extent)):
            return False
        if not (self.narrowable(op.min) and self.narrowable(op.extent)):
            return False
        last = self.analyzer.simplify(op.min + op.extent)
        return self._fits(op.min) and self._fits(last)


def _has_wide(body: S.Stmt, bits: int) -> bool:
    """Whether an expression in ``body`` is a scalar integer wider than ``bits``: without one
    the rewriter changes nothing (it narrows only wide loop vars and wide expressions)."""
    found = [False]

    def visit(n: Any) -> bool:
        if not found[0] and isinstance(n, PrimExpr):
            t = n.dtype
            if t.is_int() and t.lanes == 1 and t.bits > bits:
                found[0] = True
        return not found[0]
    pre_order_visit(body, visit)
    return found[0]


@register_pass("NarrowDataType")
def NarrowDataType(target_bits: int = 32):  # pylint: disable=invalid-name
    """The pass narrowing int64 indices (mirrors ``tvm.tir.transform.NarrowDataType``).

    Args:
        target_bits: the narrow integer width (32 in TVM's pipeline).
    """
    @prim_func_pass("NarrowDataType", opt_level=0)
    def run(func, mod, ctx):  # pylint: disable=unused-argument
        if has_block(func.body) or not _has_wide(func.body, target_bits):
            return func  # (nothing wider than target_bits: every rewrite rule needs one)
        return with_body(func, DataTypeRewriter(target_bits)(func.body))
    return run
