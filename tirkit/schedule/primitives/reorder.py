"""reorder (mirrors ``Reorder`` in ``src/tir/schedule/primitive/loop_transformation.cc``)."""
from __future__ import annotations

from typing import Any

from ...tir.expr import IterVarType
from .. import analysis as A
from .. import errors as err
from ..schedule import Schedule, primitive


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


@primitive("Reorder")
def reorder(sch: Schedule, *ordered_loops: Any) -> None:
    """Reorder loops of one chain into the given order; loops of the chain not listed stay where
    they are (``Schedule.reorder``).

    Raises:
        ScheduleError: ``LoopMultiAppearanceError``, ``LoopsNotAChainError``,
            ``DependentLoopError``, ``BlockIterTypeError`` (an iter var neither spatial nor
            reduction bound to a reordered loop), ``NotAffineBindingError``.
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
    body = chain[-1].stmt.body
    for f in reversed(new_fors):
        body = f.with_changes(body=body)
    sch.state.replace(chain[0], body)
