"""Calling compiled packed functions from Python (mirrors ``tvm.runtime.PackedFunc`` and the
argument conversion of ``tvm._ffi``): NumPy arrays and DLPack objects become ``DLTensor`` structs,
Python numbers ``TVMValue``\\ s, and every argument is checked against the function's signature
before the call, so that a wrong argument raises ``ValueError`` instead of reaching the compiled
checks (or worse).

- :func:`dl_dtype` / :func:`make_dltensor`: the DLPack description of a NumPy array (data points at
  the first element, ``byte_offset`` 0, ``strides`` NULL for C-contiguous arrays, else in
  elements); the int64 shape/strides arrays are kept alive with it.
- :class:`FuncSpec`: the params of a function (name, dtype, bound Buffer), read either from the
  PrimFunc before ``MakePackedAPI`` (:meth:`FuncSpec.from_prim_func`) or from the argument
  unpacking that pass generated (:meth:`FuncSpec.from_packed`).
- :class:`PackedFunction`: ``f(*args)`` checks, marshals, calls through ctypes
  (:data:`~tirkit.compiler.runtime.abi.PACKED_FUNC_TYPE`) and turns a nonzero return into
  ``RuntimeError`` with the message the compiled code set (``TVMAPISetLastError``).
"""
from __future__ import annotations

import builtins
import ctypes
import re
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from tirkit.ir.dtype import DataType
from tirkit.ir.expr import IntImm, PrimExpr
from tirkit.tir import Buffer, Call, Cast, DeclBuffer, LetStmt, PrimFunc, Var
from tirkit.tir.stmt_functor import pre_order_visit

from . import abi
from .abi import DLTensor, TVMValue, TypeCode, dl_dtype

__all__ = ["dl_dtype", "make_dltensor", "DLTensorArg", "ArgSpec", "FuncSpec", "PackedFunction",
           "K_TVM_ARG_BOOL"]

#: ``kTVMArgBool``: the type code TVM v0.20 gives a Python bool
K_TVM_ARG_BOOL = 15
_ALIGN = 64  # runtime::kAllocAlignment: the alignment of staged copies


@dataclass
class DLTensorArg:
    """A ``DLTensor`` describing ``array``, with the int64 shape/strides arrays it points to and
    the array itself kept alive as long as this object (and the copy to write back, if the
    array had to be staged through an aligned copy)."""

    array: np.ndarray
    tensor: DLTensor
    shape: Any
    strides: Any
    staged_from: np.ndarray | None = None
    written: bool = True

    def write_back(self) -> None:
        """Copy a staged array back into the caller's array (after the call), unless the
        function does not write it."""
        if self.staged_from is not None and self.written and self.staged_from.flags.writeable:
            np.copyto(self.staged_from, self.array)


def _aligned_copy(arr: np.ndarray) -> np.ndarray:
    raw = np.empty(arr.nbytes + _ALIGN, dtype=np.uint8)
    start = (-raw.ctypes.data) % _ALIGN
    out = raw[start:start + arr.nbytes].view(arr.dtype).reshape(arr.shape)
    np.copyto(out, arr)
    return out


def make_dltensor(arr: np.ndarray, elem_offset: int = 0, align: int = 0) -> DLTensorArg:
    """The DLTensor of a CPU NumPy array (as ``numpy.ndarray.__dlpack__`` describes it).

    ``elem_offset`` (elements) is moved from the data pointer into ``byte_offset`` for buffers
    declared with a constant element offset; ``align`` > 0 stages an array whose first element
    is not ``align``-byte aligned through an aligned copy (written back by
    :meth:`DLTensorArg.write_back`).

    Raises:
        ValueError: for an unsupported dtype or strides that are not whole elements.
    """
    staged = None
    if align and arr.size and arr.ctypes.data % align:
        staged, arr = arr, _aligned_copy(arr)
    code, bits, lanes = dl_dtype(arr.dtype)
    nd = arr.ndim
    shape = (ctypes.c_int64 * max(nd, 1))(*arr.shape)
    strides = None
    if not arr.flags.c_contiguous and arr.size > 1:
        if any(s % arr.itemsize for s in arr.strides):
            raise ValueError(f"expected strides that are whole elements, got byte strides "
                             f"{arr.strides} for itemsize {arr.itemsize}")
        strides = (ctypes.c_int64 * nd)(*(s // arr.itemsize for s in arr.strides))
    offset_bytes = elem_offset * arr.itemsize
    t = DLTensor()
    t.data = ctypes.c_void_p(arr.ctypes.data - offset_bytes) if arr.size or offset_bytes else None
    t.device = abi.DLDevice(int(abi.DeviceType.kDLCPU), 0)
    t.ndim = nd
    t.dtype = abi.DLDataType(code, bits, lanes)
    t.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    t.strides = ctypes.cast(strides, ctypes.POINTER(ctypes.c_int64)) if strides else None
    t.byte_offset = offset_bytes
    return DLTensorArg(arr, t, shape, strides, staged)


@dataclass(frozen=True)
class ArgSpec:
    """One param: its name, dtype (``handle`` for arrays) and the Buffer bound to it (or None)."""

    name: str
    dtype: DataType
    buffer: Buffer | None = None
    var: Var | None = None


@dataclass(frozen=True)
class FuncSpec:
    """The signature a packed function checks its arguments against."""

    name: str
    args: tuple[ArgSpec, ...]
    #: indices of the array arguments the function may write (None: not known)
    written: frozenset[int] | None = None

    @staticmethod
    def from_prim_func(func: PrimFunc, name: str | None = None) -> "FuncSpec":
        """The signature of ``func`` before ``MakePackedAPI`` (params and ``buffer_map``)."""
        name = name or str(func.attrs.get("global_symbol", "main"))
        return FuncSpec(name, tuple(ArgSpec(p.name_hint, p.dtype, func.buffer_map.get(p), p)
                                    for p in func.params))

    @staticmethod
    def from_packed(func: PrimFunc, name: str) -> "FuncSpec":
        """The signature of a function ``MakePackedAPI`` lowered, read back from its argument
        unpacking: ``p = T.tvm_struct_get(args, i, 12, ...)``, ``data = T.tvm_struct_get(p, 0,
        1, "handle")`` and the ``T.decl_buffer(..., data=data)`` of each array param.

        Raises:
            ValueError: when ``func`` does not have the packed signature.
        """
        if len(func.params) != 6:
            raise ValueError(f"{name}: expected a packed function (6 params), got "
                             f"{len(func.params)} param(s)")
        args_var = func.params[0]
        params: dict[int, Var] = {}
        data_of: dict[Var, Var] = {}
        buffers: dict[Var, Buffer] = {}

        def visit(node: Any) -> bool:
            if isinstance(node, LetStmt):
                _record_let(node, args_var, params, data_of)
            elif isinstance(node, DeclBuffer) and node.buffer.data in data_of:
                buffers.setdefault(data_of[node.buffer.data], node.buffer)
            return True
        pre_order_visit(func.body, visit)
        return FuncSpec(name, tuple(ArgSpec(v.name_hint, v.dtype, buffers.get(v), v)
                                    for _, v in sorted(params.items())))


def _struct_get(e: PrimExpr) -> tuple[Any, int, int] | None:
    if isinstance(e, Cast):
        e = e.value
    if isinstance(e, Call) and getattr(e.op, "name", "") == "tir.tvm_struct_get":
        arr, idx, fld = e.args
        if isinstance(idx, IntImm) and isinstance(fld, IntImm):
            return arr, idx.value, fld.value
    return None


def _record_let(node: LetStmt, args_var: Var, params: dict[int, Var],
                data_of: dict[Var, Var]) -> None:
    got = _struct_get(node.value)
    if got is None:
        return
    arr, idx, fld = got
    if arr is args_var and fld == abi.StructField.kTVMValueContent:
        params[idx] = node.var
    elif fld == abi.StructField.kArrData and arr in params.values():
        data_of[node.var] = arr


@dataclass
class _Marshalled:
    values: Any
    codes: Any
    keep: list[Any] = field(default_factory=list)


class PackedFunction:
    """A compiled packed function (mirrors ``tvm.runtime.PackedFunc``): call it with NumPy arrays,
    DLPack objects and Python numbers.

    Raises (on call):
        ValueError: naming the function, the argument and what was expected and given, when an
            argument does not fit the signature (count, kind, ndim, dtype, shape, strides, byte
            offset, device);
        RuntimeError: with the compiled code's message when it returns nonzero.
    """

    def __init__(self, address: int, spec: FuncSpec, owner: Any = None) -> None:
        if not address:
            raise ValueError(f"{spec.name}: expected the address of a compiled function, got 0")
        self.spec = spec
        self._owner = owner  # keeps the JIT engine (and so the code) alive
        self._fn = abi.PACKED_FUNC_TYPE(address)
        from .fastcall import RAW_PACKED_FUNC_TYPE, FastPlan  # pylint: disable=import-outside-toplevel

        self._fast = FastPlan.make(spec)
        self._raw = RAW_PACKED_FUNC_TYPE(address)

    @property
    def name(self) -> str:
        """The function's global symbol."""
        return self.spec.name

    def __repr__(self) -> str:
        return f"PackedFunction({self.spec.name}({', '.join(a.name for a in self.spec.args)}))"

    def __call__(self, *args: Any) -> Any:
        fast = self._fast.call(self._raw, args) if self._fast is not None else None
        if fast is not None:  # arrays that need no conversion: passed as they are
            rc, frame = fast
            if rc != 0:
                raise self._error(rc)
            return _return_value(frame.ret_val, frame.ret_code.value)
        converted = check_and_convert(self.spec, args)
        packed = _marshal(converted)
        ret_val, ret_code = TVMValue(), ctypes.c_int32(int(TypeCode.kTVMNullptr))
        rc = self._fn(packed.values, packed.codes, len(converted), ctypes.byref(ret_val),
                      ctypes.byref(ret_code), None)
        if rc != 0:
            raise self._error(rc)
        for item in converted:
            if isinstance(item, DLTensorArg):
                item.write_back()
        return _return_value(ret_val, ret_code.value)


    def _error(self, rc: int) -> RuntimeError:
        """The kernel's failure (its last error, with the source line it points at), raised as
        the assertion's error kind when that is a Python exception (TVM 0.27's
        ``assert c, ("ValueError", [...])`` raises ValueError) that is also a RuntimeError."""
        last = _last_error()
        return error_class(last)(with_source_line(
            f"{self.spec.name}: {last or f'returned {rc}'}"))


#: ``Assert fail: <condition>[ with v = ...], <Kind>: <message>`` (tirkit.tir.AssertStmt's
#: ``error_message``: the kind is written unless it is RuntimeError)
_KIND = re.compile(r"Assert fail: .*?, (?P<kind>[A-Z]\w*(?:Error|Exception|Warning)): ", re.S)
_KIND_CLASSES: dict[str, type] = {}


def error_class(message: str | None) -> type:
    """The exception class a kernel failing with ``message`` raises: ``RuntimeError``, or for an
    assertion whose kind names a built-in exception (``ValueError``, ``IndexError``...), a
    class deriving from both (so ``except RuntimeError`` still catches it)."""
    m = _KIND.match(message or "")
    if m is None:
        return RuntimeError
    kind = m.group("kind")
    cls = _KIND_CLASSES.get(kind)
    if cls is None:
        base = getattr(builtins, kind, None)
        cls = RuntimeError
        if isinstance(base, type) and issubclass(base, Exception) and \
                not issubclass(base, RuntimeError):
            try:
                cls = type(kind, (base, RuntimeError), {"__module__": "tirkit.runtime"})
            except TypeError:  # a built-in whose layout cannot be combined (OSError...)
                cls = RuntimeError
        _KIND_CLASSES[kind] = cls
    return cls


_AT = re.compile(r" at (?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+)$")


def with_source_line(message: str) -> str:
    """``message`` plus the source line it points at (``... at FILE:LINE:COL``, as the bound
    checker's messages end) and a caret under the column, when the file can be read."""
    m = _AT.search(message)
    if m is None:
        return message
    try:
        with open(m.group("file"), encoding="utf-8") as f:
            lines = f.read().split("\n")
        text = lines[int(m.group("line")) - 1]
    except (OSError, UnicodeDecodeError, IndexError, ValueError):
        return message
    col = max(int(m.group("col")) - 1, 0)
    return f"{message}\n    {text}\n    {' ' * col}^"


def _last_error() -> str:
    from . import jit  # pylint: disable=import-outside-toplevel

    return jit.get_last_error()


def _marshal(converted: Sequence[Any]) -> _Marshalled:
    n = len(converted)
    values = (TVMValue * max(n, 1))()
    codes = (ctypes.c_int32 * max(n, 1))()
    out = _Marshalled(values, codes, list(converted))
    for i, item in enumerate(converted):
        if isinstance(item, DLTensorArg):
            values[i].v_handle = ctypes.cast(ctypes.pointer(item.tensor), ctypes.c_void_p)
            codes[i] = int(TypeCode.kTVMDLTensorHandle)
        elif item is None:
            values[i].v_handle = None
            codes[i] = int(TypeCode.kTVMNullptr)
        elif isinstance(item, bool):
            values[i].v_int64 = int(item)
            codes[i] = K_TVM_ARG_BOOL
        elif isinstance(item, int):
            values[i].v_int64 = item
            codes[i] = int(TypeCode.kDLInt)
        else:
            values[i].v_float64 = float(item)
            codes[i] = int(TypeCode.kDLFloat)
    return out


def _return_value(value: TVMValue, code: int) -> Any:
    if code == TypeCode.kDLInt:
        return int(value.v_int64)
    if code == TypeCode.kDLFloat:
        return float(value.v_float64)
    return None


# --------------------------------------------------------------------------- argument checks
_Env = dict[Var, tuple[int, str]]


def check_and_convert(spec: FuncSpec, args: Sequence[Any]) -> list[Any]:
    """Check ``args`` against ``spec`` and convert them (arrays to :class:`DLTensorArg`, numbers
    to Python ints/floats/bools). Scalar params are bound first, then array shapes in order, so
    a symbolic extent is taken from its first occurrence and compared with later ones.

    Raises:
        ValueError: naming the function, the argument, the expected and the given value.
    """
    if len(args) != len(spec.args):
        names = ", ".join(a.name for a in spec.args)
        raise ValueError(f"{spec.name}: expected {len(spec.args)} argument(s) ({names}), got "
                         f"{len(args)}")
    env: _Env = {}
    out: list[Any] = [None] * len(args)
    written = spec.written
    for i, (value, arg) in enumerate(zip(args, spec.args)):
        if not arg.dtype.is_handle():
            out[i] = _convert_scalar(spec.name, arg, value)
            if arg.var is not None and not arg.dtype.is_floating():
                env[arg.var] = (int(out[i]), arg.name)
    for i, (value, arg) in enumerate(zip(args, spec.args)):
        if arg.dtype.is_handle():
            out[i] = _convert_array(spec.name, arg, value, env,
                                    written is None or i in written)
    return out


def _kind_name(value: Any) -> str:
    return type(value).__name__


def _convert_scalar(fname: str, arg: ArgSpec, value: Any) -> Any:
    t = arg.dtype
    where = f"{fname}: argument {arg.name}"
    if isinstance(value, np.generic):
        value = value.item()
    if t.is_bool():
        if isinstance(value, (bool, int)):
            return bool(value)
    elif t.is_floating():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif isinstance(value, (bool, int)):
        lo, hi = ((-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1) if t.is_int()
                  else (0, (1 << t.bits) - 1))
        if not lo <= int(value) <= hi:
            raise ValueError(f"{where}: expected a {t} value in [{lo}, {hi}], got {value}")
        return int(value)
    raise ValueError(f"{where}: expected a {t} scalar, got {_kind_name(value)} {value!r}")


def _as_numpy(where: str, value: Any) -> np.ndarray:
    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "__dlpack__"):
        if hasattr(value, "__dlpack_device__"):
            dev_type, dev_id = value.__dlpack_device__()
            if int(dev_type) != abi.DeviceType.kDLCPU:
                raise ValueError(f"{where}: expected an array on the CPU (device_type "
                                 f"{int(abi.DeviceType.kDLCPU)}), got device_type "
                                 f"{int(dev_type)} device_id {int(dev_id)}")
        try:
            return np.from_dlpack(value)
        except (TypeError, ValueError, RuntimeError, BufferError) as exc:
            raise ValueError(f"{where}: expected a DLPack array NumPy can read, got "
                             f"{_kind_name(value)} ({exc})") from None
    raise ValueError(f"{where}: expected a NumPy array or an object with __dlpack__, got "
                     f"{_kind_name(value)}")


def _convert_array(fname: str, arg: ArgSpec, value: Any, env: _Env, written: bool) -> Any:
    where = f"{fname}: argument {arg.name}"
    buf = arg.buffer
    if value is None and buf is None:
        return None
    arr = _as_numpy(where, value)
    if written and not arr.flags.writeable and arr.size:
        raise ValueError(f"{where}: expected a writeable array (the function writes "
                         f"{arg.name}), got a read-only array; pass a writeable copy "
                         f"(numpy.array(...)) or one with flags.writeable set")
    if buf is None:
        return _in_place(arr, 0, written)
    _check_ndim_dtype(where, buf, arr)
    for k, dim in enumerate(buf.shape):
        _bind_dim(where, f"shape[{k}]", dim, arr.shape[k], env, f"{arg.name}.shape[{k}]")
    _check_strides(where, arg.name, buf, arr, env)
    offset = 0
    if isinstance(buf.elem_offset, IntImm):
        offset = buf.elem_offset.value
    elif isinstance(buf.elem_offset, Var):
        _bind_dim(where, "elem_offset", buf.elem_offset, 0, env, f"{arg.name}.elem_offset")
    return _in_place(arr, offset, written)


def _in_place(arr: np.ndarray, offset: int, written: bool) -> DLTensorArg:
    """The caller's array itself: compiled code assumes element alignment of arguments (what
    every aligned NumPy array has), so only an array whose elements are not even aligned to
    their size is staged through a copy (written back only when the function writes it)."""
    out = make_dltensor(arr, offset, 0 if arr.flags.aligned else arr.itemsize)
    out.written = written
    return out


def _check_ndim_dtype(where: str, buf: Buffer, arr: np.ndarray) -> None:
    if arr.ndim != buf.ndim:
        raise ValueError(f"{where}: expected ndim {buf.ndim} (shape "
                         f"{_shape_text(buf.shape)}), got ndim {arr.ndim} (shape "
                         f"{tuple(arr.shape)})")
    t = buf.dtype
    try:
        got = dl_dtype(arr.dtype)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    if got != (int(t.code), t.bits, t.lanes):
        raise ValueError(f"{where}: expected dtype {t}, got {arr.dtype.name}")


def _shape_text(shape: Sequence[PrimExpr]) -> str:
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    return "(" + ", ".join(script(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _evaluate(expr: PrimExpr, env: _Env) -> int | None:
    if isinstance(expr, IntImm):
        return expr.value
    from tirkit.arith import Analyzer  # pylint: disable=import-outside-toplevel
    from tirkit.tir import substitute  # pylint: disable=import-outside-toplevel

    vmap = {v: IntImm(v.dtype, val) for v, (val, _) in env.items()}
    out = Analyzer().simplify(substitute(expr, vmap))
    return out.value if isinstance(out, IntImm) else None


def _bind_dim(where: str, what: str, expected: PrimExpr, got: int, env: _Env,
              source: str) -> None:
    from tirkit.printer import script  # pylint: disable=import-outside-toplevel

    if isinstance(expected, Var) and expected not in env:
        env[expected] = (int(got), source)
        return
    want = _evaluate(expected, env)
    if want is None or want == got:
        return
    text = script(expected)
    if isinstance(expected, Var):
        text += f" = {want} (from {env[expected][1]})"
    elif not isinstance(expected, IntImm):
        text += f" = {want}"
    raise ValueError(f"{where}: expected {what} == {text}, got {got}")


def _check_strides(where: str, name: str, buf: Buffer, arr: np.ndarray, env: _Env) -> None:
    if any(s % arr.itemsize for s in arr.strides) and arr.size > 1:
        raise ValueError(f"{where}: expected strides that are whole elements, got byte strides "
                         f"{arr.strides} for itemsize {arr.itemsize}")
    strides = [s // arr.itemsize for s in arr.strides]
    if buf.strides:
        compact = arr.flags.c_contiguous or arr.size <= 1
        expect = 1
        for k in range(arr.ndim - 1, -1, -1):
            value = expect if compact else strides[k]
            _bind_dim(where, f"strides[{k}]", buf.strides[k], value, env, f"{name}.strides[{k}]")
            expect *= arr.shape[k]
        return
    if arr.size <= 1 or arr.flags.c_contiguous:
        return
    expect = 1
    for k in range(arr.ndim - 1, -1, -1):
        if arr.shape[k] != 1 and strides[k] != expect:
            raise ValueError(f"{where}: expected a compact (C-contiguous) array, got strides "
                             f"{tuple(strides)} (elements) for shape {tuple(arr.shape)}; pass "
                             f"numpy.ascontiguousarray(...) of it")
        expect *= arr.shape[k]
