"""NVIDIA GPU code generation through LLVM's NVPTX back end (mirrors TVM's
``src/target/llvm/codegen_nvptx.cc``): the kernels of a module lowered for ``cuda`` become an
LLVM module for ``nvptx64-nvidia-cuda`` and PTX text.

:class:`CodeGenNVPTX` is :class:`~.core.CodeGenLLVM` with NVPTX rules consulted first
(:data:`NVPTX_STMT_RULES`, :data:`NVPTX_CALL_RULES`, filled here and in :mod:`.nvptx_intrin`):

- ``T.launch_thread`` (``thread_extent``) binds its var to ``llvm.nvvm.read.ptx.sreg.tid.x`` /
  ``ctaid.x``...;
- ``T.allocate`` in ``shared`` scope is a module global in address space 3, ``shared.dyn`` the
  external ``[0 x i8]`` array sized at launch, ``local`` a stack slot (address space 5 after
  LLVM's NVPTX lowering); global memory is address space 1 (kernel pointer params);
- ``T.tvm_storage_sync("shared")`` is ``__syncthreads`` (``llvm.nvvm.barrier0``);
- kernels (``calling_conv`` 2) use the ``ptx_kernel`` calling convention, take their params as
  ``noalias`` pointers and carry their launch bounds (``"nvvm.maxntid"``) when the block size is
  a constant; assertions inside kernels are dropped (a kernel cannot report them).

Host functions of the module are not emitted here: the CUDA runtime runs them.
"""
from __future__ import annotations

import re
from math import prod
from typing import Any, Callable, cast

from llvmlite import ir

from ...ir.expr import GlobalVar, IntImm
from ...ir.module import IRModule
from ...ir.op import Op
from ...tir import expr as E
from ...tir import stmt as S
from ...tir.function import PrimFunc
from ..runtime.abi import CallingConv
from . import casts, expr, intrin, memory, stmt  # noqa: F401  pylint: disable=unused-import
from .core import STMT_RULES, CodeGenLLVM, FunctionState, rule_registrar
from .types import I8, I32, PTR, VOID, CodegenError, llvm_type, storage_type

__all__ = ["CodeGenNVPTX", "NVPTX_STMT_RULES", "NVPTX_CALL_RULES", "NVPTX_FALLBACK_RULES",
           "register_nvptx", "register_nvptx_call", "is_kernel", "emit_nvptx_llvm"]

#: a rule of the NVPTX tables (it takes the CodeGenNVPTX)
NvptxRule = Callable[["CodeGenNVPTX", Any], Any]
NVPTX_STMT_RULES: dict[type, NvptxRule] = {}
NVPTX_CALL_RULES: dict[str, NvptxRule] = {}
#: the rule of a math call no entry of NVPTX_CALL_RULES names (``"math"``: libdevice's
#: ``__nv_*`` functions), filled by :mod:`.nvptx_intrin`
NVPTX_FALLBACK_RULES: dict[str, NvptxRule] = {}

#: shared-memory address space; generic pointers are address space 0
SHARED_AS = 3
_SREG = {"threadIdx": "tid", "blockIdx": "ctaid"}


register_nvptx = rule_registrar(NVPTX_STMT_RULES, "the given statement classes on NVPTX")
register_nvptx_call = rule_registrar(NVPTX_CALL_RULES, "calls to the named ops on NVPTX")


def is_kernel(func: PrimFunc) -> bool:
    """Whether ``func`` is a GPU kernel (``calling_conv`` 2, made by LowerDeviceKernelLaunch)."""
    conv: Any = func.attrs.get("calling_conv", 0)
    return int(getattr(conv, "value", conv)) == CallingConv.kDeviceKernelLaunch


class CodeGenNVPTX(CodeGenLLVM):
    """Translate lowered device PrimFuncs to an NVPTX LLVM module (TVM ``CodeGenNVPTX``).

    Float ``a * b + c`` may contract to one ``fma.rn`` (``contract`` on ``fadd``/``fsub``/
    ``fmul``): TVM's LLVM targets set ``AllowFPOpFusion = Fast`` and nvcc fuses by default
    (``--fmad=true``); without it every multiply-add is two rounded PTX instructions.
    """

    fp_flags = ("contract",)

    def __init__(self, target: Any, module_name: str = "tirkit_cuda") -> None:
        super().__init__(target, module_name)
        self.launch_bounds: dict[str, int] = {}
        self.thread_extents: dict[str, Any] = {}  # of the kernel being emitted
        self.uses_libdevice = False

    def stmt(self, s: S.Stmt) -> None:
        rule = NVPTX_STMT_RULES.get(type(s))
        if rule is None:
            super().stmt(s)
            return
        if self.builder.block.is_terminated:
            self.builder.position_at_end(self.new_block("dead"))
        rule(self, s)

    def expr(self, e: Any) -> ir.Value:
        if isinstance(e, E.Call) and not isinstance(e.op, GlobalVar):
            rule = NVPTX_CALL_RULES.get(e.op.name)
            if rule is None and _is_math(e):
                rule = NVPTX_FALLBACK_RULES.get("math")
            if rule is not None:
                return rule(self, e)
        return super().expr(e)

    def sreg(self, tag: str) -> ir.Value:
        """``llvm.nvvm.read.ptx.sreg.<tid|ctaid>.<x|y|z>()`` for a thread tag."""
        kind, _, axis = tag.partition(".")
        if kind not in _SREG or axis not in ("x", "y", "z"):
            raise CodegenError(f"unknown GPU thread tag {tag!r} (expected threadIdx.x/y/z or "
                               "blockIdx.x/y/z)")
        fn = self.declare(f"llvm.nvvm.read.ptx.sreg.{_SREG[kind]}.{axis}", I32, [])
        return self.builder.call(fn, [])


def _is_math(e: E.Call) -> bool:
    op = cast(Op, e.op)  # (not a GlobalVar: the caller checked)
    attrs = op.attrs
    return bool(attrs.get("libm") or (attrs.get("legalize") and op.name in (
        "tir.sigmoid", "tir.rsqrt", "tir.isinf", "tir.isfinite")))


# ----------------------------------------------------------------------------- statements
@register_nvptx(S.AttrStmt)
def _attr(cg: CodeGenNVPTX, s: S.AttrStmt) -> None:
    if s.attr_key != "thread_extent" or not isinstance(s.node, E.IterVar):
        STMT_RULES[S.AttrStmt](cg, s)
        return
    var = s.node.var
    cg.thread_extents.setdefault(s.node.thread_tag, s.value)
    if var in cg.vars:  # the same thread axis launched again: already bound
        cg.stmt(s.body)
        return
    value = cg.sreg(s.node.thread_tag)
    ty = llvm_type(var.dtype)
    if ty != I32:
        value = cg.builder.sext(value, ty) if ty.width > 32 else cg.builder.trunc(value, ty)
    with cg.bind(var, value):
        cg.stmt(s.body)


@register_nvptx(S.AssertStmt)
def _assert(cg: CodeGenNVPTX, s: S.AssertStmt) -> None:
    cg.stmt(s.body)


@register_nvptx(S.For)
def _for(cg: CodeGenNVPTX, s: S.For) -> None:
    if s.kind == S.ForKind.PARALLEL:
        raise CodegenError(f"loop {s.loop_var.name_hint!r} is T.parallel inside a GPU kernel: "
                           "bind it to threads (T.thread_binding) or make it serial")
    STMT_RULES[S.For](cg, s)


def _const_count(s: S.Allocate) -> int:
    if not all(isinstance(e, IntImm) for e in s.extents):
        raise CodegenError(f"allocation {s.buffer_var.name_hint!r} in a GPU kernel needs a "
                           "constant size (use shared.dyn for a size known at launch)")
    return max(prod(cast(IntImm, e).value for e in s.extents), 1)


@register_nvptx(S.Allocate)
def _allocate(cg: CodeGenNVPTX, s: S.Allocate) -> None:
    from ..passes._gpu_common import storage_scope  # pylint: disable=import-outside-toplevel

    scope = storage_scope(s.buffer_var)
    ety = storage_type(s.dtype)
    if scope == "shared.dyn":
        ptr = _dyn_shared(cg)
    elif scope == "shared":
        arr = ir.ArrayType(ety, _const_count(s))
        gvar = ir.GlobalVariable(cg.module, arr, name=cg.fresh_name(s.buffer_var.name_hint),
                                 addrspace=SHARED_AS)
        gvar.linkage = "internal"
        gvar.initializer = ir.Constant(arr, ir.Undefined)
        gvar.align = 16
        ptr = cg.builder.addrspacecast(gvar, PTR)
    elif scope in ("local", "global", "local.var"):
        ptr = cg.alloca(ety, _const_count(s), max(16, s.dtype.bits // 8),
                        name=s.buffer_var.name_hint)
    else:
        raise CodegenError(f"allocation {s.buffer_var.name_hint!r} in storage scope {scope!r} "
                           "is not supported in a GPU kernel (warp memory must be lowered by "
                           "LowerWarpMemory)")
    cg.alignment[s.buffer_var] = 16
    with cg.bind(s.buffer_var, ptr):
        cg.stmt(s.body)


def _dyn_shared(cg: CodeGenNVPTX) -> ir.Value:
    gvar = cg.module.globals.get("__tirkit_dyn_shmem")
    if gvar is None:
        arr = ir.ArrayType(I8, 0)
        gvar = ir.GlobalVariable(cg.module, arr, name="__tirkit_dyn_shmem", addrspace=SHARED_AS)
        gvar.linkage = "external"
        gvar.align = 16
    return cg.builder.addrspacecast(gvar, PTR)


# ------------------------------------------------------------------------------ functions
def _declare(cg: CodeGenNVPTX, gv: GlobalVar, func: PrimFunc) -> ir.Function:
    from ..passes.lower_device_kernel_launch import launch_block_size  # pylint: disable=import-outside-toplevel

    kernel = is_kernel(func)
    ret = None if kernel else getattr(func.ret_type, "dtype", None)
    fnty = ir.FunctionType(llvm_type(ret) if ret is not None else VOID,
                           [llvm_type(p.dtype) for p in func.params])
    name = str(func.attrs.get("global_symbol") or gv.name_hint)
    fn = ir.Function(cg.module, fnty, name=name)
    if kernel:
        fn.calling_convention = "ptx_kernel"
        block = launch_block_size(func)
        if block:
            cg.launch_bounds[name] = block
    else:
        fn.linkage = "internal"
    for arg, param in zip(fn.args, func.params):
        arg.name = param.name_hint
        if param.dtype.is_handle() and func.attrs.get("tir.noalias"):
            arg.add_attribute("noalias")
    fn.attributes.add("nounwind")
    return fn


def _emit(cg: CodeGenNVPTX, fn: ir.Function, func: PrimFunc) -> None:
    entry = fn.append_basic_block("entry")
    builder = ir.IRBuilder(entry)
    ret = None if is_kernel(func) else getattr(func.ret_type, "dtype", None)
    state = FunctionState(fn.name, fn, builder, entry, ret)
    with cg.function(state, dict(zip(func.params, fn.args))):
        cg.alignment, cg.thread_extents = {}, {}
        body = cg.new_block("body")
        builder.branch(body)
        builder.position_at_end(body)
        cg.stmt(func.body)
        if not cg.builder.block.is_terminated:
            if ret is None:
                cg.builder.ret_void()
            else:
                cg.builder.ret(ir.Constant(llvm_type(ret), 0))


def _add_launch_bounds(text: str, bounds: dict[str, int]) -> str:
    """Attach ``"nvvm.maxntid"="N"`` to each kernel with a constant block size."""
    groups = []
    for k, (name, block) in enumerate(sorted(bounds.items())):
        pattern = re.compile(r'^(define ptx_kernel [^\n]*@"?' + re.escape(name) + r'"?\(.*\))',
                             re.M)
        text, n = pattern.subn(lambda m, k=k: f"{m.group(1)} #{900 + k}",  # type: ignore[misc]
                               text, count=1)
        if n:
            groups.append(f'attributes #{900 + k} = {{ "nvvm.maxntid"="{block}" }}')
    return text + ("\n" + "\n".join(groups) + "\n" if groups else "")


def device_functions(mod: IRModule) -> list[tuple[GlobalVar, PrimFunc]]:
    """The device PrimFuncs of a lowered module (kernels and device subroutines)."""
    return [(gv, f) for gv, f in mod.functions.items()
            if isinstance(f, PrimFunc) and is_kernel(f)]


def emit_nvptx_llvm(mod: IRModule, target: Any) -> tuple[str, bool]:
    """Unoptimised NVPTX LLVM IR of the device functions of ``mod`` and whether it calls
    libdevice (``__nv_*``).

    Raises:
        CodegenError: for device code the generator cannot translate (naming the function).
    """
    cg = CodeGenNVPTX(target)
    cg.module.data_layout = str(target.target_machine().target_data)
    funcs = device_functions(mod)
    if not funcs:
        raise CodegenError("the module has no GPU kernel: bind loops to threadIdx/blockIdx "
                           "(T.thread_binding) or launch threads (T.launch_thread)")
    decls = [(_declare(cg, gv, f), gv, f) for gv, f in funcs]
    for fn, gv, func in decls:
        try:
            _emit(cg, fn, func)
        except CodegenError as exc:
            raise CodegenError(f"in kernel {gv.name_hint!r}: {exc}") from None
    text = _add_launch_bounds(str(cg.module), cg.launch_bounds)
    return text, cg.uses_libdevice
