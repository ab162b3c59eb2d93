"""loop_partition, reorder_block_iter_var (mirrors ``LoopPartition`` in
``src/tir/schedule/primitive/loop_transformation.cc`` and ``reorder_block_iter_var.cc``)."""
from __future__ import annotations

from typing import Any, Sequence

from ...ir.expr import IntImm, Range
from ...tir.expr import Var
from ...tir.stmt import Block, BlockRealize, For, ForKind
from ...tir.stmt_functor import substitute
from .. import analysis as A
from .. import errors as err
from ..schedule import Schedule, primitive
from ..transform import blocks_in, fresh_loops, rebind_block, replace_objects, simplify_bindings


def _bounds(sch: Schedule, loop: For, factors: Sequence[Any]) -> list[tuple[int, int]]:
    extent = getattr(loop.extent, "value", None)
    if extent is None or not isinstance(loop.min, IntImm):
        raise err.InvalidArgumentError(loop, reason="loop_partition needs a loop of constant "
                                       "min and extent")
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
    out, start = [], 0
    for v in vals:
        end = min(start + v, extent)
        if end > start:
            out.append((start, end))
        start = end
    return out


def _part(loop: For, blocks: list[Block], k: int, lo: int, hi: int, outer: list[For],
          preserve: bool) -> Any:
    name = loop.loop_var.name_hint
    var = Var(f"{name}{k}", loop.loop_var.dtype)
    body = fresh_loops(substitute(loop.body, {loop.loop_var: var}))
    mapping = {}
    for old, new in zip(blocks, blocks_in(body)):
        ivmap = {iv.var: Var(iv.var.name_hint, iv.var.dtype) for iv in new.iter_vars}
        mapping[id(new)] = rebind_block(new, ivmap).with_changes(
            name_hint=f"{old.name_hint}_{name}{k}")
    body = replace_objects(body, mapping)
    new_loop = For(var, IntImm(var.dtype, lo), IntImm(var.dtype, hi - lo), ForKind.SERIAL, body,
                   span=loop.span)
    new_loop = simplify_bindings(new_loop, outer, preserve)
    wrapper = Block([], [], [], f"{blocks[0].name_hint}_{name}{k}_partition", new_loop)
    return BlockRealize([], True, wrapper)


@primitive("LoopPartition", attrs=("preserve_unit_iters",), outputs="list")
def loop_partition(sch: Schedule, loop: Any, factors: Sequence[Any],
                   preserve_unit_iters: bool = True) -> list[Any]:
    """Partition ``loop`` into consecutive loops of ``factors`` iterations (one may be None:
    the rest), each in an opaque block ``<block>_<loop><k>_partition`` under
    ``<block>_<loop>_common``; the blocks inside are renamed ``<block>_<loop><k>``
    (``Schedule.loop_partition``).

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
    common = Block([], [], [], f"{blocks[0].name_hint}_{lp.loop_var.name_hint}_common",
                   SeqStmt.flatten(*parts))
    parent = sref.parent
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
    order = [int(i) for i in new_order]
    if sorted(order) != list(range(len(blk.iter_vars))):
        raise err.InvalidArgumentError(blk, reason=f"new_order {order} is not a permutation of "
                                       f"0..{len(blk.iter_vars) - 1}")
    realize = A.get_block_realize(sch.state, sref)
    new_block = blk.with_changes(iter_vars=tuple(blk.iter_vars[i] for i in order))
    new_realize = BlockRealize([realize.iter_values[i] for i in order], realize.predicate,
                               new_block)
    parent = sref.parent
    from ..state import _swap  # pylint: disable=import-outside-toplevel
    sch.state.replace(parent, parent.stmt.with_changes(
        body=_swap(parent.stmt.body, realize, new_realize)), {blk: new_block})


__all__ = ["loop_partition", "reorder_block_iter_var", "Range"]
