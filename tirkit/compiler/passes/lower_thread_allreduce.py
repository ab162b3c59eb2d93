"""``LowerThreadAllreduce``: lower cross-thread reductions to warp shuffles or a shared-memory
tree (mirrors ``tvm.tir.transform.LowerThreadAllreduce``,
src/tir/transforms/lower_thread_allreduce.cc).

Input: ``T.attr(reducer, "reduce_scope", ...)`` around
``T.tvm_thread_allreduce(n, v_1..v_n, cond, red_1[0]..red_n[0], t_1..t_k)``: the threads of the
reduce vars ``t_i`` (threadIdx axes) combine their values ``v_i`` (those with ``cond`` false
contribute the identity) with the ``T.comm_reducer``; every thread of a group (the threadIdx axes
not reduced) gets the result in its local ``red_i[0]``.

- **warp shuffles** when the reduction runs over ``threadIdx.x`` alone with a power-of-two extent
  of at most 32: ``log2(extent)`` rounds of ``tvm_warp_shuffle_down(mask, v, offset, extent,
  32)`` combining as they go, then ``tvm_warp_shuffle(mask, v, 0, extent, 32)`` broadcasts lane
  0 of each segment (``mask`` is ``tvm_warp_activemask()``);
- **two-stage warp shuffles** (TVM's multi-warp reduction) over ``threadIdx.x`` alone with a
  power-of-two extent of 64..1024 and no other threadIdx axis: each warp shuffles, lane 0 of
  each warp stores its partial in a ``shared`` buffer of one slot per warp, a barrier, then every
  warp shuffles the partials and broadcasts the total (two barriers);
- **shared memory** otherwise: one ``shared`` buffer of ``groups x extent`` per value, each
  thread stores its value, a non-power-of-two extent is first folded to a power of two, then the
  tree halves the active threads with a ``tvm_storage_sync("shared")`` after every round; all
  read slot 0 of their group and a last sync lets the buffer be reused.

The extents of the threads involved must be constants.
"""
from __future__ import annotations

from math import prod
from typing import Any, cast

from tirkit.ir.dtype import DataType
from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.ir.type import PointerType, PrimType
from tirkit.tir import op_intrin
from tirkit.tir.buffer import Buffer
from tirkit.tir.expr import BufferLoad, Call, CommReducer, IterVar, Select, StringImm, Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import (Allocate, AttrStmt, BufferStore, Evaluate, IfThenElse, LetStmt,
                             SeqStmt, Stmt)
from tirkit.tir.stmt_functor import StmtMutator

from ..transform import Pass, prim_func_pass, register_pass

__all__ = ["LowerThreadAllreduce", "lower_thread_allreduce"]

_WARP = 32
_U32 = DataType.parse("uint32")


def _sync() -> Stmt:
    return Evaluate(op_intrin.tvm_storage_sync(StringImm("shared")))


def _const_extent(iv_extent: PrimExpr, what: str) -> int:
    if not isinstance(iv_extent, IntImm):
        raise ValueError(f"LowerThreadAllreduce: the extent of {what} must be a constant, got "
                         f"{iv_extent!r}")
    return iv_extent.value


def _linear(axes: list[tuple[str, Var, int]]) -> tuple[PrimExpr, int]:
    """Index and size of the threads of ``axes`` (threadIdx.x fastest)."""
    index: PrimExpr = IntImm("int32", 0)
    size = 1
    for _, var, ext in sorted(axes, key=lambda a: a[0], reverse=True):
        index = index * ext + var if size > 1 or not isinstance(index, IntImm) or index.value \
            else var
        size *= ext
    return index, size


class _AllreduceLowerer(StmtMutator):
    def __init__(self) -> None:
        self.threads: list[tuple[str, Var, PrimExpr]] = []
        self.reducer: CommReducer | None = None
        self.count = 0

    def visit_attr_stmt_(self, op: AttrStmt) -> Stmt:
        if op.attr_key == "thread_extent" and isinstance(op.node, IterVar):
            self.threads.append((op.node.thread_tag, op.node.var, op.value))
            try:
                return super().visit_attr_stmt_(op)
            finally:
                self.threads.pop()
        if op.attr_key == "reduce_scope" and isinstance(op.node, CommReducer):
            saved, self.reducer = self.reducer, op.node
            try:
                body = self.visit_stmt(op.body)
            finally:
                self.reducer = saved
            return body
        return super().visit_attr_stmt_(op)

    def visit_evaluate_(self, op: Evaluate) -> Stmt:
        call = op.value
        if isinstance(call, Call) and getattr(call.op, "name", "") == "tir.tvm_thread_allreduce":
            if self.reducer is None:
                raise ValueError("LowerThreadAllreduce: tvm_thread_allreduce outside a "
                                 "reduce_scope attribute")
            return self.lower(call, self.reducer)
        return super().visit_evaluate_(op)

    # -------------------------------------------------------------------------- one reduction
    def lower(self, call: Call, reducer: CommReducer) -> Stmt:
        """The statements computing one ``tvm_thread_allreduce``."""
        n = int(cast(IntImm, call.args[0]).value)
        values, cond = list(call.args[1:1 + n]), call.args[1 + n]
        outs = list(call.args[2 + n:2 + 2 * n])
        rvars = [a for a in call.args[2 + 2 * n:] if isinstance(a, Var)]
        if not all(isinstance(o, BufferLoad) for o in outs):
            raise ValueError("LowerThreadAllreduce: the results must be buffer elements")
        values = [v if _is_true(cond) else Select(cond, v, ident)
                  for v, ident in zip(values, reducer.identity_element)]
        reduce_axes: list[Any] = []
        group_axes: list[Any] = []
        for tag, var, ext in self.threads:
            if not tag.startswith("threadIdx."):
                continue
            axis = (tag, var, _const_extent(ext, tag))
            (reduce_axes if any(var is r for r in rvars) else group_axes).append(axis)
        if len(reduce_axes) != len(rvars):
            raise ValueError("LowerThreadAllreduce: every reduce var must be a launched "
                             "threadIdx axis")
        extent = prod(a[2] for a in reduce_axes)
        self.count += 1
        pow2 = extent & (extent - 1) == 0
        if [a[0] for a in reduce_axes] == ["threadIdx.x"] and extent <= _WARP and pow2:
            return self._warp(values, cast(list[BufferLoad], outs), reducer, extent)
        if [a[0] for a in reduce_axes] == ["threadIdx.x"] and not group_axes and pow2 and \
                _WARP < extent <= _WARP * _WARP:
            return self._multi_warp(values, cast(list[BufferLoad], outs), reducer,
                                    reduce_axes[0][1], extent)
        return self._shared(values, cast(list[BufferLoad], outs), reducer, reduce_axes, group_axes)

    def _warp(self, values: list[PrimExpr], outs: list[BufferLoad], reducer: CommReducer,
              extent: int) -> Stmt:
        k = self.count
        mask = Var(f"mask_{k}", _U32)
        acc = [Var(f"red_{k}_{i}_0", v.dtype) for i, v in enumerate(values)]
        lets: list[tuple[Var, PrimExpr]] = [(mask, op_intrin.tvm_warp_activemask())]
        lets += list(zip(acc, values))
        acc = self._shuffle_rounds(lets, acc, mask, reducer, extent, str(k))
        stores: list[Stmt] = [
            BufferStore(o.buffer, op_intrin.tvm_warp_shuffle(mask, a, 0, extent, _WARP),
                        o.indices) for o, a in zip(outs, acc)]
        body: Stmt = SeqStmt.flatten(*stores)
        for var, value in reversed(lets):
            body = LetStmt(var, value, body)
        return body

    def _shuffle_rounds(self, lets: list[tuple[Var, PrimExpr]], acc: list[Var], mask: Var,
                        reducer: CommReducer, width: int, tag: str) -> list[Var]:
        """``log2(width)`` shuffle-down rounds within segments of ``width`` lanes; the vars
        holding lane 0's combined values (appended to ``lets``)."""
        offset, step = width // 2, 1
        while offset >= 1:
            others = [Var(f"other_{tag}_{i}_{step}", a.dtype) for i, a in enumerate(acc)]
            lets += [(o, op_intrin.tvm_warp_shuffle_down(mask, a, offset, width, _WARP))
                     for o, a in zip(others, acc)]
            acc_new = [Var(f"red_{tag}_{i}_{step}", a.dtype) for i, a in enumerate(acc)]
            lets += list(zip(acc_new, reducer(acc, others)))
            acc, offset, step = acc_new, offset // 2, step + 1
        return acc

    def _multi_warp(self, values: list[PrimExpr], outs: list[BufferLoad], reducer: CommReducer,
                    tx: Var, extent: int) -> Stmt:
        """TVM's two-stage warp reduction for ``threadIdx.x`` of ``extent`` = 64..1024 (a power
        of two): each warp combines its 32 lanes with shuffles, lane 0 of warp ``w`` stores the
        partial in ``shared[w]``, one barrier, then every warp combines the ``extent / 32``
        partials with shuffles (each lane reads ``shared[lane % warps]``) and broadcasts lane 0:
        two barriers where the shared-memory tree takes ``log2(extent) + 2``."""
        k, warps = self.count, extent // _WARP
        mask = Var(f"mask_{k}", _U32)
        acc = [Var(f"red_{k}_{i}_0", v.dtype) for i, v in enumerate(values)]
        lets: list[tuple[Var, PrimExpr]] = [(mask, op_intrin.tvm_warp_activemask())]
        lets += list(zip(acc, values))
        acc = self._shuffle_rounds(lets, acc, mask, reducer, _WARP, f"{k}w")
        bufs = [self._shared_buffer(i, v.dtype, warps) for i, v in enumerate(values)]
        lane, warp = tx % _WARP, tx // _WARP
        first = IfThenElse(lane == 0, SeqStmt.flatten(
            *[BufferStore(b, a, (warp,)) for b, a in zip(bufs, acc)]))
        mask2 = Var(f"mask_{k}b", _U32)
        lets2: list[tuple[Var, PrimExpr]] = [(mask2, op_intrin.tvm_warp_activemask())]
        part = [Var(f"part_{k}_{i}", v.dtype) for i, v in enumerate(values)]
        lets2 += [(pv, BufferLoad(b, (lane % warps,))) for pv, b in zip(part, bufs)]
        total = self._shuffle_rounds(lets2, part, mask2, reducer, warps, f"{k}p")
        stores: list[Stmt] = [
            BufferStore(o.buffer, op_intrin.tvm_warp_shuffle(mask2, t, 0, warps, _WARP),
                        o.indices) for o, t in zip(outs, total)]
        second: Stmt = SeqStmt.flatten(*stores, _sync())
        for var, value in reversed(lets2):
            second = LetStmt(var, value, second)
        body: Stmt = SeqStmt.flatten(first, _sync(), second)
        for var, value in reversed(lets):
            body = LetStmt(var, value, body)
        for b in reversed(bufs):
            body = Allocate(b.data, b.dtype, (IntImm("int32", warps),), IntImm("bool", 1), body)
        return body

    def _shared(self, values: list[PrimExpr], outs: list[BufferLoad], reducer: CommReducer,
                reduce_axes: list[tuple[str, Var, int]],
                group_axes: list[tuple[str, Var, int]]) -> Stmt:
        r_index, extent = _linear(reduce_axes)
        g_index, groups = _linear(group_axes)
        base = g_index * extent if groups > 1 else IntImm("int32", 0)
        bufs = [self._shared_buffer(i, v.dtype, groups * extent) for i, v in enumerate(values)]
        at = lambda off: [BufferLoad(b, (base + r_index + off,)) for b in bufs]  # noqa: E731
        seq: list[Stmt] = [BufferStore(b, v, (base + r_index,)) for b, v in zip(bufs, values)]
        seq.append(_sync())
        pow2 = 1
        while pow2 * 2 <= extent:
            pow2 *= 2
        if pow2 != extent:
            seq += [self._round(bufs, at, reducer, r_index, extent - pow2, pow2), _sync()]
        half = pow2 // 2
        while half >= 1:
            seq += [self._round(bufs, at, reducer, r_index, half, half), _sync()]
            half //= 2
        seq += [BufferStore(o.buffer, BufferLoad(b, (base,)), o.indices)
                for o, b in zip(outs, bufs)]
        seq.append(_sync())
        body: Stmt = SeqStmt.flatten(*seq)
        for b in reversed(bufs):
            body = Allocate(b.data, b.dtype, (IntImm("int32", groups * extent),),
                            IntImm("bool", 1), body)
        return body

    @staticmethod
    def _round(bufs: list[Buffer], at: Any, reducer: CommReducer, r_index: PrimExpr,
               active: int, offset: int) -> Stmt:
        mine, other = at(0), at(offset)
        combined = reducer(mine, other)
        stores = [BufferStore(b, c, (m.indices[0],)) for b, c, m in zip(bufs, combined, mine)]
        return IfThenElse(r_index < active, SeqStmt.flatten(*stores))

    def _shared_buffer(self, i: int, dtype: DataType, size: int) -> Buffer:
        data = Var(f"red_buf{self.count}_{i}", PointerType(PrimType(dtype), "shared"))
        return Buffer(data, dtype, (IntImm("int32", size),), name=f"red_buf{self.count}_{i}")


def _is_true(cond: PrimExpr) -> bool:
    return isinstance(cond, IntImm) and bool(cond.value)


def lower_thread_allreduce(func: PrimFunc) -> PrimFunc:
    """``func`` with every ``tvm_thread_allreduce`` lowered (the same object when none)."""
    body = _AllreduceLowerer()(func.body)
    return func if body is func.body else func.with_body(body)


@register_pass("LowerThreadAllreduce")
def LowerThreadAllreduce() -> Pass:  # pylint: disable=invalid-name
    """Lower cross-thread reductions to warp shuffles or shared memory
    (``tvm.tir.transform.LowerThreadAllreduce``, opt_level 0)."""
    @prim_func_pass("LowerThreadAllreduce", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return lower_thread_allreduce(func)
    return run
