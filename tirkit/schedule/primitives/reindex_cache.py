"""reindex_cache_read and reindex_cache_write (mirrors ``ReindexCacheRead`` /
``ReindexCacheWrite`` of TVM's ``src/tir/schedule/primitive/cache_read_write.cc``).

Like ``cache_read``/``cache_write`` of one block, but the cache buffer ``{name}_{scope}`` is
indexed by ``index_map(*block_iters)`` (its shape is the map of the iter domains): the copy
stage runs over the block iters the access uses, before (read) or after (write) the block's loop
nest, and the block accesses the cache at the mapped indices. The access must be a single point.
"""
from __future__ import annotations

from typing import Any, cast

from ...arith import Analyzer
from ...tir import expr as E
from ...ir.expr import Range
from ...tir import stmt as S
from ...tir.index_map import IndexMap
from ...tir.stmt_functor import post_order_visit
from . import _ir_utils as U
from ._args import nth_access_buffer
from ._ir_utils import PrimitiveResult
from .cache_layout_errors import (IndexMapRangeError, NotBijectiveAffineIndexMapError,
                                  NotSinglePointAccess, ReindexCacheReadWriteNotMatchError)
from .cache_read_write import CacheStageInfo, check_storage_scope
from .reindex import (_chain_top, _check_in_bounds, _check_read_write, _collect, _Rewriter,
                      _stage, check_writes_whole_domain)


def reindex_cache_impl(body: S.Stmt, block: S.Block, buffer_index: int, kind: str,
                       storage_scope: str, index_map: IndexMap) -> PrimitiveResult:
    """TVM's ``ReindexCacheRead`` (``kind == "read"``) / ``ReindexCacheWrite``.

    Raises:
        InvalidScopeError, BufferIndexOutOfRangeError, NotSinglePointAccess,
        ReindexCacheReadWriteNotMatchError (the map's arity differs from the block's iters),
        ReindexCacheReadWriteNotMatchError also when the block iters in the access and in the
        map's outputs differ (TVM's check), NotBijectiveAffineIndexMapError for a map that is
        not one-to-one over them, IndexMapRangeError for an output not ranging from 0, and
        reindex's errors (NotLeafBlockError, InvalidBufferAccessError, ReadModifyWriteError,
        ReIndexPartialWriteError for a write the block does not make everywhere).
    """
    is_write = kind == "write"
    primitive = f"reindex_cache_{kind}"
    check_storage_scope(storage_scope)
    buffer = nth_access_buffer(block, buffer_index, kind)
    if len(index_map.initial_indices) != len(block.iter_vars):
        raise ReindexCacheReadWriteNotMatchError(block, reason=f"the index map takes "
                                                 f"{len(index_map.initial_indices)} indices but "
                                                 f"the block has {len(block.iter_vars)} iters")
    region = cast(S.BufferRegion, U.region_of(block.writes if is_write else block.reads, buffer))
    if any(not U.is_const(r.extent, 1) for r in region.region):
        raise NotSinglePointAccess(block, region=f"{buffer.name}{list(region.region)}",
                                   primitive=primitive)
    site = U.locate(body, block)
    indices = _collect(buffer, block)
    _check_read_write(block, buffer, is_write, f"{buffer.name}_{storage_scope}")
    ana = Analyzer()
    for iv in block.iter_vars:
        ana.bind(iv.var, cast(Range, iv.dom))  # (a block iter var's domain)
    indices = tuple(ana.simplify(i) for i in indices)
    _check_in_bounds(ana, buffer, block, indices)
    covered: set[int] = set()
    for i in indices:
        post_order_visit(i, lambda n: covered.add(id(n)) if isinstance(n, E.Var) else None)
    _check_map_matches(block, buffer, index_map, indices, covered, primitive)
    if is_write:
        check_writes_whole_domain(site, buffer, covered)
    try:
        shape = index_map.map_shape([cast(Range, iv.dom).extent for iv in block.iter_vars])
    except ValueError as exc:
        raise IndexMapRangeError(block, reason=f"the index map {index_map.script()} of the "
                                 f"block iters: {exc}; each output index must range from 0"
                                 ) from None
    cache = U.with_scope(buffer, storage_scope).with_changes(shape=tuple(shape), strides=())
    info = CacheStageInfo(read_buffer=cache if is_write else buffer,
                          write_buffer=buffer if is_write else cache, alloc=cache)
    top = _chain_top(site)
    seq = site.scope.body.seq if isinstance(site.scope.body, S.SeqStmt) else (site.scope.body,)
    info.pos = next((k for k, s in enumerate(seq) if s is top), 0) + (1 if is_write else 0)
    stage = _stage(block, info, covered, indices, is_write, index_map,
                   f"{buffer.name}_{storage_scope}")
    new_scope = _Rewriter(site.scope, block, info, buffer, covered, index_map).visit_stmt(
        site.scope)
    return PrimitiveResult(site.scope, new_scope, info.block_reuse, [stage])


def _check_map_matches(block: S.Block, buffer: Any, index_map: IndexMap, indices: Any,
                       covered: set[int], primitive: str) -> None:
    """TVM's check that the block iters in the access (``indices``) and in the cache's indices
    (the map of the iters) are the same -- the copy stage runs over the former only -- plus
    that the map is one-to-one over them (no TVM counterpart: two iter points sharing a cache
    element would overwrite each other). ReindexCacheReadWriteNotMatchError /
    NotBijectiveAffineIndexMapError otherwise."""
    mapped = index_map.map_indices([iv.var for iv in block.iter_vars])
    used: set[int] = set()
    for e in mapped:
        post_order_visit(e, lambda n: used.add(id(n)) if isinstance(n, E.Var) else None)
    old = f"the access {buffer.name}[" + ", ".join(i.script() for i in indices) + "]"
    new = "the cache indices (" + ", ".join(e.script() for e in mapped) + ")"
    for iv in block.iter_vars:
        if (id(iv.var) in covered) != (id(iv.var) in used):
            where, other = (old, new) if id(iv.var) in covered else (new, old)
            raise ReindexCacheReadWriteNotMatchError(
                block, reason=f"{primitive}: the block iter {iv.var.name_hint} appears in "
                f"{where} but not in {other}")
    ivs = [iv for iv in block.iter_vars if id(iv.var) in covered]
    try:
        doms = [cast(Range, iv.dom) for iv in ivs]  # (a block's iter vars)
        IndexMap([iv.var for iv in ivs], mapped).non_surjective_inverse(doms)
    except ValueError as exc:
        raise NotBijectiveAffineIndexMapError(
            block, reason=f"{primitive} of block \"{block.name_hint}\": the index map "
            f"{index_map.script()} is not one-to-one over the block iters: {exc}") from None


def _normalize(sch: Any, args: dict) -> None:
    from ._args import as_block_rv, block_of  # pylint: disable=C0415
    from .layout_transformation import _as_index_map, legalize_index_map_dtype  # noqa: E501  pylint: disable=C0415

    args["block"] = as_block_rv(sch, args["block"])
    block = block_of(sch, args["block"])
    dtype = block.iter_vars[0].var.dtype if block.iter_vars else "int32"
    imap = _as_index_map(args["index_map"], len(block.iter_vars), dtype, block)
    if len(imap.initial_indices) == len(block.iter_vars):
        imap = legalize_index_map_dtype(imap, [iv.var for iv in block.iter_vars])
    args["index_map"] = imap


def _register() -> None:
    from .. import index_map_text  # noqa: F401  pylint: disable=C0415,W0611  (IndexMap codec)
    from ..schedule import primitive  # pylint: disable=import-outside-toplevel
    from ._args import apply_result, block_of, func_body  # pylint: disable=C0415

    @primitive("ReindexCacheRead", attrs=("read_buffer_index", "storage_scope"), outputs="one",
               normalize=_normalize)
    def reindex_cache_read(sch: Any, block: Any, read_buffer_index: int, storage_scope: str,
                           index_map: Any) -> Any:
        """Cache ``block.reads[read_buffer_index]`` (a single-point access) into a buffer of
        ``storage_scope`` indexed by ``index_map(*block_iters)``; returns the cache block
        (``Schedule.reindex_cache_read``).

        Raises:
            ScheduleError: InvalidScopeError, BufferIndexOutOfRangeError, NotSinglePointAccess,
                ReindexCacheReadWriteNotMatchError, NotLeafBlockError, InvalidBufferAccessError.
        """
        res = reindex_cache_impl(func_body(sch, block), block_of(sch, block), read_buffer_index,
                                 "read", storage_scope, index_map)
        return apply_result(sch, res)[0]

    @primitive("ReindexCacheWrite", attrs=("write_buffer_index", "storage_scope"),
               outputs="one", normalize=_normalize)
    def reindex_cache_write(sch: Any, block: Any, write_buffer_index: int, storage_scope: str,
                            index_map: Any) -> Any:
        """Make ``block`` write ``block.writes[write_buffer_index]`` (a single point) into a
        buffer of ``storage_scope`` indexed by ``index_map(*block_iters)``, copied back after
        it; returns the copy block (``Schedule.reindex_cache_write``).

        Raises:
            ScheduleError: as :func:`reindex_cache_read`.
        """
        res = reindex_cache_impl(func_body(sch, block), block_of(sch, block), write_buffer_index,
                                 "write", storage_scope, index_map)
        return apply_result(sch, res)[0]


_register()
