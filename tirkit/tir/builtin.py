"""The registry of TIR's built-in operators (mirrors TVM v0.20 ``src/tir/op/builtin.cc`` and the
intrinsics registered in ``src/tir/op/op.cc``).

:data:`BUILTIN_OPS` is THE table: one row per op with TVM's name, arity (``num_inputs``, ``-1`` for
variadic), effect kind (``TCallEffectKind``) and further attributes. Importing this module registers
every row in :mod:`tirkit.ir.op`, so ``Op.get("tir.exp")`` works and ``Call(dtype, "tir.exp", ...)``
checks arity.

Attributes recorded per op (read by the printer, LowerIntrin and codegen):

- ``TScriptPrinterName``: the ``T.`` spelling (``"exp"``, ``"call_packed"`` for
  ``tir.tvm_call_packed``...); defaults to the name without its ``tir.`` prefix.
- ``TVectorizable``: ``True`` when a call on vector lanes may stay one vector call.
- ``TScriptDtypePrintLocation``: ``"first"`` / ``"last"`` when the printer passes the result
  dtype as the first / last argument (``T.call_extern("float32", ...)``,
  ``T.tvm_struct_get(a, 0, 1, "int64")``).
- ``TGlobalSymbol``: the C symbol an op lowers to (``TVMBackendAllocWorkspace``...).
- ``llvm_intrin``: the LLVM intrinsic TVM's LLVM backend dispatches the op to (``"llvm.exp"``);
  overloaded on the operand type.
- ``libm``: the C math function TVM's default lowering calls (``DispatchPureExtern<FloatSuffix>``);
  the base name for float64, see :func:`libm_symbol` for the per-dtype symbol.
- ``legalize``: a short note on the expansion TVM's LLVM backend uses instead of a call
  (``"1 / (1 + exp(-x))"``).

Deliberate differences from TVM's registry (TVM never checks arity; tirkit's ``Call`` does, so the
registered arity is the one TVM's own code actually uses): ``tir.fmod`` takes 2 inputs (TVM
registers 1), ``tir.q_multiply_shift`` 4 (TVM registers 3 but passes 4), ``tir.lookup_param`` 1
(TVM registers 4 but passes 1), and ``tir.isinf`` / ``tir.isfinite`` are registered as pure unary
ops (TVM only attaches lowering rules to them).
"""
from __future__ import annotations

from typing import Any

from ..ir.dtype import DataType, dtype as _dtype
from ..ir.op import CallEffectKind, Op, register_op

__all__ = ["BUILTIN_OPS", "libm_symbol", "script_name", "builtin_op_names"]

_P = CallEffectKind.PURE
_EA = CallEffectKind.EXPR_ANNOTATION
_RS = CallEffectKind.READ_STATE
_US = CallEffectKind.UPDATE_STATE
_OP = CallEffectKind.OPAQUE
_SCA = CallEffectKind.SPECIAL_CALL_ARG
_EMB = CallEffectKind.EMBEDDED
_CJ = CallEffectKind.CONTROL_JUMP

_V = {"TVectorizable": True}
_FIRST = {"TScriptDtypePrintLocation": "first"}


def _m(llvm: str | None = None, libm: str | None = None, legalize: str | None = None,
       vec: bool = False) -> dict[str, Any]:
    """Attributes of a math op: LLVM intrinsic, libm function, legalization, vectorizable."""
    attrs: dict[str, Any] = {"TVectorizable": True} if vec else {}
    for key, value in (("llvm_intrin", llvm), ("libm", libm), ("legalize", legalize)):
        if value is not None:
            attrs[key] = value
    return attrs


# (name, num_inputs, effect, attrs). Order follows TVM's op.cc then builtin.cc.
BUILTIN_OPS: tuple[tuple[str, int, CallEffectKind, dict[str, Any]], ...] = (
    # ---------------------------------------------------------------- math (src/tir/op/op.cc)
    ("tir.exp", 1, _P, _m("llvm.exp", "exp", vec=True)),
    ("tir.exp2", 1, _P, _m("llvm.exp2", "exp2", vec=True)),
    ("tir.exp10", 1, _P, _m(libm="exp10", legalize="exp(x * ln(10))", vec=True)),
    ("tir.erf", 1, _P, _m(libm="erf")),
    ("tir.tanh", 1, _P, _m(libm="tanh", legalize="select(x >= 0, (1 - e^-2x) / (1 + e^-2x), "
                           "(e^2x - 1) / (e^2x + 1))", vec=True)),
    ("tir.sigmoid", 1, _P, _m(legalize="1 / (1 + exp(-x))", vec=True)),
    ("tir.sqrt", 1, _P, _m("llvm.sqrt", "sqrt", vec=True)),
    ("tir.rsqrt", 1, _P, _m(legalize="1 / sqrt(x)")),
    ("tir.log", 1, _P, _m("llvm.log", "log", vec=True)),
    ("tir.log2", 1, _P, _m("llvm.log2", "log2", vec=True)),
    ("tir.log1p", 1, _P, _m(libm="log1p")),
    ("tir.log10", 1, _P, _m("llvm.log10", "log10", vec=True)),
    ("tir.floor", 1, _P, _m("llvm.floor", "floor", vec=True)),
    ("tir.ceil", 1, _P, _m("llvm.ceil", "ceil", vec=True)),
    ("tir.round", 1, _P, _m("llvm.round", "round", vec=True)),
    ("tir.nearbyint", 1, _P, _m("llvm.nearbyint", "nearbyint")),
    ("tir.trunc", 1, _P, _m("llvm.trunc", "trunc", vec=True)),
    ("tir.fabs", 1, _P, _m("llvm.fabs", "fabs", vec=True)),
    ("tir.tan", 1, _P, _m(libm="tan", legalize="sin(x) / cos(x)", vec=True)),
    ("tir.cos", 1, _P, _m("llvm.cos", "cos", vec=True)),
    ("tir.cosh", 1, _P, _m(libm="cosh", legalize="(exp(x) + exp(-x)) / 2", vec=True)),
    ("tir.sin", 1, _P, _m("llvm.sin", "sin", vec=True)),
    ("tir.sinh", 1, _P, _m(libm="sinh", legalize="(exp(x) - exp(-x)) / 2", vec=True)),
    ("tir.asin", 1, _P, _m(libm="asin")),
    ("tir.acos", 1, _P, _m(libm="acos")),
    ("tir.atan", 1, _P, _m(libm="atan")),
    ("tir.acosh", 1, _P, _m(libm="acosh")),
    ("tir.asinh", 1, _P, _m(libm="asinh")),
    ("tir.atanh", 1, _P, _m(libm="atanh")),
    ("tir.isinf", 1, _P, _m(legalize="fabs(x) == inf && !isnan(x)")),
    ("tir.isfinite", 1, _P, _m(legalize="!isinf(x) && !isnan(x)")),
    ("tir.fmod", 2, _P, _m(libm="fmod")),
    ("tir.atan2", 2, _P, _m(libm="atan2")),
    ("tir.nextafter", 2, _P, _m(libm="nextafter")),
    ("tir.hypot", 2, _P, _m(libm="hypot")),
    ("tir.copysign", 2, _P, _m(libm="copysign")),
    ("tir.ldexp", 2, _P, _m(libm="ldexp")),
    ("tir.pow", 2, _P, _m("llvm.pow", "pow", vec=True)),
    ("tir.TVMBackendAllocWorkspace", 5, _US,
     {"TGlobalSymbol": "TVMBackendAllocWorkspace"}),
    ("tir.TVMBackendFreeWorkspace", 3, _US, {"TGlobalSymbol": "TVMBackendFreeWorkspace"}),
    ("tir.TVMBackendAnyListSetPackedArg", 5, _US,
     {"TGlobalSymbol": "TVMBackendAnyListSetPackedArg", "TScriptPrinterName": None}),
    ("tir.TVMBackendAnyListMoveFromPackedReturn", 3, _US,
     {"TGlobalSymbol": "TVMBackendAnyListMoveFromPackedReturn", "TScriptPrinterName": None}),
    # ------------------------------------------------------------ builtins (src/tir/op/builtin.cc)
    ("tir.reinterpret", 1, _P, _FIRST),
    ("tir.ret", 1, _CJ, {}),
    ("tir.likely", 1, _EA, _V),
    ("tir.bitwise_and", 2, _P, _V),
    ("tir.bitwise_or", 2, _P, _V),
    ("tir.bitwise_xor", 2, _P, _V),
    ("tir.bitwise_not", 1, _P, _V),
    ("tir.shift_left", 2, _P, _V),
    ("tir.shift_right", 2, _P, _V),
    ("tir.large_uint_imm", 2, _P, {}),
    ("tir.address_of", 1, _P, {}),
    ("tir.if_then_else", 3, _P, {}),
    ("tir.q_multiply_shift", 4, _P, {**_V, "legalize": "fixed-point multiply, round, shift"}),
    ("tir.q_multiply_shift_per_axis", 7, _P, _V),
    ("tir.isnullptr", 1, _P, {}),
    ("tir.isnan", 1, _P, _m(legalize="x != x")),
    ("tir.popcount", 1, _P, _m("llvm.ctpop", vec=True)),
    ("tir.fma", 3, _P, _m("llvm.fmuladd", "fma", vec=True)),
    ("tir.clz", 1, _P, _m("llvm.ctlz")),
    ("tir.call_extern", -1, _OP, _FIRST),
    ("tir.call_pure_extern", -1, _P, _FIRST),
    ("tir.call_llvm_intrin", -1, _OP, _FIRST),
    ("tir.call_llvm_pure_intrin", -1, _P, {**_FIRST, **_V}),
    ("tir.call_spirv_pure_glsl450", -1, _P, {}),
    ("tir.prefetch", -1, _OP, {"llvm_intrin": "llvm.prefetch"}),
    ("tir.tvm_access_ptr", 5, _SCA, {}),
    ("tir.tvm_static_handle", 0, _SCA, {}),
    ("tir.tvm_context_id", 0, _RS, {}),
    ("tir.tvm_tuple", -1, _EMB, {}),
    ("tir.tvm_struct_get", 3, _RS, {"TScriptDtypePrintLocation": "last"}),
    ("tir.tvm_struct_set", 4, _US, {}),
    ("tir.lookup_param", 1, _US, {}),
    ("tir.tvm_throw_last_error", 0, _OP, {}),
    ("tir.tvm_stack_alloca", 2, _OP, {}),
    ("tir.tvm_stack_make_shape", -1, _OP, {}),
    ("tir.tvm_stack_make_array", 6, _OP, {}),
    ("tir.tvm_call_packed", -1, _OP, {"TScriptPrinterName": "call_packed"}),
    ("tir.tvm_call_cpacked", -1, _OP, {"TScriptPrinterName": "call_cpacked"}),
    ("tir.tvm_call_trace_packed", -1, _OP, {}),
    ("tir.tvm_check_return", 3, _P, {}),
    ("tir.tvm_thread_context", 1, _OP, {}),
    ("tir.tvm_thread_invariant", 1, _P, {}),
    ("tir.tvm_call_packed_lowered", -1, _OP, {"TScriptPrinterName": "call_packed_lowered"}),
    ("tir.tvm_call_cpacked_lowered", -1, _OP, {"TScriptPrinterName": "call_cpacked_lowered"}),
    ("tir.tvm_call_trace_packed_lowered", -1, _OP, {}),
    ("tir.tvm_storage_sync", -1, _OP, {}),
    ("tir.tvm_warp_shuffle", -1, _OP, {}),
    ("tir.tvm_warp_shuffle_up", -1, _OP, {}),
    ("tir.tvm_warp_shuffle_down", -1, _OP, {}),
    ("tir.tvm_warp_activemask", -1, _OP, {}),
    ("tir.tvm_global_barrier_kinit", -1, _OP, {}),
    ("tir.tvm_thread_allreduce", -1, _OP, {}),
    ("tir.tvm_load_matrix_sync", -1, _RS, {}),
    ("tir.tvm_mma_sync", -1, _OP, {}),
    ("tir.tvm_bmma_sync", -1, _OP, {}),
    ("tir.tvm_fill_fragment", -1, _OP, {}),
    ("tir.tvm_store_matrix_sync", -1, _OP, {}),
    ("tir.ptx_mma", -1, _OP, _FIRST),
    ("tir.ptx_ldg32", 4, _P, {}),
    ("tir.ptx_mma_sp", -1, _OP, _FIRST),
    ("tir.ptx_ldmatrix", -1, _OP, _FIRST),
    ("tir.ptx_cp_async", -1, _OP, _FIRST),
    ("tir.ptx_cp_async_bulk", -1, _OP, _FIRST),
    ("tir.ptx_commit_group", -1, _OP, {}),
    ("tir.ptx_wait_group", -1, _OP, {}),
    ("tir.ptx_cp_async_barrier", -1, _OP, {}),
    ("tir.ptx_init_barrier_thread_count", -1, _OP, {}),
    ("tir.ptx_arrive_barrier", -1, _OP, {}),
    ("tir.ptx_arrive_barrier_expect_tx", -1, _OP, {}),
    ("tir.ptx_wait_barrier", -1, _OP, {}),
    ("tir.create_barriers", -1, _OP, {}),
    ("tir.mma_store", -1, _OP, _FIRST),
    ("tir.mma_fill", -1, _OP, _FIRST),
    ("tir.make_filled_simdgroup_matrix", -1, _OP, {}),
    ("tir.simdgroup_load", -1, _OP, {}),
    ("tir.simdgroup_store", -1, _OP, {}),
    ("tir.simdgroup_multiply_accumulate", -1, _OP, {}),
    ("tir.vectorhigh", -1, _P, _FIRST),
    ("tir.vectorlow", -1, _P, _FIRST),
    ("tir.vectorcombine", -1, _P, _FIRST),
    ("tir.dp4a", -1, _P, _FIRST),
    ("tir.atomic_add", -1, _OP, {}),
    ("tir.nd_mem_alloc_with_scope", -1, _OP, {}),
    ("tir.texture2d_store", -1, _OP, _V),
    ("tir.texture2d_load", -1, _OP, _V),
    ("tir.dma_copy", -1, _OP, {}),
    ("tir.dma_wait", -1, _OP, {}),
    ("tir.dma_start_group", -1, _OP, {}),
    ("tir.dma_end_group", -1, _OP, {}),
    ("tir.assume", 1, _EMB, {}),
    ("tir.undef", 0, _RS, {}),
    ("tir.type_annotation", -1, _P, _FIRST),
    ("tir.start_profile_intrinsic", -1, _P, {}),
    ("tir.end_profile_intrinsic", -1, _P, {}),
    ("tir.anylist_getitem", -1, _RS, {}),
    ("tir.anylist_resetitem", -1, _US, {"TGlobalSymbol": "TVMBackendAnyListResetItem"}),
    ("tir.anylist_setitem_call_packed", -1, _US, {}),
    ("tir.anylist_setitem_call_cpacked", -1, _US, {}),
    ("tir.vscale", -1, _P, {}),
    ("tir.get_active_lane_mask", 2, _P, _FIRST),
    ("tir.ignore_loop_partition", 1, _P, {}),
    # ------------------------------------------- target intrinsics (intrin_rule_cuda/metal.cc)
    ("tir.cuda.__shfl_sync", 4, _OP, {"TGlobalSymbol": "__shfl_sync"}),
    ("tir.cuda.__shfl_up_sync", 4, _OP, {"TGlobalSymbol": "__shfl_up_sync"}),
    ("tir.cuda.__shfl_down_sync", 4, _OP, {"TGlobalSymbol": "__shfl_down_sync"}),
    ("tir.cuda.__activemask", 0, _P, {"TGlobalSymbol": "__activemask"}),
    ("tir.metal.simd_shuffle", 2, _OP, {"TGlobalSymbol": "simd_shuffle"}),
    ("tir.metal.simd_shuffle_up", 2, _OP, {"TGlobalSymbol": "simd_shuffle_up"}),
    ("tir.metal.simd_shuffle_down", 2, _OP, {"TGlobalSymbol": "simd_shuffle_down"}),
)


def _register_all() -> None:
    for name, num_inputs, effect, attrs in BUILTIN_OPS:
        full = dict(attrs)
        if "TScriptPrinterName" not in full:
            full["TScriptPrinterName"] = name[len("tir."):]
        elif full["TScriptPrinterName"] is None:
            del full["TScriptPrinterName"]
        register_op(name, num_inputs, effect, doc=f"TVM builtin {name}", **full)


_register_all()


def builtin_op_names() -> list[str]:
    """Names of the ops of :data:`BUILTIN_OPS`, in table order (the ``tir.*`` part of TVM's
    ``tvm.ir.Op.list_op_names()``)."""
    return [row[0] for row in BUILTIN_OPS]


def script_name(op: Op | str) -> str:
    """The ``T.`` spelling of an op: its ``TScriptPrinterName`` (as TVM's TVMScript printer reads
    it), else its name without ``tir.``.

    Raises:
        KeyError: for an unregistered op name.
    """
    op = Op.get(op) if isinstance(op, str) else op
    name = op.attrs.get("TScriptPrinterName")
    return name if name else op.name.split(".", 1)[-1]


def libm_symbol(op: Op | str, dtype: str | DataType) -> str | None:
    """The C math symbol TVM's default lowering calls for ``op`` on ``dtype`` elements.

    Mirrors ``DispatchPureExtern<FloatSuffix>``: ``"expf"`` for float32 (and float16/bfloat16,
    which are computed in float32), ``"exp"`` for float64; ``None`` when the op has no ``libm``
    attribute or the dtype is not floating point.

    Raises:
        KeyError: for an unregistered op name.
    """
    op = Op.get(op) if isinstance(op, str) else op
    base = op.attrs.get("libm")
    t = _dtype(dtype)
    if base is None or not t.is_floating():
        return None
    return base if t.bits == 64 else base + "f"
