"""``LowerDeviceKernelLaunch``: turn host calls of kernels into kernel launches (mirrors
``tvm.tir.transform.LowerDeviceKernelLaunch``, src/tir/transforms/lower_device_kernel_launch.cc).

For every kernel made by SplitHostDevice (a PrimFunc whose ``target`` attribute is a GPU):

- the kernel gets ``calling_conv`` 2 (``kDeviceKernelLaunch``), ``global_symbol`` (its name) and
  ``tir.kernel_launch_params``: the thread tags in order of first appearance, then
  ``"tir.use_dyn_shared_memory"`` when it allocates ``shared.dyn`` memory;
- a host call ``T.evaluate(k(a, b))`` becomes ``T.call_packed("k", a, b, <launch args>)`` whose
  launch args are the extents of those thread tags (and the dynamic shared memory bytes),
  written in terms of the caller's values: what the CUDA runtime passes to ``cuLaunchKernel``.
"""
from __future__ import annotations

from math import prod
from typing import Any

from tirkit.ir.expr import GlobalVar, IntImm, PrimExpr
from tirkit.ir.module import IRModule
from tirkit.ir.type import TupleType
from tirkit.tir.expr import Call, StringImm
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import Allocate
from tirkit.tir.stmt_functor import StmtExprMutator, post_order_visit, substitute

from ..runtime.abi import CallingConv
from ..transform import Pass, module_pass, register_pass
from ._gpu_common import is_gpu_target, storage_scope, thread_extents

__all__ = ["LowerDeviceKernelLaunch", "lower_device_kernel_launch", "DYN_SHMEM_TAG"]

#: ``tvm::runtime::launch_param::kUseDynamicSharedMemoryTag``
DYN_SHMEM_TAG = "tir.use_dyn_shared_memory"


def _dyn_shmem_bytes(func: PrimFunc) -> PrimExpr | None:
    sizes: list[PrimExpr] = []

    def visit(node: Any) -> None:
        if isinstance(node, Allocate) and storage_scope(node.buffer_var) == "shared.dyn":
            size: PrimExpr = IntImm("int32", node.dtype.bits * node.dtype.lanes // 8)
            for ext in node.extents:
                size = ext * size
            sizes.append(size)
    post_order_visit(func.body, visit)
    if len(sizes) > 1:
        raise ValueError("only one dynamic shared memory allocation is allowed per kernel (run "
                         "MergeSharedMemoryAllocations first)")
    return sizes[0] if sizes else None


def _kernel_info(func: PrimFunc) -> tuple[list[str], list[PrimExpr]]:
    extents = thread_extents(func.body)
    params, args = list(extents), list(extents.values())
    dyn = _dyn_shmem_bytes(func)
    if dyn is not None:
        params.append(DYN_SHMEM_TAG)
        args.append(dyn)
    return params, args


class _LaunchRewriter(StmtExprMutator):
    def __init__(self, kernels: dict[GlobalVar, tuple[PrimFunc, list[PrimExpr]]]) -> None:
        self.kernels = kernels

    def visit_call_(self, op: Call) -> PrimExpr:
        new = super().visit_call_(op)
        info = self.kernels.get(new.op) if isinstance(new.op, GlobalVar) else None
        if info is None:
            return new
        kernel, launch_args = info
        vmap = dict(zip(kernel.params, new.args))
        launch = [substitute(a, vmap) if not isinstance(a, IntImm) else a for a in launch_args]
        return Call("int32", "tir.tvm_call_packed",
                    (StringImm(new.op.name_hint), *new.args, *launch), span=op.span)


def lower_device_kernel_launch(mod: IRModule) -> IRModule:
    """``mod`` with kernel calls lowered to launches and kernels annotated (the same module
    when it has no kernel)."""
    kernels: dict[GlobalVar, tuple[PrimFunc, list[PrimExpr]]] = {}
    funcs: dict[GlobalVar, Any] = {}
    for gv, func in mod.functions.items():
        if isinstance(func, PrimFunc) and is_gpu_target(func.attrs.get("target")) and \
                func.attrs.get("tir.is_global_func"):
            params, args = _kernel_info(func)
            kernels[gv] = (func, args)
            func = func.with_changes(ret_type=TupleType(()), attrs={
                **func.attrs, "calling_conv": int(CallingConv.kDeviceKernelLaunch),
                "tir.kernel_launch_params": params, "global_symbol": gv.name_hint})
        funcs[gv] = func
    if not kernels:
        return mod
    rewriter = _LaunchRewriter(kernels)
    for gv, func in funcs.items():
        if isinstance(func, PrimFunc) and gv not in kernels:
            body = rewriter(func.body)
            if body is not func.body:
                funcs[gv] = func.with_body(body)
    return IRModule(funcs, mod.attrs, span=mod.span)


def launch_block_size(func: PrimFunc) -> int | None:
    """Threads per block of a kernel when its ``threadIdx`` extents are constants."""
    ext = thread_extents(func.body)
    dims = [e for t, e in ext.items() if t.startswith("threadIdx.")]
    if not all(isinstance(e, IntImm) for e in dims):
        return None
    return prod(e.value for e in dims) if dims else 1


@register_pass("LowerDeviceKernelLaunch")
def LowerDeviceKernelLaunch() -> Pass:  # pylint: disable=invalid-name
    """Lower kernel calls to ``T.call_packed`` launches with their grid/block sizes
    (``tvm.tir.transform.LowerDeviceKernelLaunch``, opt_level 0)."""
    @module_pass("LowerDeviceKernelLaunch", 0)
    def run(mod: IRModule, ctx: Any) -> IRModule:
        del ctx
        return lower_device_kernel_launch(mod)
    return run
