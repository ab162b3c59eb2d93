"""Call intrinsics and the intrinsics of lowered TIR (mirrors the call part of ``tvm.tir.op`` in
TVM v0.20): ``call_extern``, ``call_intrin``, ``call_packed``, ``tvm_struct_get``,
``tvm_access_ptr``, ``address_of``, stack allocation, warp/tensor-core/PTX intrinsics...

Each function returns a ``Call`` of the op of the same name in :mod:`.builtin`, with TVM's result
dtype. Python strings among the arguments become ``StringImm``; ints int32 constants.
"""
from __future__ import annotations

import sys as _sys
from typing import Any, Callable

from .. import _layers
from ..ir.dtype import DataType, dtype as _dtype
from ..ir.expr import IntImm, PrimExpr
from ..ir.op import Op
from . import builtin as _builtin  # noqa: F401  (registers the ops)
from .buffer import Buffer
from .expr import BufferLoad, Call, StringImm, Var
from .op import const

_layers.provide("tir.op_intrin", _sys.modules[__name__])  # Buffer.access_ptr (tirkit.tir.buffer)

__all__ = [
    "call_intrin", "call_pure_intrin", "call_extern", "call_pure_extern", "call_llvm_intrin",
    "call_llvm_pure_intrin", "call_packed", "call_cpacked", "call_packed_lowered",
    "call_cpacked_lowered", "trace", "tvm_struct_get", "tvm_struct_set", "tvm_access_ptr",
    "type_annotation", "address_of", "ret", "isnullptr", "assume", "undef", "tvm_stack_alloca",
    "tvm_stack_make_shape", "tvm_stack_make_array", "tvm_throw_last_error", "lookup_param",
    "tvm_tuple", "tvm_thread_allreduce", "tvm_thread_invariant", "tvm_storage_sync",
    "tvm_warp_shuffle", "tvm_warp_shuffle_up", "tvm_warp_shuffle_down", "tvm_warp_activemask",
    "tvm_global_barrier_kinit", "tvm_load_matrix_sync", "tvm_mma_sync", "tvm_bmma_sync",
    "tvm_fill_fragment", "tvm_store_matrix_sync", "tvm_check_return", "vectorlow", "vectorhigh",
    "vectorcombine", "dp4a", "start_profile_intrinsic", "end_profile_intrinsic",
    "anylist_getitem", "anylist_resetitem", "anylist_setitem_call_packed",
    "anylist_setitem_call_cpacked", "vscale", "get_active_lane_mask", "ignore_loop_partition",
    "TVMBackendAllocWorkspace", "TVMBackendFreeWorkspace", "ptx_mma", "ptx_mma_sp",
    "ptx_ldmatrix", "ptx_cp_async", "ptx_cp_async_bulk", "ptx_commit_group", "ptx_wait_group",
    "ptx_cp_async_barrier", "ptx_init_barrier_thread_count", "ptx_arrive_barrier",
    "ptx_arrive_barrier_expect_tx", "ptx_wait_barrier", "create_barriers", "mma_store",
    "mma_fill", "make_filled_simdgroup_matrix", "simdgroup_load", "simdgroup_store",
    "simdgroup_multiply_accumulate",
]


# ------------------------------------------------------------------------------ generic calls
def call_intrin(dtype: str | DataType, func_name: str | Op, *args: Any,
                span: Any = None) -> PrimExpr:
    """Call the registered op ``func_name`` (``"tir.exp"`` or an ``Op``) with result ``dtype``
    (mirrors ``tvm.tir.call_intrin``).

    Raises:
        KeyError: for an unregistered op name (the message suggests close names);
        TypeError: when the number of arguments is not the op's ``num_inputs``.
    """
    return Call(dtype, func_name, args, span=span)


call_pure_intrin = call_intrin  # TVM's older name; purity comes from the op's effect kind


def call_extern(dtype: str | DataType, func_name: str, *args: Any, span: Any = None) -> PrimExpr:
    """Call the external C function ``func_name`` (mirrors ``tvm.tir.call_extern``): a
    ``tir.call_extern`` call (opaque effect) whose first argument is ``StringImm(func_name)``."""
    return Call(dtype, "tir.call_extern", (func_name, *args), span=span)


def call_pure_extern(dtype: str | DataType, func_name: str, *args: Any,
                     span: Any = None) -> PrimExpr:
    """Call a side-effect-free external function (mirrors ``tvm.tir.call_pure_extern``): like
    :func:`call_extern` but a pure ``tir.call_pure_extern`` call."""
    return Call(dtype, "tir.call_pure_extern", (func_name, *args), span=span)


def _llvm_name(name: Any) -> PrimExpr:
    if isinstance(name, str):
        if not name.startswith("llvm."):
            raise ValueError(f"Unknown llvm intrinsic function {name}")
        return StringImm(name)
    if isinstance(name, IntImm):
        name = name.value
    if isinstance(name, int) and name > 0:
        return const(name, "uint32")
    raise ValueError(f"Unknown llvm intrinsic function {name}")


def call_llvm_intrin(dtype: str | DataType, name: str | int, *args: Any,
                     span: Any = None) -> PrimExpr:
    """Call an LLVM intrinsic (mirrors ``tvm.tir.call_llvm_intrin``): a ``tir.call_llvm_intrin``
    call whose first argument names the intrinsic.

    Unlike TVM, which stores LLVM's numeric intrinsic id (it varies across LLVM versions), the
    name is kept as a ``StringImm`` (``"llvm.fabs"``); an int / ``IntImm`` id is kept as a uint32
    constant.

    Raises:
        ValueError: for a name that does not start with ``llvm.`` or an id <= 0.
    """
    return Call(dtype, "tir.call_llvm_intrin", (_llvm_name(name), *args), span=span)


def call_llvm_pure_intrin(dtype: str | DataType, name: str | int, *args: Any,
                          span: Any = None) -> PrimExpr:
    """Pure variant of :func:`call_llvm_intrin` (``tvm.tir.call_llvm_pure_intrin``).

    Raises:
        ValueError: for a name that does not start with ``llvm.`` or an id <= 0.
    """
    return Call(dtype, "tir.call_llvm_pure_intrin", (_llvm_name(name), *args), span=span)


# ----------------------------------------------------------------------------- packed calls
def _pack_buffer(buf: Buffer, span: Any = None) -> PrimExpr:
    """A ``tvm_stack_make_array`` describing ``buf`` (TVM's ``_pack_buffer``)."""
    shape = Call("handle", "tir.tvm_stack_make_shape", buf.shape, span=span)
    strides = (Call("handle", "tir.tvm_stack_make_shape", buf.strides, span=span)
               if buf.strides else 0)
    args = (buf.data, shape, strides, len(buf.shape), const(0, buf.dtype), buf.elem_offset)
    return Call("handle", "tir.tvm_stack_make_array", args, span=span)


def _packed(op_name: str, args: tuple[Any, ...], span: Any) -> PrimExpr:
    call_args = tuple(_pack_buffer(a) if isinstance(a, Buffer) else a for a in args)
    return Call("int32", op_name, call_args, span=span)


def call_packed(*args: Any, span: Any = None) -> PrimExpr:
    """Call a packed function by name (mirrors ``tvm.tir.call_packed``): an int32
    ``tir.tvm_call_packed`` call; ``Buffer`` arguments are passed as ``tvm_stack_make_array``
    DLTensor descriptions."""
    return _packed("tir.tvm_call_packed", args, span)


def call_cpacked(*args: Any, span: Any = None) -> PrimExpr:
    """Call a C packed function (mirrors ``tvm.tir.call_cpacked``): as :func:`call_packed`, the
    first argument the function name and the last the resource handle."""
    return _packed("tir.tvm_call_cpacked", args, span)


def call_packed_lowered(*args: Any, span: Any = None) -> PrimExpr:
    """Lowered :func:`call_packed` (``tvm.tir.call_packed_lowered``): a
    ``tir.tvm_call_packed_lowered`` call."""
    return _packed("tir.tvm_call_packed_lowered", args, span)


def call_cpacked_lowered(*args: Any, span: Any = None) -> PrimExpr:
    """Lowered :func:`call_cpacked` (``tvm.tir.call_cpacked_lowered``)."""
    return _packed("tir.tvm_call_cpacked_lowered", args, span)


def trace(args: list[Any], trace_action: str = "tvm.default_trace_action") -> PrimExpr:
    """Trace values at run time (mirrors ``tvm.tir.trace``): a ``tir.tvm_call_trace_packed`` call
    of ``trace_action`` and ``args`` with the dtype of the last argument.

    Raises:
        TypeError: when ``args`` is not a list.
    """
    if not isinstance(args, list):
        raise TypeError("tvm.tir.trace consumes the args as list type")
    call_args = [_pack_buffer(a) if isinstance(a, Buffer) else a for a in args]
    return Call(args[-1].dtype, "tir.tvm_call_trace_packed", (trace_action, *call_args))


# ----------------------------------------------------------------------- structs and pointers
def tvm_struct_get(arr: Any, index: Any, field: Any, dtype: str | DataType) -> PrimExpr:
    """Read field ``field`` of struct ``arr[index]`` (mirrors ``tvm.tir.tvm_struct_get``): a
    ``tir.tvm_struct_get`` call of ``dtype`` (``field`` is a ``builtin::TVMStructFieldKind``)."""
    return Call(dtype, "tir.tvm_struct_get", (arr, index, field))


def tvm_struct_set(arr: Any, index: Any, field: Any, value: Any) -> PrimExpr:
    """Write ``value`` to field ``field`` of ``arr[index]`` (``tvm.tir.tvm_struct_set``; int32)."""
    return Call("int32", "tir.tvm_struct_set", (arr, index, field, value))


def type_annotation(dtype: str | DataType) -> PrimExpr:
    """A no-argument call whose dtype carries ``dtype`` (mirrors ``tvm.tir.type_annotation``)."""
    return Call(dtype, "tir.type_annotation", ())


def tvm_access_ptr(ptype: Any, data: Any, offset: Any, extent: Any, rw_mask: Any) -> PrimExpr:
    """Pointer to ``data[offset:offset+extent]`` with access mask ``rw_mask`` (1 read, 2 write)
    (mirrors ``tvm.tir.tvm_access_ptr``); a dtype string ``ptype`` becomes a
    :func:`type_annotation`. Result dtype ``handle``."""
    if isinstance(ptype, (str, DataType)):
        ptype = type_annotation(ptype)
    return Call("handle", "tir.tvm_access_ptr", (ptype, data, offset, extent, rw_mask))


def address_of(obj: Buffer | BufferLoad | Var, span: Any = None) -> PrimExpr:
    """Address of a buffer element or of a scalar variable (mirrors ``tvm.tir.address_of``;
    a scalar ``Var`` as TVM 0.27's ``tvm.tirx.address_of`` takes it): a ``handle`` call of
    ``tir.address_of`` on the ``BufferLoad`` (a ``Buffer`` means its element ``[0, ..., 0]``)
    or the var.

    Raises:
        ValueError: for anything but a ``Buffer``, ``BufferLoad`` or ``Var``; TypeError: for a
        ``Var`` that is not a scalar (a pointer), with TVM 0.27's message.
    """
    if isinstance(obj, Buffer):
        obj = BufferLoad(obj, [0] * len(obj.shape))
    if isinstance(obj, Var):
        if obj.dtype.is_handle():
            raise TypeError(f"address_of expects a scalar or TensorMap Var, but got "
                            f"{obj.type_annotation}")
        return Call("handle", "tir.address_of", (obj,), span=span)
    if not isinstance(obj, BufferLoad):
        raise ValueError(f"address_of: invalid object type {type(obj).__name__}, "
                         "expected a Buffer or BufferLoad")
    return Call("handle", "tir.address_of", (obj,), span=span)


def isnullptr(x: Any, span: Any = None) -> PrimExpr:
    """Whether handle ``x`` is null (mirrors ``tvm.tir.isnullptr``): a bool call."""
    return Call("bool", "tir.isnullptr", (x,), span=span)


def ret(val: Any, span: Any = None) -> PrimExpr:
    """Return ``val`` from the function (mirrors ``tvm.tir.ret``): a ``tir.ret`` call of ``val``'s
    dtype (effect: control jump)."""
    from .op import convert  # pylint: disable=import-outside-toplevel

    val = convert(val)
    return Call(val.dtype, "tir.ret", (val,), span=span)


def assume(cond: Any = None) -> PrimExpr:
    """State ``cond`` as true for the simplifier (mirrors ``tvm.tir.assume``): a bool call.

    Raises:
        TypeError: when ``cond`` is missing.
    """
    if cond is None:
        raise TypeError("assume: a condition is required")
    return Call("bool", "tir.assume", (cond,))


def undef() -> PrimExpr:
    """An arbitrary initialized value (mirrors ``tvm.tir.undef``): an int32 call."""
    return Call("int32", "tir.undef", ())


# ----------------------------------------------------------------- simple intrinsic factories
def _fixed(op: str, dtype: str, doc: str, argnames: tuple[str, ...] | None = None
           ) -> Callable[..., PrimExpr]:
    """A function ``f(*args)`` returning ``Call(dtype, "tir.<op>", args)``."""
    def fn(*args: Any, span: Any = None) -> PrimExpr:
        if argnames is not None and len(args) != len(argnames):
            raise TypeError(f"{op}() takes {len(argnames)} argument(s) "
                            f"({', '.join(argnames)}), got {len(args)}")
        return Call(dtype, f"tir.{op}", args, span=span)

    fn.__name__ = fn.__qualname__ = op
    sig = f"({', '.join(argnames)})" if argnames is not None else "(*args)"
    fn.__doc__ = (f"``{op}{sig}`` (mirrors ``tvm.tir.{op}``): {doc} A ``tir.{op}`` call of "
                  f"dtype ``{dtype}``.")
    return fn


def _dtype_first(op: str, doc: str) -> Callable[..., PrimExpr]:
    """A function ``f(dtype, *args)`` returning ``Call(dtype, "tir.<op>", args)``."""
    def fn(dtype: str | DataType, *args: Any, span: Any = None) -> PrimExpr:
        return Call(dtype, f"tir.{op}", args, span=span)

    fn.__name__ = fn.__qualname__ = op
    fn.__doc__ = (f"``{op}(dtype, *args)`` (mirrors ``tvm.tir.{op}``): {doc} A ``tir.{op}`` call "
                  "of ``dtype``.")
    return fn


tvm_stack_alloca = _fixed("tvm_stack_alloca", "handle",
                          "``num`` stack slots of kind ``dtype_str`` (``shape``, ``arg_value``).",
                          ("dtype_str", "num"))
tvm_stack_make_shape = _fixed("tvm_stack_make_shape", "handle", "A shape tuple on the stack.")
tvm_stack_make_array = _fixed("tvm_stack_make_array", "handle", "A DLTensor on the stack.",
                              ("data", "shape", "strides", "ndim", "arr_dtype", "elem_offset"))
tvm_throw_last_error = _fixed("tvm_throw_last_error", "handle", "Return the last error.", ())
lookup_param = _fixed("lookup_param", "handle", "The linked parameter named ``param_name``.",
                      ("param_name",))
tvm_tuple = _fixed("tvm_tuple", "handle", "A tuple in the value of an ``AttrStmt``.")
tvm_thread_allreduce = _fixed("tvm_thread_allreduce", "handle", "All-reduce inside a block.")
tvm_storage_sync = _fixed("tvm_storage_sync", "handle", "Synchronize ``storage_scope``.")
tvm_warp_activemask = _fixed("tvm_warp_activemask", "uint32", "Active lanes of the warp.", ())
tvm_global_barrier_kinit = _fixed("tvm_global_barrier_kinit", "handle", "Init the global barrier.",
                                  ())
tvm_load_matrix_sync = _fixed("tvm_load_matrix_sync", "handle", "Load a wmma fragment.",
                              ("fragment", "m", "n", "k", "index", "buffer_ptr", "stride",
                               "layout"))
tvm_mma_sync = _fixed("tvm_mma_sync", "handle", "wmma ``d = a * b + c``.",
                      ("fragment_d", "index_d", "fragment_a", "index_a", "fragment_b", "index_b",
                       "fragment_c", "index_c"))
tvm_bmma_sync = _fixed("tvm_bmma_sync", "handle", "Binary wmma ``d = a * b + c``.",
                       ("fragment_d", "index_d", "fragment_a", "index_a", "fragment_b", "index_b",
                        "fragment_c", "index_c"))
tvm_fill_fragment = _fixed("tvm_fill_fragment", "handle", "Fill a wmma fragment.",
                           ("fragment", "m", "n", "k", "index", "value"))
tvm_store_matrix_sync = _fixed("tvm_store_matrix_sync", "handle", "Store a wmma fragment.",
                               ("fragment", "m", "n", "k", "index", "buffer_ptr", "stride",
                                "layout"))
tvm_check_return = _fixed("tvm_check_return", "int32", "Check a nested call's return value.",
                          ("expected", "return_unexpected", "nested_call"))
start_profile_intrinsic = _fixed("start_profile_intrinsic", "handle", "Start profiling ``id``.",
                                 ("id",))
end_profile_intrinsic = _fixed("end_profile_intrinsic", "handle", "End profiling ``id``.", ("id",))
anylist_getitem = _fixed("anylist_getitem", "handle", "Item ``index`` of an AnyList.",
                         ("list_handle", "index"))
anylist_resetitem = _fixed("anylist_resetitem", "int32", "Reset item ``index`` of an AnyList.",
                           ("list_handle", "index"))
anylist_setitem_call_packed = _fixed("anylist_setitem_call_packed", "int32",
                                     "Store a packed call's result in an AnyList.")
anylist_setitem_call_cpacked = _fixed("anylist_setitem_call_cpacked", "int32",
                                      "Store a C packed call's result in an AnyList.")
vscale = _fixed("vscale", "int32", "The scalable-vector multiplier.", ())
ignore_loop_partition = _fixed("ignore_loop_partition", "bool",
                               "Keep loop partitioning from splitting on ``predicate``.",
                               ("predicate",))
TVMBackendAllocWorkspace = _fixed("TVMBackendAllocWorkspace", "handle", "Allocate a workspace.",
                                  ("device_type", "device_id", "nbytes", "dtype_code_hint",
                                   "dtype_bits_hint"))
TVMBackendFreeWorkspace = _fixed("TVMBackendFreeWorkspace", "int32", "Free a workspace.",
                                 ("device_type", "device_id", "ptr"))
ptx_commit_group = _fixed("ptx_commit_group", "handle", "cp.async.commit_group.", ())
ptx_wait_group = _fixed("ptx_wait_group", "handle", "cp.async.wait_group.", ("num",))
ptx_cp_async_barrier = _fixed("ptx_cp_async_barrier", "handle", "cp.async.mbarrier.arrive.",
                              ("barrier_id",))
ptx_init_barrier_thread_count = _fixed("ptx_init_barrier_thread_count", "handle",
                                       "mbarrier.init.", ("barrier_id", "thread_count"))
ptx_arrive_barrier = _fixed("ptx_arrive_barrier", "handle", "mbarrier.arrive.", ("barrier_id",))
ptx_arrive_barrier_expect_tx = _fixed("ptx_arrive_barrier_expect_tx", "handle",
                                      "mbarrier.arrive.expect_tx.", ("barrier_id", "byte_count"))
ptx_wait_barrier = _fixed("ptx_wait_barrier", "handle", "mbarrier.try_wait.", ("barrier_id",))
create_barriers = _fixed("create_barriers", "handle", "Create mbarriers.", ("barrier_count",))
make_filled_simdgroup_matrix = _fixed("make_filled_simdgroup_matrix", "handle",
                                      "Fill a Metal simdgroup matrix.")
simdgroup_load = _fixed("simdgroup_load", "handle", "Load a Metal simdgroup matrix.")
simdgroup_store = _fixed("simdgroup_store", "handle", "Store a Metal simdgroup matrix.")
simdgroup_multiply_accumulate = _fixed("simdgroup_multiply_accumulate", "handle",
                                       "Metal simdgroup ``d = a * b + c``.")
ptx_mma = _dtype_first("ptx_mma", "PTX mma.sync.")
ptx_mma_sp = _dtype_first("ptx_mma_sp", "PTX sparse mma.sp.")
ptx_ldmatrix = _dtype_first("ptx_ldmatrix", "PTX ldmatrix.")
ptx_cp_async = _dtype_first("ptx_cp_async", "PTX cp.async.")
ptx_cp_async_bulk = _dtype_first("ptx_cp_async_bulk", "PTX cp.async.bulk.")
mma_store = _dtype_first("mma_store", "Store an mma accumulator.")
mma_fill = _dtype_first("mma_fill", "Zero an mma accumulator.")
get_active_lane_mask = _dtype_first("get_active_lane_mask", "Lane mask for ``base < limit``.")


def tvm_thread_invariant(cond: PrimExpr) -> PrimExpr:
    """Mark ``cond`` as the same on every thread (``tvm.tir.tvm_thread_invariant``)."""
    return Call(cond.dtype, "tir.tvm_thread_invariant", (cond,))


def _shuffle(op: str, mask: Any, value: PrimExpr, lane: Any, width: Any, warp_size: Any
             ) -> PrimExpr:
    return Call(value.dtype, f"tir.{op}", (mask, value, lane, width, warp_size))


def tvm_warp_shuffle(mask: Any, value: PrimExpr, warp_id: Any, width: Any,
                     warp_size: Any) -> PrimExpr:
    """Read ``value`` from lane ``warp_id`` (mirrors ``tvm.tir.tvm_warp_shuffle``); ``value``'s
    dtype."""
    return _shuffle("tvm_warp_shuffle", mask, value, warp_id, width, warp_size)


def tvm_warp_shuffle_up(mask: Any, value: PrimExpr, offset: Any, width: Any,
                        warp_size: Any) -> PrimExpr:
    """Read ``value`` from lane ``self - offset`` (``tvm.tir.tvm_warp_shuffle_up``)."""
    return _shuffle("tvm_warp_shuffle_up", mask, value, offset, width, warp_size)


def tvm_warp_shuffle_down(mask: Any, value: PrimExpr, offset: Any, width: Any,
                          warp_size: Any) -> PrimExpr:
    """Read ``value`` from lane ``self + offset`` (``tvm.tir.tvm_warp_shuffle_down``)."""
    return _shuffle("tvm_warp_shuffle_down", mask, value, offset, width, warp_size)


# ------------------------------------------------------------------------------------ vectors
def vectorlow(dtype: str | DataType, vec: Any) -> PrimExpr:
    """The low half of ``vec`` (mirrors ``tvm.tir.vectorlow``): a call of ``dtype``."""
    return Call(dtype, "tir.vectorlow", (vec,))


def vectorhigh(dtype: str | DataType, vec: Any) -> PrimExpr:
    """The high half of ``vec`` (mirrors ``tvm.tir.vectorhigh``): a call of ``dtype``."""
    return Call(dtype, "tir.vectorhigh", (vec,))


def vectorcombine(dtype: str | DataType, vec1: Any, vec2: Any) -> PrimExpr:
    """Concatenate two vectors (mirrors ``tvm.tir.vectorcombine``): a call of ``dtype``."""
    return Call(dtype, "tir.vectorcombine", (vec1, vec2))


def dp4a(vec1: Any, vec2: Any, acc: Any = 0) -> PrimExpr:
    """Dot product of two int8x4 vectors plus ``acc`` (mirrors ``tvm.tir.dp4a``): int32."""
    return Call("int32", "tir.dp4a", (vec1, vec2, acc))


def _access_mask(access_mask: str | int) -> int:
    if isinstance(access_mask, int):
        return access_mask
    mask = 0
    for ch in access_mask:
        if ch == "r":
            mask |= 1
        elif ch == "w":
            mask |= 2
        else:
            raise ValueError(f"Unknown access_mask {access_mask!r}: use 'r', 'w' or 'rw'")
    return mask


def buffer_access_ptr(buf: Buffer, access_mask: str | int, ptr_type: str = "handle",
                      content_lanes: int = 1, offset: Any = 0, extent: Any = None) -> PrimExpr:
    """``buf.access_ptr(...)``: see :meth:`tirkit.tir.Buffer.access_ptr` (TVM's C++
    ``Buffer::access_ptr``).

    Raises:
        ValueError: for an access mask with letters other than ``r``/``w``.
    """
    from .op import convert, div, subtract  # pylint: disable=import-outside-toplevel

    mask = _access_mask(access_mask)
    offset = convert(offset)
    if not buf.shape:
        ext: PrimExpr = const(1, buf.elem_offset.dtype)
    elif len(buf.strides) == len(buf.shape):
        ext = subtract(buf.strides[0] * buf.shape[0], offset)
    else:
        ext = const(1, "int32")
        for s in buf.shape:
            ext = ext * s
        ext = subtract(ext, offset)
    elem_offset = buf.elem_offset + offset
    if content_lanes > 1:
        ptype = type_annotation(buf.dtype.with_lanes(content_lanes))
        lanes = const(content_lanes, buf.elem_offset.dtype)
        ext = div(ext, lanes)  # C++ operator/: truncating Div on integers
        elem_offset = div(buf.elem_offset, lanes)  # as TVM: ``offset`` is dropped here
    else:
        ptype = type_annotation(buf.dtype)
    if extent is not None:
        ext = convert(extent)
    return Call(_dtype(ptr_type), "tir.tvm_access_ptr",
                (ptype, buf.data, elem_offset, ext, const(mask, "int32")))
