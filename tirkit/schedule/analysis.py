"""Analyses over the sref tree used by the primitives (mirrors ``src/tir/schedule/analysis``):
loops and child blocks of an sref, the BlockRealize of a block, affine bindings, region cover,
complete/reduction blocks, and the checks that raise TVM's ScheduleErrors.
"""
from __future__ import annotations

from typing import Any, Iterator, cast

from ..arith import Analyzer, detect_iter_map
from ..arith.int_set import IntervalSet, eval_set
from ..ir.expr import IntImm, PrimExpr, Range
from ..tir.expr import IterVarType, Var
from ..tir.function import PrimFunc
from ..tir.stmt import Block, BlockRealize, For, SeqStmt
from ..tir.stmt_functor import post_order_visit, substitute
from . import errors as err
from . import region_bound as RB
from .block_scope import DepKind
from .state import ANALYSES, ScheduleState, StmtSRef, _stmt_children


def iter_child_srefs(state: ScheduleState, sref: StmtSRef) -> Iterator[StmtSRef]:
    """Blocks and loops directly under ``sref`` (not inside another block/loop), in order."""
    def walk(stmt: Any) -> Iterator[StmtSRef]:
        if isinstance(stmt, BlockRealize):
            stmt = stmt.block
        if isinstance(stmt, (For, Block)):
            child = state.get_sref(stmt)
            if child is not None:
                yield child
            return
        for c in _stmt_children(stmt):
            yield from walk(c)
    yield from walk(sref.stmt.body)


def get_child_blocks(state: ScheduleState, sref: StmtSRef) -> list[StmtSRef]:
    """Blocks under ``sref`` not nested in another block, in program order
    (TVM ``GetChildBlockSRefOnSRefTree``)."""
    out: list[StmtSRef] = []

    def walk(s: StmtSRef) -> None:
        for c in iter_child_srefs(state, s):
            if c.is_block:
                out.append(c)
            else:
                walk(c)
    walk(sref)
    return out


def get_loops(block_sref: StmtSRef) -> list[StmtSRef]:
    """Loops above a block up to its scope root, outermost first (TVM ``GetLoops``)."""
    out = []
    for p in block_sref.ancestors():
        if p.is_block:
            break
        out.append(p)
    return out[::-1]


def get_scope_root(sref: StmtSRef) -> StmtSRef | None:
    """The nearest enclosing block (TVM ``GetScopeRoot``); ``None`` for a root block."""
    for p in sref.ancestors():
        if p.is_block:
            return p
    return None


def get_block_realize(state: ScheduleState, block_sref: StmtSRef) -> BlockRealize:
    """The BlockRealize executing a block (TVM ``GetBlockRealize``)."""
    if block_sref.parent is None:
        return cast(BlockRealize, cast(PrimFunc, state.mod[state.func_of(block_sref)]).body)
    found: list[BlockRealize] = []
    _find_realize(block_sref.parent.stmt.body, block_sref.stmt, found)
    return found[0]


def _find_realize(stmt: Any, block: Block, found: list) -> None:
    if isinstance(stmt, BlockRealize):
        if stmt.block is block:
            found.append(stmt)
        return
    if isinstance(stmt, (For, Block)):
        return
    for c in _stmt_children(stmt):
        _find_realize(c, block, found)


def loop_ranges(loops: list[StmtSRef]) -> dict[Var, Range]:
    """``{loop var: Range(min, min + extent)}`` of loop srefs."""
    return {s.stmt.loop_var: Range.from_min_extent(s.stmt.min, s.stmt.extent) for s in loops}


def lca(a: StmtSRef, b: StmtSRef) -> StmtSRef:
    """Lowest common ancestor of two srefs (the srefs themselves count)."""
    chain = {id(a)}
    chain.update(id(p) for p in a.ancestors())
    for s in (b, *b.ancestors()):
        if id(s) in chain:
            return s
    raise err.InvalidArgumentError(a.stmt, b.stmt, reason=f"{err.describe(a.stmt)} and "
                                   f"{err.describe(b.stmt)} are in different functions")


def loops_between(sref: StmtSRef, top: StmtSRef) -> list[StmtSRef]:
    """Loops strictly between ``sref`` and its ancestor ``top``, innermost first."""
    out = []
    for p in sref.ancestors():
        if p is top:
            break
        if p.is_loop:
            out.append(p)
    return out


# ------------------------------------------------------------------------------- block flags
def is_affine_binding(state: ScheduleState, block_sref: StmtSRef) -> bool:
    """Whether the block's bindings are a (surjective) affine map of its loops up to the scope
    root (TVM ``IsAffineBinding``)."""
    realize = get_block_realize(state, block_sref)
    if not realize.iter_values:
        return True
    ranges = loop_ranges(get_loops(block_sref))
    if any(not isinstance(r.extent, IntImm) for r in ranges.values()):
        return False
    res = detect_iter_map(realize.iter_values, ranges, realize.predicate, "surjective")
    return not res.errors


def block_region_over(state: ScheduleState, block_sref: StmtSRef, regions: Any,
                      top: StmtSRef, use_predicate: bool = False
                      ) -> list[tuple[Any, list[IntervalSet]]]:
    """``regions`` of a block with its bindings substituted and relaxed over the loops between the
    block and ``top`` (TVM ``RelaxRegion``). With ``use_predicate`` the block predicate narrows
    each dimension (TVM ``EstimateRegionUpperBound``/``EstimateRegionLowerBound``)."""
    realize = get_block_realize(state, block_sref)
    vmap = {iv.var: v for iv, v in zip(realize.block.iter_vars, realize.iter_values)}
    loops = loops_between(block_sref, top)
    dom = {s.stmt.loop_var: Range.from_min_extent(s.stmt.min, s.stmt.extent) for s in loops}
    bounds = RB.predicate_bounds(realize.predicate)[0] if use_predicate else []
    inner = loop_analyzer(block_sref.parent or block_sref) if bounds else None
    out = []
    for region in regions:
        sets = []
        for r in region.region:
            lo_e, hi_e = substitute(r.min, vmap), substitute(r.min + r.extent - 1, vmap)
            relaxed = IntervalSet(eval_set(lo_e, dom).min_value, eval_set(hi_e, dom).max_value)
            sets.append(RB.tighten(inner, lo_e, hi_e, relaxed, bounds, set(dom), dom,
                                   realize.predicate) if inner else relaxed)
        out.append((region.buffer, sets))
    return out


_STORAGE_RANK = {"global": 0, "shared": 1, "warp": 2, "local": 3}


def can_relax_storage_under_thread(scope: str, thread_tag: str) -> bool:
    """Whether the threads of ``thread_tag`` share a buffer of storage ``scope`` (TVM
    ``CanRelaxStorageUnderThread``): blockIdx is rank 0, threadIdx/vthread rank 1; shared (rank
    1) is shared by a block's threads, warp memory by threadIdx.x only, local by none; other
    scopes (wmma.*, ...) rank above local."""
    rank = next((r for name, r in _STORAGE_RANK.items() if scope.startswith(name)), 9)
    thread_rank = 0 if thread_tag.startswith("blockIdx") else 1
    if rank == 2:
        return thread_tag == "threadIdx.x"
    return rank <= thread_rank


def shared_thread_loops(sref: StmtSRef, scope: str) -> dict[Var, Range]:
    """The thread-bound loops at and above ``sref`` whose threads share a buffer of ``scope``
    (nothing for a global buffer)."""
    if scope in ("", "global") or scope.startswith("global"):
        return {}
    out = {}
    for p in (sref, *sref.ancestors()):
        loop = p.stmt
        if p.is_loop and loop.thread_binding is not None and \
                can_relax_storage_under_thread(scope, loop.thread_binding.thread_tag):
            out[loop.loop_var] = Range.from_min_extent(loop.min, loop.extent)
    return out


def loop_analyzer(sref: StmtSRef) -> Analyzer:
    """An analyzer with ``sref`` (when a loop) and every loop above it bound to its range."""
    ana = Analyzer()
    for p in (sref, *sref.ancestors()):
        if p.is_loop:
            ana.bind(p.stmt.loop_var, Range.from_min_extent(p.stmt.min, p.stmt.extent))
    return ana


def covers(ana: Analyzer, prod: list[IntervalSet], cons: list[IntervalSet]) -> bool:
    """Whether the produced region contains the consumed one, provably."""
    for p, c in zip(prod, cons):
        if not (p.is_bounded() and c.is_bounded()):
            return False
        if not (ana.can_prove(cast(PrimExpr, p.min_value) <= c.min_value)  # (bounded)
                and ana.can_prove(cast(PrimExpr, c.max_value) <= p.max_value)):
            return False
    return True


def lower_bound_writes(state: ScheduleState, producer: StmtSRef, top: StmtSRef,
                       ana: Analyzer, use_predicate: bool = True
                       ) -> list[tuple[Any, list[IntervalSet | None]]]:
    """Per written buffer of ``producer``, the region it surely writes while the loops between
    it and ``top`` run (TVM ``AnalyzeRegionLowerBound``); a ``None`` dimension is Nothing.
    Without ``use_predicate`` the block predicate is ignored (the writes are only checked to be
    dense)."""
    realize = get_block_realize(state, producer)
    vmap = {iv.var: v for iv, v in zip(realize.block.iter_vars, realize.iter_values)}
    dom = {s.stmt.loop_var: Range.from_min_extent(s.stmt.min, s.stmt.extent)
           for s in loops_between(producer, top)}
    out: list[tuple[Any, list[IntervalSet | None]]] = []
    for region in producer.stmt.writes:
        mins = [substitute(r.min, vmap) for r in region.region]
        extents = [ana.simplify(substitute(r.extent, vmap)) for r in region.region]
        bound = RB.region_lower_bound(ana, mins, extents, dom,
                                      realize.predicate if use_predicate else True)
        out.append((region.buffer, list(bound) if bound is not None else [None] * len(mins)))
    return out


def region_cover(state: ScheduleState, block_sref: StmtSRef, scope_root: StmtSRef) -> bool:
    """Whether every region the block reads from producers in the scope is surely written by
    them (TVM's ``region_cover`` flag, ``CheckRegionCoverAndStagePipeline``): producers are
    grouped by their lowest common ancestor with the block; at each, the regions they surely
    write (an exact lower bound: a strided write covers nothing) are unioned per buffer and
    must contain the region the block reads (an upper bound)."""
    scope = state.get_block_scope(scope_root)
    by_top: dict[int, tuple[StmtSRef, list[StmtSRef]]] = {}
    for dep in scope.get_deps_by_dst(block_sref):
        if dep.kind == DepKind.RAW:
            top = lca(dep.src, block_sref)
            by_top.setdefault(id(top), (top, []))[1].append(dep.src)
    for top, producers in by_top.values():
        ana = loop_analyzer(top)
        reads = block_region_over(state, block_sref, block_sref.stmt.reads, top, True)
        read_bufs = {id(buf) for buf, _ in reads}
        touched: dict[int, list[list[IntervalSet | None]]] = {}
        for p in producers:
            for buf, sets in lower_bound_writes(state, p, top, ana):
                if id(buf) in read_bufs:
                    touched.setdefault(id(buf), []).append(sets)
        for buf, read_sets in reads:
            if id(buf) not in touched:
                continue
            produced = [RB.union_lower_bound(ana, list(dims)) for dims in zip(*touched[id(buf)])]
            if any(p is None for p in produced) or not covers(
                    ana, RB.clip_to_shape(ana, cast(list[IntervalSet], produced), buf.shape),
                    RB.clip_to_shape(ana, read_sets, buf.shape)):
                return False
    return True


def compute_block_info(state: ScheduleState, block_sref: StmtSRef) -> dict[str, bool]:
    """The cached flags of a block (TVM ``BlockInfo``)."""
    scope_root = get_scope_root(block_sref)
    info = {"affine_binding": is_affine_binding(state, block_sref),
            "region_cover": True if scope_root is None else
            region_cover(state, block_sref, scope_root)}
    children = get_child_blocks(state, block_sref)
    info["stage_pipeline"] = all(state.block_info(c)["region_cover"] for c in children)
    return info


# ------------------------------------------------------------------------- block properties
def is_dominant_block(state: ScheduleState, scope_root: StmtSRef, block_sref: StmtSRef) -> bool:
    """The block is the only writer of each buffer it writes in the scope (TVM
    ``IsDominantBlock``)."""
    writers = state.get_block_scope(scope_root).buffer_writers
    return all(len(writers.get(r.buffer, ())) == 1 for r in block_sref.stmt.writes)


def complete_block_reason(state: ScheduleState, block_sref: StmtSRef,
                          scope_root: StmtSRef) -> str | None:
    """``None`` for a complete block, else why not (TVM ``CheckCompleteBlockErrorCode``)."""
    block = block_sref.stmt
    if any(iv.iter_type != IterVarType.DataPar for iv in block.iter_vars):
        return "it has an iter var that is not data-parallel"
    if not is_dominant_block(state, scope_root, block_sref):
        return "it is not the only writer of its output buffers in the scope"
    written = {r.buffer for r in block.writes}
    if any(r.buffer in written for r in block.reads):
        return "it reads a buffer it writes"
    return None


def reduction_block_reason(state: ScheduleState, block_sref: StmtSRef,
                           scope_root: StmtSRef) -> str | None:
    """``None`` for a reduction block, else why not (TVM ``CheckReductionBlockErrorCode``)."""
    block = block_sref.stmt
    if block.init is None:
        return "it has no init statement"
    if not state.block_info(block_sref)["affine_binding"]:
        return "its bindings are not affine"
    if any(iv.iter_type not in (IterVarType.DataPar, IterVarType.CommReduce)
           for iv in block.iter_vars):
        return "it has an iter var that is neither data-parallel nor reduction"
    if not is_dominant_block(state, scope_root, block_sref):
        return "it is not the only writer of its output buffers in the scope"
    reduce_vars = {iv.var for iv in block.iter_vars if iv.iter_type == IterVarType.CommReduce}
    if _writes_use(block, reduce_vars):
        return "a reduction iter var indexes the output buffer"
    return None


def _writes_use(block: Block, variables: set) -> bool:
    used: list[bool] = []

    def visit(n: Any) -> None:
        if isinstance(n, Var) and n in variables:
            used.append(True)

    def store(n: Any) -> None:
        from ..tir.stmt import BufferStore  # pylint: disable=import-outside-toplevel
        if isinstance(n, BufferStore):
            for i in n.indices:
                post_order_visit(i, visit)
    post_order_visit(block.body, store)
    return bool(used)


def check_complete_or_reduction(state: ScheduleState, block_sref: StmtSRef,
                                scope_root: StmtSRef) -> None:
    """Raise ``NotCompleteOrReductionBlockError`` unless the block is complete or a reduction
    (TVM ``CheckCompleteOrReductionBlock``)."""
    c = complete_block_reason(state, block_sref, scope_root)
    if c is None:
        return
    r = reduction_block_reason(state, block_sref, scope_root)
    if r is None:
        return
    raise err.NotCompleteOrReductionBlockError(
        block_sref.stmt, reason=f"not complete because {c}; not a reduction because {r}")


def check_affine_binding(state: ScheduleState, block_sref: StmtSRef) -> None:
    """Raise ``NotAffineBindingError`` unless the block's binding is affine."""
    if not state.block_info(block_sref)["affine_binding"]:
        raise err.NotAffineBindingError(block_sref.stmt)


def check_loop_starts_with_zero(loop_sref: StmtSRef) -> None:
    """Raise ``LoopNotStartWithZeroError`` (TVM ``CheckLoopStartsWithZero``)."""
    lo = loop_sref.stmt.min
    if not (isinstance(lo, IntImm) and lo.value == 0):
        raise err.LoopNotStartWithZeroError(loop_sref.stmt)


def check_no_annotation(loop_sref: StmtSRef) -> None:
    """Raise ``HasAnnotationOrThreadBindingError`` for a loop with annotations/thread binding."""
    loop = loop_sref.stmt
    if loop.annotations or loop.thread_binding is not None:
        raise err.HasAnnotationOrThreadBindingError(loop)


def check_stage_pipeline(state: ScheduleState, scope_root: StmtSRef) -> None:
    """Raise ``NotStagePipelineError`` unless the scope is a stage pipeline."""
    if not state.block_info(scope_root)["stage_pipeline"]:
        raise err.NotStagePipelineError(scope_root.stmt)


def body_blocks(stmt: Any) -> list[BlockRealize]:
    """BlockRealizes directly in ``stmt`` (not inside another block)."""
    out: list[BlockRealize] = []

    def walk(s: Any) -> None:
        if isinstance(s, BlockRealize):
            out.append(s)
            return
        for c in _stmt_children(s):
            walk(c)
    walk(stmt)
    return out


def uses_var(expr: Any, variables: Any) -> bool:
    """Whether ``expr`` uses any var of ``variables`` (a set or one Var)."""
    vs = variables if isinstance(variables, (set, frozenset)) else {variables}
    hit: list[bool] = []
    post_order_visit(expr, lambda n: hit.append(True) if isinstance(n, Var) and n in vs else None)
    return bool(hit)


def seq_of(stmt: Any) -> tuple:
    """The statements of a body (a SeqStmt's items or the one statement)."""
    return stmt.seq if isinstance(stmt, SeqStmt) else (stmt,)


def get_loops_above(sref: StmtSRef) -> list[StmtSRef]:
    """Loops above a block or loop up to the scope root, outermost first."""
    return get_loops(sref)


def lca_of(srefs: list[StmtSRef]) -> StmtSRef:
    """Lowest common ancestor of several srefs."""
    out = srefs[0]
    for s in srefs[1:]:
        out = lca(out, s)
    return out


ANALYSES.update(get_child_blocks=get_child_blocks, compute_block_info=compute_block_info)
