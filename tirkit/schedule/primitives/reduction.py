"""decompose_reduction, rfactor (mirrors ``src/tir/schedule/primitive/reduction.cc``)."""
from __future__ import annotations

from typing import Any, cast

from ...ir.expr import Range
from ...tir import expr as E
from ...tir.block_access import get_block_read_write_region
from ...tir.buffer import Buffer
from ...tir.expr import BufferLoad, IterVar, IterVarType, Var
from ...tir.stmt import Block, BlockRealize, BufferStore, For, SeqStmt
from ...tir.analysis import match_reduction_update
from ...tir.stmt_functor import substitute
from .. import analysis as A
from .. import errors as err
from ..schedule import Schedule, primitive
from ..state import StmtSRef, _swap
from ..transform import deep_swap
from ._ir_utils import is_const


def _with_regions(block: Block) -> Block:
    reads, writes = get_block_read_write_region(block.with_changes(reads=(), writes=()))
    return block.with_changes(reads=tuple(reads), writes=tuple(writes))


@primitive("DecomposeReduction", outputs="one")
def decompose_reduction(sch: Schedule, block: Any, loop: Any) -> Any:
    """Split a reduction block into an init block (``<name>_init``, placed before ``loop``, over
    copies ``<loop>_init`` of the loops its spatial bindings use) and an update block
    (``<name>_update``) without ``T.init()`` (``Schedule.decompose_reduction``). Returns the init
    block.

    Raises:
        ScheduleError: ``NotReductionBlockError`` (no init / not a reduction),
            ``DecomposeReductionLoopPositionError`` (``loop`` is not above the block),
            ``LoopHeightError`` (a loop above ``loop`` feeds a reduction iter).
    """
    block_sref = sch._block_sref(block)  # pylint: disable=protected-access
    loop_sref = sch._loop_sref(loop)  # pylint: disable=protected-access
    blk: Block = block_sref.stmt
    scope_root = cast(StmtSRef, A.get_scope_root(block_sref))  # (checked: not the root block)
    if blk.init is None:
        raise err.NotReductionBlockError(blk, reason="it has no init statement (was it "
                                         "decomposed already?)")
    reason = A.reduction_block_reason(sch.state, block_sref, scope_root)
    if reason is not None:
        raise err.NotReductionBlockError(blk, reason=reason)
    loops = A.get_loops(block_sref)
    if all(s is not loop_sref for s in loops):
        raise err.LoopPositionDecomposeError(blk, loop_sref.stmt,
                                             reason="the loop is not an ancestor of the block")
    _check_higher_than_reduce_loops(sch, block_sref, loops, loop_sref)
    init_block, stmt = _init_nest(sch, block_sref, loops[loops.index(loop_sref):])
    read_bufs = {r.buffer for r in blk.reads}
    reads = tuple(w for w in blk.writes if w.buffer not in read_bufs) + tuple(blk.reads)
    update = blk.with_changes(init=None, name_hint=blk.name_hint + "_update", reads=reads)
    loop_stmt = loop_sref.stmt
    new_loop = deep_swap(loop_stmt, {id(blk): update})
    parent = cast(StmtSRef, loop_sref.parent)  # (a loop or non-root block has one)
    new_parent = parent.stmt.with_changes(
        body=_swap(parent.stmt.body, loop_stmt, SeqStmt([stmt, new_loop])))
    sch.state.replace(parent, new_parent, {blk: update})
    return sch._new_rv(sch.state.get_sref(init_block))  # pylint: disable=protected-access


def _check_higher_than_reduce_loops(sch: Schedule, block_sref: Any, loops: list,
                                    loop_sref: Any) -> None:
    """TVM's ``LoopHeightError::CheckLoopHigherThanReduceLoops``: no loop above ``loop`` may feed
    a reduction iter of the block (the init would run once per value of that loop)."""
    blk: Block = block_sref.stmt
    realize = A.get_block_realize(sch.state, block_sref)
    reduce_values = [v for iv, v in zip(blk.iter_vars, realize.iter_values)
                     if iv.iter_type != IterVarType.DataPar]
    for above in loops[:loops.index(loop_sref)]:
        if any(A.uses_var(v, above.stmt.loop_var) for v in reduce_values):
            raise err.LoopHeightError(
                blk, loop_sref.stmt, reason=f"the loop {above.stmt.loop_var.name_hint!r} above "
                "it feeds a reduction iter of the block; decompose at or above it")


def _init_nest(sch: Schedule, block_sref: Any, below: list) -> tuple[Block, Any]:
    """The init block and its loop nest: copies ``<loop>_init`` of the loops at/under the target
    loop that the spatial bindings use (kinds and annotations kept)."""
    blk: Block = block_sref.stmt
    realize = A.get_block_realize(sch.state, block_sref)
    spatial = [(iv, v) for iv, v in zip(blk.iter_vars, realize.iter_values)
               if iv.iter_type == IterVarType.DataPar]
    used = [s for s in below if any(A.uses_var(v, s.stmt.loop_var) for _, v in spatial)]
    lmap = {s.stmt.loop_var: Var(s.stmt.loop_var.name_hint + "_init", s.stmt.loop_var.dtype)
            for s in used}
    ivmap = {iv.var: Var(iv.var.name_hint, iv.var.dtype) for iv, _ in spatial}
    init_ivs = [iv.with_changes(var=ivmap[iv.var]) for iv, _ in spatial]
    init_vals = [substitute(v, lmap) for _, v in spatial]
    pred = _kept_predicate(realize.predicate, below, lmap, init_ivs, init_vals)
    init_block = Block(init_ivs, [], [], blk.name_hint + "_init",
                       substitute(blk.init, ivmap), span=blk.span)
    init_block = _with_regions(init_block).with_changes(reads=())
    stmt: Any = BlockRealize(init_vals, pred, init_block)
    for s in reversed(used):
        stmt = s.stmt.with_changes(loop_var=lmap[s.stmt.loop_var], body=stmt,
                                   annotations=dict(s.stmt.annotations))
    return init_block, stmt


def _kept_predicate(pred: Any, below: list, lmap: dict, init_ivs: list, init_vals: list) -> Any:
    """The predicate of a block made over copies ``lmap`` of some of the loops ``below`` (the
    init of decompose_reduction, the write-back of rfactor): the original's, its clauses over
    loops not copied dropped (TVM's ``RewriteInitPredicate``). Unlike TVM, a discarded loop of
    extent 1 is first replaced by its min, so its clause stays (split simplifies ``i_0 * 16 +
    i_1`` to ``i_1`` when ``i_0`` has extent 1, leaving ``T.where(i_0 * 16 + i_1 < 6)`` the only
    bound of ``i_1``), and when a clause is dropped the new block's iters ``init_ivs`` (bound to
    ``init_vals``) are kept inside their domains: the dropped clause may have been what kept
    them there (a block writing past the buffer)."""
    from ...arith import Analyzer  # pylint: disable=import-outside-toplevel
    from ...tir import op  # pylint: disable=import-outside-toplevel

    discarded = [s.stmt for s in below if s.stmt.loop_var not in lmap]
    unit = {lp.loop_var: lp.min for lp in discarded if is_const(lp.extent, 1)}
    gone = {lp.loop_var for lp in discarded} - set(unit)
    touched = bool(unit) and A.uses_var(pred, set(unit))
    pred = substitute(substitute(pred, unit), lmap)
    dropped = [False]

    def keep(e: Any) -> Any:
        if isinstance(e, E.And):
            return op.logical_and(keep(e.a), keep(e.b))
        if A.uses_var(e, gone):
            dropped[0] = True
            return True
        return e

    pred = keep(pred)
    if dropped[0]:
        ana = Analyzer()
        for var, lp in ((lmap[s.stmt.loop_var], s.stmt) for s in below
                        if s.stmt.loop_var in lmap):
            ana.bind(var, Range.from_min_extent(lp.min, lp.extent))
        for iv, val in zip(init_ivs, init_vals):
            lo, hi = iv.dom.min, iv.dom.min + iv.dom.extent
            for cond in (op.greater_equal(val, lo), op.less(val, hi)):
                if not ana.can_prove(cond):
                    pred = op.logical_and(pred, cond)
    if isinstance(pred, bool) or not (touched or dropped[0]):
        return pred
    return Analyzer().simplify(pred)


# ---------------------------------------------------------------------------------- rfactor
def _match_reducer(blk: Block) -> tuple[type, BufferStore, Any, Any]:
    """``(op class, update store, rhs, init value)`` of ``B[i] = B[i] op rhs``."""
    matched = match_reduction_update(blk)
    if isinstance(matched, str):
        raise err.ReducerNotFoundError(blk, reason=matched)
    return matched


def _combine(cls: type, a: Any, b: Any) -> Any:
    return cls(a, b)


def _rf_check(sch: Schedule, loop_sref: Any) -> tuple[Any, Any, list[Any]]:
    children = A.get_child_blocks(sch.state, loop_sref)
    if len(children) != 1:
        raise err.NotSingleChildBlockError(loop_sref.stmt)
    block_sref = children[0]
    scope_root = cast(StmtSRef, A.get_scope_root(block_sref))  # (checked: not the root block)
    reason = A.reduction_block_reason(sch.state, block_sref, scope_root)
    if reason is not None:
        raise err.NotReductionBlockError(block_sref.stmt, reason=reason)
    if loop_sref.stmt.kind != 0 or loop_sref.stmt.thread_binding is not None:
        raise err.LoopPropertyError(loop_sref.stmt, reason="the loop must be a serial loop")
    A.check_stage_pipeline(sch.state, scope_root)
    return block_sref, scope_root, A.get_loops(block_sref)


@primitive("RFactor", attrs=("factor_axis",), outputs="one",
           checks_own=("factor_axis",))  # FactorAxisOutOfRangeError
def rfactor(sch: Schedule, loop: Any, factor_axis: int) -> Any:
    """Factorize the reduction over ``loop``: a block ``<name>_rf`` computes partial results into
    a new buffer ``<buffer>_rf`` whose extra dimension (at ``factor_axis``) is indexed by the
    loop, and the original block reduces that buffer (``Schedule.rfactor``). Returns the rf block.

    Raises:
        ScheduleError: ``NotSingleChildBlockError`` (``loop``, or the block's outermost loop,
            holds more than this block), ``NotReductionBlockError``,
            ``NoMatchedReducerError``, ``LoopPropertyError`` (the loop is not a serial
            reduction loop, or a loop feeds both spatial and reduction iters),
            ``FactorAxisOutOfRangeError``, ``NotStagePipelineError``,
            ``LoopNotStartWithZeroError``.
    """
    loop_sref = sch._loop_sref(loop)  # pylint: disable=protected-access
    # the rf buffer's new dimension is indexed by the loop var and the write-back's iter takes
    # the loop's range: from 1 (a loop_partition's second part) that wrote out of bounds and
    # re-ran the T.init at 1 (no TVM counterpart: TVM 0.27 does the same)
    A.check_loop_starts_with_zero(loop_sref)
    block_sref, scope_root, loops = _rf_check(sch, loop_sref)
    blk: Block = block_sref.stmt
    if len(A.get_child_blocks(sch.state, loops[0])) != 1:
        # the block's loop nest is rebuilt from loops[0] down and the write-back goes after it:
        # blocks sharing loops[0] (a compute_at consumer) would then read the unreduced buffer
        raise err.NotSingleChildBlockError(
            loops[0].stmt, blk, detail="{0}, the outermost loop of {1}, holds other blocks "
            "too: rfactor rebuilds the loop nest of {1} and puts the write-back after it, so "
            "they would read the buffer before it is reduced; apply rfactor before compute_at "
            "/ reverse_compute_at")
    cls, store, rhs, identity = _match_reducer(blk)
    realize = A.get_block_realize(sch.state, block_sref)
    pairs = list(zip(blk.iter_vars, realize.iter_values))
    sp_loops = {s.stmt.loop_var for s in loops
                if any(iv.iter_type == IterVarType.DataPar and A.uses_var(v, s.stmt.loop_var)
                       for iv, v in pairs)}
    red_loops = [s for s in loops
                 if any(iv.iter_type == IterVarType.CommReduce and A.uses_var(v, s.stmt.loop_var)
                        for iv, v in pairs)]
    rf_var = loop_sref.stmt.loop_var
    if rf_var in sp_loops or all(s is not loop_sref for s in red_loops):
        raise err.LoopPropertyError(loop_sref.stmt, reason="the loop is not a reduction loop "
                                    "(it must only feed reduction iters of the block)")
    for s in red_loops:
        if s.stmt.loop_var in sp_loops:
            raise err.LoopPropertyError(s.stmt, reason="the loop feeds both a spatial and a "
                                        "reduction iter of the block")
    buf: Buffer = store.buffer
    ndim = len(buf.shape)
    if isinstance(factor_axis, bool) or not isinstance(factor_axis, int):
        raise err.FactorAxisOutOfRangeError(
            blk, reason=f"factor_axis must be an integer, got {factor_axis!r}")
    if not -ndim - 1 <= factor_axis <= ndim:
        raise err.FactorAxisOutOfRangeError(
            blk, reason=f"factor_axis {factor_axis} is outside [{-ndim - 1}, {ndim}]")
    axis = factor_axis % (ndim + 1)
    rf_block, rf_buf = _rf_block(blk, realize, red_loops, loop_sref, cls, store, rhs, identity,
                                 axis)
    wb_nest = _write_back(blk, realize, loops, sp_loops, loop_sref, cls, store, identity,
                          rf_buf, axis)
    top = loops[0].stmt
    new_top = deep_swap(top, {id(realize): rf_block})
    root = scope_root.stmt
    body = deep_swap(root.body, {id(top): SeqStmt([new_top, wb_nest])})
    new_root = root.with_changes(body=body, alloc_buffers=(*root.alloc_buffers, rf_buf))
    sch.state.replace(scope_root, new_root)
    return sch._new_rv(sch.state.get_sref(rf_block.block))  # pylint: disable=protected-access


def _rf_block(blk: Block, realize: BlockRealize, red_loops: list, loop_sref: Any, cls: type,
              store: BufferStore, rhs: Any, identity: Any, axis: int) -> tuple[BlockRealize, Any]:
    pairs = list(zip(blk.iter_vars, realize.iter_values))
    buf = store.buffer
    rf_extent = loop_sref.stmt.extent
    shape = list(buf.shape)
    shape.insert(axis, rf_extent)
    from ...tir.buffer import decl_buffer  # pylint: disable=import-outside-toplevel
    rf_buf = decl_buffer(shape, buf.dtype, buf.name + "_rf", scope=buf.scope())
    new_vars = {}
    ivs, values = [], []
    for s in red_loops:
        lv = s.stmt.loop_var
        v = Var("v" + lv.name_hint, lv.dtype)
        new_vars[lv] = v
        kind = IterVarType.DataPar if s is loop_sref else IterVarType.CommReduce
        ivs.append((s is not loop_sref, IterVar(Range.from_min_extent(s.stmt.min, s.stmt.extent),
                                                v, kind), lv))
    rf_iv = next(iv for other, iv, _ in ivs if not other)
    vmap: dict[Any, Any] = {}
    for iv, value in pairs:
        if iv.iter_type == IterVarType.CommReduce:
            vmap[iv.var] = substitute(value, new_vars)
    data_par = [(iv, v) for iv, v in pairs if iv.iter_type == IterVarType.DataPar]
    all_ivs = [rf_iv] + [iv for iv, _ in data_par] + [iv for other, iv, _ in ivs if other]
    values = [loop_sref.stmt.loop_var] + [v for _, v in data_par] + \
        [lv for other, _, lv in ivs if other]
    idx = list(store.indices)
    idx.insert(axis, rf_iv.var)
    value = substitute(rhs, vmap)
    if any(other for other, _, _ in ivs):
        body = BufferStore(rf_buf, _combine(cls, BufferLoad(rf_buf, idx), value), idx)
        init: Any = BufferStore(rf_buf, identity, idx)
    else:  # no reduction left in the rf block: it just stores the values (TVM, likewise)
        body, init = BufferStore(rf_buf, value, idx), None
    block = Block(all_ivs, [], [], blk.name_hint + "_rf", body, init, span=blk.span)
    # the rf block runs under the block's own loops: its predicate (a non-divisible split of
    # the reduction) still guards it, as in TVM
    return BlockRealize(values, realize.predicate, _with_regions(block)), rf_buf


def _write_back(blk: Block, realize: BlockRealize, loops: list, sp_loops: set, loop_sref: Any,
                cls: type, store: BufferStore, identity: Any, rf_buf: Any, axis: int) -> Any:
    pairs = list(zip(blk.iter_vars, realize.iter_values))
    keep = [s for s in loops if s.stmt.loop_var in sp_loops or s is loop_sref]
    lmap = {s.stmt.loop_var: Var(s.stmt.loop_var.name_hint, s.stmt.loop_var.dtype) for s in keep}
    data_par = [(iv, v) for iv, v in pairs if iv.iter_type == IterVarType.DataPar]
    ivmap = {iv.var: Var(iv.var.name_hint, iv.var.dtype) for iv, _ in data_par}
    lv = loop_sref.stmt.loop_var
    rvar = Var("v" + lv.name_hint, lv.dtype)
    # the rfactor iter var first, then the block's data-parallel ones (TVM
    # WriteBackBlockCreator: CreateAdditionalIter before CreateNormalIters)
    ivs = [IterVar(Range.from_min_extent(loop_sref.stmt.min, loop_sref.stmt.extent), rvar,
                   IterVarType.CommReduce)]
    ivs += [iv.with_changes(var=ivmap[iv.var]) for iv, _ in data_par]
    values = [lmap[lv]] + [substitute(v, lmap) for _, v in data_par]
    out_idx = [substitute(i, ivmap) for i in store.indices]
    rf_idx = list(out_idx)
    rf_idx.insert(axis, rvar)
    body = BufferStore(store.buffer, _combine(cls, BufferLoad(store.buffer, out_idx),
                                              BufferLoad(rf_buf, rf_idx)), out_idx)
    init = BufferStore(store.buffer, identity, out_idx)
    block = _with_regions(Block(ivs, [], [], blk.name_hint, body, init, span=blk.span))
    # the block's predicate over the kept loops (TVM's write-back has none: a spatial loop split
    # by a non-divisor then writes past the output)
    pred = _kept_predicate(realize.predicate, loops, lmap, ivs[1:], values[1:])
    stmt: Any = BlockRealize(values, pred, block)
    for s in reversed(keep):
        stmt = For(lmap[s.stmt.loop_var], s.stmt.min, s.stmt.extent, s.stmt.kind, stmt,
                   span=s.stmt.span)
    return stmt
