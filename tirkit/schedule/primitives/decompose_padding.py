"""decompose_padding (mirrors TVM's ``src/tir/schedule/primitive/decompose_padding.cc``).

A padding block ``y[v] = T.if_then_else(in_bound(v), value(v), pad)`` becomes two blocks: one
``{name}_pad_const`` writing ``pad`` over the whole region, inserted right before ``loop``, and
the original block narrowed to the in-bound region (its iters and their loops start at 0 over the
in-bound extent; accesses are shifted by the region's start). The in-bound region is read off the
predicate: each conjunct bounds one loop var that a block iter is bound to.
"""
from __future__ import annotations

from typing import Any, cast

from ...arith import Analyzer
from ...ir.expr import FloatImm, IntImm, PrimExpr, Range
from ...tir import expr as E
from ...tir import op as tir_op
from ...tir import stmt as S
from ...tir.stmt_functor import StmtMutator, post_order_visit, substitute
from .. import errors as err
from . import _ir_utils as U
from ._ir_utils import PrimitiveResult
from .cache_layout_errors import PaddingPatternMatchError

_CMP = (E.LT, E.LE, E.GT, E.GE)


def _conjuncts(e: PrimExpr) -> list[PrimExpr]:
    if isinstance(e, E.And):
        return _conjuncts(e.a) + _conjuncts(e.b)
    if isinstance(e, E.Call) and getattr(e.op, "name", "") == "tir.likely":
        return _conjuncts(e.args[0])
    return [] if U.is_const(e, 1) else [e]


def _vars_of(e: PrimExpr) -> list[E.Var]:
    found: list[E.Var] = []
    post_order_visit(e, lambda n: found.append(n) if isinstance(n, E.Var)
                     and all(n is not f for f in found) else None)
    return found


def _bound(cmp: Any, ana: Analyzer) -> tuple[E.Var, int | None, int | None]:
    """``(v, lo, hi)`` with ``lo <= v < hi`` equivalent to the comparison ``cmp`` of one var."""
    diff = ana.simplify(cmp.a - cmp.b)  # cmp: diff op 0
    names = _vars_of(diff)
    if len(names) != 1:
        raise ValueError("Block iters are not independent wrt padding condition")
    v = names[0]
    k = ana.simplify(substitute(diff, {v: IntImm(v.dtype, 0)}))
    c = ana.simplify(substitute(diff, {v: IntImm(v.dtype, 1)}) - k)
    if not (isinstance(k, IntImm) and isinstance(c, IntImm) and c.value in (1, -1)):
        raise ValueError("Strided iteration is not supported")
    kv, cv = k.value, c.value  # diff == cv*v + kv
    strict = isinstance(cmp, (E.LT, E.GT))
    upper = isinstance(cmp, (E.LT, E.LE)) == (cv == 1)  # cv*v + kv < 0: v from above if cv>0
    if upper:
        edge = -kv * cv  # v < edge (strict) or v <= edge
        return v, None, edge if strict else edge + 1
    edge = -kv * cv
    return v, (edge + 1 if strict else edge), None


def _in_bound_region(realize: S.BlockRealize, pred: PrimExpr, ana: Analyzer) -> list[Range]:
    """TVM's ``EstimateInBoundRegion`` for conjunctions of one-var bounds."""
    bounds: dict[int, list[Any]] = {}
    for part in _conjuncts(pred):
        if not isinstance(part, _CMP):
            raise ValueError(f"unsupported padding condition {part.script()}")
        v, lo, hi = _bound(part, ana)
        cur = bounds.setdefault(id(v), [None, None])
        cur[0] = lo if cur[0] is None else (cur[0] if lo is None else max(cur[0], lo))
        cur[1] = hi if cur[1] is None else (cur[1] if hi is None else min(cur[1], hi))
    region, used = [], set()
    for iv, value in zip(realize.block.iter_vars, realize.iter_values):
        dom = cast(Range, iv.dom)  # (a block iter var's domain)
        if not (isinstance(dom.min, IntImm) and isinstance(dom.extent, IntImm)):
            raise ValueError(f"iter {iv.var.name_hint} has the domain [{dom.min.script()}, "
                             f"+{dom.extent.script()}), not constant")
        dom_lo, dom_ext = dom.min.value, dom.extent.value
        if isinstance(value, E.Var) and id(value) in bounds:
            used.add(id(value))
            lo, hi = bounds[id(value)]
            lo = dom_lo if lo is None else max(lo, dom_lo)
            hi = dom_lo + dom_ext if hi is None else min(hi, dom_lo + dom_ext)
            region.append(Range.from_min_extent(IntImm(value.dtype, lo), IntImm(value.dtype,
                                                                                max(hi - lo, 0))))
        else:
            region.append(dom)
    if set(bounds) - used:
        raise ValueError("Block iters are not independent wrt padding condition")
    return region


def _match(realize: S.BlockRealize) -> tuple[PrimExpr, PrimExpr, PrimExpr, list[Range]]:
    """TVM's ``PaddingInfoAnalyzer``: ``(in_bound_value, pad_value, predicate, region)``."""
    block = realize.block
    store = block.body
    if not isinstance(store, S.BufferStore):
        raise ValueError("Block body expect a BufferStore to the write buffer")
    call = store.value
    if not (isinstance(call, E.Call) and getattr(call.op, "name", "") == "tir.if_then_else"):
        raise ValueError("Value of BufferStore expect to be constrained by a padding predicate")
    cond, inb, pad = call.args
    if not isinstance(pad, (IntImm, FloatImm)):
        raise ValueError("Pad value should be constant")
    ana = Analyzer()
    pred = ana.simplify(substitute(cond, U.bindings(realize)))
    if U.is_const(pred, 1):
        raise ValueError("The in-bound predicate is trivial")
    return inb, pad, pred, _in_bound_region(realize, pred, ana)


def _const_nest(site: U.Site, pad: PrimExpr, loops_in: list[S.For]) -> tuple[S.Stmt, S.Block]:
    """TVM's ``CreateConstBlock``: the pad-filling block over copies of ``loops_in``."""
    block, realize = site.block, site.realize
    repl: dict[int, Any] = {}
    ivs = []
    for iv in block.iter_vars:
        nv = E.Var(iv.var.name_hint, iv.var.dtype)
        repl[id(iv.var)] = nv
        ivs.append(E.IterVar(iv.dom, nv, E.IterVarType.DataPar))
    new_loops = [(lp, E.Var(lp.loop_var.name_hint, lp.loop_var.dtype)) for lp in loops_in]
    for lp, nv in new_loops:
        repl[id(lp.loop_var)] = nv
    ana = Analyzer()
    rw = lambda e: ana.simplify(substitute(e, lambda v: repl.get(id(v))))  # noqa: E731
    write = block.writes[0]
    region = S.BufferRegion(write.buffer, tuple(Range.from_min_extent(rw(r.min), rw(r.extent))
                                                for r in write.region))
    body = cast(S.BufferStore, block.body)  # (what _match matched)
    store = body.with_changes(value=pad, indices=tuple(rw(i) for i in body.indices))
    new_block = S.Block(tuple(ivs), (), (region,), f"{block.name_hint}_pad_const", store)
    stmt: S.Stmt = S.BlockRealize(tuple(rw(v) for v in realize.iter_values),
                                  rw(realize.predicate), new_block)
    for lp, nv in reversed(new_loops):
        stmt = S.For(nv, lp.min, lp.extent, S.ForKind.SERIAL, stmt)
    return stmt, new_block


def _in_bound_nest(site: U.Site, inb: PrimExpr, pred: PrimExpr, region: list[Range],
                   loops_in: list[S.For]) -> tuple[S.Stmt, S.Block]:
    """TVM's ``CreateInBoundBlock``: the original block narrowed to the in-bound region."""
    block, realize = site.block, site.realize
    ana = Analyzer()
    ranges = {id(lp.loop_var): Range.from_min_extent(lp.min, lp.extent) for lp in loops_in}
    for lp in site.loops:
        ana.bind(lp.loop_var, Range.from_min_extent(lp.min, lp.extent))
    repl: dict[int, Any] = {}
    ivs: list[E.IterVar] = []
    binding: list[PrimExpr] = []
    for iv, value, rng in zip(block.iter_vars, realize.iter_values, region):
        nv = E.Var(iv.var.name_hint, iv.var.dtype)
        new_range = Range.from_min_extent(IntImm(nv.dtype, 0), rng.extent)
        ivs.append(E.IterVar(new_range, nv, E.IterVarType.DataPar))
        repl[id(iv.var)] = nv + rng.min
        if isinstance(value, E.Var) and id(value) in ranges:
            ranges[id(value)] = new_range
            binding.append(value)
            repl[id(value)] = value + rng.min
            ana.bind(value, new_range)
        else:
            binding.append(ana.simplify(value - rng.min))
    rw = lambda e: ana.simplify(substitute(e, lambda v: repl.get(id(v))))  # noqa: E731
    regions = lambda rs: tuple(S.BufferRegion(r.buffer, tuple(  # noqa: E731
        Range.from_min_extent(rw(x.min), rw(x.extent)) for x in r.region)) for r in rs)
    body = cast(S.BufferStore, block.body)  # (what _match matched)
    store = body.with_changes(value=rw(inb), indices=tuple(rw(i) for i in body.indices))
    new_block = S.Block(tuple(ivs), regions(block.reads), regions(block.writes), block.name_hint,
                        store)
    # the block's own predicate stays too (a split by a non-divisor above the in-bound loops)
    both = pred if U.is_const(realize.predicate, 1) else tir_op.logical_and(pred,
                                                                            realize.predicate)
    stmt: S.Stmt = S.BlockRealize(tuple(binding), rw(both), new_block)
    for lp in reversed(loops_in):
        rng = ranges[id(lp.loop_var)]
        stmt = lp.with_changes(min=rng.min, extent=rng.extent, body=stmt)
    return stmt, new_block


class _Replacer(StmtMutator):
    """TVM's ``DecomposePaddingBlockReplacer``."""

    def __init__(self, const_pos: S.For, const_nest: S.Stmt, in_pos: S.For,
                 in_nest: S.Stmt) -> None:
        super().__init__()
        self.const_pos, self.const_nest, self.in_pos, self.in_nest = \
            const_pos, const_nest, in_pos, in_nest

    def visit_for_(self, op: S.For) -> S.Stmt:
        new = self.in_nest if op is self.in_pos else super().visit_for_(op)
        if op is self.const_pos:
            return S.SeqStmt((self.const_nest, new))
        return new


def decompose_padding_impl(body: S.Stmt, block: S.Block, loop: S.For) -> PrimitiveResult:
    """TVM's ``DecomposePadding``: returns the pad-filling block as ``blocks[0]``.

    Raises:
        NotCompleteBlockError: the block has non-data-parallel iters or several writes;
        LoopPositionError: ``loop`` is not above the block;
        PaddingPatternMatchError: the block is not ``y[v] = if_then_else(bounds, value, const)``
            with bounds on independent iters.
    """
    site = U.locate(body, block)
    if any(iv.iter_type != E.IterVarType.DataPar for iv in block.iter_vars) \
            or len(block.writes) != 1 or block.init is not None:
        raise err.NotCompleteBlockError(block, reason="decompose_padding needs data-parallel "
                                        "iters and a single write")
    if not any(lp is loop for lp in site.loops):
        raise err.LoopPositionError(block, loop, reason="decompose_padding needs a loop above "
                                    "the block")
    from ..transform import blocks_in  # pylint: disable=import-outside-toplevel
    others = [b.name_hint for b in blocks_in(loop.body) if b is not block]
    if others:
        # the loop nest is rebuilt from ``loop`` down with this block only: the others were
        # dropped (found by the wide fuzzer: stencil_pad, write_at of the pad block, whose copy
        # block shares its loop, then decompose_padding; --hypothesis-seed=9)
        raise err.NotSingleChildBlockError(
            loop, block, detail=f"{{0}} holds other blocks than {{1}} ({', '.join(others)}): "
            "decompose_padding rebuilds the loop nest from it with that block only")
    try:
        inb, pad, pred, region = _match(site.realize)
    except ValueError as exc:
        raise PaddingPatternMatchError(block, reason=str(exc)) from None
    at = next(i for i, lp in enumerate(site.loops) if lp is loop)
    in_at = len(site.loops) - 1
    while in_at > at and isinstance(site.loops[in_at - 1].body, (S.For, S.BlockRealize)):
        in_at -= 1
    const_nest, const_block = _const_nest(site, pad, site.loops[at:])
    in_nest, in_block = _in_bound_nest(site, inb, pred, region, site.loops[in_at:])
    new_scope = _Replacer(loop, const_nest, site.loops[in_at], in_nest).visit_stmt(site.scope)
    return PrimitiveResult(site.scope, new_scope, {site.scope: cast(S.Block, new_scope),
                                                   block: in_block},
                           [const_block])


def _register() -> None:
    from ..schedule import primitive  # pylint: disable=import-outside-toplevel
    from ._args import apply_result, as_block_rv, block_of, func_body  # pylint: disable=C0415

    def _normalize(sch: Any, args: dict) -> None:
        args["block"] = as_block_rv(sch, args["block"])

    @primitive("DecomposePadding", outputs="one", normalize=_normalize)
    def decompose_padding(sch: Any, block: Any, loop: Any) -> Any:
        """Split a padding block into a block filling the pad value (inserted before ``loop``)
        and the block computing the in-bound part; returns the pad-filling block
        (``Schedule.decompose_padding``).

        Raises:
            ScheduleError: NotCompleteBlockError, LoopPositionError, PaddingPatternMatchError.
        """
        stmt = sch._loop_sref(loop).stmt  # pylint: disable=protected-access
        return apply_result(sch, decompose_padding_impl(func_body(sch, block),
                                                        block_of(sch, block), stmt))[0]


_register()
