"""Whether a block moved by reverse_compute_at still runs every instance it ran before (no TVM
counterpart; used by ``compute_at.py``).

reverse_compute_at gives the consumer only the instances whose reads lie in what its producers
write under the target loop (``calculate_block_var_domain(..., exact=True)``). An instance that
reads elsewhere -- ``pad[vh] = T.if_then_else(1 <= vh, data[vh - 1], 0)`` reads ``data[-1]``
at ``vh == 0``, behind the guard -- belongs to no iteration and is silently dropped, so the
element it wrote is never written.

Per iter var, the values the block ran before (its bindings over its loops up to the scope
root, under its predicate, within the var's domain) are compared with the values the new nest
runs (its new loops and the target loop and the loops above it up to the scope root swept, its
guards applied). Covered: the nest's values, as an iterator map of all those loops (or var by
var, where no two vars share an outer loop), surely contain the old ones. Lost: some value
surely run before lies outside every value the new nest can run (an upper bound), as at the
pad's border. Neither shown (a shifted fused index, ``(j + 14) // 16``): accepted, as before,
so no legal schedule is refused; a hole inside the range is then not caught.
"""
from __future__ import annotations

from typing import Any, cast

from ...arith import Analyzer
from ...arith.int_set import IntervalSet, eval_set
from ...ir.expr import IntImm, PrimExpr, Range
from ...tir import op
from ...tir.expr import Var
from .. import analysis as A
from .. import region_bound as RB
from ._block_var_domain import DomainInfo, cover_range


def _old_values(state: Any, block_sref: Any, scope_root: Any
                ) -> tuple[list[IntervalSet], list[IntervalSet] | None]:
    """Per iter var, an upper and a lower bound (``None``: not known) of the values the block
    runs now: its bindings over its loops up to the scope root, under its predicate, within the
    var's domain."""
    realize = A.get_block_realize(state, block_sref)
    dom = A.loop_ranges(A.loops_between(block_sref, scope_root))
    ana = A.loop_analyzer(block_sref.parent or block_sref)
    bounds = RB.predicate_bounds(realize.predicate)[0]
    upper = []
    for iv, value in zip(realize.block.iter_vars, realize.iter_values):
        got = eval_set(value, dom)
        if bounds and got.is_bounded():
            got = RB.tighten(ana, value, value, got, bounds, set(dom), dom, realize.predicate)
        own = IntervalSet.from_range(cast(Range, iv.dom))  # (a block iter var's domain)
        lo = own.min_value if got.min_value is None else op.max(got.min_value, own.min_value)
        hi = own.max_value if got.max_value is None else op.min(got.max_value, own.max_value)
        upper.append(IntervalSet(ana.simplify(cast(PrimExpr, lo)),
                                 ana.simplify(cast(PrimExpr, hi))))
    lower = RB.region_lower_bound(ana, list(realize.iter_values),
                                  [IntImm("int32", 1)] * len(upper), dom, realize.predicate)
    return upper, lower


def _ranges(block: Any, iter_doms: list[DomainInfo], ana: Analyzer) -> list[tuple[Any, Any]]:
    """Per iter var, ``(min, extent)`` of its new loop (``_build_nest``'s ``cover_range``)."""
    out = []
    for iv, info in zip(block.iter_vars, iter_doms):
        rng = cover_range(info, iv.dom, ana)
        out.append((ana.simplify(rng.min), ana.simplify(rng.extent)))
    return out


def _joint(ranges: list[tuple[Any, Any]], outer: dict[Any, Range],
           ana: Analyzer) -> list[IntervalSet] | None:
    """The values surely run, all iter vars at once: the nest's bindings ``min + ax`` as an
    iterator map of the outer loops and the new ones (``vk0 = j0 * 2 + j1 // 2``, ``vk1 = j1 %
    2 * 8 + ax0`` share ``j1`` and still cover ``[0, 3] x [0, 15]``)."""
    if any(not isinstance(ext, IntImm) for _, ext in ranges):
        return None
    dom = dict(outer)
    values = []
    for d, (lo, ext) in enumerate(ranges):
        if ext.value == 1:
            values.append(lo)
            continue
        ax = Var(f"ax{d}", lo.dtype)
        dom[ax] = Range.from_min_extent(IntImm(lo.dtype, 0), ext)
        values.append(op.add(lo, ax))
    return RB.region_lower_bound(ana, values, [IntImm("int32", 1)] * len(values), dom, True)


def _dimwise(ranges: list[tuple[Any, Any]], outer: dict[Any, Range],
             ana: Analyzer) -> list[IntervalSet | None]:
    """The values surely run, each iter var alone (symbolic extents); a var whose range uses
    outer loops another var's uses too is not known (``None``): the iterations need not make a
    product."""
    taken: set[int] = set()
    out: list[IntervalSet | None] = []
    for lo, ext in ranges:
        used = {v: r for v, r in outer.items() if A.uses_var(lo, {v}) or A.uses_var(ext, {v})}
        if not used:
            out.append(IntervalSet(lo, ana.simplify(lo + ext - 1)))
        elif taken & {id(v) for v in used} or A.uses_var(ext, set(used)):
            out.append(None)
        else:
            taken |= {id(v) for v in used}
            lower = RB.region_lower_bound(ana, [lo], [ext], used, True)
            out.append(None if lower is None else lower[0])
    return out


def _guarded(got: IntervalSet | None, bound: IntervalSet | None,
             ana: Analyzer) -> IntervalSet | None:
    """``got`` within the nest's guard of the var (``_guards``: the DomainInfo's bound)."""
    if got is None or bound is None:
        return got
    return IntervalSet(
        got.min_value if bound.min_value is None else
        ana.simplify(op.max(got.min_value, bound.min_value)),
        got.max_value if bound.max_value is None else
        ana.simplify(op.min(got.max_value, bound.max_value)))


def _new_values(block: Any, iter_doms: list[DomainInfo], outer: dict[Any, Range],
                ana: Analyzer) -> tuple[list[IntervalSet | None], list[IntervalSet | None]]:
    """Per iter var, the values the new nest surely runs over all iterations of the ``outer``
    loops (``None``: not known) and an upper bound of them, its guards applied."""
    ranges = _ranges(block, iter_doms, ana)
    joint = _joint(ranges, outer, ana)
    lower: list[IntervalSet | None] = _dimwise(ranges, outer, ana) if joint is None \
        else list(joint)
    upper = [IntervalSet(eval_set(lo, outer).min_value,
                         eval_set(ana.simplify(lo + ext - 1), outer).max_value)
             for lo, ext in ranges]
    return [_guarded(g, info.bound, ana) for g, info in zip(lower, iter_doms)], \
        [_guarded(g, info.bound, ana) for g, info in zip(upper, iter_doms)]


def _text(e: Any) -> str:
    return e.script() if hasattr(e, "script") else str(e)


def _covers(ana: Analyzer, outer: IntervalSet | None, inner: IntervalSet | None) -> bool:
    """Whether ``outer`` provably contains ``inner``."""
    if outer is None or inner is None or not (outer.is_bounded() and inner.is_bounded()):
        return False
    return ana.can_prove(op.less_equal(outer.min_value, inner.min_value)) and \
        ana.can_prove(op.greater_equal(outer.max_value, inner.max_value))


def _misses(ana: Analyzer, upper: IntervalSet, surely: IntervalSet | None) -> bool:
    """Whether a value of ``surely`` provably lies outside ``upper``."""
    if surely is None or not surely.is_bounded():
        return False
    return (upper.min_value is not None
            and ana.can_prove(op.greater(upper.min_value, surely.min_value))) or \
        (upper.max_value is not None
         and ana.can_prove(op.less(upper.max_value, surely.max_value)))


def dropped_instances(state: Any, block_sref: Any, loop_sref: Any, scope_root: Any,
                      iter_doms: list[DomainInfo]) -> str | None:
    """Which values of which iter vars the block, rebuilt under ``loop_sref`` with
    ``iter_doms``, would provably no longer run, as text for the error message; ``None`` when
    it provably runs all it ran before, or when neither is shown (a wrong refusal of a legal
    schedule is not risked: a hole inside the range is not caught then)."""
    ana = A.loop_analyzer(loop_sref)
    outer = A.loop_ranges([loop_sref, *A.loops_between(loop_sref, scope_root)])
    block = block_sref.stmt
    old_upper, old_lower = _old_values(state, block_sref, scope_root)
    new_lower, new_upper = _new_values(block, iter_doms, outer, ana)
    if all(_covers(ana, now, was) or not was.is_bounded() or
           ana.can_prove(op.greater(was.min_value, was.max_value))
           for now, was in zip(new_lower, old_upper)):
        return None
    lost = []
    for d, (iv, now) in enumerate(zip(block.iter_vars, new_upper)):
        was = None if old_lower is None else old_lower[d]
        if was is not None and now is not None and _misses(ana, now, was):
            lost.append(f"{iv.var.name} in [{_text(now.min_value)}, {_text(now.max_value)}] "
                        f"of [{_text(was.min_value)}, {_text(was.max_value)}]")
    return " and ".join(lost) if lost else None
