"""Whether merge keeps the order of the accesses it reorders (no TVM counterpart; used by
``loop_transformation.merge``).

merge runs the merged nests' bodies one after another in each iteration of the merged loops,
in the order the loops were given, at the place of the first one. That reorders (1) the nests
among themselves -- nest ``j``'s iteration ``t`` now runs before nest ``i``'s iterations after
``t`` -- and (2) each nest with the statements between the merged nests, which it now skips.
TVM 0.27 checks neither, and both computed wrong numbers (a softmax's max reduction merged with
the exp that reads it read a partial maximum; a bias-add merged with its matmul past the
reindex copy it read from).

Accepted, conservatively: nests that share no written buffer, in any order; and a nest ``j``
reading what an earlier nest ``i`` (earlier in both orders) writes when, per iteration ``t`` of
the merged loops, ``j`` reads only within what ``i`` writes at ``t`` and ``i`` writes disjoint
elements at different iterations (each merged loop of extent > 1 moves one written index by a
non-zero constant step). A nest may not skip a statement that writes what it accesses or reads
what it writes. Anything else raises ``NotMergeableError``.
"""
from __future__ import annotations

from typing import Any

from ...arith import Analyzer
from ...arith.int_set import IntervalSet, eval_set
from ...ir.expr import IntImm, Range
from ...tir import expr as E
from ...tir import op as tir_op
from ...tir import stmt as S
from ...tir.stmt_functor import post_order_visit, substitute
from .. import errors as err
from . import _ir_utils as U

Regions = dict[int, tuple[Any, list[list[IntervalSet]]]]  # id(buffer) -> (buffer, boxes)


def _accesses(body: S.Stmt, write: bool) -> Regions:
    """Per buffer, the boxes the blocks under ``body`` read (write) per iteration of the loops
    around ``body``: relaxed over the loops inside ``body``, outer loop vars left free."""
    out: Regions = {}
    realizes: list[S.BlockRealize] = []
    post_order_visit(body, lambda n: realizes.append(n) if isinstance(n, S.BlockRealize)
                     else None)
    for realize in realizes:
        block = realize.block
        path = U.path_to(body, realize) or []
        dom = U.loop_ranges([s for s in path if isinstance(s, S.For)])
        vmap = U.bindings(realize)
        for region in (block.writes if write else block.reads):
            box = [IntervalSet(eval_set(substitute(r.min, vmap), dom).min_value,
                               eval_set(substitute(r.min + r.extent - 1, vmap), dom).max_value)
                   for r in region.region]
            out.setdefault(id(region.buffer), (region.buffer, []))[1].append(box)
    return out


def _buffers(stmt: S.Stmt, write: bool) -> dict[int, Any]:
    return {k: v[0] for k, v in _accesses(stmt, write).items()}


def _inside(ana: Analyzer, inner: list[IntervalSet], outer: list[IntervalSet]) -> bool:
    return all(ana.can_prove(tir_op.greater_equal(i.min_value, o.min_value))
               and ana.can_prove(tir_op.less_equal(i.max_value, o.max_value))
               for i, o in zip(inner, outer))


def _injective(ana: Analyzer, box: list[IntervalSet], merged: list[S.For]) -> bool:
    """Each merged loop of extent > 1 moves some single-point index of ``box`` (one that no
    other merged loop moves) by a non-zero constant step: different iterations write different
    elements."""
    for loop in merged:
        if U.is_const(loop.extent, 1):
            continue
        var = loop.loop_var
        others = [lp.loop_var for lp in merged if lp is not loop]
        ok = False
        for dim in box:
            if not ana.can_prove_equal(dim.max_value, dim.min_value):  # type: ignore[arg-type]
                continue
            used: list[Any] = []
            post_order_visit(dim.min_value, lambda n: used.append(n) if isinstance(n, E.Var)
                             else None)
            if any(u is o for u in used for o in others) or all(u is not var for u in used):
                continue
            step = ana.simplify(substitute(dim.min_value, {var: var + 1}) - dim.min_value)
            if isinstance(step, IntImm) and step.value != 0:
                ok = True
                break
        if not ok:
            return False
    return True


def check_merge_order(nests: list[Any], bodies: list[S.Stmt], merged: list[S.For],
                      parent_seq: list[S.Stmt]) -> None:
    """``nests``: the merged loop nests' outermost statements (argument order), ``bodies``:
    their bodies over the first nest's loop vars, ``merged``: the first nest's loops down to the
    merged one, ``parent_seq``: the statements of the nests' common parent.

    Raises:
        NotMergeableError: when merging may change what some access sees.
    """
    ana = Analyzer()
    for loop in merged:
        ana.bind(loop.loop_var, Range.from_min_extent(loop.min, loop.extent))
    pos = [next((k for k, s in enumerate(parent_seq) if s is n), -1) for n in nests]
    if -1 in pos:
        raise err.NotMergeableError(nests[pos.index(-1)], reason="the loops to merge are not "
                                    "siblings in one statement sequence")
    reads = [_accesses(b, False) for b in bodies]
    writes = [_accesses(b, True) for b in bodies]
    names = [_name(n) for n in nests]
    for j in range(len(bodies)):
        for i in range(len(bodies)):
            if i == j:
                continue
            for key, (buf, wboxes) in writes[i].items():
                if key not in reads[j] and key not in writes[j]:
                    continue
                later = i < j and pos[i] < pos[j]
                if key in writes[j] or not later:
                    raise err.NotMergeableError(
                        nests[i], nests[j], reason=f"both nests access {buf.name}, which "
                        f"{names[i]} writes; merging would interleave those accesses")
                if not all(_injective(ana, w, merged) for w in wboxes) or not all(
                        any(_inside(ana, r, w) for w in wboxes) for r in reads[j][key][1]):
                    raise err.NotMergeableError(
                        nests[i], nests[j], reason=f"{names[j]} reads {buf.name} beyond what "
                        f"{names[i]} writes in the same iteration of the merged loops")
    first = pos[0]
    for k, p in enumerate(pos):
        between = parent_seq[min(first, p) + 1:max(first, p)]
        mine_w, mine_r = _buffers(bodies[k], True), _buffers(bodies[k], False)
        for stmt in between:
            if any(stmt is n for n in nests):
                continue
            other_w, other_r = _buffers(stmt, True), _buffers(stmt, False)
            shared = (set(other_w) & (set(mine_w) | set(mine_r))) | (set(other_r) &
                                                                      set(mine_w))
            if shared:
                buf = {**other_w, **other_r, **mine_w, **mine_r}[next(iter(shared))]
                raise err.NotMergeableError(
                    nests[k], stmt, reason=f"merging moves {names[k]} past a statement that "
                    f"also accesses {buf.name}, written by one of them")


def _name(stmt: Any) -> str:
    """``the nest of block "B"`` (the nests' loops often share their names)."""
    blocks = [b.name_hint for b in U.child_blocks(stmt)] if not isinstance(stmt, S.Block) \
        else [stmt.name_hint]
    if not blocks and isinstance(stmt, S.BlockRealize):
        blocks = [stmt.block.name_hint]
    return "the nest of " + ", ".join(f'block "{b}"' for b in blocks) if blocks \
        else err.describe(stmt)
