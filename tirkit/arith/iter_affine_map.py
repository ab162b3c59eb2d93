"""Detection of affine iterator maps (mirrors ``tvm.arith.detect_iter_map`` and
``tvm.arith.iter_map_simplify``, ``src/arith/iter_affine_map.cc``).

Indices built from the input iterators with ``+``, ``-``, ``*`` by constants and
``floordiv``/``floormod`` by positive constants are rewritten into sums of splits of iterator
marks: ``i0*32 + i1`` (``i0`` in ``[0, 4)``, ``i1`` in ``[0, 32)``) fuses into one mark of extent
128; ``floordiv(f, 32)`` / ``floormod(f, 32)`` split a mark. The mapping is then checked: with
``"bijective"`` every input iterator is covered exactly once; with ``"surjective"`` no part of an
iterator is used twice. Constant extents only (symbolic extents and padding are not supported);
an iterator sum's offset may be symbolic (``j0 * 64 + i`` by 64).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..ir.expr import IntImm, PrimExpr, Range
from ..tir import expr as E
from ..tir import op as tir_op
from .analyzer import Analyzer
from .iter_map_expr import (IterMapResult, IterMark, IterSplitExpr, IterSumExpr,
                            normalize_iter_map_to_expr)

_LEVELS = ("bijective", "surjective", "no_check")


class _Fail(Exception):
    """Raised inside the rewriter: the expression is not an affine iterator map."""


@dataclass
class _Split:
    mark: IterMark
    lf: int
    ext: int
    scale: int


@dataclass
class _Sum:
    args: list[_Split]
    base: PrimExpr


def _const(e: PrimExpr) -> int | None:
    return e.value if isinstance(e, IntImm) else None


def _mark_extent(m: IterMark) -> int:
    return m.extent.value  # type: ignore[attr-defined]  # an IntImm by construction


class _Rewriter:
    """Rewrites index expressions to :class:`_Sum` (TVM's ``IterMapRewriter``)."""

    def __init__(self, iters: Mapping[E.Var, Range], trivial: bool) -> None:
        self.vars: dict[int, tuple[E.Var, _Sum]] = {}
        self.input_marks: list[IterMark] = []
        self.fused: dict[Any, IterMark] = {}
        self.limits: dict[Any, int] = {}  # fused chain -> extent bound by the predicate
        for var, rng in iters.items():
            self._add_input(var, rng, trivial)

    def _add_input(self, var: E.Var, rng: Range, trivial: bool) -> None:
        ext = _const(rng.extent)
        if ext is None:
            raise _Fail(f"symbolic extent of iterator {var.name_hint} is not supported")
        if ext == 1 and trivial:
            self.vars[id(var)] = (var, _Sum([], tir_op.cast(var.dtype, rng.min)))
            return
        source = var if _const(rng.min) == 0 else tir_op.subtract(var, rng.min)
        mark = IterMark(source, IntImm(var.dtype, ext))
        self.input_marks.append(mark)
        self.vars[id(var)] = (var, _Sum([_Split(mark, 1, ext, 1)], tir_op.cast(var.dtype, rng.min)))

    # -- expression dispatch --------------------------------------------------------------
    def rewrite(self, e: PrimExpr) -> _Sum:
        fn = _RULES.get(type(e))
        if fn is None:
            raise _Fail(f"unsupported expression in an iterator map: {type(e).__name__}")
        return fn(self, e)

    # -- fusion ---------------------------------------------------------------------------
    def constrain(self, s: _Sum, limit: int) -> None:
        """Record the predicate ``s < limit`` on a fusable sum: its fused mark gets a smaller
        extent (TVM's ``RewriteIterConstraint``)."""
        base = _const(s.base)
        if base is None or not s.args:
            raise _Fail("unsupported predicate: expected `fused_iterators < constant`")
        split = self.fuse(_Sum(s.args, s.base), True)
        if split.scale != 1:
            raise _Fail("unsupported predicate: scaled iterator sum")
        src = split.mark.source
        key = tuple((id(a.source), a.lower_factor.value, a.extent.value, a.scale.value)
                    for a in src.args)
        self.fused.pop(key, None)
        self.limits[key] = min(self.limits.get(key, split.ext), limit - base)

    def fuse(self, s: _Sum, wrap: bool) -> _Split:
        """Fuse the args of ``s`` into one split (TVM's ``TryFuseIters``); ``wrap`` always makes a
        new mark (as TVM does for each final index)."""
        if len(s.args) == 1 and not wrap:
            return s.args[0]
        if any(a.scale <= 0 for a in s.args):
            raise _Fail("negative or zero scale in an iterator sum")
        base_scale = min(a.scale for a in s.args)
        todo, chain, expected = list(s.args), [], base_scale
        while todo:
            hit = [a for a in todo if a.scale == expected]
            if len(hit) != 1:
                raise _Fail("iterators cannot be fused: scales do not form a contiguous chain")
            todo.remove(hit[0])
            chain.append(hit[0])
            expected *= hit[0].ext
        dtype = s.base.dtype
        args = tuple(_to_node(_Split(a.mark, a.lf, a.ext, a.scale // base_scale), dtype)
                     for a in reversed(chain))
        key = tuple((id(a.mark), a.lf, a.ext, a.scale // base_scale) for a in reversed(chain))
        extent = self.limits.get(key, expected // base_scale)
        mark = self.fused.get(key)
        if mark is None:
            mark = IterMark(IterSumExpr(args, IntImm(dtype, 0)), IntImm(dtype, extent))
            self.fused[key] = mark
        return _Split(mark, 1, extent, base_scale)


def _to_node(s: _Split, dtype: Any) -> IterSplitExpr:
    c = lambda v: IntImm(dtype, v)  # noqa: E731
    return IterSplitExpr(s.mark, c(s.lf), c(s.ext), c(s.scale))


# ------------------------------------------------------------------------------------- rules
def _add_sums(a: _Sum, b: _Sum, sign: int) -> _Sum:
    args = [_Split(x.mark, x.lf, x.ext, x.scale) for x in a.args]
    for y in b.args:
        for x in args:
            if x.mark is y.mark and x.lf == y.lf and x.ext == y.ext:
                x.scale += sign * y.scale
                break
        else:
            args.append(_Split(y.mark, y.lf, y.ext, sign * y.scale))
    base = tir_op.add(a.base, b.base) if sign > 0 else tir_op.subtract(a.base, b.base)
    return _Sum([x for x in args if x.scale != 0], base)


def _scale(s: _Sum, c: int) -> _Sum:
    if c == 0:
        return _Sum([], tir_op.multiply(s.base, 0))
    return _Sum([_Split(x.mark, x.lf, x.ext, x.scale * c) for x in s.args],
                tir_op.multiply(s.base, c))


def _rw_const(_: _Rewriter, e: IntImm) -> _Sum:
    return _Sum([], e)


def _rw_var(rw: _Rewriter, e: E.Var) -> _Sum:
    hit = rw.vars.get(id(e))
    if hit is not None and hit[0] is e:
        return _Sum(list(hit[1].args), hit[1].base)
    return _Sum([], e)  # a free variable is a symbolic constant


def _rw_add(rw: _Rewriter, e: Any) -> _Sum:
    return _add_sums(rw.rewrite(e.a), rw.rewrite(e.b), 1 if isinstance(e, E.Add) else -1)


def _rw_mul(rw: _Rewriter, e: Any) -> _Sum:
    a, b = rw.rewrite(e.a), rw.rewrite(e.b)
    if not a.args and not b.args:
        return _Sum([], tir_op.multiply(a.base, b.base))
    if a.args and b.args:
        raise _Fail("product of two iterator expressions is not affine")
    s, c = (a, b.base) if a.args else (b, a.base)
    k = _const(c)
    if k is None:
        raise _Fail("iterator scaled by a non-constant")
    return _scale(s, k)


def _divmod_operand(rw: _Rewriter, e: Any) -> tuple[_Split | None, int, PrimExpr, _Sum]:
    a, b = rw.rewrite(e.a), rw.rewrite(e.b)
    c = _const(b.base)
    if b.args or c is None or c <= 0:
        raise _Fail("division of an iterator by a non-positive or non-constant value")
    if not a.args:
        return None, c, a.base, a
    return rw.fuse(_Sum(a.args, a.base), False), c, _offset_quotient(a.base, c), a


def _offset_quotient(base: PrimExpr, c: int) -> PrimExpr:
    """``base // c`` for the offset of an iterator sum divided by ``c``: a constant, or a
    symbolic offset provably a multiple of ``c`` (``j0 * 64`` by 64: ``j0``; TVM's
    ``PadDividendToDivisor`` with a left pad that simplifies to 0). Other offsets would need
    padding, which is not supported."""
    k = _const(base)
    if k is not None:
        if k % c == 0:
            return IntImm(base.dtype, k // c)
    else:
        ana = Analyzer()
        mod = ana.modular_set(base)
        if mod.coeff % c == 0 and mod.base % c == 0:
            return ana.simplify(tir_op.floordiv(base, c))
    raise _Fail("iterator offset is not a multiple of the divisor (padding unsupported)")


def _rw_floordiv(rw: _Rewriter, e: Any) -> _Sum:
    split, c, q, a = _divmod_operand(rw, e)
    if split is None:
        return _Sum([], tir_op.floordiv(a.base, c))
    if split.scale % c == 0:
        return _Sum([_Split(split.mark, split.lf, split.ext, split.scale // c)], q)
    if c % split.scale == 0 and split.ext % (c // split.scale) == 0:
        c2 = c // split.scale
        return _Sum([_Split(split.mark, split.lf * c2, split.ext // c2, 1)], q)
    raise _Fail(f"cannot split an iterator of extent {split.ext} by {c}")


def _rw_floormod(rw: _Rewriter, e: Any) -> _Sum:
    split, c, _, a = _divmod_operand(rw, e)
    zero = IntImm(a.base.dtype, 0)
    if split is None:
        return _Sum([], tir_op.floormod(a.base, c))
    if split.scale % c == 0:
        return _Sum([], zero)
    if c % split.scale == 0 and split.ext % (c // split.scale) == 0:
        return _Sum([_Split(split.mark, split.lf, c // split.scale, split.scale)], zero)
    raise _Fail(f"cannot split an iterator of extent {split.ext} by {c}")


_RULES: dict[type, Any] = {IntImm: _rw_const, E.Var: _rw_var, E.SizeVar: _rw_var,
                           E.Add: _rw_add, E.Sub: _rw_add, E.Mul: _rw_mul,
                           E.FloorDiv: _rw_floordiv, E.FloorMod: _rw_floormod}


# --------------------------------------------------------------------------------- checking
def _from_node(s: IterSplitExpr) -> _Split:
    lf, ext, sc = s.lower_factor, s.extent, s.scale  # IntImms: the caller checked
    return _Split(s.source, lf.value, ext.value, sc.value)  # type: ignore[attr-defined]


def _collect(tops: list[_Split]) -> dict[int, tuple[IterMark, list[_Split]]]:
    uses: dict[int, tuple[IterMark, list[_Split]]] = {}

    def visit(sp: _Split) -> None:
        entry = uses.get(id(sp.mark))
        if entry is None:
            entry = uses[id(sp.mark)] = (sp.mark, [])
            if isinstance(sp.mark.source, IterSumExpr):
                for arg in sp.mark.source.args:
                    visit(_from_node(arg))
        entry[1].append(sp)

    for top in tops:
        visit(top)
    return uses


def _tiles(mark: IterMark, splits: list[_Split], bijective: bool) -> bool:
    end = 1
    for sp in sorted(splits, key=lambda x: (x.lf, x.ext)):
        if sp.lf < end or sp.lf % end != 0 or (bijective and sp.lf != end):
            return False
        end = sp.lf * sp.ext
    extent = _mark_extent(mark)
    return end == extent if bijective else extent % end == 0


def _check(rw: _Rewriter, tops: list[_Split], level: str) -> str | None:
    if level == "no_check":
        return None
    bijective = level == "bijective"
    uses = _collect(tops)
    for mark, splits in uses.values():
        if not _tiles(mark, splits, bijective):
            return "Mapped indices are not independent." if _overlaps(splits) \
                else f"Index mapping does not form a {level} transform."
    if bijective and any(id(m) not in uses for m in rw.input_marks):
        return "Index mapping does not form a bijective transform: an input iterator is unused."
    return None


# ------------------------------------------------------------------------------------ public
def _predicate_parts(pred: Any) -> list[PrimExpr]:
    if isinstance(pred, bool) or (isinstance(pred, IntImm) and pred.value == 1):
        return []
    if isinstance(pred, E.And):
        return _predicate_parts(pred.a) + _predicate_parts(pred.b)
    return [pred]


def _apply_predicate(rw: _Rewriter, pred: Any) -> None:
    for part in _predicate_parts(pred):
        if isinstance(part, E.GT):
            part = E.LT(part.b, part.a)
        bound = _const(part.b) if isinstance(part, E.LT) else None
        if not isinstance(part, E.LT) or bound is None:
            raise _Fail("unsupported predicate: expected `fused_iterators < constant`")
        rw.constrain(rw.rewrite(part.a), bound)


def detect_iter_map(indices: Sequence[PrimExpr], input_iters: Mapping[E.Var, Range],
                    predicate: Any = True, check_level: str = "surjective",
                    simplify_trivial_iterators: bool = True) -> IterMapResult:
    """Detect whether ``indices`` are an affine map of ``input_iters`` (mirrors
    ``tvm.arith.detect_iter_map``).

    ``input_iters`` maps each iterator var to its ``Range`` (constant extent). ``predicate`` may be
    ``True`` or a conjunction of ``fused_iterators < constant``. ``check_level`` is
    ``"bijective"``, ``"surjective"`` or ``"no_check"``. Returns an :class:`IterMapResult` whose
    ``indices`` hold one :class:`IterSumExpr` per index (each a single split of a fused mark plus
    a base), or empty ``indices`` and the reasons in ``errors``.

    Raises:
        ValueError: for an unknown ``check_level``.
    """
    if check_level not in _LEVELS:
        raise ValueError(f"check_level must be one of {_LEVELS}, got {check_level!r}")
    try:
        rw = _Rewriter(input_iters, simplify_trivial_iterators)
        _apply_predicate(rw, predicate)
        sums = [rw.rewrite(tir_op.convert(i)) for i in indices]
        tops = [rw.fuse(s, True) if s.args else None for s in sums]
    except _Fail as err:
        return IterMapResult((), (str(err),))
    error = _check(rw, [t for t in tops if t is not None], check_level)
    if error is not None:
        return IterMapResult((), (error,))
    out = []
    for s, top in zip(sums, tops):
        args = () if top is None else (_to_node(top, s.base.dtype),)
        out.append(IterSumExpr(args, s.base))
    return IterMapResult(tuple(out), ())


def iter_map_simplify(indices: Sequence[PrimExpr], input_iters: Mapping[E.Var, Range],
                      input_pred: Any = True, check_level: str = "surjective",
                      simplify_trivial_iterators: bool = True) -> list[PrimExpr]:
    """Simplify ``indices`` through iterator-map detection (mirrors
    ``tvm.arith.iter_map_simplify``): when they form an iterator map, each is rebuilt with
    :func:`normalize_iter_map_to_expr` and simplified with the iterators' ranges bound; otherwise
    they are returned unchanged.

    Raises:
        ValueError: for an unknown ``check_level``.
    """
    from .analyzer import Analyzer  # pylint: disable=import-outside-toplevel

    res = detect_iter_map(indices, input_iters, input_pred, check_level,
                          simplify_trivial_iterators)
    if res.errors:
        return list(indices)
    ana = Analyzer()
    for var, rng in input_iters.items():
        ana.bind(var, rng)
    return [ana.simplify(normalize_iter_map_to_expr(i)) for i in res.indices]


def _overlaps(splits: list[_Split]) -> bool:
    ordered = sorted(splits, key=lambda x: (x.lf, x.ext))
    return any(b.lf < a.lf * a.ext for a, b in zip(ordered, ordered[1:]))
