"""A compiled CUDA module (mirrors ``tvm.runtime.Module`` of a ``cuda`` build: a host module
importing a ``CUDAModule`` with the PTX): ``module["name"](*args)`` or ``module(*args)``.

The host side of each function (what SplitHostDevice left outside the kernels: kernel launches
``T.call_packed("k", args..., grid/block extents)``, scalar lets, serial loops, conditions,
``global`` allocations shared by kernels) is run by a small interpreter here; TVM compiles it
for the CPU and launches through its C++ CUDA runtime. A call:

1. checks the arguments against the PrimFunc's signature (:mod:`.cuda_args`: NumPy arrays,
   ``__cuda_array_interface__`` / ``__dlpack__`` device arrays, scalars; the device is named in
   mismatches) — this works without a GPU;
2. loads the PTX once per process (``cuModuleLoadData``), copies NumPy arrays to the device,
   runs the host code, launching each kernel with the grid/block sizes of its thread extents
   (``tir.kernel_launch_params``) and dynamic shared memory, waits, and copies NumPy arrays
   back (device arrays are used in place, zero copy).

Without a GPU, step 2 raises :class:`~tirkit.compiler.runtime.cuda.CudaUnavailable` naming the
reason; building and :attr:`CUDAModule.ptx` work everywhere.
"""
from __future__ import annotations

import ctypes
import dataclasses
from typing import Any, Callable

import numpy as np

from tirkit.arith import Analyzer
from tirkit.ir import IRModule
from tirkit.ir.expr import FloatImm, IntImm, PrimExpr
from tirkit.tir import PrimFunc, Var, substitute
from tirkit.tir import expr as E
from tirkit.tir import stmt as S

from .abi import CallingConv
from .access import stored_params
from .cuda import CudaDriver, CudaUnavailable, get_driver
from .cuda_args import DeviceArray, HostArray, check_cuda_args
from .packed import FuncSpec

__all__ = ["CUDAModule", "CUDAFunction"]

_GRID = ("blockIdx.x", "blockIdx.y", "blockIdx.z")
_BLOCK = ("threadIdx.x", "threadIdx.y", "threadIdx.z")
_CTYPES: dict[str, Any] = {
    "int8": ctypes.c_int8, "int16": ctypes.c_int16, "int32": ctypes.c_int32,
    "int64": ctypes.c_int64, "uint8": ctypes.c_uint8, "uint16": ctypes.c_uint16,
    "uint32": ctypes.c_uint32, "uint64": ctypes.c_uint64, "float32": ctypes.c_float,
    "float64": ctypes.c_double, "bool": ctypes.c_bool, "handle": ctypes.c_uint64}


def _conv(func: PrimFunc) -> int:
    conv: Any = func.attrs.get("calling_conv", 0)
    return int(getattr(conv, "value", conv))


def _symbol(gv: Any, func: PrimFunc) -> str:
    return str(func.attrs.get("global_symbol") or gv.name_hint)


class _Kernel:
    """A kernel's launch signature: param dtypes and launch tags."""

    def __init__(self, name: str, func: PrimFunc) -> None:
        self.name = name
        self.param_types = [str(p.dtype) for p in func.params]
        self.launch_params = [str(t) for t in func.attrs.get("tir.kernel_launch_params", [])]


class CUDAModule:
    """The functions of a module compiled for ``cuda`` (``tvm.runtime.Module``).

    Args:
        lowered: the IRModule after the pipeline (host functions and kernels).
        ptx: the PTX of the kernels.
        source: the module before lowering (its PrimFuncs give the argument signatures).
        device_id: the CUDA device the kernels run on.
    """

    def __init__(self, lowered: IRModule, ptx: str, source: IRModule | None = None,
                 device_id: int = 0) -> None:
        self.lowered, self.ptx, self.device_id = lowered, ptx, device_id
        originals = {_symbol(gv, f): f for gv, f in (source.functions.items() if source else ())
                     if isinstance(f, PrimFunc)}
        self.kernels: dict[str, _Kernel] = {}
        self._hosts: dict[str, PrimFunc] = {}
        self._specs: dict[str, FuncSpec] = {}
        for gv, func in lowered.functions.items():
            if not isinstance(func, PrimFunc):
                continue
            name = _symbol(gv, func)
            if _conv(func) == CallingConv.kDeviceKernelLaunch:
                self.kernels[name] = _Kernel(name, func)
            elif "global_symbol" in func.attrs:
                self._hosts[name] = func
                orig = originals.get(name, func)
                self._specs[name] = dataclasses.replace(FuncSpec.from_prim_func(orig, name),
                                                        written=stored_params(orig))
        self._loaded: Any = None
        self._functions: dict[str, Any] = {}

    @property
    def function_names(self) -> list[str]:
        """The callable (host) functions."""
        return list(self._specs)

    def get_source(self, fmt: str = "ptx") -> str:
        """The PTX (``Module.imported_modules[0].get_source()`` in TVM)."""
        if fmt not in ("ptx", ""):
            raise ValueError(f"a CUDA module has its source as 'ptx', not {fmt!r}")
        return self.ptx

    def get_function(self, name: str) -> "CUDAFunction":
        """The function ``name``; ``KeyError`` naming the functions the module has."""
        if name not in self._specs:
            raise KeyError(f"the module has no function {name!r} (functions: "
                           f"{', '.join(self._specs) or 'none'})")
        return CUDAFunction(self, name)

    __getitem__ = get_function

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __call__(self, *args: Any) -> None:
        if len(self._specs) != 1:
            raise TypeError(f"module(*args) needs a module with exactly one function, this one "
                            f"has {len(self._specs)} ({', '.join(self._specs) or 'none'}); use "
                            "module[name](*args)")
        self.get_function(next(iter(self._specs)))(*args)

    def __repr__(self) -> str:
        return f"CUDAModule({', '.join(self._specs)}; kernels: {', '.join(self.kernels)})"

    # ---------------------------------------------------------------------------- device side
    def driver(self) -> CudaDriver:
        """The driver with this module's device current (CudaUnavailable without a GPU)."""
        drv = get_driver()
        drv.set_device(self.device_id)
        return drv

    def cu_function(self, drv: CudaDriver, name: str) -> Any:
        """The loaded ``CUfunction`` of kernel ``name`` (the PTX is loaded on first use)."""
        if self._loaded is None:
            self._loaded = drv.load_module(self.ptx)
        if name not in self._functions:
            self._functions[name] = drv.get_function(self._loaded, name)
        return self._functions[name]


class CUDAFunction:
    """One host function of a :class:`CUDAModule`: ``f(*args)`` checks, copies, launches."""

    def __init__(self, module: CUDAModule, name: str) -> None:
        self.module, self.name = module, name
        self.spec = module._specs[name]  # pylint: disable=protected-access
        self.host = module._hosts[name]  # pylint: disable=protected-access

    def __repr__(self) -> str:
        return f"CUDAFunction({self.name}({', '.join(a.name for a in self.spec.args)}))"

    def __call__(self, *args: Any) -> None:
        values, env = check_cuda_args(self.spec, args, self.module.device_id)
        try:
            drv = self.module.driver()
        except CudaUnavailable as exc:
            raise CudaUnavailable(f"{self.name}: cannot run a CUDA kernel here: {exc} (building "
                                  "works without a GPU: the PTX is module.ptx)") from None
        staged: list[HostArray] = []
        try:
            scope = self._bind(drv, values, env, staged)
            _HostInterpreter(self.module, drv, scope).run(self.host.body)
            drv.synchronize()
            for item in staged:
                if item.array.flags.writeable:
                    drv.copy_to_host(item.array.ctypes.data, item.device.ptr, item.array.nbytes)
        finally:
            for item in staged:
                drv.mem_free(item.device.ptr)

    def _bind(self, drv: CudaDriver, values: list[Any], env: dict[Var, tuple[int, str]],
              staged: list[HostArray]) -> dict[Var, Any]:
        scope: dict[Var, Any] = {var: value for var, (value, _) in env.items()}
        params = self.host.params
        for param, arg, value in zip(params, self.spec.args, values):
            if isinstance(value, np.ndarray):
                arr = np.ascontiguousarray(value)
                ptr = drv.mem_alloc(arr.nbytes)
                dev = DeviceArray(ptr, arr.shape, arr.dtype,
                                  tuple(s for s in arr.strides), self.module.device_id)
                drv.copy_to_device(ptr, arr.ctypes.data, arr.nbytes)
                staged.append(HostArray(value if value.flags.c_contiguous else arr, dev))
                value = dev
            buf = self.host.buffer_map.get(param)
            if isinstance(value, DeviceArray):
                scope[param] = value.ptr
                if buf is not None:
                    scope[buf.data] = value.ptr
            else:
                scope[param] = value
            del arg
        return scope


class _HostInterpreter:
    """Runs the host statements of a lowered function; one rule per statement class."""

    def __init__(self, module: CUDAModule, drv: CudaDriver, scope: dict[Var, Any]) -> None:
        self.module, self.drv, self.scope = module, drv, scope
        self.analyzer = Analyzer()

    def run(self, stmt: S.Stmt) -> None:
        """Execute ``stmt``."""
        rule: Callable[[Any, Any], None] | None = None
        for cls in type(stmt).__mro__:
            rule = _RULES.get(cls)
            if rule is not None:
                break
        if rule is None:
            raise RuntimeError(f"{type(stmt).__name__} in the host code of a CUDA function is "
                               "not supported (only kernel launches, lets, loops, conditions "
                               "and global allocations run on the host)")
        rule(self, stmt)

    def value(self, e: PrimExpr) -> Any:
        """The Python value of a host expression."""
        if isinstance(e, Var) and e in self.scope:
            return self.scope[e]
        if isinstance(e, (IntImm, FloatImm)):
            return e.value
        consts = {v: (IntImm(v.dtype, int(x)) if not v.dtype.is_floating()
                      else FloatImm(v.dtype, float(x)))
                  for v, x in self.scope.items() if not v.dtype.is_handle()}
        out = self.analyzer.simplify(substitute(e, consts))
        if isinstance(out, (IntImm, FloatImm)):
            return out.value
        if isinstance(out, E.Var) and out in self.scope:
            return self.scope[out]
        raise RuntimeError(f"cannot evaluate host expression {e!r} before a kernel launch")

    def launch(self, call: E.Call) -> None:
        """``T.call_packed("kernel", args..., launch args...)``."""
        name = call.args[0].value if isinstance(call.args[0], E.StringImm) else None
        kernel = self.module.kernels.get(name or "")
        if kernel is None:
            raise RuntimeError(f"host code calls {name!r}, which is not a kernel of the module")
        n = len(kernel.param_types)
        args = [self.value(a) for a in call.args[1:1 + n]]
        dims = dict(zip(kernel.launch_params, (self.value(a) for a in call.args[1 + n:])))
        grid = [int(dims.get(t, 1)) for t in _GRID]
        block = [int(dims.get(t, 1)) for t in _BLOCK]
        shmem = int(dims.get("tir.use_dyn_shared_memory", 0))
        fn = self.module.cu_function(self.drv, kernel.name)
        if shmem > 48 * 1024:
            self.drv.set_max_dynamic_shared(fn, shmem)
        cargs = [_CTYPES.get(t, ctypes.c_uint64)(int(v) if t != "float32" and t != "float64"
                                                 else float(v))
                 for t, v in zip(kernel.param_types, args)]
        self.drv.launch(fn, grid, block, shmem, cargs)


def _seq(it: _HostInterpreter, s: S.SeqStmt) -> None:
    for item in s.seq:
        it.run(item)


def _evaluate(it: _HostInterpreter, s: S.Evaluate) -> None:
    v = s.value
    if isinstance(v, E.Call) and getattr(v.op, "name", "") == "tir.tvm_call_packed":
        it.launch(v)
    elif not isinstance(v, (IntImm, FloatImm)):
        raise RuntimeError(f"host code evaluates {v!r}: only kernel launches run on the host")


def _let(it: _HostInterpreter, s: S.LetStmt) -> None:
    it.scope[s.var] = it.value(s.value)
    it.run(s.body)


def _for(it: _HostInterpreter, s: S.For) -> None:
    lo, ext = int(it.value(s.min)), int(it.value(s.extent))
    for i in range(lo, lo + ext):
        it.scope[s.loop_var] = i
        it.run(s.body)


def _if(it: _HostInterpreter, s: S.IfThenElse) -> None:
    if it.value(s.condition):
        it.run(s.then_case)
    elif s.else_case is not None:
        it.run(s.else_case)


def _assert(it: _HostInterpreter, s: S.AssertStmt) -> None:
    if not it.value(s.condition):
        msg = s.error_message if isinstance(s.message, E.StringImm) else "assertion failed"
        raise RuntimeError(f"Assert fail: {msg}")
    it.run(s.body)


def _allocate(it: _HostInterpreter, s: S.Allocate) -> None:
    count = 1
    for ext in s.extents:
        count *= int(it.value(ext))
    ptr = it.drv.mem_alloc(count * max(s.dtype.bits * s.dtype.lanes // 8, 1))
    it.scope[s.buffer_var] = ptr
    try:
        it.run(s.body)
    finally:
        it.drv.synchronize()
        it.drv.mem_free(ptr)


def _body_only(it: _HostInterpreter, s: Any) -> None:
    it.run(s.body)


_RULES: dict[type, Callable[[Any, Any], None]] = {
    S.SeqStmt: _seq, S.Evaluate: _evaluate, S.LetStmt: _let, S.For: _for, S.IfThenElse: _if,
    S.AssertStmt: _assert, S.Allocate: _allocate, S.DeclBuffer: _body_only,
    S.AttrStmt: _body_only,
}
