"""``LowerWarpMemory``: keep ``warp``-scope buffers in registers and read other lanes' values
with shuffles (mirrors ``tvm.tir.transform.LowerWarpMemory``,
src/tir/transforms/lower_warp_memory.cc).

A ``warp`` buffer is shared by the ``width`` lanes of ``threadIdx.x`` (``width`` <= 32). As in
TVM, each lane must store only the elements it owns: a store index has the form
``m * tx + (width * m) * y + x`` (``0 <= x < m``), ``m`` being read from the stores. Then:

- the allocation becomes a ``local`` one of ``extent / width`` elements per lane;
- a store ``w[i] = v`` becomes ``w[(i // (width * m)) * m + i % m] = v`` with ``tx`` set to 0;
- a load ``w[i]`` becomes ``T.tvm_warp_shuffle(mask, w[<local index of i>], <lane of i>,
  width, 32)`` with lane ``(i % (width * m)) // m`` (a plain local load when that lane is
  ``tx`` itself); ``mask`` is ``T.tvm_warp_activemask()``.

Raises ValueError naming the buffer when its stores do not have that form or ``threadIdx.x``
is not a constant extent of at most 32.
"""
from __future__ import annotations

from typing import Any

from tirkit.arith import Analyzer
from tirkit.ir import Range
from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.ir.type import PointerType, PrimType
from tirkit.tir import op_intrin
from tirkit.tir.buffer import Buffer
from tirkit.tir.expr import BufferLoad, IterVar, Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import Allocate, AttrStmt, BufferStore, For, LetStmt, Stmt
from tirkit.tir.stmt_functor import StmtExprMutator, pre_order_visit, substitute

from ..transform import Pass, prim_func_pass, register_pass
from ._gpu_common import storage_scope

__all__ = ["LowerWarpMemory", "lower_warp_memory"]

_WARP = 32


class _WarpAccessRewriter(StmtExprMutator):
    """Rewrite the accesses of one warp buffer (TVM ``WarpAccessRewriter``)."""

    def __init__(self, old: Var, new: Var, tx: Var, width: int, m: int,
                 analyzer: Analyzer, lets: dict[int, PrimExpr]) -> None:
        self.old, self.new, self.tx = old, new, tx
        self.width, self.m, self.ana, self.lets = width, m, analyzer, lets
        self.buffers: dict[int, Buffer] = {}

    def buffer(self, buf: Buffer) -> Buffer:
        """``buf`` on the local allocation."""
        got = self.buffers.get(id(buf))
        if got is None:
            size: PrimExpr = IntImm("int32", 1)
            for dim in buf.shape:
                size = size * dim
            local = self.ana.simplify(size // self.width)
            got = buf.with_changes(data=self.new, shape=(local,))
            self.buffers[id(buf)] = got
        return got

    def local_index(self, index: PrimExpr) -> PrimExpr:
        """The lane-local index of a warp index (``tx`` set to 0)."""
        i0 = substitute(_inline(index, self.lets), {self.tx: IntImm(self.tx.dtype, 0)})
        span = self.width * self.m
        return self.ana.simplify((i0 // span) * self.m + i0 % self.m)

    def visit_buffer_store_(self, op: BufferStore) -> Stmt:
        new = super().visit_buffer_store_(op)
        if new.buffer.data is not self.old:
            return new
        return new.with_changes(buffer=self.buffer(new.buffer),
                                indices=(self.local_index(new.indices[0]),))

    def visit_buffer_load_(self, op: BufferLoad) -> PrimExpr:
        new = super().visit_buffer_load_(op)
        if new.buffer.data is not self.old:
            return new
        index = new.indices[0]
        local = BufferLoad(self.buffer(new.buffer), (self.local_index(index),))
        full = _inline(index, self.lets)
        lane = self.ana.simplify((full % (self.width * self.m)) // self.m)
        if isinstance(lane, Var) and lane is self.tx:
            return local
        return op_intrin.tvm_warp_shuffle(op_intrin.tvm_warp_activemask(), local, lane,
                                          self.width, _WARP)


def _inline(e: PrimExpr, lets: dict[int, PrimExpr]) -> PrimExpr:
    """``e`` with let-bound vars (CSE's ``cse_var_k``) replaced by their values."""
    for _ in range(16):
        new = substitute(e, lambda v: lets.get(id(v)))
        if new is e:
            return e
        e = new
    return e


def _store_coeff(body: Stmt, var: Var, tx: Var, ana: Analyzer, name: str,
                 lets: dict[int, PrimExpr]) -> int:
    """``m``: the coefficient of ``tx`` in every store index of the warp buffer."""
    coeffs: set[Any] = set()

    def visit(node: Any) -> None:
        if isinstance(node, LetStmt):
            lets[id(node.var)] = node.value
        if isinstance(node, BufferStore) and node.buffer.data is var:
            idx = _inline(node.indices[0], lets)
            one = substitute(idx, {tx: IntImm(tx.dtype, 1)})
            zero = substitute(idx, {tx: IntImm(tx.dtype, 0)})
            diff = ana.simplify(one - zero)
            coeffs.add(diff.value if isinstance(diff, IntImm) else None)
    pre_order_visit(body, visit)
    if len(coeffs) != 1 or None in coeffs or 0 in coeffs:
        raise ValueError(f"LowerWarpMemory: the stores of warp buffer {name!r} must all index "
                         "it as m * threadIdx.x + ... with one constant m > 0")
    return int(next(iter(coeffs)))


class _WarpMemoryLowerer(StmtExprMutator):
    def __init__(self) -> None:
        self.tx: tuple[Var, int] | None = None
        self.ana = Analyzer()
        self.lets: dict[int, PrimExpr] = {}

    def visit_let_stmt_(self, op: LetStmt) -> Stmt:
        self.lets[id(op.var)] = op.value
        return super().visit_let_stmt_(op)

    def visit_attr_stmt_(self, op: AttrStmt) -> Stmt:
        if op.attr_key == "thread_extent" and isinstance(op.node, IterVar):
            var, ext = op.node.var, op.value
            if op.node.thread_tag == "threadIdx.x" and isinstance(ext, IntImm):
                self.tx = (var, ext.value)
            if isinstance(ext, IntImm):
                self.ana.bind(var, Range(0, ext))
        return super().visit_attr_stmt_(op)

    def visit_for_(self, op: For) -> Stmt:
        if isinstance(op.min, IntImm) and isinstance(op.extent, IntImm):
            self.ana.bind(op.loop_var, Range.from_min_extent(op.min, op.extent))
        return super().visit_for_(op)

    def visit_allocate_(self, op: Allocate) -> Stmt:
        if storage_scope(op.buffer_var) != "warp":
            return super().visit_allocate_(op)
        name = op.buffer_var.name_hint
        if self.tx is None or self.tx[1] > _WARP:
            raise ValueError(f"LowerWarpMemory: warp buffer {name!r} needs a constant "
                             f"threadIdx.x extent of at most {_WARP}")
        tx, width = self.tx
        extent = 1
        for e in op.extents:
            if not isinstance(e, IntImm):
                raise ValueError(f"LowerWarpMemory: warp buffer {name!r} needs a constant size")
            extent *= e.value
        m = _store_coeff(op.body, op.buffer_var, tx, self.ana, name, self.lets)
        new_var = op.buffer_var.with_changes(
            type_annotation=PointerType(PrimType(op.dtype), "local"))
        rewriter = _WarpAccessRewriter(op.buffer_var, new_var, tx, width, m, self.ana,
                                       self.lets)
        body = rewriter(self.visit_stmt(op.body))
        return op.with_changes(buffer_var=new_var, extents=(IntImm("int32", extent // width),),
                               body=body)


def lower_warp_memory(func: PrimFunc) -> PrimFunc:
    """``func`` with its warp buffers lowered (the same object when it has none)."""
    body = _WarpMemoryLowerer()(func.body)
    return func if body is func.body else func.with_body(body)


@register_pass("LowerWarpMemory")
def LowerWarpMemory() -> Pass:  # pylint: disable=invalid-name
    """Lower ``warp``-scope buffers to registers and shuffles
    (``tvm.tir.transform.LowerWarpMemory``, opt_level 0)."""
    @prim_func_pass("LowerWarpMemory", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return lower_warp_memory(func)
    return run
