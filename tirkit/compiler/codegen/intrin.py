"""Calls: built-in ops, LLVM intrinsics and external C functions (mirrors
``CodeGenLLVM::CreateIntrinsic`` / ``VisitExpr_(CallNode)`` and ``CodeGenCPU::CreateIntrinsic``).

- ``T.call_llvm_pure_intrin / call_llvm_intrin(dtype, "llvm.name", T.uint32(n), args...)``: TVM's
  form, whose ``num_signature`` ``n`` is skipped (a call without it is accepted too); the intrinsic is
  declared with its overload types appended: the result type for math intrinsics
  (``llvm.exp.f32``, ``llvm.sqrt.v4f32``), none when the name already carries them
  (``llvm.aarch64.neon.smull.v8i16``) or names a target intrinsic (``llvm.x86.*``). Intrinsics whose
  overload is not the result type are listed in :data:`_OVERLOADS`.
- ``T.call_extern / call_pure_extern(dtype, "sym", args...)``: a C call with the arguments' own
  types (libm's ``expf``, ``powf``...).
- ops with a ``TGlobalSymbol`` attribute (``TVMBackendAllocWorkspace``...): a C call to it.
- ``if_then_else`` evaluates only the chosen branch; ``likely`` is its argument.
"""
from __future__ import annotations

import re
from typing import Callable, cast

from llvmlite import ir

from ...ir.dtype import DataType
from ...ir.expr import GlobalVar, IntImm
from ...ir.op import Op
from ...tir import expr as E
from .casts import cast_value
from .core import CALL_RULES, CodeGenLLVM, register, register_call
from .expr import call_intrinsic, mangle
from .types import I1, I32, PTR, CodegenError, const, llvm_type, scalable_vector_error
from .veclib import LIBMVEC, call_libm

__all__ = ["intrinsic_name"]

# intrinsic -> which types form the overload suffix ("ret" or an argument position)
_OVERLOADS: dict[str, tuple[str | int, ...]] = {
    "llvm.powi": ("ret", 1),
    "llvm.prefetch": (0,),
    "llvm.memcpy": (0, 1, 2),
    "llvm.memset": (0, 2),
    "llvm.lround": ("ret", 0),
    "llvm.llround": ("ret", 0),
    "llvm.lrint": ("ret", 0),
    "llvm.llrint": ("ret", 0),
    "llvm.is.fpclass": (0,),
}
_MANGLED = re.compile(r"\.(v\d+)?(i\d+|f16|f32|f64|bf16|p0)$")
_TARGET_PREFIXES = ("llvm.x86.", "llvm.aarch64.", "llvm.arm.", "llvm.riscv.", "llvm.nvvm.",
                    "llvm.amdgcn.", "llvm.hexagon.", "llvm.wasm.")
_I1_FLAG_INTRINSICS = {"llvm.ctlz", "llvm.cttz", "llvm.abs"}
# ops only a GPU target has (warp shuffles, tensor cores, PTX, shared-memory barriers)
_GPU_OPS = ("tir.tvm_thread_allreduce", "tir.tvm_warp", "tir.tvm_fill_fragment",
            "tir.tvm_load_matrix_sync", "tir.tvm_store_matrix_sync", "tir.tvm_mma_sync",
            "tir.tvm_bmma_sync", "tir.tvm_storage_sync", "tir.ptx_", "tir.mma_", "tir.cuda.")


@register(E.Call)
def _call(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    op = e.op
    if isinstance(op, GlobalVar):
        return _call_global(cg, e, op)
    rule = CALL_RULES.get(op.name)
    if rule is not None:
        return rule(cg, e)
    symbol = op.attrs.get("TGlobalSymbol")
    if symbol:
        return _c_call(cg, symbol, e.dtype, list(e.args))
    if op.attrs.get("llvm_intrin"):
        args = [cg.expr(a) for a in e.args]
        return call_intrinsic(cg, op.attrs["llvm_intrin"], llvm_type(e.dtype), args)
    if op.name.startswith(_GPU_OPS):
        raise CodegenError(f"{op.name} is a GPU intrinsic: the CPU target "
                           f"{cg.module.triple or 'llvm'} cannot compile it; compile the "
                           "function for a GPU with target='cuda' (tirc --target cuda)")
    if op.name in ("tir.vscale", "tir.get_active_lane_mask"):
        raise scalable_vector_error(f"a call to {op.name}")
    raise CodegenError(f"the LLVM code generator cannot translate a call to {op.name} "
                       "(run LowerIntrin / LowerTVMBuiltin first?)")


def _call_global(cg: CodeGenLLVM, e: E.Call, gv: GlobalVar) -> ir.Value:
    fn = cg.module.globals.get(gv.name_hint)
    if not isinstance(fn, ir.Function):
        raise CodegenError(f"call to {gv.name_hint!r}, which is not a function of this module")
    args = [cg.expr(a) for a in e.args]
    return cg.builder.call(fn, args)


def _c_call(cg: CodeGenLLVM, symbol: str, dtype: DataType | str,
            args: list[E.PrimExpr]) -> ir.Value:
    values = [cg.expr(a) for a in args]
    fn = cg.declare(symbol, llvm_type(dtype), [v.type for v in values])
    return cg.builder.call(fn, values)


def _op_name(call: E.Call) -> str:
    """The name of the op a call of a registered rule calls (never a GlobalVar there)."""
    return cast(Op, call.op).name


def _name_arg(call: E.Call) -> str:
    head = call.args[0] if call.args else None
    if isinstance(head, E.StringImm):
        return head.value
    what = "an integer intrinsic id" if isinstance(head, IntImm) else repr(head)
    raise CodegenError(f"{_op_name(call)}: the first argument must be the intrinsic/function name "
                       f"as a string, got {what}")


@register_call("tir.call_extern", "tir.call_pure_extern")
def _extern(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    return _c_call(cg, _name_arg(e), e.dtype, list(e.args[1:]))


def intrinsic_name(name: str, ret: ir.Type, args: list[ir.Value]) -> str:
    """The declared (mangled) name of intrinsic ``name`` called with these types."""
    if _MANGLED.search(name) or name.startswith(_TARGET_PREFIXES):
        return name
    parts = _OVERLOADS.get(name, ("ret",))
    types = [ret if p == "ret" else args[p].type for p in parts]  # type: ignore[index]
    return ".".join([name, *(mangle(t) for t in types)])


@register_call("tir.call_llvm_intrin", "tir.call_llvm_pure_intrin")
def _llvm_intrin(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    name = _name_arg(e)
    if not name.startswith("llvm."):
        raise CodegenError(f"{_op_name(e)}: {name!r} is not an LLVM intrinsic name (llvm.*)")
    ret = llvm_type(e.dtype)
    operands = e.args[1:]
    if len(operands) >= 1 and isinstance(operands[0], IntImm) and operands[0].dtype == "uint32":
        operands = operands[1:]  # TVM's ``num_signature`` argument; the suffix table decides
    args = [cg.expr(a) for a in operands]
    if name in _I1_FLAG_INTRINSICS and len(args) == 1:
        args.append(ir.Constant(I1, 0))
    fn = cg.declare(intrinsic_name(name, ret, args), ret, [a.type for a in args])
    if name in LIBMVEC:  # libm functions: glibc's vector versions where they exist
        return call_libm(cg, name, fn, args)
    return cg.builder.call(fn, args)


# ----------------------------------------------------------------------- value-level builtins
@register_call("tir.likely")
def _likely(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    return cg.expr(e.args[0])


@register_call("tir.reinterpret")
def _reinterpret(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    src, dst = e.args[0].dtype, e.dtype
    v = cg.expr(e.args[0])
    if src.bits * src.lanes != dst.bits * dst.lanes:
        raise CodegenError(f"reinterpret: {src} and {dst} differ in size")
    if src.is_handle() or dst.is_handle():
        return cast_value(cg, v, src, dst)
    return cg.builder.bitcast(v, llvm_type(dst))


def _bitwise(method: str) -> Callable[[CodeGenLLVM, E.Call], ir.Value]:
    def rule(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
        return getattr(cg.builder, method)(cg.expr(e.args[0]), cg.expr(e.args[1]))
    return rule


for _op, _method in (("tir.bitwise_and", "and_"), ("tir.bitwise_or", "or_"),
                     ("tir.bitwise_xor", "xor"), ("tir.shift_left", "shl")):
    register_call(_op)(_bitwise(_method))


@register_call("tir.bitwise_not")
def _bitwise_not(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    return cg.builder.not_(cg.expr(e.args[0]))


@register_call("tir.shift_right")
def _shift_right(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    a, b = cg.expr(e.args[0]), cg.expr(e.args[1])
    return cg.builder.ashr(a, b) if e.args[0].dtype.is_int() else cg.builder.lshr(a, b)


@register_call("tir.large_uint_imm")
def _large_uint(_cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    low, high = (int(cast(IntImm, a).value) & 0xFFFFFFFF for a in e.args)
    return const(e.dtype, (high << 32) | low)


@register_call("tir.isnan")
def _isnan(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    v = cg.expr(e.args[0])
    return cg.builder.fcmp_unordered("uno", v, v)


@register_call("tir.isnullptr")
def _isnullptr(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    return cg.builder.icmp_unsigned("==", cg.expr(e.args[0]), ir.Constant(PTR, None))


@register_call("tir.if_then_else")
def _if_then_else(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    """Evaluate only the taken branch (``CodeGenLLVM``'s ``if_then_else`` with a phi)."""
    cond, then_e, else_e = e.args
    if cond.dtype.lanes > 1:
        return cg.builder.select(cg.expr(cond), cg.expr(then_e), cg.expr(else_e))
    bld = cg.builder
    c = cg.expr(cond)
    then_b, else_b, end_b = (cg.new_block(n) for n in ("if_then", "if_else", "if_end"))
    bld.cbranch(c, then_b, else_b)
    bld.position_at_end(then_b)
    tv, tblock = cg.expr(then_e), bld.block
    bld.branch(end_b)
    bld.position_at_end(else_b)
    ev, eblock = cg.expr(else_e), bld.block
    bld.branch(end_b)
    bld.position_at_end(end_b)
    phi = bld.phi(tv.type)
    phi.add_incoming(tv, tblock)
    phi.add_incoming(ev, eblock)
    return phi


@register_call("tir.assume", "tir.tvm_thread_invariant")
def _assume(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    if _op_name(e) == "tir.tvm_thread_invariant":
        return cg.expr(e.args[0])
    fn = cg.declare("llvm.assume", ir.VoidType(), [I1])
    cg.builder.call(fn, [cg.expr(e.args[0])])
    return ir.Constant(I32, 0)


@register_call("tir.undef")
def _undef(_cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    return ir.Constant(llvm_type(e.dtype), ir.Undefined)


@register_call("tir.prefetch")
def _prefetch(cg: CodeGenLLVM, e: E.Call) -> ir.Value:
    ptr = cg.expr(e.args[0])
    rest = [ir.Constant(I32, int(cast(IntImm, a).value)) for a in e.args[1:4]]
    while len(rest) < 3:
        rest.append(ir.Constant(I32, [0, 3, 1][len(rest)]))
    fn = cg.declare("llvm.prefetch.p0", ir.VoidType(), [PTR, I32, I32, I32])
    cg.builder.call(fn, [ptr, *rest])
    return ir.Constant(I32, 0)


