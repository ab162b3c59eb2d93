"""``FlattenBuffer``: flatten multi-dimensional buffer accesses to one index per axis group
(mirrors ``tvm.tir.transform.FlattenBuffer``, src/tir/transforms/flatten_buffer.cc).

Every ``BufferLoad``/``BufferStore`` gets the flattened buffer (``Buffer.get_flattened_buffer``:
shape the product of the extents, or ``strides[0] * shape[0]`` with strides, one dimension per
``axis_separators`` group) and the simplified row-major (or strided) offset, plus the buffer's
``elem_offset`` when non-zero. ``Allocate`` extents are flattened the same way and
``DeclBuffer`` statements are stripped, as in TVM v0.20. The ``buffer_map`` keeps the
multi-dimensional parameter buffers (they describe the arguments); the body uses flat aliases of
the same data (printed ``A_1 = T.Buffer((16384,), data=A.data)``). Boolean buffers are stored as
``int8``. Blocks left in the function get flattened alloc_buffers and reads/writes.
"""
from __future__ import annotations

from typing import Any

from tirkit.arith.analyzer import Analyzer
from tirkit.compiler.transform import Pass, prim_func_pass, register_pass
from tirkit.ir.dtype import dtype as _dtype
from tirkit.ir.expr import IntImm, PrimExpr, Range
from tirkit.tir import op as tir_op
from tirkit.tir.analysis import expr_deep_equal
from tirkit.tir.buffer import Buffer
from tirkit.ir.type import PointerType, PrimType
from tirkit.tir.expr import BufferLoad, Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import Allocate, Block, BufferRegion, BufferStore, DeclBuffer, For, Stmt
from tirkit.tir.stmt_functor import StmtExprMutator

_BOOL, _INT8 = _dtype("bool"), _dtype("int8")


def _is_zero(e: PrimExpr) -> bool:
    return isinstance(e, IntImm) and e.value == 0


def flattened_shape(buf: Buffer) -> tuple[PrimExpr, ...]:
    """The shape of ``buf`` flattened per axis group (TVM ``Buffer::GetFlattenedBuffer``)."""
    seps = list(buf.axis_separators)
    if buf.strides:
        return tuple(tir_op.multiply(buf.strides[i], buf.shape[i]) for i in [0, *seps])
    out: list[Any] = [1] * (len(seps) + 1)
    group = 0
    for i, dim in enumerate(buf.shape):
        if group < len(seps) and i == seps[group]:
            group += 1
        out[group] = tir_op.multiply(out[group], dim)
    return tuple(tir_op.convert(e) for e in out)


def elem_offset(buf: Buffer, indices: tuple) -> list[PrimExpr]:
    """Flat offsets of ``indices`` per axis group, plus ``elem_offset`` when non-zero
    (TVM ``BufferNode::ElemOffset``, before simplification)."""
    seps = list(buf.axis_separators)
    out: list[Any] = [0] * (len(seps) + 1)
    group = 0
    for i, idx in enumerate(indices):
        if group < len(seps) and i == seps[group]:
            group += 1
        if buf.strides:
            out[group] = tir_op.add(out[group], tir_op.multiply(idx, buf.strides[i]))
        else:
            out[group] = tir_op.add(tir_op.multiply(out[group], buf.shape[i]), idx)
    if not _is_zero(buf.elem_offset):
        out = [tir_op.add(o, buf.elem_offset) for o in out]
    return [tir_op.convert(o) for o in out]


class _BufferFlattener(StmtExprMutator):
    """TVM ``BufferFlattener`` (an ``IRMutatorWithAnalyzer``: loop ranges are known when the
    flat indices are simplified)."""

    def __init__(self) -> None:
        self.ana = Analyzer()
        self.remap: dict[Buffer, Buffer] = {}
        self.data_remap: dict[Var, Var] = {}

    def flat_buffer(self, buf: Buffer) -> Buffer:
        """The flattened alias of ``buf``, one per buffer (TVM ``GetFlattenedBuffer``)."""
        got = self.remap.get(buf)
        if got is not None:
            return got
        if len(buf.shape) == len(buf.axis_separators) + 1 and not buf.strides \
                and buf.dtype != _BOOL:
            flat = buf
        else:
            shape = tuple(self.ana.simplify(s) for s in flattened_shape(buf))
            seps = tuple(range(1, len(buf.axis_separators) + 1))
            flat = buf.with_changes(shape=shape, strides=(), axis_separators=seps,
                                    dtype=_INT8 if buf.dtype == _BOOL else buf.dtype,
                                    data=self.data_remap.get(buf.data, buf.data))
        self.remap[buf] = flat
        return flat

    def flat_indices(self, buf: Buffer, indices: tuple) -> tuple[PrimExpr, ...]:
        """Simplified flat indices (TVM ``GetSimplifiedElemOffset``)."""
        if len(buf.shape) == 1 and not buf.strides and _is_zero(buf.elem_offset):
            return indices
        return tuple(self.ana.simplify(i) for i in elem_offset(buf, indices))

    def visit_for_(self, op: For) -> Stmt:
        self.ana.bind(op.loop_var, Range.from_min_extent(op.min, op.extent))
        return super().visit_for_(op)

    def visit_buffer_load_(self, op: BufferLoad) -> PrimExpr:
        new = super().visit_buffer_load_(op)
        flat = self.flat_buffer(new.buffer)
        indices = self.flat_indices(new.buffer, new.indices)
        if flat is new.buffer and indices is new.indices:
            return new
        load = new.with_changes(buffer=flat, indices=indices)
        return tir_op.cast(_BOOL, load) if op.dtype == _BOOL else load

    def visit_buffer_store_(self, op: BufferStore) -> Stmt:
        new = super().visit_buffer_store_(op)
        flat = self.flat_buffer(new.buffer)
        indices = self.flat_indices(new.buffer, new.indices)
        if flat is new.buffer and indices is new.indices:
            return new
        value = new.value
        if value.dtype.element_of() == _BOOL:
            value = tir_op.cast(_dtype(f"int8x{value.dtype.lanes}") if value.dtype.lanes > 1
                                else _INT8, value)
        return new.with_changes(buffer=flat, indices=indices, value=value)

    def visit_decl_buffer_(self, op: DeclBuffer) -> Stmt:
        return self.visit_stmt(op.body)

    def visit_var_(self, op: Var) -> PrimExpr:
        return self.data_remap.get(op, op)

    def visit_allocate_(self, op: Allocate) -> Stmt:
        changes: dict[str, Any] = {}
        if op.dtype == _BOOL:
            # the data pointer becomes an int8 pointer too, so that the Allocate prints and
            # parses back (TVM keeps the bool-typed pointer Var)
            ann = op.buffer_var.type_annotation
            scope = ann.storage_scope if isinstance(ann, PointerType) else "global"
            var = op.buffer_var.with_changes(type_annotation=PointerType(PrimType(_INT8), scope))
            self.data_remap[op.buffer_var] = var
            changes.update(dtype=_INT8, buffer_var=var)
        # after the remap: the extents flatten the DeclBuffer's buffer, whose flat alias must
        # take the int8 pointer (a 2-d bool buffer's loads used the dropped bool pointer)
        extents = self._alloc_extents(op)
        new = super().visit_allocate_(op)
        if extents is not op.extents:
            changes["extents"] = extents
        return new.with_changes(**changes) if changes else new

    def _alloc_extents(self, op: Allocate) -> tuple[PrimExpr, ...]:
        decl = op.body
        if isinstance(decl, DeclBuffer) and decl.buffer.data is op.buffer_var \
                and decl.buffer.dtype == op.dtype and len(decl.buffer.shape) == len(op.extents) \
                and all(expr_deep_equal(a, b) for a, b in zip(op.extents, decl.buffer.shape)) \
                and (len(op.extents) != 1 or decl.buffer.strides):
            # 0-d and n-d buffers take their flattened size; a one-dimensional one only when
            # its strides are padded (storage_align of its only axis: strides[0] * shape[0])
            return self.flat_buffer(decl.buffer).shape
        if len(op.extents) == 1:
            return op.extents
        total: PrimExpr = tir_op.const(1, op.extents[0].dtype)
        for e in op.extents:
            total = tir_op.multiply(total, e)
        return (total,)

    def visit_block_(self, op: Block) -> Stmt:
        if op.match_buffers:
            raise ValueError(f"FlattenBuffer: block {op.name_hint!r} has match_buffers; run "
                             "LowerMatchBuffer first")
        new = super().visit_block_(op)
        allocs = tuple(self.flat_buffer(b) for b in new.alloc_buffers)
        reads = tuple(self._region(r) for r in new.reads)
        writes = tuple(self._region(w) for w in new.writes)
        if all(a is b for a, b in zip((*allocs, *reads, *writes),
                                      (*new.alloc_buffers, *new.reads, *new.writes))):
            return new
        return new.with_changes(alloc_buffers=allocs, reads=reads, writes=writes)

    def _region(self, br: BufferRegion) -> BufferRegion:
        flat = self.flat_buffer(br.buffer)
        if flat is br.buffer:
            return br
        lo = self.flat_indices(br.buffer, tuple(r.min for r in br.region))
        hi = self.flat_indices(br.buffer, tuple(r.min + r.extent - 1 for r in br.region))
        return BufferRegion(flat, [Range(a, self.ana.simplify(b + 1)) for a, b in zip(lo, hi)],
                            span=br.span)


def flatten_buffer(func: PrimFunc) -> PrimFunc:
    """``func`` with every buffer access flattened; the same object when all are already flat.

    Raises:
        ValueError: when a block still has match_buffers.
    """
    body = _BufferFlattener()(func.body)
    return func if body is func.body else func.with_body(body)


@register_pass("FlattenBuffer")
def FlattenBuffer() -> Pass:  # pylint: disable=invalid-name
    """Flatten buffer accesses to 1-D (per axis group)
    (``tvm.tir.transform.FlattenBuffer``, opt_level 0)."""
    @prim_func_pass("FlattenBuffer", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return flatten_buffer(func)
    return run
