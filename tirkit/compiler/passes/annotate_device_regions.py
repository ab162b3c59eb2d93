"""``AnnotateDeviceRegions``: mark the code that runs on the GPU (mirrors
``tvm.tir.transform.AnnotateDeviceRegions``, src/tir/transforms/annotate_device_regions.cc).

Every outermost ``thread_extent`` attribute (a ``T.launch_thread``) of a function compiled for a
GPU target is wrapped in ``T.attr(target, "target", 0)``, the region SplitHostDevice moves into a
kernel. The target is the function's ``"target"`` attribute when it names a GPU, else the
``target`` option (the pipeline passes the one being compiled for). Functions without a GPU
target, and regions already annotated, are left alone.
"""
from __future__ import annotations

from typing import Any

from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import AttrStmt, Stmt
from tirkit.tir.stmt_functor import StmtMutator

from ..transform import Pass, prim_func_pass, register_pass
from ._gpu_common import is_gpu_target, target_dict

__all__ = ["AnnotateDeviceRegions", "annotate_device_regions"]

_DEVICE_ATTRS = ("thread_extent", "pipeline_exec_scope", "device_scope")


class _DeviceRegionAnnotater(StmtMutator):
    def __init__(self, target: dict[str, Any]) -> None:
        self.target = target

    def visit_attr_stmt_(self, op: AttrStmt) -> Stmt:
        if op.attr_key == "target":
            return op
        if op.attr_key in _DEVICE_ATTRS:
            return AttrStmt(dict(self.target), "target", 0, op, span=op.span)
        return super().visit_attr_stmt_(op)


def annotate_device_regions(func: PrimFunc, target: Any = "") -> PrimFunc:
    """``func`` with its device regions wrapped in ``target`` attributes (unchanged when
    neither its ``"target"`` attribute nor ``target`` is a GPU)."""
    own = func.attrs.get("target")
    chosen = own if is_gpu_target(own) else target if is_gpu_target(target) else None
    if chosen is None:
        return func
    body = _DeviceRegionAnnotater(target_dict(chosen))(func.body)
    return func if body is func.body else func.with_body(body)


@register_pass("AnnotateDeviceRegions")
def AnnotateDeviceRegions(target: Any = "") -> Pass:  # pylint: disable=invalid-name
    """Wrap device code in ``T.attr(target, "target", 0)`` (``tvm.tir.transform.
    AnnotateDeviceRegions``, opt_level 0). ``target``: the GPU target string or dict used for
    functions without a GPU ``"target"`` attribute (default: the ``"tirkit.target"`` config)."""
    @prim_func_pass("AnnotateDeviceRegions", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod
        return annotate_device_regions(func, target or ctx.get("tirkit.target", ""))
    return run
