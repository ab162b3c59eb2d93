"""Affine iterator-map expressions (mirrors ``tvm.arith.IterMark``, ``IterSplitExpr``,
``IterSumExpr``, ``IterMapResult`` and ``normalize_iter_map_to_expr``)."""
from __future__ import annotations

from dataclasses import field
from typing import Any

from ..ir.dtype import DataType
from ..ir.expr import IntImm, PrimExpr
from ..ir.node import Coerced, Node, TupleOf, coerced_field, node
from ..tir import op as tir_op


def _expr(v: Any, like: PrimExpr | None = None) -> PrimExpr:
    return tir_op.convert(v, like.dtype if like is not None else None)


@node
class IterMapExpr(PrimExpr):
    """Base of iterator-map expressions (mirrors ``tvm.arith.IterMapExpr``); a ``PrimExpr`` whose
    ``dtype`` is that of its scale/base."""


@node
class IterMark(Node):
    """An iterator ``source`` ranging over ``[0, extent)`` (mirrors ``tvm.arith.IterMark``).

    ``source`` is a ``Var`` (or ``var - min``) for an input iterator, or an :class:`IterSumExpr`
    for a fused one; ``extent`` a ``PrimExpr`` (ints become constants of the source's dtype).
    """

    source: Any
    extent: Coerced[PrimExpr, PrimExpr | int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "extent", _expr(self.extent, _like(self.source)))


def _like(v: Any) -> PrimExpr | None:
    return v if isinstance(v, PrimExpr) else None


@node
class IterSplitExpr(IterMapExpr):
    """``floormod(floordiv(source, lower_factor), extent) * scale`` over an :class:`IterMark`
    (mirrors ``tvm.arith.IterSplitExpr``). ``IterSplitExpr(mark)`` is the whole mark."""

    source: IterMark
    lower_factor: Coerced[PrimExpr, PrimExpr | int | None] = coerced_field(default=None)
    extent: Coerced[PrimExpr, PrimExpr | int | None] = coerced_field(default=None)
    scale: Coerced[PrimExpr, PrimExpr | int | None] = coerced_field(default=None)
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        like = self.source.extent
        object.__setattr__(self, "lower_factor", _expr(
            1 if self.lower_factor is None else self.lower_factor, like))
        object.__setattr__(self, "extent", _expr(
            like if self.extent is None else self.extent, like))
        object.__setattr__(self, "scale", _expr(1 if self.scale is None else self.scale, like))
        object.__setattr__(self, "dtype", self.scale.dtype)

    __hash__ = PrimExpr.__hash__


@node
class IterSumExpr(IterMapExpr):
    """``sum(args) + base`` (mirrors ``tvm.arith.IterSumExpr``); ``args`` are
    :class:`IterSplitExpr`."""

    args: TupleOf[IterSplitExpr]
    base: Coerced[PrimExpr, PrimExpr | int]
    dtype: DataType = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", tuple(self.args))
        base = _expr(self.base, self.args[0].scale if self.args else None)
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "dtype", base.dtype)

    __hash__ = PrimExpr.__hash__


@node
class IterMapResult(Node):
    """Result of :func:`detect_iter_map` (mirrors ``tvm.arith.IterMapResult``): ``indices`` (one
    :class:`IterSumExpr` per input index, empty on failure), ``errors`` (messages, empty on
    success) and ``padding_predicate`` (always ``False``: padding is not supported)."""

    indices: tuple[IterSumExpr, ...] = ()
    errors: tuple[str, ...] = ()
    padding_predicate: PrimExpr = field(default_factory=lambda: IntImm("bool", 0))


def _is_const(e: PrimExpr, v: int) -> bool:
    return isinstance(e, IntImm) and e.value == v


def _split_to_expr(s: IterSplitExpr) -> PrimExpr:
    mark = s.source
    src = normalize_iter_map_to_expr(mark.source) if isinstance(mark.source, IterMapExpr) \
        else mark.source
    v = src
    if not _is_const(s.lower_factor, 1):
        v = tir_op.floordiv(v, s.lower_factor)
    full = isinstance(mark.extent, IntImm) and isinstance(s.lower_factor, IntImm) \
        and isinstance(s.extent, IntImm) \
        and s.lower_factor.value * s.extent.value == mark.extent.value
    if not full and not (s.extent is mark.extent and _is_const(s.lower_factor, 1)):
        v = tir_op.floormod(v, s.extent)
    return v if _is_const(s.scale, 1) else tir_op.multiply(v, s.scale)


def normalize_iter_map_to_expr(expr: PrimExpr) -> PrimExpr:
    """Convert an iterator-map expression back to an ordinary ``PrimExpr`` (mirrors
    ``tvm.arith.normalize_iter_map_to_expr``); other expressions are returned unchanged.
    A split becomes ``floormod(floordiv(source, lower_factor), extent) * scale`` with the trivial
    parts left out."""
    if isinstance(expr, IterSumExpr):
        out = None
        for arg in expr.args:
            term = _split_to_expr(arg)
            out = term if out is None else tir_op.add(out, term)
        if out is None:
            return expr.base
        return out if _is_const(expr.base, 0) else tir_op.add(out, expr.base)
    if isinstance(expr, IterSplitExpr):
        return _split_to_expr(expr)
    return expr
