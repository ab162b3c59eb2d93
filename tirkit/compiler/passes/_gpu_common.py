"""Helpers shared by the GPU passes (mirrors ``src/runtime/thread_storage_scope.h``): thread tags
and their ranks, storage scopes of buffer vars, and the ``target`` dict tirkit writes into
function attributes and ``T.attr(target, "target", 0)`` regions.
"""
from __future__ import annotations

from typing import Any

from tirkit.ir.type import PointerType
from tirkit.tir.buffer import Buffer
from tirkit.tir.expr import IterVar, Var
from tirkit.tir.stmt import AttrStmt
from tirkit.tir.stmt_functor import pre_order_visit

__all__ = ["storage_scope", "thread_rank", "is_gpu_target", "target_dict", "thread_extents",
           "THREAD_TAGS"]

#: launch parameters in the order TVM's runtime reads them (``ThreadWorkLoad``)
THREAD_TAGS = ("blockIdx.x", "blockIdx.y", "blockIdx.z", "threadIdx.x", "threadIdx.y",
               "threadIdx.z")


def storage_scope(var_or_buffer: "Var | Buffer") -> str:
    """The storage scope of a buffer or its data var (``"global"``, ``"shared"``, ``"local"``,
    ``"shared.dyn"``, ``"warp"``...)."""
    if isinstance(var_or_buffer, Buffer):
        return var_or_buffer.scope()
    ann = var_or_buffer.type_annotation
    return ann.storage_scope if isinstance(ann, PointerType) else "global"


def thread_rank(tag: str) -> int:
    """0 for ``blockIdx.*``, 1 for ``threadIdx.*``, 2 for ``vthread*`` (TVM ``ThreadScope``)."""
    if tag.startswith("blockIdx."):
        return 0
    if tag.startswith("threadIdx."):
        return 1
    return 2


def is_gpu_target(target: Any) -> bool:
    """Whether ``target`` (a target string, a ``{"kind": ...}`` dict or a Target) is a GPU."""
    if isinstance(target, dict):
        return str(target.get("kind", "")) in ("cuda", "nvptx")
    kind = getattr(target, "kind", None)
    text = str(kind if kind is not None else (target or "")).strip()
    return text.startswith(("cuda", "nvptx"))


def target_dict(target: Any) -> dict[str, Any]:
    """The ``{"kind": "cuda", "arch": "sm_XX"}`` form of a target string, dict or Target."""
    if isinstance(target, dict):
        return dict(target)
    from ..target import Target  # pylint: disable=import-outside-toplevel

    tgt = target if isinstance(target, Target) else Target.parse(str(target))
    return {"kind": tgt.kind, "arch": tgt.mcpu}


def thread_extents(stmt: Any) -> dict[str, Any]:
    """``{thread tag: extent}`` of the first ``thread_extent`` attribute of each tag."""
    out: dict[str, Any] = {}

    def visit(node: Any) -> None:
        if isinstance(node, AttrStmt) and node.attr_key == "thread_extent" and \
                isinstance(node.node, IterVar):
            out.setdefault(node.node.thread_tag, node.value)
    pre_order_visit(stmt, visit)
    return out
