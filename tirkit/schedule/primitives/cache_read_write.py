"""cache_read and cache_write (mirrors TVM's ``src/tir/schedule/primitive/cache_read_write.cc``,
``Schedule.cache_read`` / ``Schedule.cache_write``).

``cache_read(block, i, scope)`` copies the region of ``block.reads[i]`` that the consumers use
into a new buffer ``{name}_{scope}`` right before the first consumer (at the lowest loop that
holds the buffer's writer and a consumer) and makes the consumers read the copy;
``cache_write(block, i, scope)`` makes ``block`` write a new buffer and copies it back into the
original right after the writer. The functions here transform the scope block and return what
the schedule's state needs (``new_scope``, ``block_reuse``, the new block); they check TVM's
preconditions and raise its errors.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence, cast

from ...arith import Analyzer
from ...ir.expr import IntImm, Range
from ...tir import expr as E
from ...tir import stmt as S
from ...tir.buffer import Buffer
from ...tir.stmt_functor import StmtExprMutator, StmtVisitor
from ..errors import InvalidArgumentError, InvalidScopeError
from . import _ir_utils as U
from ._ir_utils import PrimitiveResult
from ._args import (apply_result, as_block_rv, as_block_rvs, block_of, func_body,
                    normalize_buffer, nth_access_buffer)
from .cache_layout_errors import NotRegionCoverError, NotSingleWriteBlock, ReadModifyWriteError

_SCOPES = ("global", "shared", "shared.dyn", "local", "warp", "wmma.matrix_a", "wmma.matrix_b",
           "wmma.accumulator", "m16n8k8.matrixA", "m16n8k8.matrixB", "m16n8k8.matrixC",
           "global.texture")


def check_storage_scope(scope: str) -> None:
    """TVM's ``CheckStorageScope``: ``scope`` is a known storage scope (a tag after a dot, as in
    ``"local.fragment"``, is allowed).

    Raises:
        InvalidScopeError: for anything else.
    """
    if not isinstance(scope, str):
        raise InvalidScopeError(reason=f"the storage scope {scope!r} is not a str")
    base = scope.split(".")[0]
    if scope not in _SCOPES and base not in ("global", "shared", "local", "warp"):
        raise InvalidScopeError(reason=f"the storage scope {scope!r} is invalid; expected one of "
                                f"{', '.join(_SCOPES)}")


@dataclass
class CacheStageInfo:
    """TVM's ``CacheStageInfo``: buffers, insertion point (``loc`` stmt and ``pos``), the stage.
    The primitive fills each field before it reads it (None until then, as TVM's null refs)."""

    read_buffer: Buffer = None  # type: ignore[assignment]
    write_buffer: Buffer = None  # type: ignore[assignment]
    alloc: Buffer = None  # type: ignore[assignment]
    loc: S.Stmt = None  # type: ignore[assignment]
    pos: int = 0
    stage: S.Stmt = None  # type: ignore[assignment]
    consumers: list[S.Block] = field(default_factory=list)
    cache_region: S.BufferRegion = None  # type: ignore[assignment]
    block_reuse: dict[S.Block, S.Block] = field(default_factory=dict)


# --------------------------------------------------------------------- location detection
class _LocDetector(StmtVisitor):
    """TVM's ``CacheLocDetector``: the lowest loop holding the writer and a related block, and
    the position in it before the first related block."""

    def __init__(self, writer: S.Block, scope: S.Block, related: Sequence[S.Block]) -> None:
        super().__init__()
        self.writer, self.scope, self.related = writer, scope, list(related)
        self.visited_block = self.visited_related = False
        self.loc: S.Stmt | None = None
        self.pos = -1

    def visit_seq_stmt_(self, op: S.SeqStmt) -> None:
        previous, self.visited_block = self.visited_block, False
        for i, stmt in enumerate(op.seq):
            if self.pos != -1:
                break
            self.visit_stmt(stmt)
            if self.visited_block and self.visited_related and self.pos == -1:
                self.pos = i
                break
            if self.visited_related:
                break
        self.visited_block = self.visited_block or previous

    def visit_block_(self, op: S.Block) -> None:
        if op is self.scope:
            super().visit_block_(op)
            if self.visited_related and self.loc is None:
                self.loc = op
                if not self.visited_block and self.pos == -1:
                    self.pos = 0
            return
        if op is self.writer:
            self.visited_block = True
        elif any(op is b for b in self.related):
            self.visited_related = True

    def visit_for_(self, op: S.For) -> None:
        super().visit_for_(op)
        if self.visited_block and self.visited_related and self.loc is None and self.pos != -1:
            self.loc = op


def _body_len(scope: S.Block) -> int:
    body = scope.body
    while isinstance(body, (S.DeclBuffer, S.AllocateConst)):
        body = body.body
    return len(body.seq) if isinstance(body, S.SeqStmt) else 1


def detect_loc(writer: S.Block, scope: S.Block, info: CacheStageInfo, is_read: bool) -> None:
    """Fill ``info.loc``/``info.pos`` (TVM's ``CacheLocDetector::Detect``)."""
    consumers = U.raw_consumers(scope, writer)
    if is_read:
        related = info.consumers or consumers
    else:
        related = [b for b in consumers if not any(b is c for c in info.consumers)]
    if not related:
        info.loc, info.pos = scope, _body_len(scope)
        return
    det = _LocDetector(writer, scope, related)
    det.visit_stmt(scope)
    info.loc, info.pos = cast(S.Stmt, det.loc), det.pos


def relax_to_loc(region: S.BufferRegion, site: U.Site, loc: S.Stmt) -> S.BufferRegion:
    """Relax ``region`` of the block at ``site`` over the loops below ``loc``."""
    at = next((i for i, s in enumerate(site.path) if s is loc), None)
    loops = site.loops if at is None else [s for s in site.path[at + 1:] if isinstance(s, S.For)]
    return U.relax_region(region, site.realize, loops)


# ------------------------------------------------------------------------------ the stage
def make_cache_stage(region: S.BufferRegion, info: CacheStageInfo, scope_name: str,
                     full: bool) -> S.Block:
    """The copy block and its loops (TVM's ``MakeCacheStage``): ``info.stage`` gets the loop
    nest, the block is returned."""
    loop_vars = [E.Var(f"ax{i}", r.extent.dtype) for i, r in enumerate(region.region)]
    values = [r.min + v if full else v for r, v in zip(region.region, loop_vars)]
    is_read = region.buffer is info.read_buffer
    iter_vars, r_idx, w_idx = [], [], []
    for i, r in enumerate(region.region):
        v = E.Var(f"v{i}", r.extent.dtype)
        dom = region.buffer.shape[i] if full else r.extent
        iter_vars.append(E.IterVar(Range.from_min_extent(IntImm(dom.dtype, 0), dom), v,
                                   E.IterVarType.DataPar))
        shifted = v if full else r.min + v
        r_idx.append(shifted if is_read else v)
        w_idx.append(v if is_read else shifted)
    one = lambda i: Range.from_min_extent(i, IntImm(i.dtype, 1))  # noqa: E731
    block = S.Block(
        iter_vars=tuple(iter_vars),
        reads=(S.BufferRegion(info.read_buffer, tuple(one(i) for i in r_idx)),),
        writes=(S.BufferRegion(info.write_buffer, tuple(one(i) for i in w_idx)),),
        name_hint=f"{region.buffer.name}_{scope_name}",
        body=S.BufferStore(info.write_buffer, E.BufferLoad(info.read_buffer, tuple(r_idx)),
                           tuple(w_idx)))
    stmt: S.Stmt = S.BlockRealize(tuple(values), IntImm("bool", 1), block)
    for var, r in reversed(list(zip(loop_vars, region.region))):
        stmt = S.For(var, IntImm(var.dtype, 0), r.extent, S.ForKind.SERIAL, stmt)
    info.stage = stmt
    return block


# ----------------------------------------------------------------------------- rewriters
class _CacheRewriter(StmtExprMutator):
    """Shared parts of TVM's ``CacheReadRewriter`` / ``CacheWriteRewriter``: insertion of the
    stage at ``info.loc``, allocation in the scope, buffer replacement ``old -> new`` in
    regions, match buffers, loads, stores and data-pointer uses."""

    def __init__(self, scope: S.Block, info: CacheStageInfo, old: Buffer, new: Buffer,
                 full: bool) -> None:
        super().__init__()
        self.scope, self.info, self.old, self.new, self.full = scope, info, old, new, full
        self.ana = Analyzer()
        self.active = True

    def _indices(self, indices: Sequence[Any]) -> tuple[Any, ...]:
        if self.full:
            return tuple(indices)
        return tuple(self.ana.simplify(i - r.min)
                     for i, r in zip(indices, self.info.cache_region.region))

    def _region(self, rng: Sequence[Range]) -> tuple[Range, ...]:
        if self.full:
            return tuple(rng)
        return tuple(Range.from_min_extent(self.ana.simplify(r.min - c.min), r.extent)
                     for r, c in zip(rng, self.info.cache_region.region))

    def regions(self, regions: Sequence[S.BufferRegion]) -> tuple[S.BufferRegion, ...]:
        """``regions`` with the old buffer's replaced by the new one (shifted when compact)."""
        return tuple(S.BufferRegion(self.new, self._region(r.region)) if r.buffer is self.old
                     else r for r in regions)

    def match_buffers(self, mbs: Sequence[S.MatchBufferRegion]) -> tuple[Any, ...]:
        """Match buffers whose source is the old buffer, re-pointed at the new one."""
        return tuple(m.with_changes(source=self.regions([m.source])[0])
                     if m.source.buffer is self.old else m for m in mbs)

    def insert_here(self, old: S.Stmt, new: Any) -> Any:
        """Insert the stage into ``new``'s body when ``old`` is the insertion point."""
        if old is self.info.loc:
            return new.with_changes(body=U.insert_stage(new.body, self.info.pos, self.info.stage))
        return new

    def visit_for_(self, op: S.For) -> S.Stmt:
        return self.insert_here(op, super().visit_for_(op))

    def finish_scope(self, new: S.Block) -> S.Block:
        """The scope block gets the allocation of the cache buffer."""
        if self.info.alloc is not None:
            new = new.with_changes(alloc_buffers=tuple(new.alloc_buffers) + (self.info.alloc,))
        return new

    def visit_var_(self, op: E.Var) -> Any:
        return self.new.data if op is self.old.data else op

    def visit_buffer_load_(self, op: E.BufferLoad) -> Any:
        new = super().visit_buffer_load_(op)
        if op.buffer is self.old and self.active:
            return new.with_changes(buffer=self.new, indices=self._indices(new.indices))
        return new


class CacheReadRewriter(_CacheRewriter):
    """TVM's ``CacheReadRewriter``: consumers read the cache."""

    def __init__(self, scope: S.Block, info: CacheStageInfo, full: bool) -> None:
        super().__init__(scope, info, info.read_buffer, info.write_buffer, full)

    def visit_block_(self, op: S.Block) -> S.Stmt:
        consumes = not self.info.consumers or any(op is c for c in self.info.consumers)
        self.active = consumes
        if op is not self.scope and U.region_of(op.writes, self.old) is not None:
            return op
        new = self.insert_here(op, super().visit_block_(op))
        if op is self.scope:
            new = self.finish_scope(new)
        elif consumes:
            reads, mbs = self.regions(new.reads), self.match_buffers(new.match_buffers)
            new = new.with_changes(reads=reads, match_buffers=mbs)
        self.info.block_reuse[op] = new
        return new


class CacheWriteRewriter(_CacheRewriter):
    """TVM's ``CacheWriteRewriter``: the writer (and the given consumers) use the cache."""

    def __init__(self, scope: S.Block, writer: S.Block, info: CacheStageInfo, full: bool) -> None:
        super().__init__(scope, info, info.write_buffer, info.read_buffer, full)
        self.writer = writer
        self.under_writer = False

    def _rewrite_accesses(self, old: S.Block, new: S.Block) -> S.Block:
        return new.with_changes(writes=self.regions(new.writes), reads=self.regions(new.reads),
                                match_buffers=self.match_buffers(new.match_buffers))

    def visit_block_(self, op: S.Block) -> S.Stmt:
        if any(op is c for c in self.info.consumers):
            saved, self.under_writer = self.under_writer, True
            new = self._rewrite_accesses(op, super().visit_block_(op))
            self.under_writer = saved
            self.info.block_reuse[op] = new
            return new
        if op is not self.writer and op is not self.scope and not self.under_writer:
            return op
        saved = self.under_writer
        self.under_writer = saved or op is self.writer
        new = super().visit_block_(op)
        self.under_writer = saved
        new = self.insert_here(op, new)
        new = self.finish_scope(new) if op is self.scope else self._rewrite_accesses(op, new)
        self.info.block_reuse[op] = new
        return new

    def visit_buffer_store_(self, op: S.BufferStore) -> S.Stmt:
        new = super().visit_buffer_store_(op)
        if op.buffer is self.old:
            return new.with_changes(buffer=self.new, indices=self._indices(new.indices))
        return new


# ---------------------------------------------------------------------------- primitives
def _consumer_set(consumers: Sequence[S.Block]) -> list[S.Block]:
    out: list[S.Block] = []
    for c in consumers:
        out.append(c)
        out.extend(U.child_blocks(c))
    return out


def only_writer(scope: S.Block, buffer: Buffer) -> S.Block | None:
    """The single child block of ``scope`` writing ``buffer`` (TVM's ``GetOnlyWriteBlock``).

    Raises:
        NotSingleWriteBlock: when several blocks write it.
    """
    ws = U.writers(scope, buffer)
    if len(ws) > 1:
        raise NotSingleWriteBlock(*ws, buffer=buffer.name, count=len(ws),
                                  blocks=", ".join(f'"{w.name_hint}"' for w in ws))
    return ws[0] if ws else None


def check_region_cover(body: S.Stmt, scope: S.Block, buffer: Buffer) -> None:
    """Every reader of ``buffer`` in ``scope`` reads only what its writer writes, relaxed over
    the scope's loops (TVM's ``CheckRegionCover`` on the ``region_cover`` flag).

    Raises:
        NotRegionCoverError: naming the scope and the uncovered reader.
    """
    writer = next(iter(U.writers(scope, buffer)), None)
    if writer is None:
        return
    w_site = U.locate(body, writer)
    written = U.relax_region(cast(S.BufferRegion, U.region_of(writer.writes, buffer)),
                             w_site.realize, w_site.loops)
    ana = Analyzer()
    for reader in U.readers(scope, buffer):
        r_site = U.locate(body, reader)
        read = U.relax_region(cast(S.BufferRegion, U.region_of(reader.reads, buffer)),
                              r_site.realize, r_site.loops)
        for w, r in zip(written.region, read.region):
            if not (ana.can_prove(w.min <= r.min)
                    and ana.can_prove(r.min + r.extent <= w.min + w.extent)):
                raise NotRegionCoverError(scope, reason=f'block "{reader.name_hint}" reads a '
                                          f"region of {buffer.name} that block "
                                          f'"{writer.name_hint}" does not write')


def cache_read_impl(body: S.Stmt, block: S.Block, read_buffer_index: int, storage_scope: str,
               consumer_blocks: Sequence[S.Block] = ()) -> PrimitiveResult:
    """TVM's ``CacheRead`` on the function ``body``; see the module docstring.

    Raises:
        InvalidScopeError, BufferIndexOutOfRangeError, NotRegionCoverError, NotSingleWriteBlock.
    """
    check_storage_scope(storage_scope)
    read_buffer = nth_access_buffer(block, read_buffer_index, "read")
    site = U.locate(body, block)
    scope = site.scope
    check_region_cover(body, scope, read_buffer)
    info = CacheStageInfo(read_buffer=read_buffer, consumers=_consumer_set(consumer_blocks))
    writer = only_writer(scope, read_buffer)
    if writer is not None:
        detect_loc(writer, scope, info, is_read=True)
        w_site = U.locate(body, writer)
        cache_region = relax_to_loc(cast(S.BufferRegion, U.region_of(writer.writes, read_buffer)),
                                    w_site, info.loc)
    else:
        info.loc, info.pos = scope, 0
        cache_region = U.region_of(scope.reads, read_buffer) or U.full_region(read_buffer)
    full = not isinstance(info.loc, S.Block) or not _all_consumers_under(scope, info.loc,
                                                                          read_buffer)
    info.cache_region = cache_region
    cache = U.with_scope(read_buffer, storage_scope)
    if not full:
        cache = cache.with_changes(shape=tuple(r.extent for r in cache_region.region))
    info.write_buffer = info.alloc = cache
    stage = make_cache_stage(cache_region, info, storage_scope, full)
    new_scope = CacheReadRewriter(scope, info, full).visit_stmt(scope)
    return PrimitiveResult(scope, new_scope, info.block_reuse, [stage])


def cache_write_impl(body: S.Stmt, block: S.Block, write_buffer_index: int, storage_scope: str,
                consumer_blocks: Sequence[S.Block] = ()) -> PrimitiveResult:
    """TVM's ``CacheWrite`` on the function ``body``; see the module docstring.

    Raises:
        InvalidScopeError, BufferIndexOutOfRangeError, NotSingleWriteBlock,
        ReadModifyWriteError (the block reads the buffer without a T.init).
    """
    check_storage_scope(storage_scope)
    write_buffer = nth_access_buffer(block, write_buffer_index, "write")
    site = U.locate(body, block)
    scope = site.scope
    info = CacheStageInfo(write_buffer=write_buffer, consumers=_consumer_set(consumer_blocks))
    only_writer(scope, write_buffer)
    if U.reads_before_init(block, write_buffer):
        raise ReadModifyWriteError(
            block, buffer=write_buffer.name, reason=f"it has no T.init, so it would read the "
            f"cache of {write_buffer.name} before anything is written there (only a copy out of "
            "the cache is made)")
    detect_loc(block, scope, info, is_read=False)
    cache_region = relax_to_loc(cast(S.BufferRegion, U.region_of(block.writes, write_buffer)),
                                site, info.loc)
    full = not isinstance(info.loc, S.Block) or not _all_consumers_under(scope, info.loc,
                                                                          write_buffer)
    info.cache_region = cache_region
    cache = U.with_scope(write_buffer, storage_scope)
    if not full:
        cache = cache.with_changes(shape=tuple(r.extent for r in cache_region.region))
    info.read_buffer = info.alloc = cache
    stage = make_cache_stage(cache_region, info, storage_scope, full)
    new_scope = CacheWriteRewriter(scope, block, info, full).visit_stmt(scope)
    return PrimitiveResult(scope, new_scope, info.block_reuse, [stage])


def _all_consumers_under(scope: S.Block, stmt: S.Stmt, buffer: Buffer) -> bool:
    """TVM's ``AllConsumersUnderStmt``."""
    under = U.child_blocks(stmt) if stmt is not scope else U.child_blocks(scope)
    return all(any(b is u for u in under) for b in U.readers(scope, buffer))


# ----------------------------------------------------------------------- schedule methods
def _normalize(sch: Any, args: dict, index_param: str, kind: str) -> None:
    args["block"] = as_block_rv(sch, args["block"])
    args["consumer_blocks"] = as_block_rvs(sch, args.get("consumer_blocks"))
    if not isinstance(args[index_param], int):
        args[index_param] = normalize_buffer(sch, args["block"], args[index_param], kind)[1]


def _check_consumer_functions(sch: Any, block: Any, consumer_blocks: Any) -> None:
    """InvalidArgumentError for a consumer block of another function than ``block`` (a
    cache_read then failed with an internal error, a cache_write ignored it)."""
    state = sch.state
    home = state.func_of(sch._block_sref(block))  # pylint: disable=protected-access
    for c in consumer_blocks or []:
        sref = sch._block_sref(c)  # pylint: disable=protected-access
        if state.func_of(sref) != home:
            raise InvalidArgumentError(sref.stmt, reason=f'the consumer block is in function '
                                       f'"{state.func_of(sref)}", not in "{home}" with block '
                                       f'"{sch.get(block).name_hint}"')


def _register() -> None:
    from ..schedule import primitive  # pylint: disable=import-outside-toplevel

    @primitive("CacheRead", attrs=("read_buffer_index", "storage_scope"), outputs="one",
               normalize=lambda sch, a: _normalize(sch, a, "read_buffer_index", "read"))
    def cache_read(sch: Any, block: Any, read_buffer_index: Any, storage_scope: str,
                   consumer_blocks: Sequence[Any] | None = None) -> Any:
        """Copy what ``block`` reads of ``block.reads[read_buffer_index]`` (an index, buffer
        name or Buffer) into a new buffer of ``storage_scope`` just before its consumers
        (only ``consumer_blocks`` when given) and make them read the copy; returns the copy
        block (``Schedule.cache_read``).

        Raises:
            ScheduleError: InvalidScopeError, BufferIndexOutOfRangeError, NotRegionCoverError,
                NotSingleWriteBlock.
        """
        _check_consumer_functions(sch, block, consumer_blocks)
        res = cache_read_impl(func_body(sch, block), block_of(sch, block), read_buffer_index,
                              storage_scope, [block_of(sch, c) for c in consumer_blocks or []])
        return apply_result(sch, res)[0]

    @primitive("CacheWrite", attrs=("write_buffer_index", "storage_scope"), outputs="one",
               normalize=lambda sch, a: _normalize(sch, a, "write_buffer_index", "write"))
    def cache_write(sch: Any, block: Any, write_buffer_index: Any, storage_scope: str,
                    consumer_blocks: Sequence[Any] | None = None) -> Any:
        """Make ``block`` write ``block.writes[write_buffer_index]`` into a new buffer of
        ``storage_scope`` copied back right after it; ``consumer_blocks`` read the cache
        directly; returns the copy block (``Schedule.cache_write``).

        Raises:
            ScheduleError: InvalidScopeError, BufferIndexOutOfRangeError, NotSingleWriteBlock,
                ReadModifyWriteError (the block reads the buffer without a T.init).
        """
        _check_consumer_functions(sch, block, consumer_blocks)
        res = cache_write_impl(func_body(sch, block), block_of(sch, block), write_buffer_index,
                               storage_scope, [block_of(sch, c) for c in consumer_blocks or []])
        return apply_result(sch, res)[0]


_register()
