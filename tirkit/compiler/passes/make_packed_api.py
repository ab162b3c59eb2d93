"""``MakePackedAPI``: give every externally visible PrimFunc TVM's packed calling convention
(mirrors TVM v0.20 ``tvm.tir.transform.MakePackedAPI``, ``src/tir/transforms/make_packed_api.cc``).

A function with a ``"global_symbol"`` attribute (and no calling convention yet) becomes::

    def main(args: T.handle, arg_type_ids: T.handle("int32"), num_args: T.int32,
             out_ret_value: T.handle("void"), out_ret_tcode: T.handle("int32"),
             resource_handle: T.handle) -> T.int32:
        T.func_attr({"calling_conv": 1, "target": ..., "tir.is_entry_func": True, ...})
        assert num_args == 1, "main: num_args should be 1"
        assert not T.isnullptr(args), "main: TVMValue* arg pointer was NULL"
        ...                                   # type codes, DLTensor unpacking and checks
        with T.attr(0, "compute_scope", "main_compute_"):
            ...                               # the original body, `return x` written to out_ret_*
        return 0

Functions without ``"global_symbol"`` (private subroutines) keep their C signature; calls to
externally visible functions from other functions become ``T.call_cpacked``. The DLTensor checks
come from :class:`~tirkit.compiler.passes.arg_binder.ArgBinder` (TVM's ``arg_binder.cc``).
"""
from __future__ import annotations

from typing import Any, cast

from tirkit.ir import GlobalVar, IRModule
from tirkit.ir.dtype import DataType, dtype as _dtype
from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.ir.type import PointerType, PrimType
from tirkit import tir
from tirkit.tir import (EQ, AssertStmt, AttrStmt, Buffer, BufferLoad, BufferStore, Call, Cast,
                        DeclBuffer, Evaluate, LetStmt, Not, PrimFunc, SeqStmt, Stmt, StringImm,
                        Var)
from tirkit.tir.analysis import undefined_vars
from tirkit.tir.stmt_functor import StmtExprMutator, StmtMutator

from ..runtime.abi import CallingConv, TypeCode
from ..transform import IllFormedIRError, Pass, PassContext, PassInfo, register_pass
from .arg_binder import ArgBinder, merge_nest, nop, struct_get

_INT32 = _dtype("int32")

__all__ = ["MakePackedAPI", "make_packed_api", "requires_packed_api", "DEVICE_OF_TARGET_KIND"]

#: ``kTVMArgBool``: the type code of a Python bool in TVM v0.20's packed calls
K_TVM_ARG_BOOL = 15
#: ``kDeviceContextVar``: a param with this name is passed as ``resource_handle``
DEVICE_CONTEXT_VAR = "device_api_context"
#: DLDeviceType of each target kind (TVM ``Target::GetTargetDeviceType``)
DEVICE_OF_TARGET_KIND = {"llvm": 1, "c": 1, "ext_dev": 12, "cuda": 2, "opencl": 4, "vulkan": 7,
                         "metal": 8, "rocm": 10, "hexagon": 16, "webgpu": 15}


def requires_packed_api(func: PrimFunc) -> str | None:
    """The global symbol when ``func`` must get the packed API, else ``None`` (TVM
    ``RequiresPackedAPI``): functions with a non-default ``calling_conv`` or no
    ``global_symbol`` are left alone."""
    conv = func.attrs.get("calling_conv")
    if conv is not None and int(_int_value(conv)) != CallingConv.kDefault:
        return None
    symbol = func.attrs.get("global_symbol")
    return str(_str_value(symbol)) if symbol is not None else None


def _int_value(v: Any) -> int:
    return v.value if isinstance(v, IntImm) else int(v)


def _str_value(v: Any) -> str:
    return v.value if isinstance(v, StringImm) else str(v)


def _target_kind(target: Any) -> str:
    if isinstance(target, dict):
        return str(_str_value(target.get("kind", "llvm")))
    if target is None:
        return "llvm"
    return str(getattr(target, "kind", str(target).split()[0] if str(target) else "llvm"))


def _host_target(target: Any) -> Any:
    """The host part of a target attribute (TVM ``Target::GetHost``); a CPU target (and a
    target without host) is its own host here, since tirkit binds no host separately."""
    if isinstance(target, dict) and "host" in target:
        return target["host"]
    return target


def _api_type(t: DataType) -> DataType:
    """The 64-bit TVMValue member a param of dtype ``t`` is read from (TVM ``APIType``)."""
    if t.is_handle():
        return t
    if t.is_floating():
        return _dtype("float64")
    return _dtype("int64")


def _arg_value(v_args: Var, t: DataType, i: int, span: Any) -> PrimExpr:
    """``T.tvm_struct_get(args, i, 12, api_type)``, cast to ``t`` when narrower."""
    api = _api_type(t)
    value = struct_get(str(api), v_args, i, 12, span)
    return Cast(t, value, span=span) if api != t else value


def _any_of(code: Var, values: tuple[int, ...]) -> PrimExpr:
    cond: PrimExpr = EQ(code, IntImm(_INT32, values[0]))
    for v in values[1:]:
        cond = tir.logical_or(cond, EQ(code, IntImm(_INT32, v)))
    return cond


_POINTER_CODES = (TypeCode.kTVMOpaqueHandle, TypeCode.kTVMNDArrayHandle,
                  TypeCode.kTVMDLTensorHandle, TypeCode.kTVMNullptr)
#: dtype kind -> (accepted type codes, word in "Expect arg[i] to be <word>")
_TYPE_CHECKS: dict[str, tuple[tuple[int, ...], str]] = {
    "handle": (tuple(int(c) for c in _POINTER_CODES), "pointer"),
    "bool": ((K_TVM_ARG_BOOL, int(TypeCode.kDLInt)), "boolean"),
    "int": ((int(TypeCode.kDLInt), K_TVM_ARG_BOOL), "int"),
    "float": ((int(TypeCode.kDLFloat),), "float"),
}


def _kind(t: DataType) -> str:
    if t.is_handle():
        return "handle"
    if t.is_bool():
        return "bool"
    if t.is_floating():
        return "float"
    if t.is_int() or t.is_uint():
        return "int"
    raise TypeError(f"MakePackedAPI: expected a handle, bool, int or float param, got {t}")


class _ReturnRewriter(StmtMutator):
    """``return x`` -> store ``x`` and its type code to ``out_ret_value/out_ret_tcode``, then
    ``return 0`` (TVM ``ReturnRewriter``)."""

    def __init__(self, ret_var: Var, ret_tcode: Var) -> None:
        self.ret_var, self.ret_tcode = ret_var, ret_tcode
        self.in_parallel = 0
        self.val_buffers: dict[int, Buffer] = {}
        self.tcode_buffer: Buffer | None = None

    def visit_for_(self, op: tir.For) -> Stmt:
        par = op.kind == tir.ForKind.PARALLEL
        self.in_parallel += par
        try:
            return super().visit_for_(op)
        finally:
            self.in_parallel -= par

    def visit_evaluate_(self, op: Evaluate) -> Stmt:
        value = op.value
        if not (isinstance(value, Call) and getattr(value.op, "name", "") == "tir.ret"):
            return op
        if self.in_parallel:
            raise ValueError("MakePackedAPI: expected no T.ret inside a parallel loop, got one")
        return self._write(value.args[0], op.span)

    def _buffers(self, tcode: int, dtype: str) -> tuple[Buffer, Buffer]:
        if tcode not in self.val_buffers:
            self.val_buffers[tcode] = Buffer(self.ret_var, dtype, (1,), (1,),
                                             name=self.ret_var.name_hint)
        if self.tcode_buffer is None:
            self.tcode_buffer = Buffer(self.ret_tcode, "int32", (1,), (1,),
                                       name=self.ret_tcode.name_hint)
        return self.val_buffers[tcode], self.tcode_buffer

    def _write(self, val: PrimExpr, span: Any) -> Stmt:
        t = val.dtype
        if t.is_int() or t.is_uint() or t.is_bool():
            tcode, expr = int(TypeCode.kDLInt), Cast("int64", val, span=span)
        elif t.is_floating():
            tcode, expr = int(TypeCode.kDLFloat), Cast("float64", val, span=span)
        elif t.is_void():
            tcode, expr = int(TypeCode.kTVMNullptr), cast(Cast, val)  # (returned as it is)
        else:
            raise TypeError(f"MakePackedAPI: expected an int, float or void return value, got {t}")
        vbuf, tbuf = self._buffers(tcode, str(expr.dtype))
        zero = IntImm(_INT32, 0)
        return SeqStmt((BufferStore(vbuf, expr, (zero,), span=span),
                        BufferStore(tbuf, IntImm(_INT32, tcode), (zero,), span=span),
                        Evaluate(tir.ret(zero), span=span)), span=span)


class _SubroutineCallRewriter(StmtExprMutator):
    """Calls to externally visible functions -> ``T.call_cpacked(symbol, *args, handle(0))``
    (TVM ``SubroutineCallRewriter``)."""

    def __init__(self, methods: dict[GlobalVar, str]) -> None:
        self.methods = methods

    def visit_call_(self, op: Call) -> PrimExpr:
        node = super().visit_call_(op)
        symbol = self.methods.get(node.op) if isinstance(node.op, GlobalVar) else None
        if symbol is None:
            return node
        null = tir.reinterpret("handle", tir.const(0, "uint64"))
        return Call(node.dtype, "tir.tvm_call_cpacked", (StringImm(symbol), *node.args, null),
                    span=op.span)


class _Signature:
    """The six params of a packed function and the device vars (TVM's ``v_packed_args``...)."""

    def __init__(self, num_params: int) -> None:
        self.args = Var("args", "handle")
        self.type_ids = tir.decl_buffer((IntImm(_INT32, num_params),), "int32",
                                        name="arg_type_ids")
        self.num_args = Var("num_args", "int32")
        self.out_ret_value = Var("out_ret_value", PointerType(PrimType("void")))
        self.out_ret_tcode = Var("out_ret_tcode", PointerType(PrimType("int32")))
        self.resource_handle = Var("resource_handle", "handle")
        self.device_id = Var("dev_id", "int32")

    def params(self) -> tuple[Var, ...]:
        return (self.args, self.type_ids.data, self.num_args, self.out_ret_value,
                self.out_ret_tcode, self.resource_handle)


def _assert(cond: PrimExpr, msg: str, span: Any) -> Stmt:
    return AssertStmt(cond, StringImm(msg), nop(span), span=span)


def _seq_init(func: PrimFunc, sig: _Signature, name: str, num_args: int) -> list[Stmt]:
    """The num_args / null / type-code checks (TVM's ``seq_init``)."""
    span = func.span
    out = [_assert(EQ(sig.num_args, IntImm(_INT32, num_args)),
                   f"{name}: num_args should be {num_args}", span)]
    if num_args > 0:
        out.append(_assert(Not(tir.isnullptr(sig.args)),
                           f"{name}: TVMValue* arg pointer was NULL", span))
        out.append(_assert(Not(tir.isnullptr(sig.type_ids.data)),
                           f"{name}: int* type_codes was NULL", span))
    out.append(DeclBuffer(sig.type_ids, nop(span), span=span))
    for i, param in enumerate(func.params):
        if param.name_hint == DEVICE_CONTEXT_VAR:
            continue
        code = Var(param.name_hint + "_code", "int32")
        load = BufferLoad(sig.type_ids, (IntImm(_INT32, i),))
        out.append(LetStmt(code, load, nop(param.span), span=param.span))
        codes, word = _TYPE_CHECKS[_kind(param.dtype)]
        out.append(_assert(_any_of(code, codes), f"{name}: Expect arg[{i}] to be {word}",
                           param.span))
    return out


def make_packed_api(func: PrimFunc, name: str, is_entry: bool = False) -> PrimFunc:
    """``func`` with the packed signature (TVM ``MakePackedAPI(PrimFunc)``).

    Raises:
        IllFormedIRError (a ValueError): when the body uses a variable that is neither a
            param nor bound by a buffer's shape (TVM's "variables ... are used, but are not
            passed in as API arguments": an input error, tirc exit 1); ValueError: when a
            buffer binding can never hold.
    """
    target = func.attrs.get("target")
    device_type = IntImm(_INT32, DEVICE_OF_TARGET_KIND.get(_target_kind(target), 1))
    sig = _Signature(len(func.params))
    num_args = sum(p.name_hint != DEVICE_CONTEXT_VAR for p in func.params)
    for p in func.params:
        if p.name_hint == DEVICE_CONTEXT_VAR:
            sig.resource_handle = p
    seq_init = _seq_init(func, sig, name, num_args)
    def_map: dict[Var, PrimExpr] = {}
    binder = ArgBinder(def_map)
    for i, param in enumerate(func.params):
        if param.name_hint != DEVICE_CONTEXT_VAR:
            binder.bind(param, _arg_value(sig.args, param.dtype, i, param.span),
                        f"{name}.{param.name_hint}", True, param.span)
    decls = []
    for param in func.params:
        buf = func.buffer_map.get(param)
        if buf is not None:
            binder.bind_dltensor(buf, device_type, sig.device_id, param,
                                 f"{name}.{param.name_hint}")
            decls.append(DeclBuffer(buf, nop(buf.span), span=buf.span))
    body = _ReturnRewriter(sig.out_ret_value, sig.out_ret_tcode)(func.body)
    body = AttrStmt(0, "compute_scope", StringImm(name + "_compute_"), body,
                    span=func.body.span)
    seq_check: list[Stmt] = []
    if sig.device_id in def_map:
        seq_check = [AttrStmt("default", "device_id", sig.device_id, nop(), span=func.span),
                     AttrStmt("default", "device_type", device_type, nop(), span=func.span)]
    body = SeqStmt((body, Evaluate(tir.ret(IntImm(_INT32, 0)), span=func.span)), span=func.span)
    nests: list[list[Any]] = [seq_init, binder.init_nest, seq_check, binder.asserts, decls]
    core = body
    body = merge_nest(nests, body)
    params = sig.params()
    undefined = _undefined(func, nests, core, body, params)
    if undefined:
        names = ", ".join(v.name_hint for v in undefined)
        raise IllFormedIRError(f"In PrimFunc {name} variables [{names}] are used, but are not "
                               "passed in as API arguments")
    return func.with_changes(params=params, body=body, buffer_map={}, ret_type="int32",
                             attrs=_packed_attrs(func.attrs, is_entry))


def _undefined(func: PrimFunc, nests: list[list[Stmt]], core: Stmt, body: Stmt,
               params: tuple[Var, ...]) -> list[Var]:
    """``undefined_vars(body, params)`` for ``body = merge_nest(nests, core)``.

    When every buffer argument has constant shape, strides and offset, the checks and
    bindings of ``nests`` use only the params and what the nests define before (the
    argument's handle and data pointer, the field buffers, the codes, ``dev_id``): they add
    no undefined var, so ``core`` alone is walked, with the nests' definitions known and their
    buffers declared (the nests are a third to two thirds of a kernel's function). Otherwise
    the whole function is walked."""
    plain = all(type(e) is IntImm for buf in func.buffer_map.values()
                for e in (*buf.shape, *buf.strides, buf.elem_offset))
    items = [s for nest in nests for s in nest]
    if not plain or not all(type(s) in _NEST_KINDS for s in items) or any(
            type(s) is AttrStmt and s.attr_key in ("thread_extent", "virtual_thread")
            for s in items):
        return undefined_vars(body, params)
    defs = [*params, *(s.var for s in items if type(s) is LetStmt)]
    return undefined_vars(core, defs, [s.buffer for s in items if type(s) is DeclBuffer])


#: the kinds of nest item make_packed_api makes (see :func:`_undefined`)
_NEST_KINDS = (LetStmt, AssertStmt, DeclBuffer, AttrStmt, SeqStmt)


def _packed_attrs(attrs: dict[str, Any], is_entry: bool) -> dict[str, Any]:
    """``calling_conv`` 1, the host target, ``tir.is_entry_func`` for the entry function."""
    out = dict(attrs)
    out["calling_conv"] = int(CallingConv.kCPackedFunc)
    if attrs.get("target") is not None:
        out["target"] = _host_target(attrs["target"])
    if is_entry:
        out["tir.is_entry_func"] = IntImm("bool", 1)
    return out


def _packed_methods(mod: IRModule) -> dict[GlobalVar, str]:
    out = {}
    for gv, f in mod.functions.items():
        if isinstance(f, PrimFunc):
            symbol = requires_packed_api(f)
            if symbol is not None:
                out[gv] = symbol
    return out


def _run(mod: IRModule, ctx: PassContext) -> IRModule:
    del ctx
    methods = _packed_methods(mod)
    rewriter = _SubroutineCallRewriter(methods)
    funcs, changed = {}, False
    for gv, f in mod.functions.items():
        new = f
        if isinstance(f, PrimFunc):
            body = rewriter(f.body)
            if body is not f.body:
                new = f.with_body(body)
            symbol = methods.get(gv)
            if symbol is not None:
                new = make_packed_api(cast(PrimFunc, new), symbol, is_entry=len(methods) == 1 or
                                      bool(_int_value(f.attrs.get("tir.is_entry_func", 0))))

        changed |= new is not f
        funcs[gv] = new
    return IRModule(funcs, mod.attrs, span=mod.span) if changed else mod


@register_pass("MakePackedAPI")
def MakePackedAPI() -> Pass:  # pylint: disable=invalid-name
    """The MakePackedAPI pass (``tvm.tir.transform.MakePackedAPI``): externally visible
    functions get TVM's packed signature, argument unpacking and checks; see the module doc."""
    return Pass(PassInfo("MakePackedAPI", 0), _run)

