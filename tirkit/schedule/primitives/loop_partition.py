"""loop_partition, reorder_block_iter_var (mirrors ``LoopPartition`` in
``src/tir/schedule/primitive/loop_transformation.cc`` and ``reorder_block_iter_var.cc``).

Where tirkit differs from TVM: TVM gives loop_partition's wrapper blocks (``*_common``,
``*_partition``) empty ``T.reads``/``T.writes``, which hides the blocks inside them from the
dependency analysis of later primitives (cache_read then put a copy of a buffer before the
wrapper that computes it; compute_at / reverse_compute_at missed a consumer or producer). tirkit
gives each wrapper the union of its blocks' regions relaxed over the loops inside it, as
blockize does for its outer block.
"""
from __future__ import annotations

from typing import Any, Sequence, cast

from ...arith import Analyzer
from ...ir.expr import IntImm, Range
from ...tir.expr import Var
from ...tir.stmt import Block, BlockRealize, For, ForKind
from ...tir.stmt_functor import ir_transform, substitute
from .. import analysis as A
from .. import errors as err
from ..schedule import Schedule, primitive
from ..state import StmtSRef
from ..transform import blocks_in, fresh_loops, rebind_block, simplify_bindings
from . import _ir_utils as U
from ._blockize_util import union_regions


def _bounds(sch: Schedule, loop: For, factors: Sequence[Any]) -> list[tuple[int, int]]:
    extent = getattr(loop.extent, "value", None)
    if extent is None or not isinstance(loop.min, IntImm):
        raise err.InvalidArgumentError(loop, reason="loop_partition needs a loop of constant "
                                       "min and extent")
    if not isinstance(factors, (list, tuple)):
        raise err.InvalidArgumentError(loop, reason=f"loop_partition factors must be a list, "
                                       f"got {factors!r}")
    vals: list[Any] = []
    for f in factors:
        vals.append(None if f is None else sch._expr_value(f))  # pylint: disable=W0212
    if sum(v is None for v in vals) > 1 or any(v is not None and v <= 0 for v in vals):
        raise err.WrongFactorError(loop, reason="factors must be positive, at most one None")
    known = sum(v for v in vals if v is not None)
    if None in vals:
        vals[vals.index(None)] = max(extent - known, 1)
    elif known < extent:
        raise err.WrongFactorError(loop, reason=f"the factors sum to {known}, less than the "
                                   f"extent {extent}")
    out, start, base = [], 0, loop.min.value
    for v in vals:
        end = min(start + v, extent)
        if end > start:  # from the loop's min: a part of an earlier partition starts at 5
            out.append((base + start, base + end))
        start = end
    return out


def _accessed(stmt: Any, outer: list[For]) -> tuple[tuple, tuple]:
    """The read and write regions of the blocks directly under ``stmt``, relaxed over the loops
    between ``stmt`` and them and merged per buffer: what a wrapper block around ``stmt``
    accesses (loop vars of ``outer``, the loops above, stay free)."""
    ana = Analyzer()
    for lp in outer:
        ana.bind(lp.loop_var, Range.from_min_extent(lp.min, lp.extent))
    reads: list[Any] = []
    writes: list[Any] = []
    for blk in U.child_blocks(stmt):
        path: list[Any] = U.path_to(stmt, blk) or []  # child_blocks found blk under stmt
        realize, loops = path[-2], [s for s in path[:-2] if isinstance(s, For)]
        reads += [U.relax_region(r, realize, loops) for r in blk.reads]
        writes += [U.relax_region(w, realize, loops) for w in blk.writes]
    return union_regions(reads, ana), union_regions(writes, ana)


def _part(loop: For, blocks: list[Block], k: int, lo: int, hi: int, outer: list[For],
          preserve: bool) -> Any:
    name = loop.loop_var.name_hint
    var = Var(f"{name}{k}", loop.loop_var.dtype)
    body = fresh_loops(substitute(loop.body, {loop.loop_var: var}))

    def renew(block: Block) -> Block:
        # post-order: a block nested in another (the loop holds an earlier partition's
        # wrapper) is renewed before its parent is rebuilt around it, so no partition shares
        # iter vars with another
        ivmap = {iv.var: Var(iv.var.name_hint, iv.var.dtype) for iv in block.iter_vars}
        return rebind_block(block, ivmap).with_changes(name_hint=f"{block.name_hint}_{name}{k}")
    body = ir_transform(body, None, renew, ["tir.Block"])
    new_loop = For(var, IntImm(var.dtype, lo), IntImm(var.dtype, hi - lo), ForKind.SERIAL, body,
                   span=loop.span)
    new_loop = simplify_bindings(new_loop, outer, preserve)
    reads, writes = _accessed(new_loop, outer)
    wrapper = Block([], reads, writes, f"{blocks[0].name_hint}_{name}{k}_partition", new_loop)
    return BlockRealize([], True, wrapper)


@primitive("LoopPartition", attrs=("preserve_unit_iters",), outputs="list")
def loop_partition(sch: Schedule, loop: Any, factors: Sequence[Any],
                   preserve_unit_iters: bool = True) -> list[Any]:
    """Partition ``loop`` into consecutive loops of ``factors`` iterations (one may be None:
    the rest), each in an opaque block ``<block>_<loop><k>_partition`` under
    ``<block>_<loop>_common``; the blocks inside are renamed ``<block>_<loop><k>``
    (``Schedule.loop_partition``). The wrapper blocks read and write what the blocks inside
    them do (TVM leaves their regions empty). The new loops are serial, as in TVM: a
    ``T.parallel`` (or vectorized, unrolled) loop comes back serial; re-apply the kind to the
    returned loops.

    Raises:
        ScheduleError: ``HasAnnotationOrThreadBindingError``, ``WrongFactorError``,
            ``InvalidArgumentError`` (symbolic bounds).
    """
    sref = sch._loop_sref(loop)  # pylint: disable=protected-access
    A.check_no_annotation(sref)
    lp: For = sref.stmt
    bounds = _bounds(sch, lp, factors)
    blocks = list(blocks_in(lp.body))
    if not blocks:
        raise err.NotSingleChildBlockError(lp)
    outer = [s.stmt for s in A.get_loops_above(sref)]
    parts = [_part(lp, blocks, k, lo, hi, outer, preserve_unit_iters)
             for k, (lo, hi) in enumerate(bounds)]
    from ...tir.stmt import SeqStmt  # pylint: disable=import-outside-toplevel
    body = SeqStmt.flatten(*parts)
    reads, writes = _accessed(body, outer)
    common = Block([], reads, writes, f"{blocks[0].name_hint}_{lp.loop_var.name_hint}_common",
                   body)
    parent = cast(StmtSRef, sref.parent)  # (a loop or non-root block has one)
    from ..state import _swap  # pylint: disable=import-outside-toplevel
    new_parent = parent.stmt.with_changes(
        body=_swap(parent.stmt.body, lp, BlockRealize([], True, common)))
    sch.state.replace(parent, new_parent)
    out = []
    for p in parts:
        out.append(sch._new_rv(sch.state.get_sref(p.block.body)))  # pylint: disable=W0212
    return out


@primitive("ReorderBlockIterVar", attrs=("new_order",))
def reorder_block_iter_var(sch: Schedule, block: Any, new_order: Sequence[int]) -> None:
    """Permute a block's iter vars (and their bindings) into ``new_order``
    (``Schedule.reorder_block_iter_var``).

    Raises:
        ScheduleError: ``InvalidArgumentError`` unless ``new_order`` is a permutation of
            ``range(len(iter_vars))``.
    """
    sref = sch._block_sref(block)  # pylint: disable=protected-access
    blk: Block = sref.stmt
    if not isinstance(new_order, (list, tuple)) or not all(
            isinstance(i, IntImm) or (isinstance(i, int) and not isinstance(i, bool))
            for i in new_order):
        raise err.InvalidArgumentError(blk, reason=f"new_order must be a list of integers, got "
                                       f"{new_order!r}")
    order = [int(i) for i in new_order]
    if sorted(order) != list(range(len(blk.iter_vars))):
        raise err.InvalidArgumentError(blk, reason=f"new_order {order} is not a permutation of "
                                       f"0..{len(blk.iter_vars) - 1}")
    realize = A.get_block_realize(sch.state, sref)
    new_block = blk.with_changes(iter_vars=tuple(blk.iter_vars[i] for i in order))
    new_realize = BlockRealize([realize.iter_values[i] for i in order], realize.predicate,
                               new_block)
    parent = cast(StmtSRef, sref.parent)  # (a loop or non-root block has one)
    from ..state import _swap  # pylint: disable=import-outside-toplevel
    sch.state.replace(parent, parent.stmt.with_changes(
        body=_swap(parent.stmt.body, realize, new_realize)), {blk: new_block})


__all__ = ["loop_partition", "reorder_block_iter_var", "Range"]
