"""reorder (mirrors ``Reorder`` in ``src/tir/schedule/primitive/loop_transformation.cc``)."""
from __future__ import annotations

from typing import Any

from ...tir.expr import IterVarType
from .. import analysis as A
from .. import errors as err
from ..schedule import Schedule, primitive
from ._reduction_order import tangled_marks


class ReductionInitOrderError(err.ScheduleError):
    """A reorder would run a reduction block's init after other reduction steps of the same output
    (no TVM counterpart: TVM 0.27's ``Reorder`` accepts such a reorder and builds a wrong kernel;
    tirkit refuses it).

    The condition (see ``_reduction_order``): the block has ``T.init()``; in the iterator map of
    its bindings a fused iterator feeds both a spatial and a reduction block var and the place
    value where they are cut apart does not line up with the loops that make the iterator (fuse
    ``j, k`` of extents 20, split by 3: ``vj = (f0 * 3 + f1) // 20``, ``vk = (f0 * 3 + f1) %
    20``); and the reorder puts one of those loops outside another one of larger place value
    that ran outside it before. Then, for some output, the iteration that runs the init (all
    reduction vars at their minimum) is no longer the first of that output's reduction. Loops
    whose digits the cut does not split (split by 4 or 10 above), loops of other iterators and
    blocks without an init reorder freely. Locations: the block, the loop that would run
    outside, the loop that would run inside it.
    """

    fast = "the reorder would run the block's init after other reduction steps of its output"
    detail = ("{1} would run outside {2}, but both make up one fused iterator that {0} splits "
              "into spatial var {spatial} and reduction var {reduce} at a place the two loops "
              "do not line up with, so the block's init (run when {init_cond}) would run after "
              "other reduction steps of the same output; keep {2} outside {1}, or split the "
              "fused loop by a factor of the inner block var's extent")


def _chain(srefs: list[Any]) -> list[Any]:
    """The loops from the outermost given loop down to the innermost, or LoopsNotAChainError."""
    ids = {id(s) for s in srefs}
    bottom = None
    for s in srefs:
        above = {id(p) for p in s.ancestors()}
        if all(id(t) in above or t is s for t in srefs):
            bottom = s
    if bottom is None:
        names = " and ".join(err.describe(s.stmt) for s in srefs)
        raise err.LoopsNotAChainError(*[s.stmt for s in srefs],
                                      reason=f"{names} are not nested in one another")
    chain = [bottom]
    seen = {id(bottom)}
    for p in bottom.ancestors():
        if len(seen & ids) == len(ids):
            break
        if p.is_block:
            raise err.LoopsNotAChainError(
                p.stmt, reason=f"{err.describe(p.stmt)} lies between the loops")
        chain.append(p)
        seen.add(id(p))
    chain.reverse()
    for outer, inner in zip(chain, chain[1:]):
        if outer.stmt.body is not inner.stmt:
            raise err.LoopsNotAChainError(
                outer.stmt, reason=f'loop "{outer.stmt.loop_var.name_hint}" has more than one '
                'child statement, so the loops are not a single branch')
    return chain


def _check_blocks(sch: Schedule, chain: list[Any]) -> None:
    # dependent extents first: they also make the bindings non-affine, a less telling error
    for s in chain:
        for other in chain:
            if other is not s and (A.uses_var(s.stmt.extent, other.stmt.loop_var)
                                   or A.uses_var(s.stmt.min, other.stmt.loop_var)):
                raise err.DependentLoopError(s.stmt)
    loop_vars = {s.stmt.loop_var for s in chain}
    for block_sref in A.get_child_blocks(sch.state, chain[-1]) or []:
        _check_block(sch, block_sref, loop_vars)


def _check_block(sch: Schedule, block_sref: Any, loop_vars: set) -> None:
    realize = A.get_block_realize(sch.state, block_sref)
    for iv, value in zip(block_sref.stmt.iter_vars, realize.iter_values):
        if iv.iter_type in (IterVarType.DataPar, IterVarType.CommReduce):
            continue
        if A.uses_var(value, loop_vars):
            raise err.BlockIterTypeError(block_sref.stmt)
    if not sch.state.block_info(block_sref)["affine_binding"]:
        raise err.NotAffineBindingError(block_sref.stmt)


def _mixed_vars(sch: Schedule, block_sref: Any, loop_vars: set) -> set:
    """The vars of ``loop_vars`` that the bindings of both a spatial and a reduction iter var of
    a block with an init read."""
    block = block_sref.stmt
    if block.init is None:
        return set()
    realize = A.get_block_realize(sch.state, block_sref)
    used: dict[Any, set] = {IterVarType.DataPar: set(), IterVarType.CommReduce: set()}
    for iv, value in zip(block.iter_vars, realize.iter_values):
        if iv.iter_type in used:
            used[iv.iter_type] |= {v for v in loop_vars if A.uses_var(value, v)}
    return used[IterVarType.DataPar] & used[IterVarType.CommReduce]


def _check_init_order(sch: Schedule, chain: list[Any], new_fors: list[Any]) -> None:
    """ReductionInitOrderError when the new order puts a loop of a tangled fused iterator (see
    ``_reduction_order``) outside a loop of the same iterator with a larger place value, where
    the current order does not."""
    old = {s.stmt.loop_var: i for i, s in enumerate(chain)}
    new = {f.loop_var: i for i, f in enumerate(new_fors)}
    by_var = {f.loop_var: f for f in new_fors}
    for block_sref in A.get_child_blocks(sch.state, chain[-1]) or []:
        if len(_mixed_vars(sch, block_sref, set(old))) < 2:
            continue  # a tangled iterator is made of two moved loops each read by both kinds
        for mark in tangled_marks(sch.state, block_sref):
            moved = [v for v in mark.places if v in new]
            for a in moved:
                for b in moved:
                    if (mark.places[a] > mark.places[b] and new[b] < new[a]
                            and old[a] < old[b]):
                        block = block_sref.stmt
                        cond = " and ".join(f"{iv.var.name_hint} == {iv.dom.min}"
                                            for iv in block.iter_vars
                                            if iv.iter_type == IterVarType.CommReduce)
                        raise ReductionInitOrderError(
                            block, by_var[b], by_var[a],
                            spatial=", ".join(f'"{iv.var.name_hint}"' for iv in mark.spatial),
                            reduce=", ".join(f'"{iv.var.name_hint}"' for iv in mark.reduce),
                            init_cond=cond)


@primitive("Reorder")
def reorder(sch: Schedule, *ordered_loops: Any) -> None:
    """Reorder loops of one chain into the given order; loops of the chain not listed stay where
    they are (``Schedule.reorder``).

    Raises:
        ScheduleError: ``LoopMultiAppearanceError``, ``LoopsNotAChainError``,
            ``DependentLoopError``, ``BlockIterTypeError`` (an iter var neither spatial nor
            reduction bound to a reordered loop), ``NotAffineBindingError``, and, beyond TVM,
            ``ReductionInitOrderError``: the block has ``T.init()`` and the new order would run
            its init after other reduction steps of the same output (a loop fused from spatial
            and reduction loops, split by a factor that does not divide the inner var's extent,
            and its two halves swapped; TVM 0.27 builds a wrong kernel there).
    """
    srefs = [sch._loop_sref(lp) for lp in ordered_loops]  # pylint: disable=protected-access
    for i, s in enumerate(srefs):
        if any(s is t for t in srefs[:i]):
            raise err.LoopMultiAppearanceError(s.stmt)
    if len(srefs) <= 1:
        return
    chain = _chain(srefs)
    _check_blocks(sch, chain)
    given = {id(s) for s in srefs}
    order = iter(srefs)
    new_fors = [next(order).stmt if id(s) in given else s.stmt for s in chain]
    _check_init_order(sch, chain, new_fors)
    body = chain[-1].stmt.body
    for f in reversed(new_fors):
        body = f.with_changes(body=body)
    sch.state.replace(chain[0], body)
