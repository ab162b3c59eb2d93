"""read_at and write_at (mirrors TVM's ``src/tir/schedule/primitive/read_write_at.cc``).

``read_at(loop, block, i, scope)``: inside ``loop``, right before the first statement of its
body that reads ``block.reads[i]``'s buffer, a block ``{name}_{scope}`` (annotated
``auto_copy``) copies the region those statements read — relaxed over the loops under ``loop`` —
into a new buffer of ``scope``, and those statements read the copy. ``write_at`` is the mirror
image: statements up to the last writer write the copy, which is copied back after them.
"""
from __future__ import annotations

from typing import Any, cast

from ...arith import Analyzer
from ...arith.int_set import IntervalSet, eval_set
from ...ir.expr import IntImm, Range
from ...tir import expr as E
from ...tir import stmt as S
from ...tir.buffer import Buffer
from ...tir.stmt_functor import StmtExprMutator, StmtMutator, substitute
from . import _ir_utils as U
from ._args import nth_access_buffer
from ._ir_utils import PrimitiveResult
from .cache_read_write import check_storage_scope


class _Swap(StmtExprMutator):
    """TVM's ``ReadWriteAtBufferReplacer``."""

    def __init__(self, src: Buffer, dst: Buffer, reuse: dict[S.Block, S.Block]) -> None:
        super().__init__()
        self.src, self.dst, self.reuse = src, dst, reuse

    def visit_buffer_load_(self, op: E.BufferLoad) -> Any:
        new = super().visit_buffer_load_(op)
        return new.with_changes(buffer=self.dst) if op.buffer is self.src else new

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        new = super().visit_buffer_store_(op)
        return new.with_changes(buffer=self.dst) if op.buffer is self.src else new

    def visit_block_(self, op: S.Block) -> S.Stmt:
        new = super().visit_block_(op)
        new = new.with_changes(reads=U.replace_buffer_in_regions(new.reads, self.src, self.dst),
                               writes=U.replace_buffer_in_regions(new.writes, self.src, self.dst))
        self.reuse[op] = new
        return new


def _realizes(stmt: S.Stmt) -> list[S.BlockRealize]:
    """Block realizes under ``stmt`` not nested in another block."""
    out: list[S.BlockRealize] = []
    stack = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, S.BlockRealize):
            out.append(node)
            continue
        stack.extend(reversed(U._children(node)))  # pylint: disable=protected-access
    return out


def _relaxed(body: S.Stmt, sub: S.Stmt, loop: S.For, buffer: Buffer, is_read: bool
             ) -> tuple[bool, bool, list[list[IntervalSet]]]:
    reads = writes = False
    sets = []
    for realize in _realizes(sub):
        block = realize.block
        has_r = U.region_of(block.reads, buffer) is not None
        has_w = U.region_of(block.writes, buffer) is not None
        reads, writes = reads or has_r, writes or has_w
        region = U.region_of(block.reads if is_read else block.writes, buffer)
        if region is None:
            continue
        path = cast(list[S.Stmt], U.path_to(loop, block))  # (the block is under the loop)
        dom = U.loop_ranges([s for s in path[1:] if isinstance(s, S.For)])
        vmap = U.bindings(realize)
        sets.append([IntervalSet(eval_set(substitute(r.min, vmap), dom).min_value,
                                 eval_set(substitute(r.min + r.extent - 1, vmap), dom).max_value)
                     for r in region.region])
    return reads, writes, sets


def _copy_block(src: Buffer, dst: Buffer, name: str, outer: list[S.For],
                domain: list[Range]) -> S.BlockRealize:
    """TVM's ``ReadWriteAtImpl::MakeBlock``: iters for the outer loop vars the domain uses."""
    outer_vars = {id(lp.loop_var): lp for lp in outer}
    vmap: dict[int, E.Var] = {}
    ivs: list[Any] = []
    values: list[Any] = []

    def sub(v: E.Var) -> Any:
        if id(v) in vmap:
            return vmap[id(v)]
        lp = outer_vars.get(id(v))
        if lp is None:
            return None
        nv = E.Var(f"v{len(ivs)}", v.dtype)
        vmap[id(v)] = nv
        ivs.append(E.IterVar(Range.from_min_extent(lp.min, lp.extent), nv, E.IterVarType.DataPar))
        values.append(v)
        return nv

    domain = [Range.from_min_extent(substitute(r.min, sub), substitute(r.extent, sub))
              for r in domain]
    axes = [E.Var(f"ax{i}", r.extent.dtype) for i, r in enumerate(domain)]
    idx = tuple(r.min + a for r, a in zip(domain, axes))
    stmt: S.Stmt = S.BufferStore(dst, E.BufferLoad(src, idx), idx)
    for a, r in reversed(list(zip(axes, domain))):
        stmt = S.For(a, IntImm(a.dtype, 0), r.extent, S.ForKind.SERIAL, stmt)
    block = S.Block(tuple(ivs), (S.BufferRegion(src, tuple(domain)),),
                    (S.BufferRegion(dst, tuple(domain)),), name, stmt,
                    annotations={"auto_copy": 1})
    return S.BlockRealize(tuple(values), IntImm("bool", 1), block)


class _LoopSwap(StmtMutator):
    def __init__(self, old: S.For, new: S.For) -> None:
        super().__init__()
        self.old, self.new = old, new

    def visit_for_(self, op: S.For) -> S.Stmt:
        return self.new if op is self.old else super().visit_for_(op)


def _check_written_before_read(stmts: list[S.Stmt], src: Buffer, dst: Buffer) -> None:
    """write_at swaps every access of ``src`` under the loop to ``dst`` and copies only back, so
    a block there that reads ``src`` must come after one that writes it there, or start from its
    own T.init. ReadModifyWriteError otherwise (no TVM counterpart: TVM 0.27 applies): a
    decomposed reduction's update read the new buffer, never initialised, wrong numbers
    (found by the wide fuzzer: matmul_naive.py, decompose_reduction then write_at of C_update,
    --hypothesis-seed=9)."""
    from .cache_layout_errors import ReadModifyWriteError  # pylint: disable=C0415
    written = False
    for stmt in stmts:
        for realize in _realizes_deep(stmt):
            block = realize.block
            if not written and block.init is None and \
                    U.region_of(block.reads, src) is not None:
                raise ReadModifyWriteError(
                    block, buffer=src.name, reason=f"write_at would make it read {dst.name} "
                    f"before anything under the loop writes it (only a copy back to "
                    f"{src.name} is made); it has no T.init")
            if U.region_of(block.writes, src) is not None:
                written = True


def _check_whole_write(body: S.Stmt, block: S.Block, src: Buffer) -> None:
    """The copy back covers the writers' regions relaxed over their loops, so a writer that
    skips points of them (a predicate its iter domains do not imply, a store under an if) would
    have them overwritten with values never computed: ReIndexPartialWriteError (found by the
    wide fuzzer: max_pool_relu, transform_layout with padding, then write_at of the padding
    block, --hypothesis-seed=10; all 36 outputs wrong)."""
    from .cache_layout_errors import ReIndexPartialWriteError  # pylint: disable=C0415
    from .reindex import check_writes_whole_domain  # pylint: disable=C0415
    try:
        check_writes_whole_domain(U.locate(body, block), src, set())
    except ReIndexPartialWriteError as exc:
        raise ReIndexPartialWriteError(
            block, buffer=src.name, reason=exc.fields["reason"],
            detail="{0} does not write {buffer} at every point of its iteration domain "
            "({reason}); write_at copies the relaxed region back whole and would overwrite "
            "what other blocks wrote there") from None


def _realizes_deep(stmt: S.Stmt) -> list[S.BlockRealize]:
    """Every block realize under ``stmt``, nested ones included, in program order."""
    out: list[S.BlockRealize] = []
    stack = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, S.BlockRealize):
            out.append(node)
        stack.extend(reversed(U._children(node)))  # pylint: disable=protected-access
    return out


def _clamped_domain(sets: list[list[IntervalSet]], src: Buffer, outer: list[S.For]
                    ) -> list[Range]:
    """The union of the relaxed regions, clamped to ``src``'s shape (no TVM counterpart: TVM
    copies the relaxed region as is). Relaxing over the loops ignores predicates and guards:
    after a split by a non-divisor (``T.where(i_0 * 16 + i_1 < 6)``) a write region of D (6
    rows) relaxed to rows 0..15, and the copy wrote D out of bounds; a guarded read
    (``T.if_then_else(1 <= vh, data[vh - 1], 0)``) relaxed to index -1 and the copy read out
    of bounds. Elements outside the buffer are never accessed, so they are not copied."""
    from ...tir import op  # pylint: disable=import-outside-toplevel
    ana = Analyzer()
    for lp in outer:
        ana.bind(lp.loop_var, Range.from_min_extent(lp.min, lp.extent))
    domain = []
    for dim, extent in enumerate(src.shape):
        acc: Any = sets[0][dim]  # an IntervalSet (bounded: the loops' ranges are)
        for s in sets[1:]:
            acc = acc.union(s[dim])
        start = ana.simplify(op.max(acc.min_value, IntImm(acc.min_value.dtype, 0)))
        stop = ana.simplify(op.min(acc.max_value + 1, extent))
        domain.append(Range.from_min_extent(start, ana.simplify(stop - start)))
    return domain


def read_write_at_impl(body: S.Stmt, loop: S.For, block: S.Block, index: int,
                       storage_scope: str, is_read: bool) -> PrimitiveResult:
    """TVM's ``ReadWriteAtImpl::Main``.

    Raises:
        InvalidScopeError, BufferIndexOutOfRangeError; LoopPositionError when ``loop`` is not
        above ``block`` or a write/read order makes the copy point ambiguous.
    """
    from .. import errors as err  # pylint: disable=import-outside-toplevel

    check_storage_scope(storage_scope)
    src = nth_access_buffer(block, index, "read" if is_read else "write")
    site = U.locate(body, block)
    if not any(lp is loop for lp in site.loops):
        raise err.LoopPositionError(block, loop, reason="the loop is not above the block")
    dst = U.with_scope(src, storage_scope)
    subs = list(loop.body.seq) if isinstance(loop.body, S.SeqStmt) else [loop.body]
    r_pos, w_pos, sets = [], [], []
    for i, sub in enumerate(subs):
        has_r, has_w, rel = _relaxed(body, sub, loop, src, is_read)
        if has_r:
            r_pos.append(i)
        if has_w:
            w_pos.append(i)
        sets += rel
    if is_read and w_pos and w_pos[-1] >= r_pos[0]:
        raise err.LoopPositionError(block, loop, reason=f"{src.name} is written under the loop "
                                    "before its first read")
    if not is_read and r_pos and r_pos[-1] > w_pos[-1]:
        raise err.LoopPositionError(block, loop, reason=f"{src.name} is read under the loop "
                                    "after its last write")
    pos, lo, hi = (r_pos[0], r_pos[0], len(subs)) if is_read else (w_pos[-1] + 1, 0,
                                                                  w_pos[-1] + 1)
    if not is_read:
        _check_written_before_read(subs[lo:hi], src, dst)
        for stmt in subs[lo:hi]:
            for realize in _realizes_deep(stmt):
                if U.region_of(realize.block.writes, src) is not None:
                    _check_whole_write(body, realize.block, src)
    at = max(i for i, s in enumerate(site.path) if s is site.scope)
    outer = [s for s in site.path[at:] if isinstance(s, S.For)]
    outer = outer[:outer.index(loop) + 1]
    domain = _clamped_domain(sets, src, outer)
    reuse: dict[S.Block, S.Block] = {}
    swap = _Swap(src, dst, reuse)
    subs[lo:hi] = [swap.visit_stmt(s) for s in subs[lo:hi]]
    copy = _copy_block(dst, src, f"{src.name}_{storage_scope}", outer, domain) if not is_read \
        else _copy_block(src, dst, f"{src.name}_{storage_scope}", outer, domain)
    subs.insert(pos, copy)
    new_loop = loop.with_changes(body=S.SeqStmt(tuple(subs)))
    swapped = cast(S.Block, _LoopSwap(loop, new_loop).visit_stmt(site.scope))
    new_scope = swapped.with_changes(alloc_buffers=tuple(swapped.alloc_buffers) + (dst,))
    reuse[site.scope] = new_scope
    return PrimitiveResult(site.scope, new_scope, reuse, [copy.block])


def _register() -> None:
    from ..schedule import primitive  # pylint: disable=import-outside-toplevel
    from ._args import apply_result, as_block_rv, block_of, func_body  # pylint: disable=C0415

    def _normalize(sch: Any, args: dict) -> None:
        args["block"] = as_block_rv(sch, args["block"])

    @primitive("ReadAt", attrs=("read_buffer_index", "storage_scope"), outputs="one",
               normalize=_normalize)
    def read_at(sch: Any, loop: Any, block: Any, read_buffer_index: int,
                storage_scope: str) -> Any:
        """Copy what the statements under ``loop`` read of ``block.reads[read_buffer_index]``
        into a buffer of ``storage_scope`` before the first reader; returns the copy block
        (``Schedule.read_at``).

        Raises:
            ScheduleError: InvalidScopeError, BufferIndexOutOfRangeError, LoopPositionError.
        """
        stmt = sch._loop_sref(loop).stmt  # pylint: disable=protected-access
        return apply_result(sch, read_write_at_impl(func_body(sch, block), stmt,
                                                    block_of(sch, block), read_buffer_index,
                                                    storage_scope, True))[0]

    @primitive("WriteAt", attrs=("write_buffer_index", "storage_scope"), outputs="one",
               normalize=_normalize)
    def write_at(sch: Any, loop: Any, block: Any, write_buffer_index: int,
                 storage_scope: str) -> Any:
        """Make the statements under ``loop`` up to the last writer of
        ``block.writes[write_buffer_index]`` write a buffer of ``storage_scope``, copied back
        after them; returns the copy block (``Schedule.write_at``).

        Raises:
            ScheduleError: InvalidScopeError, BufferIndexOutOfRangeError, LoopPositionError.
        """
        stmt = sch._loop_sref(loop).stmt  # pylint: disable=protected-access
        return apply_result(sch, read_write_at_impl(func_body(sch, block), stmt,
                                                    block_of(sch, block), write_buffer_index,
                                                    storage_scope, False))[0]


_register()
