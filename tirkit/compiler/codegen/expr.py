"""Expressions: constants, variables, arithmetic, comparisons, logic, Select, Let and vectors
(mirrors the ``VisitExpr_`` methods of TVM's ``CodeGenLLVM``).

Integer semantics follow TVM: ``Div``/``Mod`` truncate (``sdiv``/``srem`` on signed,
``udiv``/``urem`` on unsigned); ``FloorDiv``/``FloorMod`` round toward negative infinity and are
emitted exactly with a sign correction (TVM's ``LowerIntrin`` builds the same correction in TIR).
Signed ``add/sub/mul`` of 32 bits or more carry ``nsw`` as in ``CodeGenLLVM::CreateAdd``.
``bfloat16`` arithmetic is computed in ``float`` and rounded back.
"""
from __future__ import annotations

from typing import Any, cast

from llvmlite import ir

from ...ir.dtype import DataType
from ...ir.expr import FloatImm, IntImm
from ...tir import expr as E
from .casts import cast_value
from .core import CodeGenLLVM, register
from .types import I32, CodegenError, const, ir_const, llvm_type, scalable_vector_error
from .veclib import LIBMVEC, call_libm

__all__ = ["int_floordiv", "int_floormod", "call_intrinsic"]

_F32 = DataType.parse("float32")


# ------------------------------------------------------------------------------ leaves
@register(IntImm, FloatImm)
def _imm(_cg: CodeGenLLVM, e: Any) -> ir.Value:
    return const(e.dtype, e.value)


@register(E.StringImm)
def _string(cg: CodeGenLLVM, e: E.StringImm) -> ir.Value:
    return cg.string_constant(e.value)


@register(E.Var)
def _var(cg: CodeGenLLVM, e: E.Var) -> ir.Value:
    return cg.lookup_var(e)


# -------------------------------------------------------------------------- arithmetic
def _bf16(cg: CodeGenLLVM, e: Any, compute: Any) -> ir.Value:
    """Compute a bfloat16 binary op in float32 and round back."""
    f32 = _F32.with_lanes(e.a.dtype.lanes)
    a = cast_value(cg, cg.expr(e.a), e.a.dtype, f32)
    b = cast_value(cg, cg.expr(e.b), e.b.dtype, f32)
    return cast_value(cg, compute(a, b, f32), f32, e.dtype)


_NSW = ("nsw",)
#: the float operations that carry :attr:`CodeGenLLVM.fp_flags` (``contract`` on the GPU)
_FP_FLAGGED = frozenset({"fadd", "fsub", "fmul"})


def _nsw(t: DataType) -> tuple[str, ...]:
    """The flags of a signed add/sub/mul of ``t``: ``nsw`` from 32 bits up."""
    return _NSW if t.is_int() and t.bits >= 32 else ()


def _simple(int_op: str, float_op: str, uint_op: str | None = None) -> Any:
    def rule(cg: CodeGenLLVM, e: Any) -> ir.Value:
        t = e.a.dtype
        if t.is_bfloat16():
            return _bf16(cg, e, lambda a, b, ft: getattr(cg.builder, float_op)(a, b))
        a, b = cg.expr(e.a), cg.expr(e.b)
        if t.is_floating():
            if float_op in _FP_FLAGGED and cg.fp_flags:
                return getattr(cg.builder, float_op)(a, b, flags=cg.fp_flags)
            return getattr(cg.builder, float_op)(a, b)
        if t.is_handle():
            raise CodegenError(f"arithmetic on handles is not supported: {type(e).__name__}")
        op = uint_op if (uint_op and t.is_uint()) else int_op
        if op in ("add", "sub", "mul"):
            return getattr(cg.builder, op)(a, b, flags=_nsw(t))
        return getattr(cg.builder, op)(a, b)
    return rule


register(E.Add)(_simple("add", "fadd"))
register(E.Sub)(_simple("sub", "fsub"))
register(E.Mul)(_simple("mul", "fmul"))
register(E.Div)(_simple("sdiv", "fdiv", "udiv"))
register(E.Mod)(_simple("srem", "frem", "urem"))


def int_floordiv(cg: CodeGenLLVM, a: ir.Value, b: ir.Value, t: DataType) -> ir.Value:
    """``floor(a / b)`` on signed integers: ``q - ((r != 0) && ((r < 0) != (b < 0)))``."""
    bld = cg.builder
    q, r = bld.sdiv(a, b), bld.srem(a, b)
    return bld.sub(q, bld.zext(_needs_fix(cg, r, b, t), q.type))


def int_floormod(cg: CodeGenLLVM, a: ir.Value, b: ir.Value, t: DataType) -> ir.Value:
    """``a - floor(a / b) * b`` on signed integers: ``r + (fix ? b : 0)``."""
    bld = cg.builder
    r = bld.srem(a, b)
    return bld.add(r, bld.select(_needs_fix(cg, r, b, t), b, const(t, 0)))


def _needs_fix(cg: CodeGenLLVM, r: ir.Value, b: ir.Value, t: DataType) -> ir.Value:
    bld, zero = cg.builder, const(t, 0)
    nonzero = bld.icmp_signed("!=", r, zero)
    signs_differ = bld.xor(bld.icmp_signed("<", r, zero), bld.icmp_signed("<", b, zero))
    return bld.and_(nonzero, signs_differ)


def _floor_of(cg: CodeGenLLVM, x: ir.Value, t: DataType) -> ir.Value:
    return call_intrinsic(cg, "llvm.floor", llvm_type(t), [x])


@register(E.FloorDiv)
def _floordiv(cg: CodeGenLLVM, e: E.FloorDiv) -> ir.Value:
    t = e.a.dtype
    if t.is_bfloat16():
        return _bf16(cg, e, lambda a, b, ft: _floor_of(cg, cg.builder.fdiv(a, b), ft))
    a, b = cg.expr(e.a), cg.expr(e.b)
    if t.is_floating():
        return _floor_of(cg, cg.builder.fdiv(a, b), t)
    if t.is_uint():
        return cg.builder.udiv(a, b)
    return int_floordiv(cg, a, b, t)


@register(E.FloorMod)
def _floormod(cg: CodeGenLLVM, e: E.FloorMod) -> ir.Value:
    t = e.a.dtype

    def fmod(a: ir.Value, b: ir.Value, ft: DataType) -> ir.Value:
        bld = cg.builder
        return bld.fsub(a, bld.fmul(_floor_of(cg, bld.fdiv(a, b), ft), b))

    if t.is_bfloat16():
        return _bf16(cg, e, fmod)
    a, b = cg.expr(e.a), cg.expr(e.b)
    if t.is_floating():
        return fmod(a, b, t)
    if t.is_uint():
        return cg.builder.urem(a, b)
    return int_floormod(cg, a, b, t)


def _compare(cg: CodeGenLLVM, op: str, a: ir.Value, b: ir.Value, t: DataType) -> ir.Value:
    if t.is_floating():
        return cg.builder.fcmp_ordered(op, a, b)
    if t.is_int():
        return cg.builder.icmp_signed(op, a, b)
    return cg.builder.icmp_unsigned(op, a, b)


def _operands(cg: CodeGenLLVM, e: Any) -> tuple[ir.Value, ir.Value, ir.Value, ir.Value, DataType]:
    """Both operands as computed, then as compared (bfloat16 compares in float32)."""
    t = e.a.dtype
    a, b = cg.expr(e.a), cg.expr(e.b)
    if t.is_bfloat16():
        f32 = _F32.with_lanes(t.lanes)
        return a, b, cast_value(cg, a, t, f32), cast_value(cg, b, t, f32), f32
    return a, b, a, b, t


def _min_max(op: str) -> Any:
    def rule(cg: CodeGenLLVM, e: Any) -> ir.Value:
        a, b, ca, cb, t = _operands(cg, e)
        return cg.builder.select(_compare(cg, op, ca, cb, t), a, b)
    return rule


register(E.Min)(_min_max("<"))
register(E.Max)(_min_max(">"))


def _cmp(op: str) -> Any:
    def rule(cg: CodeGenLLVM, e: Any) -> ir.Value:
        _, _, a, b, t = _operands(cg, e)
        return _compare(cg, op, a, b, t)
    return rule


for _cls, _op in ((E.EQ, "=="), (E.NE, "!="), (E.LT, "<"), (E.LE, "<="), (E.GT, ">"),
                  (E.GE, ">=")):
    register(_cls)(_cmp(_op))


@register(E.And)
def _and(cg: CodeGenLLVM, e: E.And) -> ir.Value:
    return cg.builder.and_(cg.expr(e.a), cg.expr(e.b))


@register(E.Or)
def _or(cg: CodeGenLLVM, e: E.Or) -> ir.Value:
    return cg.builder.or_(cg.expr(e.a), cg.expr(e.b))


@register(E.Not)
def _not(cg: CodeGenLLVM, e: E.Not) -> ir.Value:
    return cg.builder.not_(cg.expr(e.a))


@register(E.Select)
def _select(cg: CodeGenLLVM, e: E.Select) -> ir.Value:
    cond = cg.expr(e.condition)
    return cg.builder.select(cond, cg.expr(e.true_value), cg.expr(e.false_value))


@register(E.Let)
def _let(cg: CodeGenLLVM, e: E.Let) -> ir.Value:
    with cg.bind(e.var, cg.expr(e.value)):
        return cg.expr(e.body)


# ------------------------------------------------------------------------------ vectors
def splat(cg: CodeGenLLVM, value: ir.Value, lanes: int) -> ir.Value:
    """Broadcast a scalar to ``lanes`` lanes (insertelement + zero-mask shufflevector)."""
    vec_ty, undef, mask = _splat_parts(value.type, lanes)
    if isinstance(value, ir.Constant):
        return ir.Constant(vec_ty, [value] * lanes)
    one = cg.builder.insert_element(undef, value, ir_const(I32, 0))
    return cg.builder.shuffle_vector(one, undef, mask)


def _splat_parts(elem: ir.Type, lanes: int) -> tuple[ir.Type, ir.Constant, ir.Constant]:
    """``<lanes x elem>``, its ``undef`` and the all-zero i32 shuffle mask, made once per
    element type object and width (llvmlite constants and types are immutable; the entry holds
    ``elem``, so its id is not reused while cached)."""
    key = (id(elem), lanes)
    hit = _SPLATS.get(key)
    if hit is None:
        if len(_SPLATS) > 4096:
            _SPLATS.clear()
        vec_ty = ir.VectorType(elem, lanes)
        mask = ir.Constant(ir.VectorType(I32, lanes), [0] * lanes)
        hit = _SPLATS[key] = (elem, (vec_ty, ir.Constant(vec_ty, ir.Undefined), mask))
    return hit[1]


_SPLATS: dict[tuple[int, int], tuple[ir.Type, tuple[ir.Type, ir.Constant, ir.Constant]]] = {}


@register(E.Broadcast)
def _broadcast(cg: CodeGenLLVM, e: E.Broadcast) -> ir.Value:
    if not isinstance(e.lanes, int):
        raise scalable_vector_error(f"T.Broadcast(..., {e.lanes})")
    return splat(cg, cg.expr(e.value), e.lanes)


@register(E.Ramp)
def _ramp(cg: CodeGenLLVM, e: E.Ramp) -> ir.Value:
    t = e.dtype
    if not isinstance(e.lanes, int):
        raise scalable_vector_error(f"T.Ramp(..., {e.lanes})")
    base = splat(cg, cg.expr(e.base), e.lanes)
    stride = splat(cg, cg.expr(e.stride), e.lanes)
    steps = _STEPS.get(t)
    if steps is None:
        steps = _STEPS[t] = ir.Constant(llvm_type(t), [const(t.element_of(), i)
                                                       for i in range(e.lanes)])
    if t.is_floating():
        return cg.builder.fadd(base, cg.builder.fmul(stride, steps))
    return cg.builder.add(base, cg.builder.mul(stride, steps))


#: vector dtype -> the constant <0, 1, ..., lanes-1> a Ramp adds
_STEPS: dict[DataType, ir.Constant] = {}


def _lanes_of(cg: CodeGenLLVM, v: E.PrimExpr) -> list[ir.Value]:
    value = cg.expr(v)
    if v.dtype.lanes == 1:
        return [value]
    return [cg.builder.extract_element(value, ir.Constant(I32, i)) for i in range(v.dtype.lanes)]


@register(E.Shuffle)
def _shuffle(cg: CodeGenLLVM, e: E.Shuffle) -> ir.Value:
    if not all(isinstance(i, IntImm) for i in e.indices):
        raise CodegenError("Shuffle with non-constant indices is not supported")
    idx = [cast(IntImm, i).value for i in e.indices]
    if len(e.vectors) == 1 and e.vectors[0].dtype.lanes > 1:
        v = cg.expr(e.vectors[0])
        mask = ir.Constant(ir.VectorType(I32, len(idx)), idx)
        picked = cg.builder.shuffle_vector(v, ir.Constant(v.type, ir.Undefined), mask)
        return picked if len(idx) > 1 else cg.builder.extract_element(picked, ir.Constant(I32, 0))
    elems = [x for v in e.vectors for x in _lanes_of(cg, v)]
    if len(idx) == 1:
        return elems[idx[0]]
    out: ir.Value = ir.Constant(llvm_type(e.dtype), ir.Undefined)
    for lane, src in enumerate(idx):
        out = cg.builder.insert_element(out, elems[src], ir.Constant(I32, lane))
    return out


# ------------------------------------------------------------------------------ intrinsics
_SUFFIX = {"half": "f16", "float": "f32", "double": "f64"}


def mangle(ty: ir.Type) -> str:
    """LLVM's overload suffix of a type (``f32``, ``v4f32``, ``i64``, ``p0``)."""
    if isinstance(ty, ir.VectorType):
        return f"v{ty.count}{mangle(ty.element)}"
    if isinstance(ty, ir.IntType):
        return f"i{ty.width}"
    if isinstance(ty, ir.PointerType):
        return "p0"
    return _SUFFIX[str(ty)]


def call_intrinsic(cg: CodeGenLLVM, name: str, ret: ir.Type, args: list[ir.Value],
                   overload: list[ir.Type] | None = None) -> ir.Value:
    """Declare ``name`` mangled with ``overload`` types (default: the return type) and call it."""
    types = [ret] if overload is None else overload
    full = ".".join([name, *(mangle(t) for t in types)])
    fn = cg.declare(full, ret, [a.type for a in args])
    if name in LIBMVEC and overload is None:  # libm functions: glibc's vector versions
        return call_libm(cg, name, fn, args)
    return cg.builder.call(fn, args)
