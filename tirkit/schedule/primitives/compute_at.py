"""compute_at, reverse_compute_at (mirrors ``src/tir/schedule/primitive/compute_at.cc``).

The block moves under the target loop, at the position its producers/consumers allow; its
iteration domain shrinks to the region its consumers (compute_at) or producers
(reverse_compute_at) under the loop use, as new loops ``ax0, ax1...`` (unit loops kept when
``preserve_unit_loops``).
"""
from __future__ import annotations

from typing import Any, cast

from ...arith import Analyzer
from ...arith.int_set import IntervalSet, eval_set
from ...ir.expr import IntImm, Range
from ...tir import op
from ...tir.expr import IterVarType, Var
from ...tir.stmt import BlockRealize, For, ForKind, SeqStmt
from ...tir.stmt_functor import substitute
from ...tir.function import PrimFunc
from .. import analysis as A
from .. import region_bound as RB
from .. import errors as err
from ..block_scope import DepKind
from ..schedule import Schedule, primitive
from ..state import StmtSRef
from ..transform import deep_swap
from ._block_var_domain import DomainInfo, calculate_block_var_domain, cover_range
from ._instance_cover import dropped_instances


class DroppedInstancesError(err.ScheduleError):
    """reverse_compute_at would no longer run some instances of the consumer block, so the
    elements they wrote would never be written (no TVM counterpart: TVM 0.27 makes the same
    schedule and then fails to build it, "Buffer pad is used before its definition"; tirkit
    refuses it, the schedule unchanged).

    The condition (``_instance_cover``): for some block iter var, a value it surely ran before
    (its bindings over its old loops, under its predicate) lies outside every value the moved
    block can run over all iterations of the target loop and the loops above it (up to the
    scope root), its guards applied. Where coverage is neither proven nor disproven the move is
    accepted as before (no legal schedule refused), so a hole inside a range goes uncaught.
    The instances are lost where one reads outside what the producers under the loop write:
    ``pad[vh] = T.if_then_else(1 <= vh, data[vh - 1], 0)`` reads ``data[-1]`` behind its guard
    at ``vh == 0``, which no producer writes, so ``vh == 0`` gets no iteration and the zero
    border is never written. Refusing is preferred over giving such instances an iteration:
    which one is arbitrary (the first? the last?) once the target loop has several, and a
    guard's reads are not known to be dead. compute_at needs no such check: the producer's
    new domain covers the (over-approximated) region its consumers read, and elements no
    consumer reads are dead (an output-writing producer cannot be moved). Locations: the block,
    the target loop.
    """

    fast = "reverse_compute_at would drop instances of the block"
    detail = ("{0} moved under {1} would run only for {lost}, so the outputs of its other "
              "instances would never be written: they read outside what its producers write "
              "under {1} "
              "(e.g. an out-of-bounds read behind a guard); move it under a loop whose "
              "producers write all it reads, or keep it where it is")


def _under(sref: Any, top: Any) -> bool:
    return any(p is top for p in sref.ancestors())


def _related(sch: Schedule, block_sref: Any, scope_root: Any, consumers: bool) -> list[Any]:
    scope = sch.state.get_block_scope(scope_root)
    deps = scope.get_deps_by_src(block_sref) if consumers else scope.get_deps_by_dst(block_sref)
    out: list[Any] = []
    for d in deps:
        other = d.dst if consumers else d.src
        if d.kind == DepKind.RAW and all(o is not other for o in out):
            out.append(other)
    return out


def _check(sch: Schedule, block_sref: Any, loop_sref: Any, is_compute_at: bool) -> Any:
    block, loop = block_sref.stmt, loop_sref.stmt
    scope_root = cast(StmtSRef, A.get_scope_root(block_sref))  # (checked: not the root block)
    if scope_root is None:
        raise err.InvalidArgumentError(block, reason="cannot move the root block")
    if _under(block_sref, loop_sref):
        raise err.LoopPositionError(block, loop, reason="the block is already under the loop")
    if any(p is block_sref for p in loop_sref.ancestors()):
        # a loop of the block's own body (a blockized block's inner loop): reverse_compute_at
        # built a tree with a hole, whose IR check raised a TypeError out of the schedule
        # (found by the wide fuzzer: conv1d_strided, blockize then reverse_compute_at of the
        # outer block at its inner loop, --hypothesis-seed=10)
        raise err.LoopPositionError(block, loop, reason="the loop is inside the block")
    if not _under(loop_sref, scope_root):
        raise err.NotInSameScopeError(block, loop,
                                      reason="the loop is not under the block's scope block")
    A.check_stage_pipeline(sch.state, scope_root)
    A.check_complete_or_reduction(sch.state, block_sref, scope_root)
    if is_compute_at:
        func = cast(PrimFunc, sch.mod[sch.state.func_of(block_sref)])
        params = set(func.buffer_map.values())
        for r in block.writes:
            if r.buffer in params:
                raise err.NotOutputBlockError(block, reason="compute_at cannot move a block "
                                              "that writes an output buffer")
    return scope_root


def _position(sch: Schedule, block_sref: Any, loop_sref: Any, scope_root: Any,
              is_compute_at: bool, index: int) -> int:
    """Insertion index into the loop body (TVM ``FindInsertionPoint``)."""
    children = list(_child_subtrees(loop_sref.stmt.body))
    producers = _related(sch, block_sref, scope_root, consumers=False)
    consumers = _related(sch, block_sref, scope_root, consumers=True)
    required = consumers if is_compute_at else producers
    for other in required:
        if not _under(other, loop_sref):
            what = "consumer" if is_compute_at else "producer"
            raise err.NotAllRequiredBlocksAreVisitedError(
                block_sref.stmt, loop_sref.stmt,
                reason=f'its {what} block "{other.stmt.name_hint}" is not under the loop')

    def pos_of(s: Any) -> int:
        for i, c in enumerate(children):
            if c is s.stmt or any(p.stmt is c for p in s.ancestors()) or \
                    (isinstance(c, BlockRealize) and c.block is s.stmt):
                return i
        return -1
    last_prod = max((pos_of(p) for p in producers if _under(p, loop_sref)), default=-1)
    first_cons = min((pos_of(c) for c in consumers if _under(c, loop_sref)),
                     default=len(children))
    if last_prod >= first_cons:
        raise err.LoopPositionError(block_sref.stmt, loop_sref.stmt,
                                    reason="a producer comes after a consumer under the loop")
    if index == -1:
        pos = first_cons if is_compute_at else last_prod + 1
    elif index == -2:
        pos = last_prod + 1
    elif not last_prod + 1 <= index <= first_cons:
        raise err.LoopPositionError(
            block_sref.stmt, loop_sref.stmt,
            reason=f"index {index} is outside [{last_prod + 1}, {first_cons}], the positions "
            "after its producers and before its consumers")
    else:
        pos = index
    _check_order(sch, block_sref, loop_sref, scope_root, pos_of, pos)
    return pos


def _check_order(sch: Schedule, block_sref: Any, loop_sref: Any, scope_root: Any,
                 pos_of: Any, pos: int) -> None:
    """Every block the moved block depends on still runs before it, and every block depending on
    it after it (a producer/consumer outside the loop must be before/after the loop)."""
    scope = sch.state.get_block_scope(scope_root)
    for dep in scope.get_deps_by_dst(block_sref):
        other = dep.src
        ok = pos_of(other) < pos if _under(other, loop_sref) else \
            _before(sch, other, loop_sref)
        if not ok:
            raise err.LoopPositionError(
                block_sref.stmt, loop_sref.stmt, reason=f'block "{other.stmt.name_hint}", which '
                "it depends on, would no longer run before it")
    for dep in scope.get_deps_by_src(block_sref):
        other = dep.dst
        ok = pos_of(other) >= pos if _under(other, loop_sref) else \
            _before(sch, loop_sref, other)
        if not ok:
            raise err.LoopPositionError(
                block_sref.stmt, loop_sref.stmt, reason=f'block "{other.stmt.name_hint}", which '
                "depends on it, would no longer run after it")


def _before(sch: Schedule, a: Any, b: Any) -> bool:
    """Whether ``a`` comes before ``b`` in program order (neither contains the other)."""
    top = A.lca(a, b)
    path_a = [a, *a.ancestors()]
    path_b = [b, *b.ancestors()]
    ca = path_a[[id(x) for x in path_a].index(id(top)) - 1]
    cb = path_b[[id(x) for x in path_b].index(id(top)) - 1]
    order = [id(c) for c in A.iter_child_srefs(sch.state, top)]
    return order.index(id(ca)) < order.index(id(cb))


def _child_subtrees(body: Any) -> tuple:
    return body.seq if isinstance(body, SeqStmt) else (body,)


def _required_region(sch: Schedule, block_sref: Any, loop_sref: Any, scope_root: Any,
                     is_compute_at: bool) -> dict[Any, list[IntervalSet]]:
    """Per buffer, the region the moved block must produce/consume under the loop."""
    block = block_sref.stmt
    others = _related(sch, block_sref, scope_root, consumers=is_compute_at)
    buffers = {r.buffer for r in (block.writes if is_compute_at else block.reads)}
    out: dict[Any, list[IntervalSet]] = {}
    for other in others:
        if not _under(other, loop_sref):
            continue
        regions = other.stmt.reads if is_compute_at else other.stmt.writes
        for buf, sets in _relax_regions(sch, other, regions, loop_sref, is_compute_at):
            if buf not in buffers:
                continue
            out[buf] = sets if buf not in out else [a.union(b) for a, b in zip(out[buf], sets)]
    return out


def _check_dense_writes(sch: Schedule, block_sref: Any, loop_sref: Any,
                        required: dict[Any, list[IntervalSet]], ana: Analyzer) -> None:
    """reverse_compute_at: the producers under the loop must write all of the region the
    consumer is given (the hull of their writes), or it reads elements written later. A strided
    write (rows ``i_0 * 3 + i_1`` under ``i_1``) leaves holes in the hull; TVM 0.27 does not
    check and builds a kernel that reads them unwritten. Guards are not looked at: a predicate
    that drops elements inside the region is not caught."""
    produced: dict[Any, list[list[Any]]] = {}
    for other in _related(sch, block_sref, A.get_scope_root(block_sref), consumers=False):
        if _under(other, loop_sref):
            # the predicate is left out: a non-divisible split's guard cuts the region at the
            # buffer's end, where the consumer's own bound guards it too
            for buf, sets in A.lower_bound_writes(sch.state, other, loop_sref, ana,
                                                  use_predicate=False):
                if buf in required:
                    produced.setdefault(buf, []).append(sets)
    for buf, hull in required.items():
        lower = [RB.union_lower_bound(ana, list(dims)) for dims in zip(*produced.get(buf, []))]
        if len(lower) != len(hull) or any(d is None for d in lower) or not A.covers(
                ana, RB.clip_to_shape(ana, cast(list[IntervalSet], lower), buf.shape),
                RB.clip_to_shape(ana, hull, buf.shape)):
            raise err.NotCompactDataFlowError(
                block_sref.stmt, reason=f"under loop {loop_sref.stmt.loop_var.name} its "
                f"producers write {buf.name} only in part of the region they span (a strided "
                "write), so it would read elements not written yet")


def _relax_regions(sch: Schedule, block_sref: Any, regions: Any, loop_sref: Any,
                   relax_storage_scope: bool) -> list[tuple[Any, list[IntervalSet]]]:
    """``regions`` of a block relaxed over the loops between it and ``loop_sref`` (TVM
    ``RelaxBufferRegions``); with ``relax_storage_scope`` (compute_at), a buffer that is not
    global also over the thread-bound loops from ``loop_sref`` up whose threads share it
    (``LoopDomainOfSRefTreePath`` with the buffer's scope): a shared buffer is computed for all
    the threads of a block, so for the threadIdx loops too."""
    realize = A.get_block_realize(sch.state, block_sref)
    vmap = {iv.var: v for iv, v in zip(realize.block.iter_vars, realize.iter_values)}
    base = A.loop_ranges(A.loops_between(block_sref, loop_sref))
    out = []
    for region in regions:
        dom = {**base, **A.shared_thread_loops(loop_sref, region.buffer.scope())} \
            if relax_storage_scope else base
        out.append((region.buffer, [IntervalSet(
            eval_set(substitute(r.min, vmap), dom).min_value,
            eval_set(substitute(r.min + r.extent - 1, vmap), dom).max_value)
            for r in region.region]))
    return out


def _provided_region(block: Any, is_compute_at: bool) -> dict[Any, list[list[IntervalSet]]]:
    """Per buffer, the regions one instance of the block writes (compute_at) or reads
    (reverse_compute_at), in its iter vars (TVM ``CalculateProvidedRequiredRegions``)."""
    out: dict[Any, list[list[IntervalSet]]] = {}
    for region in block.writes if is_compute_at else block.reads:
        out.setdefault(region.buffer, []).append([
            IntervalSet.point(r.min) if _one(r.extent) else
            IntervalSet(r.min, op.subtract(op.add(r.min, r.extent), 1)) for r in region.region])
    return out


def _one(e: Any) -> bool:
    return isinstance(e, IntImm) and e.value == 1


def _build_nest(block: Any, iter_doms: list[DomainInfo], preserve_unit_loops: bool,
                ana: Analyzer) -> Any:
    """The new loops ``ax0, ax1...`` and BlockRealize of the moved block (TVM
    ``ScopeReconstructor::MakeNewLoop``): one loop per iter var whose range is not a single
    value (or every one, with ``preserve_unit_loops``); where an iter var's bound (the buffer's
    shape, the var's own domain) does not provably hold over its range, the predicate guards
    it."""
    loops: list[tuple[Var, Any]] = []
    values: list[Any] = []
    conds: list[Any] = []
    for iv, info in zip(block.iter_vars, iter_doms):
        rng = cover_range(info, iv.dom, ana)
        if preserve_unit_loops or not _one(rng.extent):
            var = Var(f"ax{len(loops)}", iv.var.dtype)
            loops.append((var, ana.simplify(rng.extent)))
            values.append(op.add(rng.min, var))
            ana.bind(var, Range.from_min_extent(IntImm(var.dtype, 0), rng.extent))
        else:
            values.append(rng.min)
        conds.extend(_guards(values[-1], info, ana))
    pred: Any = True
    for c in conds:
        pred = c if pred is True else op.logical_and(pred, c)
    stmt: Any = BlockRealize(values, pred if pred is True else ana.simplify(pred), block)
    for var, extent in reversed(loops):
        stmt = For(var, IntImm(var.dtype, 0), extent, ForKind.SERIAL, stmt)
    return stmt


def _guards(value: Any, info: DomainInfo, ana: Analyzer) -> list[Any]:
    """The conditions that keep an iter var's ``value`` inside its bound, where not provable."""
    lo, hi = (None, None) if info.bound is None else \
        (info.bound.min_value, info.bound.max_value)
    conds = []
    if lo is not None:
        conds.append(op.greater_equal(value, lo))
    if hi is not None:
        conds.append(op.less(value, op.add(hi, 1)))
    return [c for c in conds if not ana.can_prove(c)]


def _leaf_to_remove(block_sref: Any) -> Any:
    """The outermost loop that holds nothing but the block (TVM ``LeafBlockRemovalPlan``), or
    ``None`` when the block's own BlockRealize is what must go."""
    child = block_sref
    for p in block_sref.ancestors():
        if p.is_block or not isinstance(p.stmt.body, (For, BlockRealize)):
            break
        child = p
    return None if child is block_sref else child.stmt


_KIND_WORD = {ForKind.PARALLEL: "parallelized", ForKind.VECTORIZED: "vectorized"}


def _check_loop_kinds(block: Any, nest: Any, loop_sref: Any) -> None:
    """A parallel or vectorized loop at or above the target must not feed a reduction iter of
    the moved block (what ``parallel``/``vectorize`` check, TVM ``CheckParallelizability``):
    its instances would update one element at once (a data race, or vector lanes that each
    read the old value). TVM 0.27's compute_at does not check and builds the wrong kernel."""
    realize = nest
    while isinstance(realize, For):
        realize = realize.body
    for s in (loop_sref, *loop_sref.ancestors()):
        if s.is_block:
            return
        loop = s.stmt
        if loop.kind not in _KIND_WORD:
            continue
        for iv, value in zip(block.iter_vars, realize.iter_values):
            if iv.iter_type != IterVarType.DataPar and A.uses_var(value, loop.loop_var):
                raise err.WrongBlockIterTypeError(
                    loop, block, kind=_KIND_WORD[loop.kind],
                    extra=" (moving the block under it would bind the loop to its reduction "
                    f"iter var {iv.var.name})")


def _apply(sch: Schedule, block: Any, loop: Any, preserve_unit_loops: bool, index: int,
           is_compute_at: bool) -> None:
    block_sref = sch._block_sref(block)  # pylint: disable=protected-access
    loop_sref = sch._loop_sref(loop)  # pylint: disable=protected-access
    if isinstance(index, bool) or not isinstance(index, int):
        raise err.InvalidArgumentError(block_sref.stmt, reason=f"index must be an integer, got "
                                       f"{index!r}")
    scope_root = _check(sch, block_sref, loop_sref, is_compute_at)
    pos = _position(sch, block_sref, loop_sref, scope_root, is_compute_at, index)
    required = _required_region(sch, block_sref, loop_sref, scope_root, is_compute_at)
    ana = A.loop_analyzer(loop_sref)
    if not is_compute_at:
        _check_dense_writes(sch, block_sref, loop_sref, required, ana)
    iter_doms = calculate_block_var_domain(
        block_sref.stmt, loop_sref.stmt, _provided_region(block_sref.stmt, is_compute_at),
        required, ana, exact=not is_compute_at)
    if not is_compute_at:
        lost = dropped_instances(sch.state, block_sref, loop_sref, scope_root, iter_doms)
        if lost is not None:
            raise DroppedInstancesError(block_sref.stmt, loop_sref.stmt, lost=lost)
    nest = _build_nest(block_sref.stmt, iter_doms, preserve_unit_loops, ana)
    _check_loop_kinds(block_sref.stmt, nest, loop_sref)
    loop_stmt = loop_sref.stmt
    children = list(_child_subtrees(loop_stmt.body))
    children.insert(pos, nest)
    new_loop = loop_stmt.with_changes(body=SeqStmt.flatten(*children))
    removal = _leaf_to_remove(block_sref) or A.get_block_realize(sch.state, block_sref)
    root = scope_root.stmt
    new_body = deep_swap(root.body, {id(removal): None, id(loop_stmt): new_loop})
    sch.state.replace(scope_root, root.with_changes(body=new_body))


@primitive("ComputeAt", attrs=("preserve_unit_loops", "index"))
def compute_at(sch: Schedule, block: Any, loop: Any, preserve_unit_loops: bool = False,
               index: int = -1) -> None:
    """Move a producer block under ``loop`` of its consumers, computing only the region they
    read there (``Schedule.compute_at``). ``index``: -1 before the first consumer, -2 after the
    last producer, or an explicit position in the loop body.

    Raises:
        ScheduleError: ``NotStagePipelineError``, ``NotCompleteOrReductionBlockError``,
            ``NotOutputBlockError`` (the block writes a function output),
            ``NotAllRequiredBlocksAreVisitedError`` (a consumer is not under the loop),
            ``LoopPositionError``, ``NotInSameScopeError``, ``NotCompactDataFlowError``.
    """
    _apply(sch, block, loop, preserve_unit_loops, index, True)


@primitive("ReverseComputeAt", attrs=("preserve_unit_loops", "index"))
def reverse_compute_at(sch: Schedule, block: Any, loop: Any, preserve_unit_loops: bool = False,
                       index: int = -1) -> None:
    """Move a consumer block under ``loop`` of its producers, consuming the region they write
    there (``Schedule.reverse_compute_at``); ``index`` as in :func:`compute_at` (-1: after the
    last producer).

    Raises:
        ScheduleError: as :func:`compute_at`, with producers in place of consumers, and
            ``DroppedInstancesError`` (some instances of the block would no longer run: they
            read outside what its producers write under the loop).
    """
    _apply(sch, block, loop, preserve_unit_loops, index, False)
