"""The domain of each block iter var after compute_at / reverse_compute_at (mirrors
``BlockVarDomainInfo``, ``SolveBlockVarDomain``, ``UpdateBlockVarDomainDimwise``,
``UpdateBlockVarDomainAffine`` and ``CalculateBlockVarDomain`` of TVM's
``src/s_tir/schedule/primitive/compute_at.cc``).

The moved block *provides* a region per buffer (the one it writes for compute_at, reads for
reverse_compute_at, in terms of its iter vars); the blocks under the target loop *require* a
region of the same buffer. When every provided index is a single point and together they are a
bijective affine map of the iter vars (``C[vi, vk0 * 16 + vk1]``), the required region's corners
are pushed back through the inverse map (``vk0 = x // 16``, ``vk1 = x % 16``); otherwise each
dimension is solved alone from the patterns ``v``, ``v * c``, ``v // c`` and ``v % c``.

Each iter var gets a ``dom`` (what covers the required region) and a ``bound`` (the buffer's
shape pulled back the same way, intersected with the var's own domain); a bound that does not
provably contain the dom becomes the new block's predicate.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from ...arith import Analyzer, detect_iter_map
from ...arith.int_set import IntervalSet
from ...ir.expr import IntImm, Range
from ...tir import op
from ...tir._index_map_inverse import inverse_affine_iter_map
from ...tir.expr import Add, FloorDiv, FloorMod, Mul, Sub, Var
from ...tir.stmt_functor import substitute
from .. import errors as err

# ``None`` for an IntervalSet is TVM's ``IntSet::Nothing()``; a ``None`` bound inside an
# IntervalSet is an infinite one.
_Set = IntervalSet | None


def _simplified(ana: Analyzer, s: IntervalSet) -> IntervalSet:
    return IntervalSet(None if s.min_value is None else ana.simplify(s.min_value),
                       None if s.max_value is None else ana.simplify(s.max_value))


def _pick(a: Any, b: Any, fn: Any, infinite_wins: bool) -> Any:
    if a is None or b is None:
        return None if infinite_wins else (b if a is None else a)
    return fn(a, b)


def _union(a: _Set, b: _Set) -> _Set:
    """TVM's ``arith::Union`` of two intervals (Nothing is the identity)."""
    if a is None or b is None:
        return b if a is None else a
    return _simplified(Analyzer(), IntervalSet(_pick(a.min_value, b.min_value, op.min, True),
                                               _pick(a.max_value, b.max_value, op.max, True)))


def _intersect(a: _Set, b: _Set) -> _Set:
    """TVM's ``arith::Intersect`` of two intervals (Nothing absorbs)."""
    if a is None or b is None:
        return None
    return _simplified(Analyzer(), IntervalSet(_pick(a.min_value, b.min_value, op.max, False),
                                               _pick(a.max_value, b.max_value, op.min, False)))


def _equal(ana: Analyzer, a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return ana.can_prove_equal(a, b)


def _single_point(ana: Analyzer, s: IntervalSet) -> bool:
    lo, hi = _bounds(s)
    return s.is_bounded() and (s.is_point() or ana.can_prove_equal(lo, hi))


@dataclass
class _Ctx:
    """The moved block, the target loop (both for messages) and the analyzer with the loops
    above the target bound."""

    block: Any
    loop: Any
    ana: Analyzer
    exact: bool = False  # reverse_compute_at: the instances may read only what is required

    def fail(self, reason: str, cls: Any = None) -> Any:
        """The error to raise, naming the block and the target loop."""
        where = f" (under loop {self.loop.loop_var.name})" if self.loop is not None else ""
        return (cls or err.NotCompactDataFlowError)(self.block, reason=reason + where)

    def text(self, e: Any) -> str:
        """``e`` simplified, as TVMScript."""
        if e is None:
            return "inf"
        e = self.ana.simplify(e)
        return e.script() if hasattr(e, "script") else str(e)


@dataclass
class DomainInfo:
    """``dom`` covers the required region; ``bound`` (``None``: none) is where the iter var
    stays inside the buffer and its own domain (TVM ``BlockVarDomainInfo``)."""

    dom: _Set = None
    bound: _Set = None

    def union(self, other: "DomainInfo") -> None:
        """Relaxed union: ``(d0 ^ b0) v (d1 ^ b1)`` becomes ``(d0 v d1) ^ (b0 v b1)``."""
        self.dom = _union(self.dom, other.dom)
        self.bound = _union(self.bound, other.bound)

    def simplify(self, ana: Analyzer) -> None:
        """Drop a bound that contains the dom, adopt one the dom contains or that makes the
        range constant (TVM ``BlockVarDomainInfo::Simplify``)."""
        if self.dom is None:
            if self.bound is not None and self.bound.is_bounded():
                self.dom, self.bound = _simplified(ana, self.bound), None
            return
        self.dom = _simplified(ana, self.dom)
        if self.bound is None:
            return
        self.bound = _simplified(ana, self.bound)
        inter = _intersect(self.dom, self.bound)
        assert inter is not None
        inter = _simplified(ana, inter)
        if _equal(ana, self.dom.min_value, inter.min_value) and \
                _equal(ana, self.dom.max_value, inter.max_value):
            self.bound = None
        elif _equal(ana, self.bound.min_value, inter.min_value) and \
                _equal(ana, self.bound.max_value, inter.max_value):
            self.dom, self.bound = self.bound, None
        elif isinstance(inter.min_value, IntImm) and isinstance(inter.max_value, IntImm):
            self.dom, self.bound = inter, None


def _dim_max(extent: Any) -> Any:
    return op.max(op.subtract(extent, 1), 0)


def _solve(ctx: _Ctx, provided: IntervalSet, required: IntervalSet,
           dim_max: Any) -> tuple[Var, DomainInfo]:
    """The iter var one dimension's provided index is made of and its domain (TVM
    ``SolveBlockVarDomain``): ``v``, ``v * c``, ``v // c``, ``v % c`` (the last constrains
    nothing), and ``e // c`` / ``e % c`` recursively."""
    ana = ctx.ana
    pmin: Any = ana.simplify(_bounds(provided)[0])
    pmax: Any = ana.simplify(_bounds(provided)[1])
    rmin, rmax = _bounds(_simplified(ana, required))

    def div(x: Any, e: Any) -> Any:
        return None if x is None else op.floordiv(x, e)

    if isinstance(pmin, Mul) and (isinstance(pmin.a, Var) or isinstance(pmin.b, Var)):
        var, e = (pmin.a, pmin.b) if isinstance(pmin.a, Var) else (pmin.b, pmin.a)
        var = cast(Var, var)
        return var, DomainInfo(IntervalSet(div(rmin, e), div(rmax, e)),
                               IntervalSet(IntImm(var.dtype, 0), op.floordiv(dim_max, e)))
    if ana.can_prove_equal(pmin, pmax):
        if isinstance(pmin, Var):
            return pmin, DomainInfo(IntervalSet(rmin, rmax),
                                    IntervalSet(IntImm(pmin.dtype, 0), dim_max))
        if isinstance(pmin, FloorDiv) and ana.can_prove_greater_equal(pmin.b, 1):
            fac = pmin.b
            lo = None if rmin is None else op.multiply(rmin, fac)
            hi = None if rmax is None else ana.simplify(rmax * fac + fac - 1)
            if isinstance(pmin.a, Var):
                return pmin.a, DomainInfo(
                    IntervalSet(lo, hi),
                    IntervalSet(IntImm(pmin.a.dtype, 0), ana.simplify(dim_max * fac + fac - 1)))
            return _solve(ctx, IntervalSet.point(pmin.a), IntervalSet(lo, hi), dim_max)
        if isinstance(pmin, FloorMod):
            if isinstance(pmin.a, Var):
                return pmin.a, DomainInfo()
            if ana.can_prove_greater_equal(pmin.a, 1) and ana.can_prove_greater_equal(pmin.b, 1) \
                    and rmin is not None and ana.can_prove_greater_equal(rmin, 0):
                return _solve(ctx, IntervalSet.point(pmin.a), IntervalSet(rmin, None), dim_max)
    raise ctx.fail(
        f"a region it accesses is indexed by [{ctx.text(pmin)}, {ctx.text(pmax)}], which is "
        "none of v, v * c, v // c, v % c of one block iter var, so no iter var domain covers "
        f"the required [{ctx.text(rmin)}, {ctx.text(rmax)}]", err.BufferRegionPatternError)


def _update_dimwise(ctx: _Ctx, buffer: Any, provided: list[IntervalSet],
                    required: list[IntervalSet], doms: dict[Var, DomainInfo]) -> None:
    """Each dimension on its own (TVM ``UpdateBlockVarDomainDimwise``)."""
    ana = ctx.ana
    for dim, (prov, req, extent) in enumerate(zip(provided, required, buffer.shape)):
        if _single_point(ana, prov) and isinstance(ana.simplify(_bounds(prov)[0]), IntImm):
            if not (_single_point(ana, req) and _equal(ana, prov.min_value, req.min_value)):
                raise ctx.fail(
                    f"dimension {dim} of {buffer.name} is the constant "
                    f"{ctx.text(prov.min_value)} in the block but [{ctx.text(req.min_value)}, "
                    f"{ctx.text(req.max_value)}] is required")
            continue
        var, info = _solve(ctx, prov, req, _dim_max(extent))
        if var in doms:
            doms[var].union(info)
        elif not (_equal(ana, prov.min_value, req.min_value)
                  and _equal(ana, prov.max_value, req.max_value)):
            raise ctx.fail(f"dimension {dim} of {buffer.name} is indexed by {var.name}, which "
                           "is not a block iter var, and the required region differs from it")


def _no_wrap(ana: Analyzer, lo: Any, hi: Any, c: int) -> bool:
    """Whether ``[lo, hi]`` lies within one block of ``c`` (``lo // c == hi // c``)."""
    return ana.can_prove(op.less(op.add(op.floormod(lo, c), op.subtract(hi, lo)), c))


def _add(a: IntervalSet, b: IntervalSet, _ana: Analyzer) -> IntervalSet:
    lo_a, hi_a, lo_b, hi_b = _bounds(a) + _bounds(b)
    return IntervalSet(op.add(lo_a, lo_b), op.add(hi_a, hi_b))


def _sub(a: IntervalSet, b: IntervalSet, _ana: Analyzer) -> IntervalSet:
    lo_a, hi_a, lo_b, hi_b = _bounds(a) + _bounds(b)
    return IntervalSet(op.subtract(lo_a, hi_b), op.subtract(hi_a, lo_b))


def _mul(a: IntervalSet, b: IntervalSet, ana: Analyzer) -> IntervalSet | None:
    c = _const(b, ana)
    if c is None:
        a, b = b, a
        c = _const(b, ana)
    if c is None:
        return None
    lo, hi = op.multiply(a.min_value, c), op.multiply(a.max_value, c)
    return IntervalSet(lo, hi) if c.value >= 0 else IntervalSet(hi, lo)


def _div_mod(a: IntervalSet, b: IntervalSet, ana: Analyzer,
             is_div: bool) -> IntervalSet | None:
    """``a // c`` or ``a % c``: exact when ``a`` stays within one block of ``c``."""
    c = _const(b, ana)
    if c is None or c.value <= 0:
        return None
    lo, hi = ana.simplify(_bounds(a)[0]), ana.simplify(_bounds(a)[1])
    same = _no_wrap(ana, lo, hi, c.value)
    if is_div:
        return IntervalSet(op.floordiv(lo, c), op.floordiv(lo if same else hi, c))
    if same:
        return IntervalSet(op.floormod(lo, c), op.add(op.floormod(lo, c), op.subtract(hi, lo)))
    return IntervalSet(IntImm(c.dtype, 0), IntImm(c.dtype, c.value - 1))


_INTERVAL_RULES: dict[type, Any] = {
    Add: _add, Sub: _sub, Mul: _mul,
    FloorDiv: lambda a, b, ana: _div_mod(a, b, ana, True),
    FloorMod: lambda a, b, ana: _div_mod(a, b, ana, False),
}


def _bounds(s: IntervalSet) -> tuple[Any, Any]:
    return s.min_value, s.max_value


def _const(s: IntervalSet, ana: Analyzer) -> IntImm | None:
    c = ana.simplify(_bounds(s)[0]) if s.is_bounded() else None
    return c if isinstance(c, IntImm) and _single_point(ana, s) else None


def _interval(expr: Any, sets: dict[Any, IntervalSet], ana: Analyzer) -> IntervalSet | None:
    """The values of ``expr`` (sums, constant multiples, ``//`` and ``%`` by positive constants
    of the vars in ``sets``) over ``sets``, exact per operation: ``x % c`` over a range that
    stays within one block of ``c`` is ``[lo % c, lo % c + (hi - lo)]``, over one that wraps
    ``[0, c - 1]``; ``None`` for any other expression."""
    if isinstance(expr, IntImm):
        return IntervalSet.point(expr)
    if isinstance(expr, Var):
        return sets.get(expr)
    rule = _INTERVAL_RULES.get(type(expr))
    if rule is None:
        return None
    a, b = _interval(expr.a, sets, ana), _interval(expr.b, sets, ana)
    if a is None or b is None or not (a.is_bounded() and b.is_bounded()):
        return None
    out: IntervalSet | None = rule(a, b, ana)
    return out


def _inverse(ctx: _Ctx, indices: list[Any], sets: list[IntervalSet]) -> dict[Var, IntervalSet]:
    """Per iter var, its values while the indices sweep the box ``sets`` (TVM's IntSet
    ``InverseAffineIterMap``). TVM takes the interval between the var's values at the box's two
    corners, which is wrong when the box wraps an inner var (``vk0 * 16 + vk1`` over
    ``[8, 23]`` gives ``vk1`` in ``[7, 8]``); here the inverse is evaluated over the box
    interval by interval, which gives the corners' interval where that is exact and the
    var's whole block where the box wraps it."""
    ana = ctx.ana
    for index, s in zip(indices, sets):
        if not s.is_bounded():
            raise ctx.fail("the required region is unbounded")
        if index.args and not ana.can_prove_equal(op.abs(index.args[0].scale), 1):
            raise ctx.fail(
                f"an index of a region it accesses has stride {ctx.text(index.args[0].scale)}, "
                "so its iter vars cannot be solved from the required region (TVM 0.27 fails an "
                "internal check in InverseAffineIterMap here)")
    outs = [Var(f"_out{d}", _bounds(s)[0].dtype) for d, s in enumerate(sets)]
    inverse = inverse_affine_iter_map(indices, list(outs))
    box = dict(zip(outs, sets))
    result = {}
    for var, expr in inverse.values():
        got = _interval(expr, box, ana)
        if got is None:  # not of the expected form: TVM's corners
            lo = ana.simplify(substitute(expr, {o: s.min_value for o, s in box.items()}))
            hi = ana.simplify(substitute(expr, {o: s.max_value for o, s in box.items()}))
            got = IntervalSet(op.min(lo, hi), op.max(lo, hi))
        result[var] = _simplified(ana, got)
    return result


def _check_exact(ctx: _Ctx, buffer: Any, provided: list[IntervalSet],
                 required: list[IntervalSet], doms: dict[Var, IntervalSet]) -> None:
    """reverse_compute_at: the consumer instances over ``doms`` must read nothing outside the
    produced region, or they would read what is not written yet (and a reduction would count
    elements twice). The region is a box only when it does not wrap an inner index of a fused
    access; TVM 0.27 then takes the corners' interval and silently skips iterations."""
    ana = ctx.ana
    for dim, (prov, req) in enumerate(zip(provided, required)):
        got = _interval(ana.simplify(_bounds(prov)[0]), doms, ana)
        if got is None or not (ana.can_prove(op.greater_equal(got.min_value, req.min_value))
                               and ana.can_prove(op.less_equal(got.max_value, req.max_value))):
            raise ctx.fail(
                f"the instances that read dimension {dim} of {buffer.name} in "
                f"[{ctx.text(req.min_value)}, {ctx.text(req.max_value)}] (what is produced "
                "there) are not a box of its iter vars: the region wraps an inner part of the "
                "fused index, and a box around them would read what is not written yet")


def _update_affine(ctx: _Ctx, buffer: Any, provided: list[IntervalSet],
                   required: list[IntervalSet], doms: dict[Var, DomainInfo]) -> bool:
    """Through the inverse of a bijective affine map of single points (TVM
    ``UpdateBlockVarDomainAffine``); ``False`` when it does not apply."""
    if not all(_single_point(ctx.ana, s) for s in provided):
        return False
    dom_map = {iv.var: iv.dom for iv in ctx.block.iter_vars}
    if any(not isinstance(r.extent, IntImm) for r in dom_map.values()):
        return False
    res = detect_iter_map([_bounds(s)[0] for s in provided], dom_map, True, "bijective",
                          simplify_trivial_iterators=False)
    if not res.indices:
        return False
    indices = list(res.indices)
    shape = [IntervalSet(IntImm(e.dtype, 0), _dim_max(e)) for e in buffer.shape]
    var_dom = _inverse(ctx, indices, required)
    var_bound = _inverse(ctx, indices, shape)
    if ctx.exact:
        own = {iv.var: IntervalSet.from_range(iv.dom) for iv in ctx.block.iter_vars}
        _check_exact(ctx, buffer, provided, required, {**own, **var_dom})
    for var, dom in var_dom.items():
        doms[var].union(DomainInfo(dom, var_bound[var]))
    return True


def _nd_union(regions: list[list[IntervalSet]]) -> list[IntervalSet]:
    out = regions[0]
    for r in regions[1:]:
        out = [_union(a, b) or a for a, b in zip(out, r)]
    return out


def calculate_block_var_domain(block: Any, loop: Any,  # pylint: disable=too-many-arguments
                               provided: dict[Any, list[list[IntervalSet]]],
                               required: dict[Any, list[IntervalSet]], ana: Analyzer, *,
                               exact: bool = False) -> list[DomainInfo]:
    """Per iter var of ``block`` (in order), the domain that covers ``required`` (per buffer,
    the region needed under the loop) given ``provided`` (per buffer, the regions one block
    instance accesses) — TVM ``CalculateBlockVarDomain``. With ``exact`` (reverse_compute_at)
    the instances must access nothing outside ``required``.

    Raises:
        BufferRegionPatternError: a dimension is none of the solvable patterns (TVM's
            ``ValueError: BufferRegion pattern match failed``).
        NotCompactDataFlowError: where TVM fails an internal check (a strided access under the
            affine inverse, a constant index against a wider required region).
    """
    ctx = _Ctx(block, loop, ana, exact)
    doms = {iv.var: DomainInfo() for iv in block.iter_vars}
    for buffer, regions in provided.items():
        req = required.get(buffer)
        if req is None:
            continue
        prov = _nd_union(regions)
        if not _update_affine(ctx, buffer, prov, req, doms):
            _update_dimwise(ctx, buffer, prov, req, doms)
    out = []
    for iv in block.iter_vars:
        info = doms[iv.var]
        info.bound = IntervalSet.from_range(iv.dom) if info.bound is None else \
            _intersect(info.bound, IntervalSet.from_range(iv.dom))
        info.simplify(ana)
        if info.dom is None:
            raise ctx.fail(f"no domain covers the required region for iter var {iv.var.name}")
        out.append(info)
    return out


def cover_range(info: DomainInfo, own: Range, ana: Analyzer) -> Range:
    """The loop range of an iter var (TVM ``IntSet::CoverRange``): its dom, or the var's own
    domain when the dom is unbounded."""
    dom = info.dom
    if dom is None or not dom.is_bounded():
        return own
    lo, hi = _bounds(dom)
    return Range.from_min_extent(ana.simplify(lo), ana.simplify(hi + 1 - lo))
