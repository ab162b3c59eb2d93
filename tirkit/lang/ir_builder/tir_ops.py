"""The op functions of the ``T`` namespace with TVM's calling conventions (mirrors the
``_op_wrapper`` / ``_dtype_forward`` tables of ``tvm.script.ir_builder.tir.ir`` in TVM v0.20).

TVM's printer writes most calls with a ``dtype=`` keyword (``T.exp(x, dtype="float32")``,
``T.if_then_else(c, a, b, dtype="int32")``, ``T.ret(v, dtype=...)``): the ``T`` functions in
:data:`OP_WRAPPED` accept and ignore it (the op's own rule gives the result dtype, as in TVM).
The functions in :data:`DTYPE_FORWARD` take the result dtype first; a ``dtype=`` keyword is put
in front of the positional arguments, so ``T.call_extern("float32", "f", x)`` and
``T.call_extern("f", x, dtype="float32")`` build the same call.

The stubs (:mod:`tirkit.stubgen`) read the signatures set here, so every spelling the parser
accepts type-checks.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

from tirkit import tir as _tir
from tirkit.tir import op_intrin as _intrin
from tirkit.tir import op_math as _math

#: TVM v0.20's ``_op_wrapper`` list: a ``dtype=`` keyword is accepted and dropped
OP_WRAPPED = (
    "abs", "acos", "acosh", "address_of", "asin", "asinh", "atan", "atan2", "atanh",
    "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "ceil", "clz", "copysign", "cos",
    "cosh", "erf", "exp", "exp2", "exp10", "floor", "floordiv", "floormod", "fmod",
    "hypot", "if_then_else", "infinity", "isfinite", "isinf", "isnan", "isnullptr", "ldexp",
    "likely", "log", "log1p", "log2", "log10", "lookup_param", "max_value", "min_value",
    "nearbyint", "nextafter", "popcount", "pow", "q_multiply_shift", "q_multiply_shift_per_axis",
    "ret", "round", "rsqrt", "shift_left", "shift_right", "sigmoid", "sin", "sinh", "sqrt", "tan",
    "tanh", "trunc", "truncdiv", "truncmod", "tvm_access_ptr", "tvm_throw_last_error",
    "tvm_stack_alloca", "tvm_stack_make_shape", "tvm_stack_make_array", "tvm_check_return",
    "call_packed", "call_cpacked", "call_packed_lowered", "call_cpacked_lowered", "tvm_tuple",
    "tvm_struct_set", "tvm_thread_invariant", "tvm_thread_allreduce", "tvm_load_matrix_sync",
    "tvm_mma_sync", "tvm_bmma_sync", "tvm_fill_fragment", "tvm_store_matrix_sync",
    "ptx_wait_group", "ptx_commit_group", "ptx_cp_async_barrier",
    "ptx_init_barrier_thread_count", "ptx_arrive_barrier", "ptx_arrive_barrier_expect_tx",
    "ptx_wait_barrier", "make_filled_simdgroup_matrix", "simdgroup_load", "simdgroup_store",
    "simdgroup_multiply_accumulate", "create_barriers", "assume", "undef",
    "TVMBackendAllocWorkspace", "TVMBackendFreeWorkspace", "start_profile_intrinsic",
    "end_profile_intrinsic", "anylist_getitem", "anylist_resetitem",
    "anylist_setitem_call_packed", "anylist_setitem_call_cpacked", "vscale",
    "ignore_loop_partition", "tvm_storage_sync", "tvm_warp_shuffle", "tvm_warp_shuffle_up",
    "tvm_warp_shuffle_down", "tvm_warp_activemask", "tvm_struct_get",
)
#: TVM v0.20's ``_dtype_forward`` list: ``dtype=`` becomes the first positional argument
DTYPE_FORWARD = (
    "reinterpret", "call_extern", "call_intrin", "call_llvm_intrin", "call_llvm_pure_intrin",
    "call_pure_extern", "ptx_mma", "ptx_mma_sp", "ptx_ldmatrix", "ptx_cp_async",
    "ptx_cp_async_bulk", "mma_store", "mma_fill", "vectorlow", "vectorhigh", "vectorcombine",
    "get_active_lane_mask", "dp4a",
)

_DTYPE_PARAM = inspect.Parameter("dtype", inspect.Parameter.KEYWORD_ONLY, default=None,
                                 annotation="DataType | None")


def _source(name: str) -> Callable[..., Any]:
    for module in (_intrin, _math, _tir):
        fn = getattr(module, name, None)
        if fn is not None:
            return fn
    raise AttributeError(name)


def op_wrapper(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` accepting (and ignoring) a ``dtype=`` keyword, as TVM's ``_op_wrapper``; a
    function that has a ``dtype`` parameter of its own is returned unchanged."""
    sig = inspect.signature(func)
    if "dtype" in sig.parameters:
        return func

    def wrapped(*args: Any, dtype: Any = None, **kwargs: Any) -> Any:
        del dtype
        return func(*args, **kwargs)

    params = list(sig.parameters.values())
    fixed = _fixed_argnames(func)
    if fixed is not None:  # ``op_intrin._fixed``: ``*args`` checked against a known list
        params = [inspect.Parameter(a, inspect.Parameter.POSITIONAL_ONLY, annotation="Any")
                  for a in fixed] + [p for p in params if p.kind is p.KEYWORD_ONLY]
    at = next((i for i, p in enumerate(params) if p.kind is p.VAR_KEYWORD), len(params))
    params.insert(at, _DTYPE_PARAM)
    _copy_meta(wrapped, func, sig.replace(parameters=params))
    return wrapped


def _fixed_argnames(func: Callable[..., Any]) -> tuple[str, ...] | None:
    try:
        names = inspect.getclosurevars(func).nonlocals.get("argnames")
    except (TypeError, ValueError):
        return None
    return names if isinstance(names, tuple) else None


def dtype_forward(func: Callable[..., Any]) -> Callable[..., Any]:
    """``func(dtype, ...)`` also callable as ``func(..., dtype=...)``, as TVM's
    ``_dtype_forward``."""
    sig = inspect.signature(func)

    def wrapped(*args: Any, dtype: Any = None, **kwargs: Any) -> Any:
        if dtype is not None:
            args = (dtype, *args)
        return func(*args, **kwargs)

    params = [inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL, annotation="Any"),
              _DTYPE_PARAM]
    if "span" in sig.parameters:
        params.append(inspect.Parameter("span", inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation="Any"))
    _copy_meta(wrapped, func, sig.replace(parameters=params))
    return wrapped


def _copy_meta(wrapped: Any, func: Any, sig: inspect.Signature) -> None:
    wrapped.__name__ = wrapped.__qualname__ = func.__name__
    wrapped.__doc__ = func.__doc__
    wrapped.__module__ = __name__
    wrapped.__signature__ = sig


abs = op_wrapper(_source("abs"))  # pylint: disable=redefined-builtin
acos = op_wrapper(_source("acos"))
acosh = op_wrapper(_source("acosh"))
address_of = op_wrapper(_source("address_of"))
asin = op_wrapper(_source("asin"))
asinh = op_wrapper(_source("asinh"))
atan = op_wrapper(_source("atan"))
atan2 = op_wrapper(_source("atan2"))
atanh = op_wrapper(_source("atanh"))
bitwise_and = op_wrapper(_source("bitwise_and"))
bitwise_not = op_wrapper(_source("bitwise_not"))
bitwise_or = op_wrapper(_source("bitwise_or"))
bitwise_xor = op_wrapper(_source("bitwise_xor"))
ceil = op_wrapper(_source("ceil"))
clz = op_wrapper(_source("clz"))
copysign = op_wrapper(_source("copysign"))
cos = op_wrapper(_source("cos"))
cosh = op_wrapper(_source("cosh"))
erf = op_wrapper(_source("erf"))
exp = op_wrapper(_source("exp"))
exp2 = op_wrapper(_source("exp2"))
exp10 = op_wrapper(_source("exp10"))
floor = op_wrapper(_source("floor"))
floordiv = op_wrapper(_source("floordiv"))
floormod = op_wrapper(_source("floormod"))
fmod = op_wrapper(_source("fmod"))
hypot = op_wrapper(_source("hypot"))
if_then_else = op_wrapper(_source("if_then_else"))
infinity = op_wrapper(_source("infinity"))
isfinite = op_wrapper(_source("isfinite"))
isinf = op_wrapper(_source("isinf"))
isnan = op_wrapper(_source("isnan"))
isnullptr = op_wrapper(_source("isnullptr"))
ldexp = op_wrapper(_source("ldexp"))
likely = op_wrapper(_source("likely"))
log = op_wrapper(_source("log"))
log1p = op_wrapper(_source("log1p"))
log2 = op_wrapper(_source("log2"))
log10 = op_wrapper(_source("log10"))
lookup_param = op_wrapper(_source("lookup_param"))
max_value = op_wrapper(_source("max_value"))
min_value = op_wrapper(_source("min_value"))
nearbyint = op_wrapper(_source("nearbyint"))
nextafter = op_wrapper(_source("nextafter"))
popcount = op_wrapper(_source("popcount"))
pow = op_wrapper(_source("pow"))  # pylint: disable=redefined-builtin
q_multiply_shift = op_wrapper(_source("q_multiply_shift"))
q_multiply_shift_per_axis = op_wrapper(_source("q_multiply_shift_per_axis"))
ret = op_wrapper(_source("ret"))
round = op_wrapper(_source("round"))  # pylint: disable=redefined-builtin
rsqrt = op_wrapper(_source("rsqrt"))
shift_left = op_wrapper(_source("shift_left"))
shift_right = op_wrapper(_source("shift_right"))
sigmoid = op_wrapper(_source("sigmoid"))
sin = op_wrapper(_source("sin"))
sinh = op_wrapper(_source("sinh"))
sqrt = op_wrapper(_source("sqrt"))
tan = op_wrapper(_source("tan"))
tanh = op_wrapper(_source("tanh"))
trunc = op_wrapper(_source("trunc"))
truncdiv = op_wrapper(_source("truncdiv"))
truncmod = op_wrapper(_source("truncmod"))
tvm_access_ptr = op_wrapper(_source("tvm_access_ptr"))
tvm_throw_last_error = op_wrapper(_source("tvm_throw_last_error"))
tvm_stack_alloca = op_wrapper(_source("tvm_stack_alloca"))
tvm_stack_make_shape = op_wrapper(_source("tvm_stack_make_shape"))
tvm_stack_make_array = op_wrapper(_source("tvm_stack_make_array"))
tvm_check_return = op_wrapper(_source("tvm_check_return"))
call_packed = op_wrapper(_source("call_packed"))
call_cpacked = op_wrapper(_source("call_cpacked"))
call_packed_lowered = op_wrapper(_source("call_packed_lowered"))
call_cpacked_lowered = op_wrapper(_source("call_cpacked_lowered"))
tvm_tuple = op_wrapper(_source("tvm_tuple"))
tvm_struct_set = op_wrapper(_source("tvm_struct_set"))
tvm_struct_get = op_wrapper(_source("tvm_struct_get"))
tvm_thread_invariant = op_wrapper(_source("tvm_thread_invariant"))
tvm_thread_allreduce = op_wrapper(_source("tvm_thread_allreduce"))
tvm_load_matrix_sync = op_wrapper(_source("tvm_load_matrix_sync"))
tvm_mma_sync = op_wrapper(_source("tvm_mma_sync"))
tvm_bmma_sync = op_wrapper(_source("tvm_bmma_sync"))
tvm_fill_fragment = op_wrapper(_source("tvm_fill_fragment"))
tvm_store_matrix_sync = op_wrapper(_source("tvm_store_matrix_sync"))
tvm_storage_sync = op_wrapper(_source("tvm_storage_sync"))
tvm_warp_shuffle = op_wrapper(_source("tvm_warp_shuffle"))
tvm_warp_shuffle_up = op_wrapper(_source("tvm_warp_shuffle_up"))
tvm_warp_shuffle_down = op_wrapper(_source("tvm_warp_shuffle_down"))
tvm_warp_activemask = op_wrapper(_source("tvm_warp_activemask"))
ptx_wait_group = op_wrapper(_source("ptx_wait_group"))
ptx_commit_group = op_wrapper(_source("ptx_commit_group"))
ptx_cp_async_barrier = op_wrapper(_source("ptx_cp_async_barrier"))
ptx_init_barrier_thread_count = op_wrapper(_source("ptx_init_barrier_thread_count"))
ptx_arrive_barrier = op_wrapper(_source("ptx_arrive_barrier"))
ptx_arrive_barrier_expect_tx = op_wrapper(_source("ptx_arrive_barrier_expect_tx"))
ptx_wait_barrier = op_wrapper(_source("ptx_wait_barrier"))
make_filled_simdgroup_matrix = op_wrapper(_source("make_filled_simdgroup_matrix"))
simdgroup_load = op_wrapper(_source("simdgroup_load"))
simdgroup_store = op_wrapper(_source("simdgroup_store"))
simdgroup_multiply_accumulate = op_wrapper(_source("simdgroup_multiply_accumulate"))
create_barriers = op_wrapper(_source("create_barriers"))
assume = op_wrapper(_source("assume"))
undef = op_wrapper(_source("undef"))
TVMBackendAllocWorkspace = op_wrapper(_source("TVMBackendAllocWorkspace"))
TVMBackendFreeWorkspace = op_wrapper(_source("TVMBackendFreeWorkspace"))
start_profile_intrinsic = op_wrapper(_source("start_profile_intrinsic"))
end_profile_intrinsic = op_wrapper(_source("end_profile_intrinsic"))
anylist_getitem = op_wrapper(_source("anylist_getitem"))
anylist_resetitem = op_wrapper(_source("anylist_resetitem"))
anylist_setitem_call_packed = op_wrapper(_source("anylist_setitem_call_packed"))
anylist_setitem_call_cpacked = op_wrapper(_source("anylist_setitem_call_cpacked"))
vscale = op_wrapper(_source("vscale"))
ignore_loop_partition = op_wrapper(_source("ignore_loop_partition"))

reinterpret = dtype_forward(_source("reinterpret"))
call_extern = dtype_forward(_source("call_extern"))
call_intrin = dtype_forward(_source("call_intrin"))
call_llvm_intrin = dtype_forward(_source("call_llvm_intrin"))
call_llvm_pure_intrin = dtype_forward(_source("call_llvm_pure_intrin"))
call_pure_extern = dtype_forward(_source("call_pure_extern"))
ptx_mma = dtype_forward(_source("ptx_mma"))
ptx_mma_sp = dtype_forward(_source("ptx_mma_sp"))
ptx_ldmatrix = dtype_forward(_source("ptx_ldmatrix"))
ptx_cp_async = dtype_forward(_source("ptx_cp_async"))
ptx_cp_async_bulk = dtype_forward(_source("ptx_cp_async_bulk"))
mma_store = dtype_forward(_source("mma_store"))
mma_fill = dtype_forward(_source("mma_fill"))
vectorlow = dtype_forward(_source("vectorlow"))
vectorhigh = dtype_forward(_source("vectorhigh"))
vectorcombine = dtype_forward(_source("vectorcombine"))
get_active_lane_mask = dtype_forward(_source("get_active_lane_mask"))
dp4a = dtype_forward(_source("dp4a"))



def llvm_lookup_intrinsic_id(name: str) -> str:
    """``T.llvm_lookup_intrinsic_id("llvm.x86.avx512.pmaddubs.w.512")``, as TVM v0.20's test
    suite writes the first argument of ``T.call_llvm_(pure_)intrin``. TVM asks LLVM for the
    numeric id (it varies across LLVM versions); tirkit keeps intrinsics by name (see
    :func:`tirkit.tir.call_llvm_intrin`), so this returns ``name`` itself.

    Raises:
        ValueError: ``name`` is not a string starting with ``llvm.``.
    """
    if not isinstance(name, str) or not name.startswith("llvm."):
        raise ValueError(f"an LLVM intrinsic name starts with 'llvm.', got {name!r}")
    return name


__all__ = list(OP_WRAPPED) + list(DTYPE_FORWARD) + ["llvm_lookup_intrinsic_id"]
