"""``MergeSharedMemoryAllocations``: put a kernel's dynamic shared memory buffers into one
allocation (mirrors ``tvm.tir.transform.MergeSharedMemoryAllocations``,
src/tir/transforms/merge_shared_memory_allocations.cc, without its liveness-based reuse).

CUDA gives a kernel a single block of dynamic shared memory (``extern __shared__``), sized at
launch. In every kernel (a function with a GPU ``target`` attribute) with more than one
``shared.dyn`` allocation, the allocations are replaced by one ``uint8`` allocation
``buf_dyn_shmem`` holding them one after the other, each at a 16-byte aligned offset; accesses
keep their buffers, now viewing ``buf_dyn_shmem`` at that offset (``elem_offset``).
Static ``shared`` buffers are left alone, as TVM does by default (``tir.merge_static_smem``).
"""
from __future__ import annotations

from typing import Any

from tirkit.ir.dtype import DataType
from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.ir.type import PointerType, PrimType
from tirkit.tir.buffer import Buffer
from tirkit.tir.expr import Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import Allocate, Stmt
from tirkit.tir.stmt_functor import StmtExprMutator, pre_order_visit

from ..transform import Pass, prim_func_pass, register_pass
from ._gpu_common import is_gpu_target, storage_scope

__all__ = ["MergeSharedMemoryAllocations", "merge_shared_memory_allocations"]

_ALIGN = 16
_U8 = DataType.parse("uint8")


def _dyn_allocations(body: Stmt) -> list[Allocate]:
    found: list[Allocate] = []

    def visit(node: Any) -> None:
        if isinstance(node, Allocate) and storage_scope(node.buffer_var) == "shared.dyn":
            found.append(node)
    pre_order_visit(body, visit)
    return found


def _nbytes(alloc: Allocate) -> PrimExpr:
    size: PrimExpr = IntImm("int32", max(alloc.dtype.bits * alloc.dtype.lanes // 8, 1))
    for ext in alloc.extents:
        size = ext * size
    return size


def _aligned(x: PrimExpr) -> PrimExpr:
    if isinstance(x, IntImm):
        return IntImm(x.dtype, (x.value + _ALIGN - 1) // _ALIGN * _ALIGN)
    return (x + (_ALIGN - 1)) // _ALIGN * _ALIGN


class _Merger(StmtExprMutator):
    def __init__(self, merged: Var, offsets: dict[int, PrimExpr]) -> None:
        self.merged = merged
        self.offsets = offsets  # id(buffer var) -> byte offset
        self.buffers: dict[int, Buffer] = {}

    def buffer(self, buf: Buffer) -> Buffer:
        """``buf`` viewing the merged allocation at its offset."""
        off = self.offsets.get(id(buf.data))
        if off is None:
            return buf
        got = self.buffers.get(id(buf))
        if got is None:
            elem = max(buf.dtype.bits * buf.dtype.lanes // 8, 1)
            shift = IntImm(off.dtype, off.value // elem) if isinstance(off, IntImm) else off // elem
            got = buf.with_changes(data=self.merged, elem_offset=buf.elem_offset + shift
                                   if not _is_zero(buf.elem_offset) else shift)
            self.buffers[id(buf)] = got
        return got

    def visit_allocate_(self, op: Allocate) -> Stmt:
        if id(op.buffer_var) in self.offsets:
            return self.visit_stmt(op.body)
        return super().visit_allocate_(op)

    def visit_buffer_load_(self, op: Any) -> Any:
        new = super().visit_buffer_load_(op)
        return new.with_changes(buffer=self.buffer(new.buffer))

    def visit_buffer_store_(self, op: Any) -> Any:
        new = super().visit_buffer_store_(op)
        return new.with_changes(buffer=self.buffer(new.buffer))

    def visit_decl_buffer_(self, op: Any) -> Any:
        new = super().visit_decl_buffer_(op)
        return new.with_changes(buffer=self.buffer(new.buffer))


def _is_zero(e: PrimExpr) -> bool:
    return isinstance(e, IntImm) and e.value == 0


def merge_shared_memory_allocations(func: PrimFunc) -> PrimFunc:
    """``func`` with its ``shared.dyn`` allocations merged (the same object when it is not a
    kernel or has at most one)."""
    if not is_gpu_target(func.attrs.get("target")):
        return func
    allocs = _dyn_allocations(func.body)
    if len(allocs) < 2:
        return func
    offsets: dict[int, PrimExpr] = {}
    total: PrimExpr = IntImm("int32", 0)
    for alloc in allocs:
        offsets[id(alloc.buffer_var)] = total
        total = _aligned(total + _nbytes(alloc))
    merged = Var("buf_dyn_shmem", PointerType(PrimType(_U8), "shared.dyn"))
    body = _Merger(merged, offsets)(func.body)
    return func.with_body(_wrap(body, merged, total))


def _wrap(body: Stmt, merged: Var, total: PrimExpr) -> Stmt:
    """The merged allocation around the body (inside the kernel's first thread launches, so
    that the kernel's free variables stay defined where its size is computed)."""
    return Allocate(merged, _U8, (total,), IntImm("bool", 1), body)


@register_pass("MergeSharedMemoryAllocations")
def MergeSharedMemoryAllocations() -> Pass:  # pylint: disable=invalid-name
    """Merge each kernel's dynamic shared memory allocations into one
    (``tvm.tir.transform.MergeSharedMemoryAllocations``, opt_level 0)."""
    @prim_func_pass("MergeSharedMemoryAllocations", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return merge_shared_memory_allocations(func)
    return run
