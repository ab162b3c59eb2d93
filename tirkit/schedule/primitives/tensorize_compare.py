"""Structural matching of a block against a tensor intrinsic's description (mirrors TVM's
``TensorizeComparator`` of ``src/tir/schedule/ir_comparator.cc``).

The left side is the (blockized) block realize of the program, the right side the body of the
intrinsic's ``desc``. Loop vars and block iter vars are matched by position (``DefEqual``), the
desc's buffers are mapped to the program's by their first appearance in the scope block's
regions, whose region minimums become the *base* of each buffer; the desc may have fewer
(trailing) dimensions, the leading ones of the program's region having extent 1. Accesses match
when ``program_index - base == desc_index`` is provable. The first mismatch raises
``TensorizeError`` naming the block and what differs.
"""
from __future__ import annotations

from typing import Any, NoReturn, Sequence

from ...arith import Analyzer
from ...ir.expr import FloatImm, IntImm, PrimExpr
from ...tir import expr as E
from ...tir import op as tir_op
from ...tir import stmt as S
from .cache_layout_errors import TensorizeError

_BINARY = (E.Add, E.Sub, E.Mul, E.Div, E.Mod, E.FloorDiv, E.FloorMod, E.Min, E.Max, E.EQ, E.NE,
           E.LT, E.LE, E.GT, E.GE, E.And, E.Or)


class TensorizeComparator:
    """TVM's ``TensorizeComparator`` in assert mode: :meth:`match` raises on a mismatch and fills
    :attr:`rhs_buffer_map` (``id(desc buffer) -> program buffer``) and :attr:`buffer_indices`
    (``id(program buffer) -> base indices``)."""

    def __init__(self, block: S.Block) -> None:
        self.block = block
        self.equal_map: dict[int, E.Var] = {}
        self.rhs_buffer_map: dict[int, Any] = {}
        self.buffer_indices: dict[int, list[PrimExpr]] = {}
        self.ana = Analyzer()       # program vars bound to desc vars
        self.lhs_ana = Analyzer()   # program block iter domains
        self.is_scope = True

    def fail(self, what: str) -> NoReturn:
        """Raise the mismatch error."""
        raise TensorizeError(self.block, reason=f"The stmt doesn't match the tensor intrin: {what}")

    def match(self, lhs: S.BlockRealize, rhs: S.Stmt) -> None:
        """Match the program's block realize ``lhs`` against the desc body ``rhs``."""
        self.stmt(lhs, rhs)

    # -- statements -----------------------------------------------------------------------
    def stmt(self, lhs: Any, rhs: Any) -> None:
        """``VisitStmt``: same node class, then the per-class rule."""
        if lhs is rhs:
            return
        if type(lhs) is not type(rhs):
            self.fail(f"{type(lhs).__name__} in the program vs {type(rhs).__name__} in the "
                      "description")
        rule = _STMT_RULES.get(type(lhs))
        if rule is None:
            self.fail(f"{type(lhs).__name__} is not supported by tensorize matching")
        rule(self, lhs, rhs)

    def _for(self, lhs: S.For, rhs: S.For) -> None:
        self.def_equal(lhs.loop_var, rhs.loop_var)
        self.expr(lhs.min, rhs.min)
        self.expr(lhs.extent, rhs.extent)
        if lhs.kind != rhs.kind or (lhs.thread_binding is None) != (rhs.thread_binding is None):
            self.fail(f'loop "{lhs.loop_var.name_hint}" is {lhs.kind.name}, the description\'s '
                      f"loop is {rhs.kind.name}")
        self.stmt(lhs.body, rhs.body)

    def _seq(self, lhs: S.SeqStmt, rhs: S.SeqStmt) -> None:
        self.array(lhs.seq, rhs.seq, self.stmt, "statements")

    def _store(self, lhs: S.BufferStore, rhs: S.BufferStore) -> None:
        self.access(lhs, rhs)
        self.expr(lhs.value, rhs.value)

    def _realize(self, lhs: S.BlockRealize, rhs: S.BlockRealize) -> None:
        if not self.is_scope:
            self.array(lhs.iter_values, rhs.iter_values, self.expr, "block bindings")
        self.expr(lhs.predicate, rhs.predicate)
        self.stmt(lhs.block, rhs.block)

    def _block(self, lhs: S.Block, rhs: S.Block) -> None:
        for iv in lhs.iter_vars:
            if iv.dom is not None:
                self.lhs_ana.bind(iv.var, iv.dom)
        if not self.is_scope:
            self.array(lhs.iter_vars, rhs.iter_vars, self.iter_var, "block iter vars")
            if lhs.alloc_buffers or rhs.alloc_buffers:
                self.fail("blocks allocating buffers are not supported")
        self.array(lhs.writes, rhs.writes, self.region, "write regions")
        self.array(lhs.reads, rhs.reads, self.region, "read regions")
        self.is_scope = False
        self.stmt(lhs.body, rhs.body)

    def _evaluate(self, lhs: S.Evaluate, rhs: S.Evaluate) -> None:
        self.expr(lhs.value, rhs.value)

    # -- pieces ---------------------------------------------------------------------------
    def array(self, lhs: Sequence[Any], rhs: Sequence[Any], fn: Any, what: str) -> None:
        """Element-wise match of two sequences of equal length."""
        if len(lhs) != len(rhs):
            self.fail(f"{len(lhs)} {what} in the program vs {len(rhs)} in the description")
        for a, b in zip(lhs, rhs):
            fn(a, b)

    def def_equal(self, lhs: E.Var, rhs: E.Var) -> None:
        """Map a program definition var to a desc var (``DefEqual``)."""
        hit = self.equal_map.get(id(lhs))
        if hit is not None and hit is not rhs:
            self.fail(f"{lhs.name_hint} is matched to two different description vars")
        self.equal_map[id(lhs)] = rhs
        self.ana.bind(lhs, tir_op.cast(lhs.dtype, rhs))

    def iter_var(self, lhs: E.IterVar, rhs: E.IterVar) -> None:
        """Block iter vars match by position and iter type."""
        self.def_equal(lhs.var, rhs.var)
        if lhs.iter_type != rhs.iter_type:
            self.fail(f"iter var {lhs.var.name_hint} is {lhs.iter_type.name}, the description's "
                      f"{rhs.var.name_hint} is {rhs.iter_type.name}")

    def buffer(self, lhs: Any, rhs: Any) -> None:
        """Map a desc buffer to a program buffer (``CompareBuffer``)."""
        hit = self.rhs_buffer_map.get(id(rhs))
        if hit is not None:
            if hit is not lhs:
                self.fail(f"description buffer {rhs.name} matches both {hit.name} and {lhs.name}")
            return
        if lhs.dtype != rhs.dtype or lhs.scope() != rhs.scope():
            self.fail(f"buffer {lhs.name} ({lhs.dtype}, {lhs.scope()}) vs description buffer "
                      f"{rhs.name} ({rhs.dtype}, {rhs.scope()})")
        self.rhs_buffer_map[id(rhs)] = lhs

    def region(self, lhs: S.BufferRegion, rhs: S.BufferRegion) -> None:
        """``CompareBufferRegion``: records the base of a buffer at the scope block."""
        self.buffer(lhs.buffer, rhs.buffer)
        offset = len(lhs.region) - len(rhs.region)
        if offset < 0:
            self.fail(f"buffer {lhs.buffer.name} has fewer dimensions than the description's")
        base = self.buffer_indices.get(id(lhs.buffer))
        for i in range(offset):
            extent = lhs.region[i].extent
            if not (isinstance(extent, IntImm) and extent.value == 1):
                self.fail(f"the region of {lhs.buffer.name} is not element-wise in its leading "
                          f"dimension {i}")
        if base is None:
            if not self.is_scope:
                self.fail(f"buffer {lhs.buffer.name} first appears in an inner block")
            base = [r.min for r in lhs.region]
            self.buffer_indices[id(lhs.buffer)] = base
        for r, d, b in zip(lhs.region[offset:], rhs.region, base[offset:]):
            if not self.ana.can_prove_equal(r.extent, d.extent):
                self.fail(f"the region of {lhs.buffer.name} has extent {r.extent.script()}, the "
                          f"description's {d.extent.script()}")
            if not self.is_scope and not self.ana.can_prove_equal(
                    self.lhs_ana.simplify(r.min - b), d.min):
                self.fail(f"the region of {lhs.buffer.name} starts at {r.min.script()}, which "
                          f"does not match the description's {d.min.script()}")

    def access(self, lhs: Any, rhs: Any) -> None:
        """``CompareBufferAccess``: ``index - base`` equals the desc index."""
        self.buffer(lhs.buffer, rhs.buffer)
        base = self.buffer_indices.get(id(lhs.buffer))
        offset = len(lhs.indices) - len(rhs.indices)
        if base is None or offset < 0:
            self.fail(f"buffer {lhs.buffer.name} is accessed but not in the block's regions")
        for i, d, b in zip(lhs.indices[offset:], rhs.indices, base[offset:]):
            if not self.ana.can_prove_equal(i - b, d):
                self.fail(f"the access {lhs.buffer.name}[{', '.join(x.script() for x in lhs.indices)}]"
                          f" does not match the description's index {d.script()}")

    # -- expressions ----------------------------------------------------------------------
    def expr(self, lhs: Any, rhs: Any) -> None:
        """``VisitExpr``: same class and dtype code, then the per-class rule."""
        if lhs is rhs:
            return
        if type(lhs) is not type(rhs) or lhs.dtype.code != rhs.dtype.code:
            self.fail(f"expression mismatch: {lhs.script()} vs {rhs.script()}")
        if isinstance(lhs, _BINARY):
            self.expr(lhs.a, rhs.a)
            self.expr(lhs.b, rhs.b)
        elif isinstance(lhs, (IntImm, FloatImm)):
            if lhs.value != rhs.value:
                self.fail(f"constant {lhs.value} vs {rhs.value}")
        elif isinstance(lhs, E.Var):
            if self.equal_map.get(id(lhs)) is not rhs:
                self.fail(f"variable {lhs.name_hint} vs {rhs.name_hint}")
        elif isinstance(lhs, E.BufferLoad):
            self.access(lhs, rhs)
        elif isinstance(lhs, E.Cast):
            self.expr(lhs.value, rhs.value)
        elif isinstance(lhs, E.Select):
            for f in ("condition", "true_value", "false_value"):
                self.expr(getattr(lhs, f), getattr(rhs, f))
        elif isinstance(lhs, E.Call):
            if lhs.op is not rhs.op:
                self.fail(f"call of {lhs.op} vs {rhs.op}")
            self.array(lhs.args, rhs.args, self.expr, "call arguments")
        else:
            self.fail(f"{type(lhs).__name__} is not supported by tensorize matching")


_STMT_RULES: dict[type, Any] = {
    S.For: TensorizeComparator._for, S.SeqStmt: TensorizeComparator._seq,  # pylint: disable=protected-access
    S.BufferStore: TensorizeComparator._store,  # pylint: disable=protected-access
    S.BlockRealize: TensorizeComparator._realize,  # pylint: disable=protected-access
    S.Block: TensorizeComparator._block,  # pylint: disable=protected-access
    S.Evaluate: TensorizeComparator._evaluate,  # pylint: disable=protected-access
}
