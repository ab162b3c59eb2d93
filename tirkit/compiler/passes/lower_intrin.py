"""``LowerIntrin``: lower math intrinsics and floor division for the LLVM CPU target (mirrors TVM
v0.20 ``tvm.tir.transform.LowerIntrin``: ``src/tir/transforms/lower_intrin.cc`` with the rules of
``src/target/llvm/intrin_rule_llvm.cc`` and ``src/target/intrin_rule.cc``).

Each call of a math op is rewritten by the first rule that applies, in TVM's order:

1. ``llvm.FLowerIntrinsic``: ops with an ``llvm_intrin`` attribute (tirkit/tir/builtin.py) become
   ``T.call_llvm_pure_intrin(dtype, "llvm.exp", x)``;
2. ``llvm.FLegalize``: ``exp10``, ``tanh``, ``tan``, ``cosh``, ``sinh`` expand into other ops and
   ``clz`` becomes ``llvm.ctlz``;
3. ``default.FLowerIntrinsic``: ops with a ``libm`` attribute become
   ``T.call_pure_extern(dtype, "expf", x)`` (``DispatchPureExtern<FloatSuffix>``); float16 and
   bfloat16 operands are computed in float32 and cast back;
4. ``default.FLegalize``: ``sigmoid`` -> ``1 / (1 + exp(-x))``, ``rsqrt`` -> ``1 / sqrt(x)``,
   ``isinf`` / ``isfinite`` -> comparisons.

An expansion is lowered again (``tanh`` ends as ``llvm.exp`` calls). Besides calls: float
``a * b + c`` becomes ``llvm.fmuladd`` (TVM's ``MakeFMA``), and integer ``floordiv`` /
``floormod`` become shifts/masks (power-of-two divisors), ``truncdiv``/``truncmod`` when the
operands are known non-negative, or ``truncdiv``/``truncmod`` plus a sign fix-up otherwise.
"""
from __future__ import annotations

from typing import Any, Callable

from tirkit.ir import Range
from tirkit.ir.dtype import DataType, dtype as _dtype
from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.ir.op import Op
from tirkit import tir
from tirkit.tir import (Add, Call, Cast, FloorDiv, FloorMod, For, Let, LetStmt, Mul, PrimFunc,
                        Select, StringImm, Var)
from tirkit.tir.builtin import libm_symbol
from tirkit.tir.stmt_functor import StmtExprMutator

from ..transform import prim_func_pass, register_pass
from ._opt_common import DeferredBinds

__all__ = ["LowerIntrin", "IntrinInjecter", "LEGALIZE_LLVM", "LEGALIZE_DEFAULT"]

_Rule = Callable[[Call], "PrimExpr | None"]


def _x(call: Call) -> PrimExpr:
    return call.args[0]


def _c(x: PrimExpr, value: float) -> PrimExpr:
    return tir.const(value, x.dtype)


def _tanh(call: Call) -> PrimExpr:
    x = _x(call)
    one, two, neg_two = _c(x, 1), _c(x, 2), _c(x, -2)
    exp_neg2x, exp_pos2x = tir.exp(neg_two * x), tir.exp(two * x)
    pos = (one - exp_neg2x) / (one + exp_neg2x)
    neg = (exp_pos2x - one) / (exp_pos2x + one)
    return Select(x >= _c(x, 0), pos, neg, span=call.span)


def _cosh_sinh(sign: int) -> _Rule:
    def rule(call: Call) -> PrimExpr:
        x = _x(call)
        exp_negx, exp_posx = tir.exp(_c(x, -1) * x), tir.exp(x)
        num = exp_posx + exp_negx if sign > 0 else exp_posx - exp_negx
        return num / _c(x, 2)
    return rule


def _clz(call: Call) -> PrimExpr:
    x = _x(call)
    ctlz = Call(x.dtype, "tir.call_llvm_intrin",
                (StringImm("llvm.ctlz"), IntImm("uint32", 2), x, IntImm("bool", 1)),
                span=call.span)
    return tir.cast(call.dtype, ctlz)


#: ``llvm.FLegalize`` rules (intrin_rule_llvm.cc)
LEGALIZE_LLVM: dict[str, _Rule] = {
    "tir.exp10": lambda c: tir.exp(_x(c) * _c(_x(c), 2.302585093)),
    "tir.tanh": _tanh,
    "tir.tan": lambda c: tir.sin(_x(c)) / tir.cos(_x(c)),
    "tir.cosh": _cosh_sinh(1),
    "tir.sinh": _cosh_sinh(-1),
    "tir.clz": _clz,
}

#: ``default.FLegalize`` rules (intrin_rule.cc)
def _q_multiply_shift(call: Call) -> PrimExpr:
    """TVM's ``DispatchFixedPointMultiply``: ``round(x * y * 2**(s - q))`` in int64 (int32 x/y/s;
    a multiplier of 1 << 30 is the power-of-two shortcut)."""
    x, y, q, s = call.args
    if isinstance(y, IntImm) and y.value == 1 << 30 and isinstance(s, IntImm):
        e = s.value - 1
        if e > 0:
            return tir.shift_left(x, tir.const(e, x.dtype))
        if e < 0:
            return tir.shift_right(x + tir.const(1 << (-e - 1), x.dtype), tir.const(-e, x.dtype))
        return x
    hp, lp = DataType(_dtype("int64").code, 64, x.dtype.lanes), x.dtype
    zero = tir.const(0, s.dtype)
    left = tir.Select(s > zero, s, zero)
    right = tir.Select(s > zero, zero, zero - s)
    wide = tir.cast(hp, x)
    wide = tir.Select(left != zero, tir.shift_left(wide, tir.cast(hp, left)), wide)
    wide = wide * tir.cast(hp, y)
    total = tir.cast(hp, right + q)
    wide = wide + tir.shift_left(tir.const(1, hp), total - tir.const(1, hp))
    return tir.cast(lp, tir.shift_right(wide, total))


LEGALIZE_DEFAULT: dict[str, _Rule] = {
    "tir.q_multiply_shift": _q_multiply_shift,
    "tir.sigmoid": lambda c: _c(_x(c), 1) / (_c(_x(c), 1) + tir.exp(_c(_x(c), 0) - _x(c))),
    "tir.rsqrt": lambda c: _c(_x(c), 1) / tir.sqrt(_x(c)),
    "tir.isinf": lambda c: tir.isinf(_x(c)),
    "tir.isfinite": lambda c: tir.isfinite(_x(c)),
}

_PROMOTED = ("float16", "bfloat16")


def _promoted(call: Call, build: Callable[[DataType, tuple[PrimExpr, ...]], PrimExpr]
              ) -> PrimExpr:
    """``build`` on float32 operands cast back to the call's dtype for float16/bfloat16 (TVM
    computes these in float32); on the operands as they are otherwise."""
    t = call.dtype
    if str(t.element_of()) not in _PROMOTED:
        return build(t, call.args)
    f32 = DataType(_dtype("float32").code, 32, t.lanes)
    args = tuple(tir.cast(f32, a) if a.dtype.is_floating() else a for a in call.args)
    return Cast(t, build(f32, args), span=call.span)


def _llvm_rule(name: str) -> _Rule:
    """``DispatchLLVMPureIntrin``: ``T.call_llvm_pure_intrin(dtype, name, T.uint32(n), *args)``
    (``n`` = ``num_signature``, as TVM writes it)."""
    def rule(call: Call) -> PrimExpr:
        def build(t: DataType, args: tuple[PrimExpr, ...]) -> PrimExpr:
            # TVM's form: the intrinsic, then ``num_signature`` (a uint32), then the operands
            sig = IntImm("uint32", len(args))
            return Call(t, "tir.call_llvm_pure_intrin", (StringImm(name), sig, *args),
                        span=call.span)
        if call.dtype.is_bfloat16():
            return _promoted(call, build)
        return build(call.dtype, call.args)
    return rule


def _libm_rule(op: Op) -> _Rule:
    """``DispatchPureExtern<FloatSuffix>``: ``T.call_pure_extern(dtype, "expf", *args)``; no rule
    for non-float or vector operands (the codegen keeps those)."""
    def rule(call: Call) -> PrimExpr | None:
        if not call.dtype.is_floating() or call.dtype.lanes != 1:
            return None

        def build(t: DataType, args: tuple[PrimExpr, ...]) -> PrimExpr:
            symbol = libm_symbol(op, t)
            assert symbol is not None  # (a libm op on a floating dtype)
            return Call(t, "tir.call_pure_extern", (StringImm(symbol), *args),
                        span=call.span)
        return _promoted(call, build)
    return rule


def _rules_for(op: Op) -> list[_Rule]:
    """The rules of ``op`` in TVM's dispatch order (llvm intrinsic, llvm legalize, libm,
    default legalize)."""
    rules: list[_Rule] = []
    if "llvm_intrin" in op.attrs and op.name not in LEGALIZE_LLVM and op.name != "tir.prefetch":
        rules.append(_llvm_rule(op.attrs["llvm_intrin"]))
    if op.name in LEGALIZE_LLVM:
        rules.append(LEGALIZE_LLVM[op.name])
    if "libm" in op.attrs:
        rules.append(_libm_rule(op))
    if op.name in LEGALIZE_DEFAULT:
        rules.append(LEGALIZE_DEFAULT[op.name])
    return rules


def _is_pow2(e: PrimExpr) -> int | None:
    if isinstance(e, IntImm) and e.value > 0 and e.value & (e.value - 1) == 0:
        return e.value.bit_length() - 1
    return None


class IntrinInjecter(StmtExprMutator):
    """The mutator behind :func:`LowerIntrin` (TVM ``IntrinInjecter``, an
    ``IRMutatorWithAnalyzer``: loop and let variables are bound in its analyzer)."""

    def __init__(self) -> None:
        # binds are made at the first query: most functions have no division to lower, and a
        # bind (a simplify, a bound and a modular analysis) costs more than the rest of the pass
        self.analyzer = DeferredBinds()
        self._rules: dict[str, list[_Rule]] = {}

    # ------------------------------------------------------------ analyzer scopes
    def visit_for_(self, op: For) -> Any:
        self.analyzer.bind(op.loop_var, Range.from_min_extent(op.min, op.extent))
        return super().visit_for_(op)

    def visit_let_stmt_(self, op: LetStmt) -> Any:
        value = self.visit_expr(op.value)
        if not op.var.dtype.is_handle() and value.dtype == op.var.dtype:
            self.analyzer.bind(op.var, value)
        body = self.visit_stmt(op.body)
        if value is op.value and body is op.body:
            return op
        return op.with_changes(value=value, body=body)

    # ---------------------------------------------------------------- calls
    def visit_call_(self, op: Call) -> PrimExpr:
        if isinstance(op.op, Op):
            rules = self._rules.get(op.op.name)
            if rules is None:
                rules = self._rules[op.op.name] = _rules_for(op.op)
            for rule in rules:
                out = rule(op)
                if out is not None and out is not op:
                    return self.visit_expr(out)
        return super().visit_call_(op)

    def visit_add_(self, op: Add) -> PrimExpr:
        if op.dtype.is_floating():
            if isinstance(op.b, Mul):
                return self._fma(op.b.a, op.b.b, op.a, op)
            if isinstance(op.a, Mul):
                return self._fma(op.a.a, op.a.b, op.b, op)
        return super().visit_add_(op)

    def _fma(self, a: PrimExpr, b: PrimExpr, c: PrimExpr, op: Add) -> PrimExpr:
        """``a * b + c`` -> ``llvm.fmuladd`` (TVM ``MakeFMA`` with the LLVM rule of ``tir.fma``)."""
        return self.visit_expr(Call(op.dtype, "tir.fma", (a, b, c), span=op.span))

    # ---------------------------------------------------------------- floor division
    def _bound_min(self, e: PrimExpr, divisor: PrimExpr) -> int | None:
        """The numerator's lower bound when TVM's offset rewrite ``truncdiv(a + b * k, b) - k``
        is safe: ``a + b * k`` must not overflow (TVM only checks the lower bound, which
        miscompiles e.g. ``floordiv(1 - A[i], 3)`` for large ``A[i]``; found by the
        differential tests). ``None`` when unsafe or unknown."""
        bound = self.analyzer.const_int_bound(e)
        lo, hi = bound.min_value, bound.max_value
        t = e.dtype.element_of()
        limit = (1 << (t.bits - 1)) - 1 if t.is_int() else (1 << t.bits) - 1
        if not -limit < lo < 0 or not isinstance(divisor, IntImm) or divisor.value <= 0:
            return None
        b = divisor.value
        k = (b - 1 - lo) // b
        return lo if hi + b * k <= limit else None

    def visit_floor_div_(self, op: FloorDiv) -> PrimExpr:
        new = super().visit_floor_div_(op)
        if not isinstance(new, FloorDiv):
            return new
        a, b, t = new.a, new.b, new.dtype
        zero, one = tir.const(0, t), tir.const(1, t)  # typed: a bare 0 would be int32
        if t.is_floating():
            return self.visit_expr(tir.floor(a / b))
        shift = _is_pow2(b)
        if shift is not None:
            return tir.shift_right(a, tir.const(shift, t))
        if self.analyzer.can_prove_greater_equal(b, 0):
            if (self.analyzer.can_prove_greater_equal(a, 0)
                    or self.analyzer.can_prove_greater_equal(new, 0)):
                return tir.truncdiv(a, b)
            lo = self._bound_min(a, b)
            if lo is not None:
                ceildiv = tir.truncdiv((b - one) - IntImm(t.element_of(), lo), b)
                num = self.analyzer.simplify(a + b * ceildiv)
                return tir.truncdiv(num, b) - ceildiv
            rdiv, rmod = tir.truncdiv(a, b), tir.truncmod(a, b)
            if str(t) in ("int32", "int64"):
                return rdiv + tir.shift_right(rmod, tir.const(t.bits - 1, t))
            return Select(rmod >= zero, rdiv, rdiv - one)
        rmod, rdiv = Var("rmod", t), Var("rdiv", t)
        cond = tir.logical_or(tir.logical_and(b >= zero, rmod >= zero),
                              tir.logical_and(b < zero, rmod <= zero))
        let_rdiv = Let(rdiv, tir.truncdiv(a, b), Select(cond, rdiv, rdiv - one))
        return Let(rmod, tir.truncmod(a, b), let_rdiv)

    def visit_floor_mod_(self, op: FloorMod) -> PrimExpr:
        new = super().visit_floor_mod_(op)
        if not isinstance(new, FloorMod):
            return new
        a, b, t = new.a, new.b, new.dtype
        zero, one = tir.const(0, t), tir.const(1, t)  # typed: a bare 0 would be int32
        if t.is_floating():
            return a - self.visit_expr(tir.floor(a / b)) * b
        shift = _is_pow2(b)
        if shift is not None:
            return tir.bitwise_and(a, tir.const((1 << shift) - 1, t))
        if self.analyzer.can_prove_greater_equal(b, 0):
            if self.analyzer.can_prove_greater_equal(a, 0):
                return tir.truncmod(a, b)
            lo = self._bound_min(a, b)
            if lo is not None:
                ceildiv = tir.truncdiv(tir.negative(IntImm(t.element_of(), lo)) + (b - one), b)
                return tir.truncmod(self.analyzer.simplify(a + b * ceildiv), b)
            rmod = tir.truncmod(a, b)
            if str(t) in ("int32", "int64"):
                return rmod + tir.bitwise_and(b, tir.shift_right(rmod, tir.const(t.bits - 1, t)))
            return Select(rmod >= zero, rmod, rmod + b)
        rmod = Var("rmod", t)
        cond = tir.logical_or(tir.logical_and(b >= zero, rmod >= zero),
                              tir.logical_and(b < zero, rmod <= zero))
        return Let(rmod, tir.truncmod(a, b), Select(cond, rmod, rmod + b))


@register_pass("LowerIntrin")
def LowerIntrin():  # pylint: disable=invalid-name
    """The LowerIntrin pass for the LLVM CPU target (``tvm.tir.transform.LowerIntrin``); see the
    module doc."""
    @prim_func_pass("LowerIntrin", 0)
    def run(func: PrimFunc, mod: Any, ctx: Any) -> PrimFunc:
        del mod, ctx
        body = IntrinInjecter()(func.body)
        return func if body is func.body else func.with_body(body)
    return run
