"""``LowerOpaqueBlock``: remove the (opaque) blocks so the TIR can no longer be scheduled
(mirrors ``tvm.tir.transform.LowerOpaqueBlock``, src/tir/transforms/lower_opaque_block.cc).

For every ``BlockRealize`` (which must have no iter values: run ``ConvertBlocksToOpaque`` first):

- a predicate other than ``True`` becomes ``if predicate: body``;
- each ``alloc_buffers`` entry becomes ``Allocate(data, dtype, shape) { DeclBuffer(buf) {...} }``
  (the allocation shape follows the buffer's strides; a ``buffer_dim_align`` block annotation
  becomes the Allocate's annotation with the buffer index set to -1);
- ``pragma_*`` block annotations become ``AttrStmt(0, key, value)``, other block annotations
  are dropped.

For loops: a thread-binding loop becomes ``T.launch_thread`` (``AttrStmt("thread_extent")``,
``"virtual_thread"`` for ``vthread*``); a unit loop without annotations disappears and its var
is replaced by the loop min; ``pragma_*`` loop annotations become ``AttrStmt(loop_var, ...)``.
"""
from __future__ import annotations

from typing import Any, cast

from tirkit.compiler.transform import IllFormedIRError, Pass, prim_func_pass, register_pass
from tirkit.ir.expr import IntImm, PrimExpr, Range
from tirkit.tir import op as tir_op
from tirkit.tir.buffer import Buffer
from tirkit.tir import expr as E
from tirkit.tir.expr import IterVar, IterVarType, StringImm, Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import (Allocate, AttrStmt, Block, BlockRealize, DeclBuffer, For, ForKind,
                             IfThenElse, Stmt)
from tirkit.tir.stmt_functor import StmtExprMutator, pre_order_visit

_VTHREAD_TAGS = ("vthread", "vthread.x", "vthread.y", "vthread.z")
BUFFER_DIM_ALIGN = "buffer_dim_align"


def _is_one(e: PrimExpr) -> bool:
    return isinstance(e, IntImm) and e.value == 1


def buffer_allocation_shape(buffer: Buffer) -> tuple[PrimExpr, ...]:
    """The extents to allocate for ``buffer``: its shape, or with strides
    ``shape[i] = strides[i-1] / strides[i]`` for ``i >= 1`` (TVM ``GetBufferAllocationShape``).

    Raises:
        IllFormedIRError: when ``strides`` and ``shape`` differ in length.
    """
    shape = list(buffer.shape)
    if buffer.strides:
        if len(buffer.strides) != len(shape):
            raise IllFormedIRError(f"buffer {buffer.name!r}: {len(buffer.strides)} strides for "
                                   f"{len(shape)} dimensions")
        for i in range(len(shape) - 1, 0, -1):
            shape[i] = tir_op.truncdiv(buffer.strides[i - 1], buffer.strides[i])
    return tuple(shape)


def collect_storage_align(body: Stmt) -> dict[int, list]:
    """``{id(buffer.data): [(index, axis, factor, offset), ...]}`` from the ``buffer_dim_align``
    annotations of blocks (TVM ``CollectStorageAlignAnnotation``); the index is the position
    of the buffer in the block's ``writes``."""
    out: dict[int, list] = {}

    def visit(node: Any) -> bool | None:
        if isinstance(node, PrimExpr):
            return False  # a block is a statement, never inside an expression: not walked
        if isinstance(node, Block) and BUFFER_DIM_ALIGN in node.annotations:
            for entry in _align_entries(node):
                buf = node.writes[entry[0]].buffer
                out.setdefault(id(buf.data), []).append(list(entry))
        return None
    pre_order_visit(body, visit)
    return out


def _align_entries(block: Block) -> list[list[int]]:
    """The block's ``buffer_dim_align`` entries ``[write index, axis, factor, offset]``.

    Raises:
        IllFormedIRError: an entry that is not 4 integers, or a write index out of range (the
            preconditions TVM's ``storage_align`` checks when it sets the annotation).
    """
    value = block.annotations[BUFFER_DIM_ALIGN]
    out = []
    for entry in value if isinstance(value, (list, tuple)) else [value]:
        try:
            ints = [_int(x) for x in entry]
        except (TypeError, ValueError):
            ints = []
        if len(ints) != 4 or not 0 <= ints[0] < len(block.writes):
            raise IllFormedIRError(
                f"block {block.name_hint!r}: buffer_dim_align entry {entry!r} is not "
                f"[write index < {len(block.writes)}, axis, factor, offset]")
        out.append(ints)
    return out


def _int(v: Any) -> int:
    return v.value if isinstance(v, IntImm) else int(v)


def _attr_value(key: str, value: Any) -> PrimExpr:
    """A pragma annotation value as a PrimExpr (TVM ``ConvertAttrValue``)."""
    if isinstance(value, PrimExpr):
        return value
    if isinstance(value, str):
        return StringImm(value)
    if isinstance(value, (bool, int, float)):
        return tir_op.convert(value)
    raise TypeError(f"LowerOpaqueBlock: illegal attribute value of key {key!r}: "
                    f"{type(value).__name__} is not supported")


def _split_annotations(annotations: dict, is_block: bool) -> tuple[dict, list]:
    """``(kept, pragmas)``: pragma_* pairs sorted by key; non-pragma loop annotations are
    kept, non-pragma block annotations dropped (TVM ``HandleAnnotations``)."""
    kept, pragmas = {}, []
    for key, value in annotations.items():
        if key.startswith("pragma_"):
            pragmas.append((key, _attr_value(key, value)))
        elif not is_block:
            kept[key] = value
    return kept, sorted(pragmas, key=lambda kv: kv[0])


#: Binary expression class -> its folding constructor: an expression rebuilt after a unit loop
#: var was replaced by a constant is folded again (``x + 0`` -> ``x``) so that the result
#: prints and parses back to itself (TVM leaves the unfolded ``x + 0``).
_REFOLD = {E.Add: tir_op.add, E.Sub: tir_op.subtract, E.Mul: tir_op.multiply,
           E.FloorDiv: tir_op.floordiv, E.FloorMod: tir_op.floormod, E.Min: tir_op.min,
           E.Max: tir_op.max}


class _OpaqueBlockLower(StmtExprMutator):
    """``OpaqueBlockLower``."""

    def visit_expr(self, expr: PrimExpr) -> PrimExpr:
        new: Any = super().visit_expr(expr)  # (a binary op where fold is found)
        fold = _REFOLD.get(type(new))
        if new is expr or fold is None:
            return new
        out = fold(new.a, new.b)
        return out if out.span is not None else out.with_changes(span=expr.span)

    def __init__(self, storage_align: dict[int, list]) -> None:
        self.unit_loop_vars: dict[int, PrimExpr] = {}
        self.storage_align = storage_align

    def visit_block_realize_(self, op: BlockRealize) -> Stmt:
        if op.iter_values:
            raise ValueError(f"LowerOpaqueBlock: block {op.block.name_hint!r} is not opaque; "
                             "run ConvertBlocksToOpaque first")
        block = cast(Block, self.visit_stmt(op.block))
        pred = self.visit_expr(op.predicate)
        body = block.body
        if not _is_one(pred):
            body = IfThenElse(pred, body, span=op.span)
        for buf in reversed(block.alloc_buffers):
            body = self._allocate(buf, body)
        _, pragmas = _split_annotations(block.annotations, is_block=True)
        for key, value in reversed(pragmas):
            body = AttrStmt(0, key, value, body, span=block.span)  # as T.attr(0, ...) parses
        return body

    def _allocate(self, buf: Buffer, body: Stmt) -> Stmt:
        span = buf.span
        body = DeclBuffer(buf, body, span=span)
        annotations = {}
        aligns = self.storage_align.get(id(buf.data))
        if aligns:
            annotations[BUFFER_DIM_ALIGN] = [[IntImm("int32", -1), *t[1:]] for t in aligns]
        return Allocate(buf.data, buf.dtype, buffer_allocation_shape(buf), True, body,
                        annotations, span=span)

    def visit_for_(self, op: For) -> Stmt:
        lo, ext = self.visit_expr(op.min), self.visit_expr(op.extent)
        unit = _is_one(ext) and not op.annotations
        if unit:
            self.unit_loop_vars[id(op.loop_var)] = lo
        body = self.visit_stmt(op.body)
        kept, pragmas = _split_annotations(op.annotations, is_block=False)
        if op.kind == ForKind.THREAD_BINDING:
            body = _launch_thread(op, lo, ext, body)
        elif unit:
            return body
        elif not pragmas and body is op.body and lo is op.min and ext is op.extent:
            return op
        else:
            step = None if op.step is None else self.visit_expr(op.step)
            body = For(op.loop_var, lo, ext, op.kind, body, None, kept, step, span=op.span)
        for key, value in reversed(pragmas):
            body = AttrStmt(op.loop_var, key, value, body, span=op.span)
        return body

    def visit_var_(self, op: Var) -> PrimExpr:
        value = self.unit_loop_vars.get(id(op))
        if value is None:
            return op
        return value if value.dtype == op.dtype else tir_op.cast(op.dtype, value)


def _launch_thread(op: For, lo: PrimExpr, ext: PrimExpr, body: Stmt) -> Stmt:
    """``T.launch_thread`` for a thread-binding loop (TVM ``MakeLaunchThread``)."""
    if op.thread_binding is None:
        raise ValueError(f"LowerOpaqueBlock: thread-binding loop {op.loop_var.name_hint!r} "
                         "has no thread binding")
    tag = op.thread_binding.thread_tag
    iv = IterVar(Range.from_min_extent(lo, ext), op.loop_var, IterVarType.ThreadIndex, tag,
                 span=op.thread_binding.span)
    key = "virtual_thread" if tag in _VTHREAD_TAGS else "thread_extent"
    return AttrStmt(iv, key, ext, body, span=op.span)


def lower_opaque_block(func: PrimFunc) -> PrimFunc:
    """``func`` without blocks; the same object when there was nothing to lower.

    Raises:
        ValueError: when a block still has iter vars.
    """
    body = _OpaqueBlockLower(collect_storage_align(func.body))(func.body)
    return func if body is func.body else func.with_body(body)


@register_pass("LowerOpaqueBlock")
def LowerOpaqueBlock() -> Pass:  # pylint: disable=invalid-name
    """Remove opaque blocks: allocations, predicates, thread bindings, unit loops
    (``tvm.tir.transform.LowerOpaqueBlock``, opt_level 0)."""
    @prim_func_pass("LowerOpaqueBlock", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return lower_opaque_block(func)
    return run
