"""The arithmetic analyzer (mirrors ``tvm.arith.Analyzer``)."""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

from ..ir.deep import run_deep
from ..ir.expr import IntImm, PrimExpr, Range
from ..tir import expr as E
from ..tir import op as tir_op
from . import rules_div, rules_logic  # noqa: F401  (register their handlers)
from .bound import ConstIntBound, ConstIntBoundAnalyzer
from .keys import expr_key
from .modular_set import ModularSet, ModularSetAnalyzer
from .simplify import Simplifier


def _const_last(r: Range) -> tuple[int, int] | None:
    """The bound of ``r.min + r.extent - 1`` when both are constants of one dtype and the sum
    holds in it (most loops: what simplifying and bounding the folded constant gives, without
    building it, while no constant has a known bound); None otherwise."""
    lo, ext = r.min, r.extent
    if type(lo) is not IntImm or type(ext) is not IntImm or lo.dtype != ext.dtype \
            or not lo.dtype.is_int():
        return None
    end, half = lo.value + ext.value, 1 << (lo.dtype.bits - 1)
    if not (-half <= end < half and -half <= end - 1):  # (both folds hold in the dtype)
        return None
    return (end - 1, end - 1)


class Analyzer:
    """Integer arithmetic analyzer (mirrors ``tvm.arith.Analyzer``).

    Holds variable ranges (:meth:`bind`), substitutions and constraint scopes, and answers
    simplification, bound, modular-set and proof queries about integer expressions. Division
    follows TVM: ``FloorDiv``/``FloorMod`` round toward minus infinity, ``Div``/``Mod`` on integers
    truncate toward zero. Integer overflow is ignored, as in TVM. ``SizeVar`` is known ``>= 0``.
    """

    def __init__(self) -> None:
        self._bounds = ConstIntBoundAnalyzer()
        self._modular = ModularSetAnalyzer()
        self._simp = Simplifier(self._bounds)

    # -- binding --------------------------------------------------------------------------
    def bind(self, var: E.Var, expr: Range | PrimExpr | int,
             allow_override: bool = False) -> None:
        """Bind ``var`` to a range (``var`` in ``[min, min + extent)``) or to a value
        (``Analyzer.bind``). A value, or a range of extent 1, is substituted for ``var`` by the
        simplifier. ``allow_override`` is accepted for TVM compatibility; a later bind replaces an
        earlier one.

        Raises:
            TypeError: when ``var`` is not a ``Var`` or ``expr`` is not a Range/PrimExpr/int.
        """
        if not isinstance(var, E.Var):
            raise TypeError(f"Analyzer.bind: expected a Var, got {type(var).__name__}")
        # the state changes before the simplifications below (made without var's old bound)
        # and after them (what they found may depend on var's new one)
        self._simp.state += 1
        try:
            self._bind(var, expr_key(var), expr)
        finally:
            self._simp.state += 1

    def _bind(self, var: E.Var, key: Any, expr: Range | PrimExpr | int) -> None:
        self._bounds.known.pop(key, None)
        self._simp.subst.pop(id(var), None)
        if isinstance(expr, Range):
            if isinstance(expr.extent, IntImm) and expr.extent.value == 1:
                self._bind(var, key, expr.min)
                return
            lo = self._bounds.bound(self.simplify(expr.min))
            tags = self._bounds._tags  # pylint: disable=protected-access
            hi = _const_last(expr) if tags is not None and "int" not in tags else None
            if hi is None:
                hi = self._bounds.bound(self.simplify(expr.min + expr.extent - 1))
            self._bounds.update(key, (lo[0], hi[1]))
            return
        if isinstance(expr, (int, PrimExpr)):
            value = self.simplify(tir_op.convert(expr, var.dtype))
            self._bounds.update(key, self._bounds.bound(value))
            self._simp.subst[id(var)] = (var, value)
            self._modular.known[id(var)] = (var, self._modular.analyze(value))
            return
        raise TypeError(f"Analyzer.bind: expected a Range or PrimExpr, got {type(expr).__name__}")

    def update(self, var: E.Var, info: ConstIntBound, override: bool = False) -> None:
        """Record the bound ``info`` of ``var`` (``Analyzer.update`` for a ``ConstIntBound``):
        intersected with what is known, or replacing it when ``override``.

        Raises:
            TypeError: when ``info`` is not a ``ConstIntBound``.
        """
        if not isinstance(info, ConstIntBound):
            raise TypeError(f"Analyzer.update: expected a ConstIntBound, got {type(info).__name__}")
        key = expr_key(var)
        self._simp.state += 1
        if override:
            self._bounds.known.pop(key, None)
        self._bounds.update(key, info.to_interval())

    @property
    def state(self) -> int:
        """A number that changes whenever what the analyzer knows does (a bind, an update, a
        constraint scope entered or left): answers given under one number hold while it
        stays (no TVM counterpart)."""
        return self._simp.state

    def key(self, expr: PrimExpr) -> Any:
        """A hashable structural key of ``expr``: equal for structurally equal expressions,
        vars compared by identity (``tirkit.arith.keys.expr_key``, with this analyzer's
        cache; no TVM counterpart)."""
        return self._simp.key(expr)

    # -- simplification -------------------------------------------------------------------
    def simplify(self, expr: PrimExpr | int, steps: int = 2) -> PrimExpr:
        """Simplify ``expr`` (``Analyzer.simplify``): constant folding, cancellation of like terms,
        division/modulo, min/max and comparison rules using known bounds. The dtype is kept.
        ``steps`` is accepted for TVM compatibility (one pass reaches the fixed point).

        Raises:
            ZeroDivisionError: on division or modulo by a constant zero.
        """
        expr = tir_op.convert(expr)
        if type(expr) is IntImm:  # a constant is its own simplest form (most of the calls:
            return expr  # loop bounds, extents, offsets); spare the run's set-up
        return self._simp.run(expr)

    def rewrite_simplify(self, expr: PrimExpr | int) -> PrimExpr:
        """Rewrite-rule simplification (``Analyzer.rewrite_simplify``; same engine as
        :meth:`simplify`)."""
        return self.simplify(expr)

    def canonical_simplify(self, expr: PrimExpr | int) -> PrimExpr:
        """Canonical-form simplification (``Analyzer.canonical_simplify``; same engine as
        :meth:`simplify`)."""
        return self.simplify(expr)

    # -- analyses -------------------------------------------------------------------------
    def const_int_bound(self, expr: PrimExpr | int, *, simplify: bool = True) -> ConstIntBound:
        """Constant lower/upper bound of ``expr`` (``Analyzer.const_int_bound``); unbounded sides
        are ``ConstIntBound.NEG_INF``/``POS_INF``. With ``simplify=False`` (not in TVM), the bound
        of ``expr`` as written only: cheaper, and never tighter than the default one, which
        intersects it with the bound of the simplified expression."""
        expr = tir_op.convert(expr)
        iv = run_deep(self._bounds.bound, expr, what="const_int_bound")
        if not simplify or isinstance(expr, E.Var) or not expr.dtype.is_int():
            return ConstIntBound.from_interval(iv)
        simp = self._bounds.bound(self.simplify(expr))
        return ConstIntBound.from_interval((max(iv[0], simp[0]), min(iv[1], simp[1])))

    def modular_set(self, expr: PrimExpr | int) -> ModularSet:
        """``(coeff, base)`` such that every value of ``expr`` is ``coeff*k + base``
        (``Analyzer.modular_set``)."""
        return ModularSet(*self._modular.analyze(tir_op.convert(expr)))

    # -- proofs ---------------------------------------------------------------------------
    def can_prove(self, cond: PrimExpr | bool, strength: Any = None) -> bool:
        """Whether ``cond`` is provably true (``Analyzer.can_prove``); ``False`` means unknown."""
        out = self.simplify(tir_op.convert(cond))
        return isinstance(out, IntImm) and out.value != 0

    def can_prove_equal(self, lhs: PrimExpr | int, rhs: PrimExpr | int) -> bool:
        """Whether ``lhs == rhs`` provably (``Analyzer.can_prove_equal``)."""
        a, b = tir_op.convert_pair(lhs, rhs)
        return self.can_prove(tir_op.equal(a, b))

    def can_prove_greater_equal(self, expr: PrimExpr | int, lower_bound: int) -> bool:
        """Whether ``expr >= lower_bound`` provably (``Analyzer.can_prove_greater_equal``)."""
        expr = tir_op.convert(expr)
        if self.const_int_bound(expr).min_value >= lower_bound:
            return True
        return self.can_prove(tir_op.greater_equal(expr, lower_bound))

    def can_prove_less(self, expr: PrimExpr | int, upper_bound: int) -> bool:
        """Whether ``expr < upper_bound`` provably (``Analyzer.can_prove_less``)."""
        expr = tir_op.convert(expr)
        if self.const_int_bound(expr).max_value < upper_bound:
            return True
        return self.can_prove(tir_op.less(expr, upper_bound))

    @contextlib.contextmanager
    def constraint_scope(self, constraint: PrimExpr) -> Iterator[None]:
        """Within the ``with`` block ``constraint`` is assumed true (``Analyzer.constraint_scope``):
        ``with ana.constraint_scope(i < 10): ana.simplify(i < 10)`` gives ``True``."""
        simp = self._simp
        simp._memo = [{}]  # pylint: disable=protected-access
        simp.state += 1
        try:
            with simp.assume(tir_op.convert(constraint)):
                yield
        finally:
            simp.state += 1
