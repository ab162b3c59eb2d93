"""Which arguments a packed function writes (no TVM counterpart; TVM trusts the caller).

The runtime passes NumPy arrays to compiled code in place (zero copy), so it must know which of
them the code may write: a read-only array given for such an argument is refused with
``ValueError`` instead of being written behind NumPy's back. :func:`written_args` reads it from a
function lowered by ``MakePackedAPI``: an argument is written when a ``BufferStore`` goes to a
buffer over its data pointer, or when that pointer (or an element address of it) is handed to
a call that may write through it (``address_of``, ``tvm_access_ptr``, extern and packed calls).
"""
from __future__ import annotations

from typing import Any

from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.tir import BufferLoad, BufferStore, Call, Cast, LetStmt, PrimFunc, Var
from tirkit.tir import stmt as S
from tirkit.tir.stmt_functor import post_order_visit, pre_order_visit

from .abi import StructField

__all__ = ["written_args", "stored_params", "READ_ONLY_CALLS"]

#: calls that only read the pointers among their arguments
READ_ONLY_CALLS = frozenset({"tir.tvm_struct_get", "tir.likely", "tir.isnullptr",
                             "tir.prefetch", "tir.reinterpret", "tir.if_then_else"})


def _struct_get(e: Any) -> tuple[Any, int, int] | None:
    if isinstance(e, Cast):
        e = e.value
    if isinstance(e, Call) and getattr(e.op, "name", "") == "tir.tvm_struct_get":
        arr, idx, fld = e.args
        if isinstance(idx, IntImm) and isinstance(fld, IntImm):
            return arr, idx.value, fld.value
    return None


def _pointers_in(node: Any, out: set[Var]) -> None:
    def visit(n: Any) -> None:
        if isinstance(n, Var) and n.dtype.is_handle():
            out.add(n)
        elif isinstance(n, BufferLoad):
            out.add(n.buffer.data)
    post_order_visit(node, visit)


def _written_pointers(func: PrimFunc) -> set[Var]:
    written: set[Var] = set()

    def visit(node: Any) -> bool:
        if isinstance(node, BufferStore):
            written.add(node.buffer.data)
        elif isinstance(node, Call) and getattr(node.op, "name", "") not in READ_ONLY_CALLS:
            if getattr(node.op, "name", "") == "tir.address_of" or \
                    any(_may_be_pointer(a) for a in node.args):
                for arg in node.args:
                    _pointers_in(arg, written)
        return True
    pre_order_visit(func.body, visit)
    return written


def _may_be_pointer(e: Any) -> bool:
    if isinstance(e, Var):
        return e.dtype.is_handle()
    if isinstance(e, Call):
        return e.dtype.is_handle() or getattr(e.op, "name", "") == "tir.address_of"
    return False


def written_args(func: PrimFunc) -> frozenset[int] | None:
    """Indices of the array arguments ``func`` (lowered by ``MakePackedAPI``, 6 params) may
    write, or ``None`` when ``func`` does not have the packed signature."""
    if len(func.params) != 6:
        return None
    args_var = func.params[0]
    handles: dict[Var, int] = {}
    data_of: dict[Var, int] = {}

    def visit(node: Any) -> bool:
        if isinstance(node, LetStmt):
            got = _struct_get(node.value)
            if got is not None:
                arr, idx, fld = got
                if arr is args_var and fld == StructField.kTVMValueContent:
                    handles[node.var] = idx
                elif fld == StructField.kArrData and arr in handles:
                    data_of[node.var] = handles[arr]
        return not isinstance(node, PrimExpr)  # LetStmts are statements: expressions not walked
    pre_order_visit(func.body, visit)
    written = _written_pointers(func)
    return frozenset(idx for var, idx in data_of.items() if var in written)


def stored_params(func: PrimFunc) -> frozenset[int]:
    """Indices of the params of ``func`` (before ``MakePackedAPI``) whose buffer is stored to:
    a ``BufferStore``, a block's ``T.writes`` region, or a store into a ``match_buffer`` of it.
    Used for the CUDA path, whose host function only launches kernels."""
    stored: set[Any] = set()
    matched: list[tuple[Any, Any]] = []

    def visit(node: Any) -> None:
        if isinstance(node, BufferStore):
            stored.add(node.buffer.data)
        elif isinstance(node, S.Block):
            stored.update(r.buffer.data for r in node.writes)
            matched.extend((m.buffer.data, m.source.buffer.data) for m in node.match_buffers)
    post_order_visit(func.body, visit)
    for inner, outer in matched:  # post order: an inner block's match_buffers come first
        if inner in stored:
            stored.add(outer)
    return frozenset(i for i, p in enumerate(func.params)
                     if p in func.buffer_map and func.buffer_map[p].data in stored)
