"""The CPU design space (mirrors MetaSchedule's ``ScheduleRule``\\ s for ``llvm``): each rule
applies schedule primitives whose choices come from sampling instructions, so one run with a
seed is one candidate, recorded as a Trace that replays exactly.

Rules, in order (TVM's names):

- ``AutoInline``: element-wise producers are ``compute_inline``\\ d into their consumers,
  element-wise consumers ``reverse_compute_inline``\\ d into their producer — except blocks
  with an ``if_then_else`` (padding), as TVM's ``disallow_if_then_else`` for ``llvm``;
- ``MultiLevelTiling`` (``SSRSRS``): each spatial loop of a block with a reduction is split in 4
  with ``sample_perfect_tile``, each reduction loop in 2, and the tiles reordered
  S0 S1 R0 S2 R1 S3; blocks are visited consumers first, as ``PostOrderApply`` does;
- ``ParallelizeVectorizeUnroll``: the outer spatial tiles (S0, then S1) are fused and made
  parallel while their extent stays within ``MAX_PARALLEL_EXTENT`` (TVM: cores x 16 jobs), the
  innermost spatial tile vectorized, and ``pragma_auto_unroll_max_step`` sampled from
  ``(0, 16, 64)`` (TVM also tries 512; tirkit's CommonSubexprElimTIR takes minutes on
  a 512-step explicitly unrolled body, so that choice only costs timeouts for now);
- ``RewriteReductionBlock`` (a MetaSchedule postprocessor): ``decompose_reduction`` at the first
  reduction tile, so the update loop nest carries no init branch;
- ``RandomComputeLocation``: each intermediate block that was not tiled is ``compute_at`` a
  loop of its consumer drawn by ``sample_compute_location`` (or stays at the root); what stays
  at the root gets its outer spatial loop parallel and its inner one vectorized.

- ``AddRFactor``: a reduction with less spatial than reduction work (and no more spatial work
  than ``MAX_PARALLEL_EXTENT``) may have its fused reduction loops split with
  ``sample_perfect_tile`` and ``rfactor``\\ ed at the outer or inner part (a sampled choice, or
  none), so the partial sums run in parallel; the ``<name>_rf`` block is then tiled like any
  reduction.

Not yet: ``CrossThreadReduction`` (GPU) and the ``cache_write`` ("ReuseType") levels of
multi-level tiling.

A rule that does not apply to a block is skipped (a ``ScheduleError`` leaves the schedule as it
was).
"""
from __future__ import annotations

import os
from typing import Any

from tirkit import tir
from tirkit.schedule import Schedule
from tirkit.schedule.errors import ScheduleError

UNROLL_STEPS = (0, 16, 64)
MAX_PARALLEL_EXTENT = 16 * (os.cpu_count() or 1)


def _block_names(func: tir.PrimFunc) -> list[str]:
    names: list[str] = []
    tir.stmt_functor.post_order_visit(func.body, lambda n: names.append(n.name_hint)
                                      if isinstance(n, tir.Block) and n.name_hint != "root"
                                      else None)
    return names


def _func(sch: Schedule) -> tir.PrimFunc:
    (func,) = [f for f in sch.mod.functions.values() if isinstance(f, tir.PrimFunc)]
    return func


def _is_elementwise(block: tir.Block) -> bool:
    return not block.init and all(iv.iter_type == tir.IterVarType.DataPar
                                  for iv in block.iter_vars)


def _has_if_then_else(block: tir.Block) -> bool:
    found: list[bool] = []
    tir.stmt_functor.post_order_visit(block.body, lambda n: found.append(True)
                                      if isinstance(n, tir.Call)
                                      and getattr(n.op, "name", "") == "tir.if_then_else"
                                      else None)
    return bool(found)


def _params_written(func: tir.PrimFunc, block: tir.Block) -> bool:
    params = {id(b) for b in func.buffer_map.values()}
    return any(id(r.buffer) in params for r in block.writes)


def auto_inline(sch: Schedule) -> None:
    """``AutoInline``: inline element-wise producers (not writing a parameter) and element-wise
    consumers where the schedule allows it."""
    for name in _block_names(_func(sch)):
        block = _find_block(sch, name)
        if block is None or not _is_elementwise(block) or _has_if_then_else(block):
            continue
        try:
            if not _params_written(_func(sch), block):
                sch.compute_inline(sch.get_block(name))
            else:
                sch.reverse_compute_inline(sch.get_block(name))
        except ScheduleError:
            continue


def _find_block(sch: Schedule, name: str) -> tir.Block | None:
    found: list[tir.Block] = []
    tir.stmt_functor.post_order_visit(_func(sch).body, lambda n: found.append(n)
                                      if isinstance(n, tir.Block) and n.name_hint == name
                                      else None)
    return found[0] if found else None


def _loop_kinds(sch: Schedule, block_rv: Any) -> list[str] | None:
    """``"S"``/``"R"`` per loop above the block, or None when a loop binds several iters or an
    iter is bound to an expression (the tiling rule then skips the block)."""
    from tirkit.schedule.analysis import get_block_realize  # pylint: disable=import-outside-toplevel

    realize = get_block_realize(sch.state, sch.get_sref(block_rv))  # type: ignore[arg-type]
    kinds: dict[int, str] = {}
    for iv, value in zip(realize.block.iter_vars, realize.iter_values):
        if not isinstance(value, tir.Var):
            if isinstance(value, tir.IntImm):
                continue
            return None
        kinds[id(value)] = "R" if iv.iter_type == tir.IterVarType.CommReduce else "S"
    out = []
    for loop in sch.get_loops(block_rv):
        kind = kinds.get(id(sch.get(loop).loop_var))
        if kind is None:
            return None
        out.append(kind)
    return out


def multi_level_tiling(sch: Schedule, name: str, max_innermost_factor: int = 64) -> bool:
    """``MultiLevelTiling`` + ``ParallelizeVectorizeUnroll`` + ``RewriteReductionBlock`` on
    block ``name``; returns whether it applied."""
    block = sch.get_block(name)
    kinds = _loop_kinds(sch, block)
    if not kinds or kinds.count("R") == 0 or kinds.count("S") == 0:
        return False
    if _leave_to_compute_location(sch, name):
        return False
    loops = sch.get_loops(block)
    levels: dict[str, list[list[Any]]] = {"S": [[], [], [], []], "R": [[], []]}
    for loop, kind in zip(loops, kinds):
        n = 4 if kind == "S" else 2
        factors = sch.sample_perfect_tile(loop, n=n, max_innermost_factor=max_innermost_factor)
        for level, tile in enumerate(sch.split(loop, factors=factors)):
            levels[kind][level].append(tile)
    s, r = levels["S"], levels["R"]
    order = s[0] + s[1] + r[0] + s[2] + r[1] + s[3]
    sch.reorder(*order)
    outer = _fuse_parallel(sch, s[0] + s[1])
    step = sch.sample_categorical(candidates=list(UNROLL_STEPS), probs=[1 / len(UNROLL_STEPS)] * len(UNROLL_STEPS))
    sch.annotate(outer, "pragma_auto_unroll_max_step", step)
    sch.annotate(outer, "pragma_unroll_explicit", 1)
    try:  # before decompose_reduction, as MetaSchedule's postprocessors run
        sch.vectorize(s[3][-1])
    except ScheduleError:
        pass
    if r[0]:
        sch.decompose_reduction(block, r[0][0])
    return True


def add_rfactor(sch: Schedule, name: str) -> None:
    """``AddRFactor`` (see module doc) on block ``name``; nothing when it does not apply."""
    block = sch.get_block(name)
    kinds = _loop_kinds(sch, block)
    if not kinds or "R" not in kinds or "S" in kinds[kinds.index("R"):]:
        return
    loops = sch.get_loops(block)
    n_space = kinds.count("S")
    space = _product(sch, loops[:n_space])
    if not space < _product(sch, loops[n_space:]) or space > MAX_PARALLEL_EXTENT:
        return
    where = sch.get(sch.sample_categorical(candidates=[0, 1, 2], probs=[1 / 3] * 3))
    if not where:
        return
    reduce = loops[n_space:]
    fused = sch.fuse(*reduce) if len(reduce) > 1 else reduce[0]
    parts = sch.split(fused, factors=sch.sample_perfect_tile(fused, n=2,
                                                             max_innermost_factor=64))
    try:
        sch.rfactor(parts[where - 1], factor_axis=0)
    except ScheduleError:
        return


def _product(sch: Schedule, loops: list[Any]) -> int:
    out = 1
    for loop in loops:
        out *= _extent(sch, loop)
    return out


def _leave_to_compute_location(sch: Schedule, name: str) -> bool:
    """An intermediate reduction (it writes no parameter) is either tiled or left untiled for
    RandomComputeLocation to move under its consumer (a row reduction computed per row, as a
    hand-written softmax does): a sampled choice, so the search weighs both."""
    block = _find_block(sch, name)
    if block is None or _params_written(_func(sch), block):
        return False
    choice = sch.sample_categorical(candidates=[0, 1], probs=[0.5, 0.5])
    return bool(sch.get(choice))


def _fuse_parallel(sch: Schedule, spatial: list[Any]) -> Any:
    """Fuse the outer spatial loops while their extent stays within MAX_PARALLEL_EXTENT
    (always the first one) and make the fused loop parallel (TVM's
    ``RewriteParallelVectorizeUnroll``); returns it."""
    take, extent = 1, _extent(sch, spatial[0])
    while take < len(spatial) and extent * _extent(sch, spatial[take]) <= MAX_PARALLEL_EXTENT:
        extent *= _extent(sch, spatial[take])
        take += 1
    outer = sch.fuse(*spatial[:take]) if take > 1 else spatial[0]
    sch.parallel(outer)
    return outer


def _extent(sch: Schedule, loop: Any) -> int:
    return int(getattr(sch.get(loop).extent, "value", 1 << 30))


def random_compute_location(sch: Schedule, name: str) -> None:
    """``RandomComputeLocation``: an intermediate block (it writes no parameter) is moved under
    a loop of its consumer drawn by ``sample_compute_location`` (or left at the root)."""
    block = _find_block(sch, name)
    if block is None or _params_written(_func(sch), block):
        return
    rv = sch.get_block(name)
    try:
        loop = sch.sample_compute_location(rv)
        if loop is not None:
            sch.compute_at(rv, loop)
    except ScheduleError:
        return


def generate(func: tir.PrimFunc, seed: int) -> Schedule:
    """One candidate of the design space of ``func``: a Schedule (with its trace) made with the
    sampling seed ``seed``."""
    sch = Schedule(func, seed=seed, debug_mask="none")
    auto_inline(sch)
    for name in reversed(_block_names(_func(sch))):
        add_rfactor(sch, name)
    tiled: set[str] = set()
    for name in reversed(_block_names(_func(sch))):  # consumers first, as PostOrderApply
        try:
            if multi_level_tiling(sch, name):
                tiled.update((name, f"{name}_init", f"{name}_update"))
        except ScheduleError:
            continue
    rest = [n for n in reversed(_block_names(_func(sch))) if n not in tiled]
    for name in rest:
        random_compute_location(sch, name)
    for name in rest:
        _parallel_outer(sch, name)
    return sch


def _parallel_outer(sch: Schedule, name: str) -> None:
    """Blocks the tiling rule skipped: parallelize the outer spatial loop, vectorize the
    innermost one, when legal."""
    try:
        block = sch.get_block(name)
        kinds = _loop_kinds(sch, block) or []
        loops = sch.get_loops(block)
        if kinds and kinds[0] == "S":
            sch.parallel(loops[0])
        if kinds and kinds[-1] == "S" and len(loops) > 1 and _innermost(sch, loops[-1]):
            sch.vectorize(loops[-1])
    except ScheduleError:
        return


def _innermost(sch: Schedule, loop: Any) -> bool:
    """Whether no loop is nested in ``loop`` (a block computed at it brings its own)."""
    nested: list[bool] = []
    tir.stmt_functor.post_order_visit(sch.get(loop).body, lambda n: nested.append(True)
                                      if isinstance(n, tir.For) else None)
    return not nested
