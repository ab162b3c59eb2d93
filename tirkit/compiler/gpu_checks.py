"""Checks of GPU kernels: what tirkit cannot compile correctly is an error that names the block
and the loop, never a kernel that races.

A reduction block whose reduction axis is bound to a thread (``sch.bind(k_inner,
"threadIdx.x")``, TVM's usual GPU reduction schedule) must be lowered by
``LowerCrossThreadReduction`` (an in-thread reduction, then a ``tvm_thread_allreduce`` across
the threads); one it leaves (a shape it does not handle) would have every thread
read-add-write the same output element at once. Blocks that write only ``local`` buffers (a
thread's own partial result) are not races.
"""
from __future__ import annotations

from typing import Any

from tirkit.ir.module import IRModule
from tirkit.tir import stmt as S
from tirkit.tir.analysis import undefined_vars
from tirkit.tir.expr import IterVarType
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt_functor import StmtVisitor

from .codegen.types import CodegenError

__all__ = ["check_cross_thread_reduction"]


class _ThreadBoundReductions(StmtVisitor):
    """Finds the first block with a reduction axis bound to a thread-bound loop."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: dict[Any, tuple[Any, str]] = {}  # loop var -> (loop var, thread tag)

    def visit_for_(self, op: S.For) -> None:
        binding = op.thread_binding if op.kind == S.ForKind.THREAD_BINDING else None
        if binding is None:
            super().visit_for_(op)
            return
        self.threads[op.loop_var] = (op.loop_var, binding.thread_tag)
        try:
            super().visit_for_(op)
        finally:
            del self.threads[op.loop_var]

    def visit_block_realize_(self, op: S.BlockRealize) -> None:
        private = bool(op.block.writes) and all(w.buffer.scope() == "local"
                                                 for w in op.block.writes)
        for iv, value in zip(op.block.iter_vars, op.iter_values):
            if private or iv.iter_type != IterVarType.CommReduce:  # (a thread's own partial)
                continue
            for var in undefined_vars(value):
                if var in self.threads and not self.threads[var][1].startswith("vthread"):
                    loop, tag = self.threads[var]
                    written = ", ".join(w.buffer.name for w in op.block.writes) or "its output"
                    raise CodegenError(
                        f"block {op.block.name_hint!r}: its reduction axis {iv.var.name!r} is "
                        f"bound to {tag} (loop {loop.name!r}), so the threads would add into "
                        f"{written} at once: tirkit's LowerCrossThreadReduction lowers only "
                        "a perfect nest of reduction loops over one block `B[...] = B[...] op "
                        "rhs` (op + * min max) with a T.init() store; reduce within each "
                        "thread and combine with T.tvm_thread_allreduce "
                        "(examples/gpu/softmax.py), or keep reduction loops off the threads")
        super().visit_block_realize_(op)


def check_cross_thread_reduction(mod: Any) -> None:
    """Raise for a reduction block whose reduction axis is bound to a GPU thread.

    Raises:
        CodegenError: naming the block, the axis, the loop and the thread.
    """
    funcs = [mod] if isinstance(mod, PrimFunc) else \
        [f for f in mod.functions.values() if isinstance(f, PrimFunc)] \
        if isinstance(mod, IRModule) else []
    for func in funcs:
        _ThreadBoundReductions()(func.body)
