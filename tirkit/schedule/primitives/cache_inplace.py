"""cache_inplace (mirrors ``CacheInplace`` of TVM's
``src/tir/schedule/primitive/cache_read_write.cc``).

For a block that both reads and writes a buffer (an in-place operation), copy the region it
reads into ``{name}_{scope}`` right before the block, make the block work on the copy, and copy
the written region back right after it: a cache read and a cache write around one block.
"""
from __future__ import annotations

from typing import Any, cast

from ...ir.expr import Range
from ...tir import stmt as S
from ...tir.stmt_functor import substitute
from . import _ir_utils as U
from ._args import nth_access_buffer
from .cache_layout_errors import NotReadWriteError
from ._ir_utils import PrimitiveResult
from .cache_read_write import (CacheReadRewriter, CacheStageInfo, CacheWriteRewriter,
                               check_region_cover, check_storage_scope, make_cache_stage)


def _inplace_loc(site: U.Site) -> tuple[S.Stmt, int]:
    """TVM's ``CacheInplaceLocDetector``: the innermost loop (or the scope) around the block and
    the block's position in that loop's statement sequence."""
    at = max(i for i, s in enumerate(site.path[:-2]) if isinstance(s, S.For) or s is site.scope)
    child = site.path[at + 1]
    if isinstance(child, S.SeqStmt):
        nxt = site.path[at + 2]
        return site.path[at], next(i for i, s in enumerate(child.seq) if s is nxt)
    return site.path[at], 0


def _at_loops(region: S.BufferRegion, realize: S.BlockRealize) -> S.BufferRegion:
    """The block's region with its iter vars replaced by their bindings: the copy stages sit
    next to the block, under its loops but outside it (TVM uses the block's region as it is,
    so a block under a loop gets stages over an undefined ``vi``: ill-formed IR)."""
    bind = {iv.var: v for iv, v in zip(realize.block.iter_vars, realize.iter_values)}
    return S.BufferRegion(region.buffer, tuple(Range.from_min_extent(
        substitute(r.min, bind), substitute(r.extent, bind)) for r in region.region))


def _guarded(stage: S.Stmt, predicate: Any) -> S.Stmt:
    """The copy stage with the block's predicate on its block: the copies run only where the
    block does (a split by a non-divisor would otherwise copy past the buffer's end)."""
    if U.is_const(predicate, 1):
        return stage
    if isinstance(stage, S.For):
        return stage.with_changes(body=_guarded(stage.body, predicate))
    return stage.with_changes(predicate=predicate)


def cache_inplace_impl(body: S.Stmt, block: S.Block, read_buffer_index: int,
                       storage_scope: str) -> PrimitiveResult:
    """TVM's ``CacheInplace`` on the function ``body``: ``result.blocks`` is ``[read stage,
    write stage]``.

    Raises:
        InvalidScopeError, BufferIndexOutOfRangeError, NotRegionCoverError, NotReadWriteError.
    """
    check_storage_scope(storage_scope)
    buffer = nth_access_buffer(block, read_buffer_index, "read")
    site = U.locate(body, block)
    scope = site.scope
    check_region_cover(body, scope, buffer)
    read_region = U.region_of(block.reads, buffer)
    write_region = U.region_of(block.writes, buffer)
    if read_region is None or write_region is None:
        raise NotReadWriteError(block, buffer=buffer.name)
    read_region, write_region = (_at_loops(r, site.realize) for r in (read_region, write_region))
    cache = U.with_scope(buffer, storage_scope)
    # cache read
    info = CacheStageInfo(read_buffer=buffer, write_buffer=cache, alloc=cache, consumers=[block])
    info.loc, info.pos = _inplace_loc(site)
    info.cache_region = read_region
    read_stage = make_cache_stage(read_region, info, storage_scope, True)
    info.stage = _guarded(cast(S.Stmt, info.stage), site.realize.predicate)
    mid_scope = CacheReadRewriter(scope, info, True).visit_stmt(scope)
    reuse = dict(info.block_reuse)
    mid_block = reuse.get(block, block)
    mid_body = U.replace_stmt(body, scope, mid_scope)
    # cache write
    site2 = U.locate(mid_body, mid_block)
    info2 = CacheStageInfo(read_buffer=cache, write_buffer=buffer)
    info2.loc, info2.pos = _inplace_loc(site2)
    info2.pos += 1
    info2.cache_region = write_region
    write_stage = make_cache_stage(write_region, info2, storage_scope, True)
    info2.stage = _guarded(cast(S.Stmt, info2.stage), site.realize.predicate)
    new_scope = CacheWriteRewriter(site2.scope, mid_block, info2, True).visit_stmt(site2.scope)
    final = {old: info2.block_reuse.get(mid, mid) for old, mid in reuse.items()}
    return PrimitiveResult(scope, new_scope, final, [read_stage, write_stage])


# ----------------------------------------------------------------------- schedule methods
def _normalize(sch: Any, args: dict) -> None:
    from ._args import as_block_rv, normalize_buffer  # pylint: disable=C0415

    args["block"] = as_block_rv(sch, args["block"])
    if not isinstance(args["read_buffer_index"], int):
        args["read_buffer_index"] = normalize_buffer(sch, args["block"],
                                                     args["read_buffer_index"], "read")[1]


def _register() -> None:
    from ..schedule import primitive  # pylint: disable=import-outside-toplevel
    from ._args import apply_result, block_of, func_body  # pylint: disable=C0415

    @primitive("CacheInplace", attrs=("read_buffer_index", "storage_scope"), outputs="list",
               normalize=_normalize)
    def cache_inplace(sch: Any, block: Any, read_buffer_index: Any, storage_scope: str) -> Any:
        """Cache a buffer ``block`` both reads and writes: a copy in before, a copy out after;
        returns ``[read cache block, write cache block]`` (``Schedule.cache_inplace``).

        Raises:
            ScheduleError: InvalidScopeError, BufferIndexOutOfRangeError, NotRegionCoverError,
                NotReadWriteError.
        """
        return apply_result(sch, cache_inplace_impl(func_body(sch, block), block_of(sch, block),
                                                    read_buffer_index, storage_scope))


_register()
