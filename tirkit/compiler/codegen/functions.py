"""PrimFuncs as LLVM functions (mirrors ``CodeGenLLVM::DeclareFunction`` /
``AddFunctionInternal`` and ``CodeGenCPU::AddFunction``).

Both calling conventions of a lowered module are emitted the same way — the PrimFunc's params
become the LLVM params (``handle`` -> ``ptr``, scalars -> their type), its ``ret_type`` the
return type:

- ``calling_conv == 1`` (``kCPackedFunc``, made by MakePackedAPI): TVM's packed signature
  ``i32 (ptr args, ptr type_codes, i32 num_args, ptr ret_value, ptr ret_tcode, ptr resource)``,
  returning 0 on success and -1 after ``TVMAPISetLastError``;
- ``calling_conv == 0``: a plain C function; handle params are ``noalias`` when the function has
  the ``tir.noalias`` attribute (as TVM).

Functions with a ``global_symbol`` are exported under it; the others are ``internal``. Falling
off the end returns ``void`` or 0.
"""
from __future__ import annotations

from typing import Any

from llvmlite import ir

from ...ir.expr import GlobalVar
from ...ir.type import PrimType
from ...tir.function import PrimFunc
from ..runtime.abi import CallingConv
from .core import CodeGenLLVM, FunctionState
from .ir_text import FastBuilder
from .ir_values import fast_scope
from .types import VOID, CodegenError, const, llvm_type

__all__ = ["declare_function", "emit_function", "symbol_of"]


def symbol_of(gv: GlobalVar, func: PrimFunc) -> str:
    """The LLVM symbol of ``func``: its ``global_symbol``, else the module's name for it."""
    return str(func.attrs.get("global_symbol") or gv.name_hint)


def _ret_dtype(func: PrimFunc) -> Any:
    return func.ret_type.dtype if isinstance(func.ret_type, PrimType) else None


def declare_function(cg: CodeGenLLVM, gv: GlobalVar, func: PrimFunc) -> ir.Function:
    """Declare ``func`` (so that functions can call each other in any order)."""
    conv = int(func.attrs.get("calling_conv", CallingConv.kDefault))
    if conv not in (CallingConv.kDefault, CallingConv.kCPackedFunc):
        raise CodegenError(f"function {gv.name_hint!r}: calling_conv {conv} (device kernel "
                           "launch) is not supported by the CPU code generator")
    ret = _ret_dtype(func)
    params = [llvm_type(p.dtype) for p in func.params]
    fnty = ir.FunctionType(llvm_type(ret) if ret is not None else VOID, params)
    name = symbol_of(gv, func)
    if name in cg.module.globals:
        raise CodegenError(f"two functions of the module are both named {name!r}")
    fn = fast_scope(ir.Function(cg.module, fnty, name=name))
    if "global_symbol" not in func.attrs:
        fn.linkage = "internal"
    noalias = bool(func.attrs.get("tir.noalias")) and conv == CallingConv.kDefault
    for arg, param in zip(fn.args, func.params):
        arg.name = param.name_hint
        if noalias and param.dtype.is_handle():
            arg.add_attribute("noalias")
    fn.attributes.add("nounwind")
    return fn


def emit_function(cg: CodeGenLLVM, gv: GlobalVar, func: PrimFunc) -> None:
    """Emit the body of the declared function of ``func``."""
    fn = cg.module.globals[symbol_of(gv, func)]
    entry = fn.append_basic_block("entry")
    builder = FastBuilder(entry)
    ret = _ret_dtype(func)
    state = FunctionState(fn.name, fn, builder, entry, ret)
    bindings = dict(zip(func.params, fn.args))
    for param, arg in zip(func.params, fn.args):
        buf = func.buffer_map.get(param)
        if buf is not None:  # a subroutine's buffer parameter: its data is the pointer passed
            bindings[buf.data] = arg
    with cg.function(state, bindings):
        cg.alignment = {}
        body = cg.new_block("body")
        builder.branch(body)
        builder.position_at_end(body)
        cg.stmt(func.body)
        if not cg.builder.block.is_terminated:
            if ret is None:
                cg.builder.ret_void()
            else:
                cg.builder.ret(const(ret, 0))
