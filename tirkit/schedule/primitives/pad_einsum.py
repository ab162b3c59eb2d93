"""pad_einsum (mirrors TVM's ``src/tir/schedule/primitive/pad_einsum.cc``).

For a block of Einsum pattern (every buffer region is indexed by plain block iters or
constants, each buffer read or written once), grow the iteration domain of each iter to a
multiple of its padding (127 -> 128 for 32). Buffers indexed by a grown iter get a padded copy
``{name}_pad``: inputs are copied in before the block's loop nest (zero outside the original
shape), outputs copied back after it; the block and its loops run over the padded domain.
"""
from __future__ import annotations

from typing import Any, Sequence, cast

from ...arith import Analyzer
from ...ir import structural_equal
from ...ir.expr import IntImm, PrimExpr, Range
from ...tir import expr as E
from ...tir import op as tir_op
from ...tir import stmt as S
from ...tir.buffer import Buffer, decl_buffer
from ...tir.op_math import if_then_else
from ...tir.stmt_functor import StmtExprMutator
from .. import analysis as A
from ..errors import NotSingleChildBlockError
from . import _ir_utils as U
from ._ir_utils import PrimitiveResult
from .cache_layout_errors import InvalidPaddingError, NonEinsumError


def _trivial_indices(region: S.BufferRegion) -> bool:
    return all(U.is_const(r.extent, 1) and isinstance(r.min, (E.Var, IntImm))
               for r in region.region)


def _check(block: S.Block, padding: Sequence[int]) -> None:
    if len(padding) != len(block.iter_vars) or any(int(p) <= 0 for p in padding):
        raise InvalidPaddingError(block, count=len(block.iter_vars), padding=list(padding))
    used: set[int] = set()
    for region in (*block.reads, *block.writes):
        if id(region.buffer) in used or not _trivial_indices(region):
            raise NonEinsumError(block)
        used.add(id(region.buffer))


def _check_full_loops(site: U.Site) -> None:
    """The copy stages cover whole buffers and the padded loops are resized from 0, so each
    iter must be bound to a loop of its own under the block's scope running over its whole
    domain from 0. A partition's loop in range(5, 10) became range(5, 17), and the copy back
    wrote the rows that loop never computed (found by the wide fuzzer: two_consumers,
    loop_partition then pad_einsum, --hypothesis-seed=9). NotTrivialBindingError otherwise
    (TVM's PadEinsum checks the binding only)."""
    from .cache_layout_errors import BlockHasNontrivialBindingError  # pylint: disable=C0415
    used: list[Any] = []
    for iv, value in zip(site.block.iter_vars, site.realize.iter_values):
        dom: Any = iv.dom  # (a block iter var's domain)
        loop = next((lp for lp in site.loops if lp.loop_var is value), None)
        ok = loop is not None and all(value is not u for u in used) \
            and U.is_const(dom.min, 0) and U.is_const(loop.min, 0) \
            and Analyzer().can_prove_equal(loop.extent, dom.extent)
        if not ok:
            raise BlockHasNontrivialBindingError(
                site.block, reason=f"pad_einsum needs each iter bound to a loop of its own over "
                f"its whole domain from 0; {iv.var.name_hint} (domain [{dom.min.script()}, "
                f"+{dom.extent.script()})) is bound to {value.script()}"
                + ("" if loop is None else f", a loop over [{loop.min.script()}, "
                   f"+{loop.extent.script()})"))
        used.append(value)


def _check_sole_block(stmt: S.Stmt, block: S.Block) -> None:
    """The padded loops and buffers are rewritten in the whole statement of the scope that holds
    ``block`` and the copy stages go right before and after it, so that statement must hold no
    other block: a sibling under a padded loop would run past its own domain, a producer of a
    padded input would write the padded copy after the copy stage read the original (no TVM
    check; TVM 0.27 builds such kernels, reading past the end of their buffers)."""
    others = [b.name_hint for b in U.child_blocks(stmt) if b is not block]
    if others:
        outer = stmt if isinstance(stmt, S.For) else block
        raise NotSingleChildBlockError(
            outer, block, detail="{0} holds blocks " + ", ".join(map(repr, others)) +
            " besides {1}; pad_einsum rewrites the padded loops and buffers of the whole loop "
            "nest, so the block must be the only one in it")


class _ZeroLoads(StmtExprMutator):
    """Loads indexed by ``var`` replaced by zero (what the padded copies hold past the end)."""

    def __init__(self, var: E.Var, keep: Buffer) -> None:
        super().__init__()
        self.var, self.keep = var, keep

    def visit_buffer_load_(self, op: E.BufferLoad) -> Any:
        uses = any(A.uses_var(i, self.var) for i in op.indices)
        if uses and op.buffer is not self.keep:
            return tir_op.const(0, op.dtype)
        return super().visit_buffer_load_(op)


def _check_padding_is_identity(block: S.Block, iter_ext: dict[int, PrimExpr],
                               ana: Analyzer) -> None:
    """A padded iter that does not index the output (a reduction iter) runs extra updates of
    real output elements with the padded inputs' zeros, so each must leave the output as it is:
    ``C[i] = C[i] + A_pad[i, k] * B_pad[k]`` does, ``expsum[i] = expsum[i] + exp(A_pad[i, k] -
    m[i])`` or ``maxelem[i] = max(maxelem[i], A_pad[i, k])`` do not (no TVM check: TVM 0.27 pads
    them and the sums are wrong)."""
    padded = [iv.var for iv in block.iter_vars if id(iv.var) in iter_ext]
    store = block.body
    for var in padded:
        if isinstance(store, S.BufferStore) and any(A.uses_var(i, var) for i in store.indices):
            continue
        if not isinstance(store, S.BufferStore):
            raise NonEinsumError(block, detail="{0} is not a computation of Einsum "
                                 f"pattern: its iter {var.name_hint} is padded and its body is "
                                 "not a single BufferStore")
        zeroed = ana.simplify(_ZeroLoads(var, store.buffer).visit_expr(store.value))
        current = E.BufferLoad(store.buffer, store.indices)
        if not (structural_equal(zeroed, current) or ana.can_prove_equal(zeroed, current)):
            raise NonEinsumError(
                block, detail="{0} is not a computation of Einsum pattern: its iter "
                f"{var.name_hint} is padded but does not index {store.buffer.name}, and an "
                "update over the padding (the padded inputs read zeros there) would not leave "
                f"{store.buffer.name} unchanged")


def _padded_buffer(region: S.BufferRegion, extents: dict[int, PrimExpr]) -> Buffer:
    shape: list[PrimExpr] = []
    for r, dim in zip(region.region, region.buffer.shape):
        if isinstance(r.min, IntImm):
            shape.append(IntImm(r.min.dtype, 1))
        else:
            shape.append(extents.get(id(r.min), dim))
    buf = region.buffer
    return decl_buffer(shape, buf.dtype, f"{buf.name}_pad", scope=buf.scope())


def _copy_block(old: Buffer, new: Buffer, is_read: bool, ana: Analyzer) -> S.Stmt:
    """TVM's ``BufferPadding::MakeCopyBlock``."""
    dims = new.shape if is_read else old.shape
    loops = [E.Var(f"i{i}", d.dtype) for i, d in enumerate(dims)]
    ivs = [E.IterVar(Range.from_min_extent(IntImm(d.dtype, 0), d), E.Var(f"v{i}", d.dtype),
                     E.IterVarType.DataPar) for i, d in enumerate(dims)]
    idx = tuple(iv.var for iv in ivs)
    point = tuple(Range.from_min_extent(i, IntImm(i.dtype, 1)) for i in idx)
    if is_read:
        pred: PrimExpr | None = None
        for i, (a, b) in enumerate(zip(old.shape, new.shape)):
            if not ana.can_prove_equal(a, b):
                cond = tir_op.less(idx[i], a)
                pred = cond if pred is None else tir_op.logical_and(pred, cond)
        load = E.BufferLoad(old, idx)
        value = load if pred is None else if_then_else(pred, load, tir_op.const(0, old.dtype))
        body = S.BufferStore(new, value, idx)
        reads, writes = S.BufferRegion(old, point), S.BufferRegion(new, point)
    else:
        body = S.BufferStore(old, E.BufferLoad(new, idx), idx)
        reads, writes = S.BufferRegion(new, point), S.BufferRegion(old, point)
    stmt: S.Stmt = S.BlockRealize(tuple(loops), IntImm("bool", 1),
                                  S.Block(tuple(ivs), (reads,), (writes,), new.name, body))
    for var, d in reversed(list(zip(loops, dims))):
        stmt = S.For(var, IntImm(d.dtype, 0), d, S.ForKind.SERIAL, stmt)
    return stmt


class _Replacer(StmtExprMutator):
    """TVM's ``PadEinsumBufferReplacer``: padded loop/iter extents and buffers."""

    def __init__(self, loop_extents: dict[int, PrimExpr], iter_extents: dict[int, PrimExpr],
                 buffers: dict[int, Buffer]) -> None:
        super().__init__()
        self.loop_extents, self.iter_extents, self.buffers = loop_extents, iter_extents, buffers
        self.reuse: dict[S.Block, S.Block] = {}

    def visit_for_(self, op: S.For) -> S.Stmt:
        new = super().visit_for_(op)
        ext = self.loop_extents.get(id(op.loop_var))
        return new if ext is None else new.with_changes(extent=ext)

    def visit_block_(self, op: S.Block) -> S.Stmt:
        new = super().visit_block_(op)
        ivs = tuple(iv.with_changes(dom=Range.from_min_extent(iv.dom.min, self.iter_extents[
            id(iv.var)])) if id(iv.var) in self.iter_extents else iv for iv in new.iter_vars)
        swap = lambda rs: tuple(S.BufferRegion(self.buffers[id(r.buffer)], r.region)  # noqa
                                if id(r.buffer) in self.buffers else r for r in rs)
        new = new.with_changes(iter_vars=ivs, reads=swap(new.reads), writes=swap(new.writes))
        self.reuse[op] = new
        return new

    def visit_buffer_load_(self, op: E.BufferLoad) -> Any:
        new = super().visit_buffer_load_(op)
        buf = self.buffers.get(id(op.buffer))
        return new if buf is None else new.with_changes(buffer=buf)

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        new = super().visit_buffer_store_(op)
        buf = self.buffers.get(id(op.buffer))
        return new if buf is None else new.with_changes(buffer=buf)


def pad_einsum_impl(body: S.Stmt, block: S.Block, padding: Sequence[int]) -> PrimitiveResult:
    """TVM's ``PadEinsum`` of ``block`` in the function ``body``.

    Raises:
        InvalidPaddingError: the padding is not one positive integer per block iter;
        NonEinsumError: a buffer is accessed twice or not by plain iters/constants;
        NotSingleChildBlockError: the loop nest of the scope that holds the block holds another
            block;
        NotTrivialBindingError: an iter not bound to a loop of its own, under the block's scope,
            over its whole domain from 0.
    """
    _check(block, padding)
    site = U.locate(body, block)
    _check_full_loops(site)
    ana = Analyzer()
    iter_ext: dict[int, PrimExpr] = {}
    loop_ext: dict[int, PrimExpr] = {}
    for iv, value, pad in zip(block.iter_vars, site.realize.iter_values, padding):
        dom = cast(Range, iv.dom).extent  # (a block iter var's domain)
        new = ana.simplify(tir_op.floordiv(dom + int(pad) - 1, int(pad)) * int(pad))
        if not ana.can_prove_equal(new, dom):
            iter_ext[id(iv.var)] = new
            if isinstance(value, E.Var):
                iter_ext[id(value)] = loop_ext[id(value)] = new
    _check_padding_is_identity(block, iter_ext, ana)
    needs = lambda r: any(isinstance(x.min, E.Var) and id(x.min) in iter_ext  # noqa: E731
                          for x in r.region)
    reads: list[Any] = []
    writes: list[Any] = []
    allocs, buffers = [], {}
    for region, out in [(r, reads) for r in block.reads] + [(w, writes) for w in block.writes]:
        if needs(region):
            padded = _padded_buffer(region, iter_ext)
            buffers[id(region.buffer)] = padded
            out.append(_copy_block(region.buffer, padded, out is reads, ana))
            allocs.append(padded)
    seq = list(site.scope.body.seq) if isinstance(site.scope.body, S.SeqStmt) \
        else [site.scope.body]
    pos = next(i for i, s in enumerate(seq) if U.path_to(s, block) is not None)
    if iter_ext:
        _check_sole_block(seq[pos], block)
    replacer = _Replacer(loop_ext, iter_ext, buffers)
    new_seq = seq[:pos] + reads + [replacer.visit_stmt(seq[pos])] + writes + seq[pos + 1:]
    new_scope = site.scope.with_changes(body=S.SeqStmt(tuple(new_seq)),
                                        alloc_buffers=tuple(site.scope.alloc_buffers) + tuple(allocs))
    reuse = dict(replacer.reuse)
    reuse[site.scope] = new_scope
    return PrimitiveResult(site.scope, new_scope, reuse, [_block_of(c) for c in reads + writes])


def _block_of(stmt: S.Stmt) -> S.Block:
    while isinstance(stmt, S.For):
        stmt = stmt.body
    return cast(S.BlockRealize, stmt).block


def _register() -> None:
    from ..schedule import primitive  # pylint: disable=import-outside-toplevel
    from ._args import apply_result, as_block_rv, block_of, func_body  # pylint: disable=C0415

    def _normalize(sch: Any, args: dict) -> None:
        args["block"] = as_block_rv(sch, args["block"])
        args["padding"] = [int(p) for p in args["padding"]]

    @primitive("PadEinsum", attrs=("padding",), normalize=_normalize)
    def pad_einsum(sch: Any, block: Any, padding: Sequence[int]) -> None:
        """Pad the iteration domain of an Einsum block to multiples of ``padding`` (one positive
        int per block iter), with padded copies of the buffers it touches
        (``Schedule.pad_einsum``).

        Raises:
            ScheduleError: InvalidPaddingError, NonEinsumError, NotSingleChildBlockError
                (the block's loop nest holds another block).
        """
        apply_result(sch, pad_einsum_impl(func_body(sch, block), block_of(sch, block), padding))


_register()
