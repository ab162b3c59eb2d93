"""``LowerMatchBuffer``: replace ``T.match_buffer`` regions inside blocks by direct accesses to
the source buffer (mirrors ``tvm.tir.transform.LowerMatchBuffer``,
src/tir/transforms/lower_match_buffer.cc).

For ``B = T.match_buffer(A[r0, ..., rn], shape)`` in a block: every ``B[i...]`` becomes
``A[r.min + i ...]`` (leading source dimensions of extent 1 keep their min); B's data var,
``elem_offset``, symbolic strides and shape Vars are bound to the source's values and
substituted; the match_buffers list is emptied and the block's reads/writes are rewritten.
Constraints (equal scope and dtype, compatible offsets, strides and shapes) are checked.
"""
from __future__ import annotations

from typing import Any

from tirkit.arith.analyzer import Analyzer
from tirkit.compiler.transform import Pass, prim_func_pass, register_pass
from tirkit.ir.expr import IntImm, PrimExpr, Range
from tirkit.tir import op as tir_op
from tirkit.tir.buffer import Buffer
from tirkit.tir.expr import BufferLoad, Var
from tirkit.tir.function import PrimFunc
from tirkit.tir.stmt import Block, BufferRegion, BufferStore, For, MatchBufferRegion, Stmt
from tirkit.tir.stmt_functor import StmtExprMutator, pre_order_visit, substitute

from ._opt_common import DeferredBinds


class MatchBufferError(ValueError):
    """A ``match_buffer`` whose constraints cannot hold (TVM's ``CHECK`` failures in
    ``MatchBufferLower``)."""


def _is_zero(e: PrimExpr) -> bool:
    return isinstance(e, IntImm) and e.value == 0


def convert_indices(match: MatchBufferRegion, indices: tuple) -> tuple[PrimExpr, ...]:
    """Indices into the source buffer for ``indices`` into the matched buffer (TVM
    ``ConvertIndices``).

    Raises:
        MatchBufferError: when a leading source dimension does not have extent 1.
    """
    source = match.source.region
    offset = len(source) - len(indices)
    out = []
    for r in source[:offset]:
        if not Analyzer().can_prove_equal(r.extent, 1):
            raise MatchBufferError(f"match_buffer {match.buffer.name!r}: source dimension of "
                                   f"extent {r.extent} is not matched")
        out.append(r.min)
    out.extend(tir_op.add(r.min, i) for r, i in zip(source[offset:], indices))
    return tuple(out)


def convert_region(match: MatchBufferRegion, region: tuple) -> tuple[Range, ...]:
    """The source-buffer region for a region of the matched buffer (TVM ``ConvertRegion``)."""
    source = match.source.region
    offset = len(source) - len(region)
    out = list(source[:offset])
    out.extend(Range.from_min_extent(tir_op.add(s.min, r.min), r.extent, span=r.span)
               for s, r in zip(source[offset:], region))
    return tuple(out)


class _MatchBufferLower(StmtExprMutator):
    """TVM ``MatchBufferLower``."""

    def __init__(self, func: PrimFunc) -> None:
        self.var_map: dict[Var, PrimExpr] = {p: p for p in func.params
                                             if not p.dtype.is_handle()}
        self.matches: dict[Buffer, MatchBufferRegion] = {}
        self.ana = DeferredBinds()

    def visit_block_(self, op: Block) -> Stmt:
        for m in op.match_buffers:
            self._bind_match(m)
        new = super().visit_block_(op)
        reads = tuple(self._region(r) for r in new.reads)
        writes = tuple(self._region(w) for w in new.writes)
        if not new.match_buffers and all(a is b for a, b in zip(reads, new.reads)) \
                and all(a is b for a, b in zip(writes, new.writes)):
            return new
        return new.with_changes(match_buffers=(), reads=reads, writes=writes)

    def visit_for_(self, op: For) -> Stmt:
        self.ana.bind(op.loop_var, Range.from_min_extent(op.min, op.extent))
        return super().visit_for_(op)

    def visit_var_(self, op: Var) -> PrimExpr:
        return self.var_map.get(op, op)

    def visit_buffer_store_(self, op: BufferStore) -> Stmt:
        new = super().visit_buffer_store_(op)
        m = self.matches.get(new.buffer)
        if m is None:
            return new
        return new.with_changes(buffer=m.source.buffer, indices=convert_indices(m, new.indices))

    def visit_buffer_load_(self, op: BufferLoad) -> PrimExpr:
        new = super().visit_buffer_load_(op)
        m = self.matches.get(new.buffer)
        if m is None:
            return new
        return new.with_changes(buffer=m.source.buffer, indices=convert_indices(m, new.indices))

    def _region(self, br: BufferRegion) -> BufferRegion:
        m = self.matches.get(br.buffer)
        if m is None:
            return br
        return br.with_changes(buffer=m.source.buffer, region=convert_region(m, br.region))

    # -------------------------------------------------------------------------- binding
    def _bind_match(self, match: MatchBufferRegion) -> None:
        """TVM ``CheckAndUpdateVarMap``: check ``match`` and bind the matched buffer's vars."""
        buf = match.buffer
        source = self._region(match.source.with_changes(
            region=tuple(r.with_changes(min=self.visit_expr(r.min),
                                        extent=self.visit_expr(r.extent))
                         for r in match.source.region)))
        src = source.buffer
        if buf.scope() != src.scope():
            raise MatchBufferError(f"match_buffer {buf.name!r}: scope {buf.scope()!r} differs "
                                   f"from the source's {src.scope()!r}")
        if buf.dtype != src.dtype:
            raise MatchBufferError(f"match_buffer {buf.name!r}: dtype {buf.dtype} differs from "
                                   f"the source's {src.dtype}")
        if _is_zero(buf.elem_offset) and not _is_zero(src.elem_offset):
            raise MatchBufferError(f"match_buffer {buf.name!r}: cannot bind a buffer without "
                                   f"offset to {src.name!r} whose elem_offset is "
                                   f"{src.elem_offset}")
        match = match.with_changes(source=source)
        self.matches[buf] = match
        self._bind(buf.data, src.data, f"{buf.name}.data")
        self._bind_offset(buf, source)
        self._bind_strides(buf, source)
        offset = len(source.region) - len(buf.shape)
        for i, dim in enumerate(buf.shape):
            self._bind(dim, source.region[i + offset].extent, f"{buf.name}.shape_{i}")

    def _bind_offset(self, buf: Buffer, source: BufferRegion) -> None:
        starts = source.buffer.offset_of([r.min for r in source.region])
        if len(starts) != 1:
            self._bind(buf.elem_offset, tir_op.const(0, buf.elem_offset.dtype))
            return
        start = Analyzer().simplify(_with_offset(source.buffer, starts[0]))
        self._bind(buf.elem_offset, start, f"{buf.name}.elem_offset")
        mapped = substitute(buf.elem_offset, lambda v: self.var_map.get(v))
        if not self.ana.can_prove(tir_op.equal(tir_op.truncmod(mapped, buf.offset_factor), 0)):
            raise MatchBufferError(f"match_buffer {buf.name!r}: the source elem_offset {start} "
                                   f"does not satisfy the offset_factor {buf.offset_factor}")

    def _bind_strides(self, buf: Buffer, source: BufferRegion) -> None:
        if not buf.strides:
            return
        src = source.buffer
        offset = len(source.region) - len(buf.shape)
        if len(buf.strides) != len(buf.shape):
            raise MatchBufferError(f"match_buffer {buf.name!r}: {len(buf.strides)} strides for "
                                   f"{len(buf.shape)} dimensions")
        if src.strides:
            for i in range(len(buf.shape) - 1, -1, -1):
                self._bind(buf.strides[i], src.strides[i + offset], f"{buf.name}.strides_{i}")
            return
        stride: PrimExpr = tir_op.const(1, buf.strides[-1].dtype)
        for i in range(len(buf.shape) - 1, -1, -1):
            self._bind(buf.strides[i], stride, f"{buf.name}.strides_{i}")
            stride = tir_op.multiply(stride, src.shape[i + offset])

    def _bind(self, arg: PrimExpr, value: PrimExpr, name: str = "argument") -> None:
        """TVM ``MatchBufferLower::Bind``: define a free Var or check an equality."""
        if arg.dtype != value.dtype:
            raise MatchBufferError(f"match_buffer: {name} has dtype {arg.dtype} but is bound "
                                   f"to {value} of dtype {value.dtype}")
        value = substitute(value, lambda v: self.var_map.get(v))
        if isinstance(arg, Var) and arg not in self.var_map:
            self.var_map[arg] = value
            if not arg.dtype.is_handle():
                self.ana.bind(arg, value)
            return
        lhs = self.var_map[arg] if isinstance(arg, Var) else arg
        if isinstance(lhs, Var) and lhs.dtype.is_handle():
            if lhs is not value:
                raise MatchBufferError(f"match_buffer constraint for {name} unmet: "
                                       f"{lhs} == {value}")
            return
        if not self.ana.can_prove(tir_op.equal(lhs, value)):
            raise MatchBufferError(f"the buffer match constraint for {name} unmet: "
                                   f"{lhs} == {value}")


def _with_offset(buf: Buffer, index: PrimExpr) -> PrimExpr:
    """``ElemOffset`` adds the buffer's own elem_offset when it is not zero."""
    return index if _is_zero(buf.elem_offset) else tir_op.add(index, buf.elem_offset)


def lower_match_buffer(func: PrimFunc) -> PrimFunc:
    """``func`` without block match_buffers; the same object when there are none.

    Raises:
        MatchBufferError: when a match_buffer's constraints cannot hold.
    """
    if not _has_match_buffers(func.body):  # nothing to lower: the walk would change nothing
        return func
    body = _MatchBufferLower(func)(func.body)
    return func if body is func.body else func.with_body(body)


def _has_match_buffers(body: Stmt) -> bool:
    """Whether a block under ``body`` matches a buffer (a statement-only walk: a block is
    never inside an expression)."""
    found = [False]

    def visit(node: Any) -> bool:
        if found[0] or isinstance(node, PrimExpr):
            return False
        if isinstance(node, Block) and node.match_buffers:
            found[0] = True
        return not found[0]
    pre_order_visit(body, visit)
    return found[0]


@register_pass("LowerMatchBuffer")
def LowerMatchBuffer() -> Pass:  # pylint: disable=invalid-name
    """Replace block match_buffers by accesses to their source
    (``tvm.tir.transform.LowerMatchBuffer``, opt_level 0)."""
    @prim_func_pass("LowerMatchBuffer", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        return lower_match_buffer(func)
    return run
