"""TVM's packed-function ABI builtins (mirrors ``CodeGenCPU::CreateIntrinsic`` and
``CodeGenCPU::CreateStructRefPtr`` for ``tvm_struct_get/set``, ``tvm_stack_alloca``, ``ret``,
``tvm_throw_last_error`` and ``tvm_call_cpacked_lowered``).

``tvm_struct_get(arr, i, kind)`` reads field ``kind`` (an ``abi.StructField``) of ``arr[i]``: a
``DLTensor`` field (GEP into the struct of :data:`types.DLTENSOR`, whose layout is abi.DLTensor's)
or, for ``kTVMValueContent``, the 8-byte ``TVMValue`` ``arr[i]`` read as the call's dtype
(``handle``, ``int64`` or ``float64``). ``tvm_struct_set`` is the store counterpart.
"""
from __future__ import annotations

from llvmlite import ir

from ...ir.dtype import DataType
from ...ir.expr import IntImm
from ...tir import expr as E
from ..runtime.abi import StructField
from .casts import cast_value
from .core import CodeGenLLVM, register_call
from .types import DLTENSOR, DLTENSOR_FIELDS, I32, I64, PTR, TVMVALUE, CodegenError, ir_const, \
    llvm_type

__all__: list[str] = []

_STACK_TYPES = {"shape": I64, "arg_value": TVMVALUE, "arg_tcode": I32, "array": DLTENSOR}


def _const_int(e: E.PrimExpr, what: str) -> int:
    if not isinstance(e, IntImm):
        raise CodegenError(f"{what} must be a constant integer, got {e!r}")
    return e.value


def _field_ptr(cg: CodeGenLLVM, call: E.Call) -> tuple[ir.Value, ir.Type, bool, int]:
    """Address, LLVM type and signedness of the field a ``tvm_struct_get/set`` names."""
    base = cg.expr(call.args[0])
    index = cg.expr(call.args[1])
    kind = _const_int(call.args[2], "tvm_struct_get/set field kind")
    bld = cg.builder
    if kind == StructField.kTVMValueContent:
        return bld.gep(base, [index], inbounds=True, source_etype=TVMVALUE), TVMVALUE, True, kind
    elem = bld.gep(base, [index], inbounds=True, source_etype=DLTENSOR)
    if kind == StructField.kArrAddr:
        return elem, PTR, False, kind
    if kind not in DLTENSOR_FIELDS:
        raise CodegenError(f"tvm_struct_get/set: unknown field kind {kind}")
    path, ty, signed = DLTENSOR_FIELDS[kind]
    ptr = bld.gep(elem, [ir_const(I32, 0), *(ir_const(I32, p) for p in path)], inbounds=True,
                  source_etype=DLTENSOR)
    return ptr, ty, signed, kind


@register_call("tir.tvm_struct_get")
def _struct_get(cg: CodeGenLLVM, call: E.Call) -> ir.Value:
    ptr, ty, signed, kind = _field_ptr(cg, call)
    want = llvm_type(call.dtype)
    if kind == StructField.kArrAddr:
        return ptr
    if kind == StructField.kTVMValueContent:
        return cg.builder.load(ptr, typ=want, align=8)
    raw = cg.builder.load(ptr, typ=ty)
    if ty is want or ty == want or isinstance(ty, ir.PointerType):
        return raw
    src = ("int" if signed else "uint") + str(ty.width)
    return cast_value(cg, raw, DataType.parse(src), call.dtype)


@register_call("tir.tvm_struct_set")
def _struct_set(cg: CodeGenLLVM, call: E.Call) -> ir.Value:
    ptr, ty, signed, kind = _field_ptr(cg, call)
    if kind == StructField.kArrAddr:
        raise CodegenError("tvm_struct_set cannot set kArrAddr")
    value_expr = call.args[3]
    value = cg.expr(value_expr)
    vt = value_expr.dtype
    if kind == StructField.kTVMValueContent:
        if vt.is_handle():
            cg.builder.store(value, ptr, align=8)
        elif vt.is_floating():
            cg.builder.store(cast_value(cg, value, vt, DataType.parse("float64")), ptr, align=8)
        else:
            cg.builder.store(cast_value(cg, value, vt, DataType.parse("int64")), ptr, align=8)
        return ir.Constant(I32, 0)
    if not isinstance(ty, ir.PointerType):
        dst = ("int" if signed else "uint") + str(ty.width)
        value = cast_value(cg, value, vt, DataType.parse(dst))
    cg.builder.store(value, ptr)
    return ir.Constant(I32, 0)


@register_call("tir.tvm_stack_alloca")
def _stack_alloca(cg: CodeGenLLVM, call: E.Call) -> ir.Value:
    kind = call.args[0]
    if not isinstance(kind, E.StringImm) or kind.value not in _STACK_TYPES:
        raise CodegenError(f"tvm_stack_alloca: unknown kind {kind!r} (expected one of "
                           f"{sorted(_STACK_TYPES)})")
    count = _const_int(call.args[1], "tvm_stack_alloca size")
    return cg.alloca(_STACK_TYPES[kind.value], max(count, 1), 8, name=f"stack_{kind.value}")


@register_call("tir.ret")
def _ret(cg: CodeGenLLVM, call: E.Call) -> ir.Value:
    value = cg.expr(call.args[0])
    fs = cg.fs
    assert fs is not None
    if fs.error_flag is not None:
        raise CodegenError("T.ret inside a parallel loop is not supported")
    if fs.ret_dtype is None:
        cg.builder.ret_void()
    else:
        cg.builder.ret(cast_value(cg, value, call.args[0].dtype, fs.ret_dtype))
    return ir.Constant(I32, 0)


@register_call("tir.tvm_throw_last_error")
def _throw(cg: CodeGenLLVM, _call: E.Call) -> ir.Value:
    cg.return_error()
    return ir.Constant(I32, 0)


@register_call("tir.tvm_call_cpacked_lowered")
def _call_cpacked(cg: CodeGenLLVM, call: E.Call) -> ir.Value:
    """``name(args + begin, tcodes + begin, end - begin, args + end, tcodes + end, handle)``;
    a nonzero result is returned to the caller at once, as TVM's ``MakeCallPackedLowered``."""
    name = call.args[0]
    if not isinstance(name, E.StringImm):
        raise CodegenError("tvm_call_cpacked_lowered: the callee must be a string")
    values, tcodes = cg.expr(call.args[1]), cg.expr(call.args[2])
    begin, end = cg.expr(call.args[3]), cg.expr(call.args[4])
    handle = cg.expr(call.args[5]) if len(call.args) > 5 else ir.Constant(PTR, None)
    bld = cg.builder
    fn = cg.declare(name.value, I32, [PTR, PTR, I32, PTR, PTR, PTR])
    args = [bld.gep(values, [begin], source_etype=TVMVALUE),
            bld.gep(tcodes, [begin], source_etype=I32), bld.sub(end, begin),
            bld.gep(values, [end], source_etype=TVMVALUE),
            bld.gep(tcodes, [end], source_etype=I32), handle]
    rc = bld.call(fn, args)
    with bld.if_then(bld.icmp_signed("!=", rc, ir.Constant(I32, 0)), likely=False):
        cg.return_error()
    return rc


@register_call("tir.tvm_call_packed_lowered", "tir.tvm_call_trace_packed_lowered")
def _call_packed(_cg: CodeGenLLVM, _call: E.Call) -> ir.Value:
    raise CodegenError("calling packed functions through the global function registry "
                       "(T.call_packed) needs TVM's runtime, which tirkit does not have; use "
                       "T.call_cpacked or T.call_extern")
