"""NVPTX translations of GPU builtins and math (mirrors ``src/target/llvm/intrin_rule_nvptx.cc``
and the warp/sync parts of ``codegen_nvptx.cc``).

- ``T.tvm_storage_sync("shared" | "shared.dyn")``: ``__syncthreads()`` (``llvm.nvvm.barrier0``);
  ``"warp"``: ``__syncwarp()`` (``llvm.nvvm.bar.warp.sync``);
- ``T.tvm_warp_shuffle / _up / _down(mask, value, lane_or_delta, width, warp_size)``:
  ``shfl.sync.idx/up/down`` (``llvm.nvvm.shfl.sync.*``), the ``c`` operand packing
  ``(32 - width) << 8`` and the lane clamp as CUDA's ``__shfl_*_sync`` do; 32-bit values go
  directly, narrower ones are widened, 64-bit ones shuffled as two halves;
- ``T.tvm_warp_activemask()``: ``llvm.nvvm.activemask``;
- math ops (``T.exp``, ``T.tanh``...): libdevice's ``__nv_expf`` / ``__nv_exp`` when libdevice is
  found (linked in by :mod:`.nvptx_emit`), else the LLVM intrinsics the NVPTX back end selects
  (``sqrt``, ``fabs``, ``floor``, ``ceil``, ``trunc``, ``round``, ``fma``, ``exp2``) and
  ``exp``/``log`` through ``exp2``/``log2``; float16/bfloat16 are computed in float32.
"""
from __future__ import annotations

import math
from typing import cast

from llvmlite import ir

from ...ir.dtype import DataType
from ...ir.expr import IntImm
from ...ir.op import Op
from ...tir import expr as E
from .casts import cast_value
from .cuda_toolkit import find_libdevice
from .expr import call_intrinsic
from .nvptx import NVPTX_FALLBACK_RULES, CodeGenNVPTX, register_nvptx_call
from .types import I32, I64, CodegenError, llvm_type

__all__ = ["math_call"]

_F32 = DataType.parse("float32")


@register_nvptx_call("tir.tvm_storage_sync")
def _storage_sync(cg: CodeGenNVPTX, e: E.Call) -> ir.Value:
    scope = e.args[0].value if e.args and isinstance(e.args[0], E.StringImm) else ""
    if scope in ("shared", "shared.dyn"):
        cg.builder.call(cg.declare("llvm.nvvm.barrier0", ir.VoidType(), []), [])
    elif scope == "global":
        _global_barrier(cg)
    elif scope == "warp":
        fn = cg.declare("llvm.nvvm.bar.warp.sync", ir.VoidType(), [I32])
        cg.builder.call(fn, [ir.Constant(I32, -1)])
    else:
        raise CodegenError(f"T.tvm_storage_sync({scope!r}) is not supported on CUDA (supported: "
                           "'shared', 'shared.dyn', 'warp', 'global' in a one-block kernel)")
    return ir.Constant(I32, 0)


def _global_barrier(cg: CodeGenNVPTX) -> None:
    """``__threadfence(); __syncthreads()``: a barrier over the whole grid when it is one block
    (TVM's multi-block global barrier, with atomics, is not supported)."""
    blocks = [t for t, e in cg.thread_extents.items() if t.startswith("blockIdx.")
              and not (isinstance(e, IntImm) and e.value == 1)]
    if blocks:
        raise CodegenError("T.tvm_storage_sync('global') across several blocks "
                           f"({', '.join(blocks)}) is not supported on CUDA")
    cg.builder.call(cg.declare("llvm.nvvm.membar.gl", ir.VoidType(), []), [])
    cg.builder.call(cg.declare("llvm.nvvm.barrier0", ir.VoidType(), []), [])


@register_nvptx_call("tir.tvm_warp_activemask")
def _activemask(cg: CodeGenNVPTX, _e: E.Call) -> ir.Value:
    return cg.builder.call(cg.declare("llvm.nvvm.activemask", I32, []), [])


def _shfl32(cg: CodeGenNVPTX, mode: str, mask: ir.Value, value: ir.Value, lane: ir.Value,
            c: ir.Value) -> ir.Value:
    """One 32-bit ``shfl.sync.<mode>`` of an ``i32`` or ``float`` value."""
    suffix = "f32" if isinstance(value.type, ir.FloatType) else "i32"
    fn = cg.declare(f"llvm.nvvm.shfl.sync.{mode}.{suffix}", value.type,
                    [I32, value.type, I32, I32])
    return cg.builder.call(fn, [mask, value, lane, c])


def _shuffle_value(cg: CodeGenNVPTX, mode: str, mask: ir.Value, value: ir.Value,
                   t: DataType, lane: ir.Value, c: ir.Value) -> ir.Value:
    bld = cg.builder
    if t.lanes != 1:
        raise CodegenError(f"warp shuffle of a vector ({t}) is not supported")
    if t.bits == 32:
        if t.is_floating():
            return _shfl32(cg, mode, mask, value, lane, c)
        return _shfl32(cg, mode, mask, value, lane, c)
    if t.bits == 64:
        whole = value if not t.is_floating() else bld.bitcast(value, I64)
        lo = bld.trunc(whole, I32)
        hi = bld.trunc(bld.lshr(whole, ir.Constant(I64, 32)), I32)
        lo, hi = (_shfl32(cg, mode, mask, v, lane, c) for v in (lo, hi))
        out = bld.or_(bld.zext(lo, I64), bld.shl(bld.zext(hi, I64), ir.Constant(I64, 32)))
        return bld.bitcast(out, value.type) if t.is_floating() else out
    # 1/8/16-bit values (bool, int8, float16 bits...) travel in the low bits of an i32
    bits = bld.bitcast(value, ir.IntType(t.bits)) if t.is_floating() and t.bits == 16 \
        else value
    wide = bld.zext(bits, I32)
    got = bld.trunc(_shfl32(cg, mode, mask, wide, lane, c), ir.IntType(t.bits))
    return bld.bitcast(got, value.type) if t.is_floating() and t.bits == 16 else got


def _shuffle(mode: str):
    def rule(cg: CodeGenNVPTX, e: E.Call) -> ir.Value:
        mask, value, lane, width, _warp = e.args
        bld = cg.builder
        w = cg.expr(width)
        seg = bld.shl(bld.sub(ir.Constant(I32, 32), w), ir.Constant(I32, 8))
        c = seg if mode == "up" else bld.or_(seg, ir.Constant(I32, 0x1F))
        return _shuffle_value(cg, mode, cg.expr(mask), cg.expr(value), value.dtype,
                              cg.expr(lane), c)
    return rule


register_nvptx_call("tir.tvm_warp_shuffle")(_shuffle("idx"))
register_nvptx_call("tir.tvm_warp_shuffle_up")(_shuffle("up"))
register_nvptx_call("tir.tvm_warp_shuffle_down")(_shuffle("down"))


# ---------------------------------------------------------------------------------- math
_FALLBACK = {"sqrt": "llvm.sqrt", "fabs": "llvm.fabs", "floor": "llvm.floor",
             "ceil": "llvm.ceil", "trunc": "llvm.trunc", "round": "llvm.round",
             "nearbyint": "llvm.nearbyint", "fma": "llvm.fma", "exp2": "llvm.exp2",
             "copysign": "llvm.copysign"}


def _compute_type(t: DataType) -> DataType:
    return _F32.with_lanes(t.lanes) if t.bits == 16 else t


def math_call(cg: CodeGenNVPTX, e: E.Call) -> ir.Value:
    """A math op on floats: libdevice, an LLVM intrinsic or an expansion."""
    t = e.dtype
    name = cast(Op, e.op).name[len("tir."):]
    if name in ("isinf", "isfinite"):
        return _isinf(cg, e, name)
    if not t.is_floating() and not t.is_bfloat16():
        raise CodegenError(f"T.{name} of {t} is not supported on CUDA (floating point only)")
    if t.lanes != 1:
        raise CodegenError(f"T.{name} of a vector ({t}) is not supported on CUDA")
    ct = _compute_type(t)
    args = [cast_value(cg, cg.expr(a), a.dtype, ct) for a in e.args]
    if name == "sigmoid":
        out = _sigmoid(cg, args[0], ct)
    else:
        out = _scalar_math(cg, name, args, ct)
    return cast_value(cg, out, ct, t)


def _libdevice_name(name: str, t: DataType) -> str:
    return f"__nv_{name}{'f' if t.bits == 32 else ''}"


def _scalar_math(cg: CodeGenNVPTX, name: str, args: list[ir.Value], t: DataType) -> ir.Value:
    ty = llvm_type(t)
    if find_libdevice() is not None:
        cg.uses_libdevice = True
        fn = cg.declare(_libdevice_name(name, t), ty, [a.type for a in args])
        return cg.builder.call(fn, args)
    if name in _FALLBACK:
        return call_intrinsic(cg, _FALLBACK[name], ty, args)
    if name in ("exp", "log", "log2", "log10"):
        return _via_exp2_log2(cg, name, args[0], ty)
    if name == "pow":
        lg = call_intrinsic(cg, "llvm.log2", ty, [args[0]])
        return call_intrinsic(cg, "llvm.exp2", ty, [cg.builder.fmul(args[1], lg)])
    raise CodegenError(f"T.{name} on CUDA needs libdevice, which was not found (pip install "
                       "'tirkit[gpu]' installs it with nvidia-cuda-nvcc-cu12)")


def _via_exp2_log2(cg: CodeGenNVPTX, name: str, x: ir.Value, ty: ir.Type) -> ir.Value:
    bld = cg.builder
    if name == "exp":
        return call_intrinsic(cg, "llvm.exp2", ty, [bld.fmul(x, ir.Constant(ty, math.log2(math.e)))])
    lg = call_intrinsic(cg, "llvm.log2", ty, [x])
    scale = {"log": math.log(2.0), "log10": math.log10(2.0)}.get(name)
    return lg if scale is None else bld.fmul(lg, ir.Constant(ty, scale))


def _sigmoid(cg: CodeGenNVPTX, x: ir.Value, t: DataType) -> ir.Value:
    bld, ty = cg.builder, llvm_type(t)
    one = ir.Constant(ty, 1.0)
    e = _scalar_math(cg, "exp", [bld.fsub(ir.Constant(ty, 0.0), x)], t)
    return bld.fdiv(one, bld.fadd(one, e))


def _isinf(cg: CodeGenNVPTX, e: E.Call, name: str) -> ir.Value:
    x = e.args[0]
    if not x.dtype.is_floating():
        return ir.Constant(ir.IntType(1), 0 if name == "isinf" else 1)
    v = cg.expr(x)
    absv = call_intrinsic(cg, "llvm.fabs", v.type, [v])
    inf = ir.Constant(v.type, float("inf"))
    if name == "isinf":
        return cg.builder.fcmp_ordered("==", absv, inf)
    return cg.builder.fcmp_ordered("<", absv, inf)


NVPTX_FALLBACK_RULES["math"] = math_call
