"""Casts between dtypes (mirrors ``CodeGenLLVM::CreateCast``).

- to ``bool``: ``x != 0`` (floats: ``fcmp une``, so NaN is true, as TVM);
- from ``bool``: zero extension / ``uitofp`` (``True`` is 1);
- int <-> int: ``trunc``, ``sext`` from a signed source, ``zext`` from an unsigned one;
- int -> float: ``sitofp`` / ``uitofp``; float -> int: ``fptosi`` / ``fptoui`` (truncation toward
  zero, C's rule);
- float <-> float: ``fpext`` / ``fptrunc`` (round to nearest even);
- ``bfloat16``: widened to float32 by shifting its bits, narrowed from float32 with
  round-to-nearest-even on the bit pattern (TVM's BF16 legalization);
- handle <-> integer: ``ptrtoint`` / ``inttoptr``.
"""
from __future__ import annotations

from llvmlite import ir

from ...ir.dtype import DataType
from ...tir import expr as E
from .core import CodeGenLLVM, register
from .types import CodegenError, const, llvm_type

__all__ = ["cast_value"]

_F32 = DataType.parse("float32")


@register(E.Cast)
def _cast(cg: CodeGenLLVM, e: E.Cast) -> ir.Value:
    return cast_value(cg, cg.expr(e.value), e.value.dtype, e.dtype)


def cast_value(cg: CodeGenLLVM, v: ir.Value, src: DataType, dst: DataType) -> ir.Value:
    """Convert ``v`` of dtype ``src`` to dtype ``dst`` with TVM's rounding rules.

    Raises:
        CodegenError: for conversions LLVM has no form of (e.g. float <-> handle).
    """
    if src == dst:
        return v
    if src.is_bfloat16():
        return cast_value(cg, _bf16_to_f32(cg, v, src.lanes), _F32.with_lanes(src.lanes), dst)
    if dst.is_bfloat16():
        f32 = _F32.with_lanes(dst.lanes)
        return _f32_to_bf16(cg, cast_value(cg, v, src, f32), dst.lanes)
    bld, ty = cg.builder, llvm_type(dst)
    if dst.is_bool():
        if src.is_floating():
            return bld.fcmp_unordered("!=", v, const(src, 0))
        if src.is_handle():
            return bld.icmp_unsigned("!=", v, ir.Constant(v.type, None))
        return bld.icmp_unsigned("!=", v, const(src, 0))
    if src.is_handle() or dst.is_handle():
        return _handle_cast(cg, v, src, dst, ty)
    if src.is_floating() and dst.is_floating():
        return bld.fpext(v, ty) if dst.bits > src.bits else bld.fptrunc(v, ty)
    if src.is_floating():
        return bld.fptosi(v, ty) if dst.is_int() else bld.fptoui(v, ty)
    if dst.is_floating():
        return bld.sitofp(v, ty) if src.is_int() else bld.uitofp(v, ty)
    return _int_cast(cg, v, src, dst, ty)


def _int_cast(cg: CodeGenLLVM, v: ir.Value, src: DataType, dst: DataType,
              ty: ir.Type) -> ir.Value:
    if dst.bits == src.bits:
        return v
    if dst.bits < src.bits:
        return cg.builder.trunc(v, ty)
    return cg.builder.sext(v, ty) if src.is_int() else cg.builder.zext(v, ty)


def _handle_cast(cg: CodeGenLLVM, v: ir.Value, src: DataType, dst: DataType,
                 ty: ir.Type) -> ir.Value:
    if src.is_handle() and dst.is_handle():
        return v
    if src.is_handle() and (dst.is_int() or dst.is_uint()):
        return cg.builder.ptrtoint(v, ty)
    if dst.is_handle() and (src.is_int() or src.is_uint()):
        return cg.builder.inttoptr(v, ty)
    raise CodegenError(f"cannot cast {src} to {dst}")


def _bf16_to_f32(cg: CodeGenLLVM, v: ir.Value, lanes: int) -> ir.Value:
    bld = cg.builder
    i32 = llvm_type(DataType.parse("int32").with_lanes(lanes))
    wide = bld.shl(bld.zext(v, i32), const(DataType.parse("int32").with_lanes(lanes), 16))
    return bld.bitcast(wide, llvm_type(_F32.with_lanes(lanes)))


def _f32_to_bf16(cg: CodeGenLLVM, v: ir.Value, lanes: int) -> ir.Value:
    """Round-to-nearest-even: ``(bits + 0x7fff + ((bits >> 16) & 1)) >> 16``; NaN stays NaN."""
    bld = cg.builder
    u32 = DataType.parse("uint32").with_lanes(lanes)
    bits = bld.bitcast(v, llvm_type(u32))
    lsb = bld.and_(bld.lshr(bits, const(u32, 16)), const(u32, 1))
    rounded = bld.lshr(bld.add(bld.add(bits, const(u32, 0x7FFF)), lsb), const(u32, 16))
    quiet_nan = bld.or_(bld.lshr(bits, const(u32, 16)), const(u32, 0x40))
    is_nan = bld.fcmp_unordered("uno", v, v)
    chosen = bld.select(is_nan, quiet_nan, rounded)
    return bld.trunc(chosen, llvm_type(DataType.parse("uint16").with_lanes(lanes)))
