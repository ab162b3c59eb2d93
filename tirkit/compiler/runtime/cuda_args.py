"""Arguments of CUDA kernels: NumPy arrays (copied to the device and back) and device arrays
(zero copy) from ``__cuda_array_interface__`` (CuPy, Numba, PyTorch) or ``__dlpack__`` with a
CUDA ``__dlpack_device__`` (PyTorch, JAX...), checked against the function's signature with the
same rules and messages as the CPU runtime (ndim, dtype, shape, strides), plus the device.

A :class:`DeviceArray` describes device memory with the NumPy attributes the checks read
(``shape``, ``dtype``, ``strides`` in bytes, ``ndim``, ``size``, ``itemsize``, ``flags``).
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from . import abi
from .packed import (ArgSpec, FuncSpec, _bind_dim, _check_ndim_dtype, _check_strides,
                     _convert_scalar, _Env)

__all__ = ["DeviceArray", "as_device_array", "check_cuda_args", "HostArray"]

_CUDA = int(abi.DeviceType.kDLCUDA)
_DEVICE_NAMES = {1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl", 7: "vulkan", 8: "metal",
                 10: "rocm", 13: "cuda_managed"}


@dataclass
class _Flags:
    c_contiguous: bool
    writeable: bool = True


@dataclass
class DeviceArray:
    """An array in CUDA device memory: ``ptr`` is the address of element 0."""

    ptr: int
    shape: tuple[int, ...]
    dtype: np.dtype
    strides: tuple[int, ...]
    device_id: int = 0
    owner: Any = None  # keeps the producer (and a DLPack capsule) alive
    flags: _Flags = field(init=False)

    def __post_init__(self) -> None:
        compact, expect = True, self.dtype.itemsize
        for dim, stride in zip(reversed(self.shape), reversed(self.strides)):
            if dim != 1 and stride != expect:
                compact = False
            expect *= dim
        self.flags = _Flags(compact)

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """Number of elements."""
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self.dtype.itemsize


@dataclass
class HostArray:
    """A NumPy argument: copied to ``device_ptr`` before the launches and back after."""

    array: np.ndarray
    device: DeviceArray


def _compact_strides(shape: Sequence[int], itemsize: int) -> tuple[int, ...]:
    out, acc = [], itemsize
    for dim in reversed(shape):
        out.append(acc)
        acc *= dim
    return tuple(reversed(out))


def _from_cai(value: Any) -> DeviceArray:
    cai = value.__cuda_array_interface__
    shape = tuple(int(s) for s in cai["shape"])
    dtype = np.dtype(cai["typestr"])
    strides = cai.get("strides") or _compact_strides(shape, dtype.itemsize)
    ptr = int(cai["data"][0] or 0)
    dev = 0
    device = getattr(value, "device", None)
    if device is not None:
        dev = int(getattr(device, "id", getattr(device, "index", 0)) or 0)
    return DeviceArray(ptr, shape, dtype, tuple(int(s) for s in strides), dev, value)


_DL_DTYPE = {(0, 8): "int8", (0, 16): "int16", (0, 32): "int32", (0, 64): "int64",
             (1, 1): "bool", (1, 8): "uint8", (1, 16): "uint16", (1, 32): "uint32",
             (1, 64): "uint64", (2, 16): "float16", (2, 32): "float32", (2, 64): "float64"}


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", abi.DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


def _from_dlpack(where: str, value: Any) -> DeviceArray:
    try:
        capsule = value.__dlpack__(stream=None)
    except TypeError:
        capsule = value.__dlpack__()
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    managed = _DLManagedTensor.from_address(get(capsule, b"dltensor"))
    t = managed.dl_tensor
    key = (int(t.dtype.code), int(t.dtype.bits))
    if key not in _DL_DTYPE or t.dtype.lanes != 1:
        raise ValueError(f"{where}: unsupported DLPack dtype code {key[0]} bits {key[1]} "
                         f"lanes {t.dtype.lanes}")
    dtype = np.dtype(_DL_DTYPE[key])
    shape = tuple(int(t.shape[i]) for i in range(t.ndim))
    strides = (tuple(int(t.strides[i]) * dtype.itemsize for i in range(t.ndim)) if t.strides
               else _compact_strides(shape, dtype.itemsize))
    ptr = int(t.data or 0) + int(t.byte_offset)
    return DeviceArray(ptr, shape, dtype, strides, int(t.device.device_id), (value, capsule))


def as_device_array(where: str, value: Any) -> "DeviceArray | np.ndarray":
    """A CUDA array as a :class:`DeviceArray`; a host array (NumPy, CPU DLPack) as NumPy.

    Raises:
        ValueError: for arrays on other devices (naming the device) or non-arrays.
    """
    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "__cuda_array_interface__"):
        return _from_cai(value)
    if hasattr(value, "__dlpack__") and hasattr(value, "__dlpack_device__"):
        dev_type, dev_id = (int(x) for x in value.__dlpack_device__())
        if dev_type == _CUDA:
            return _from_dlpack(where, value)
        if dev_type == int(abi.DeviceType.kDLCPU):
            return np.from_dlpack(value)
        raise ValueError(f"{where}: expected an array on the CUDA device (device_type {_CUDA}) "
                         f"or a host array, got device_type {dev_type} "
                         f"({_DEVICE_NAMES.get(dev_type, '?')}) device_id {dev_id}")
    raise ValueError(f"{where}: expected a NumPy array, a CUDA array (__cuda_array_interface__"
                     f") or a DLPack array, got {type(value).__name__}")


def _check_array(fname: str, arg: ArgSpec, value: Any, env: _Env, device_id: int) -> Any:
    where = f"{fname}: argument {arg.name}"
    arr = as_device_array(where, value)
    if isinstance(arr, DeviceArray) and arr.device_id != device_id:
        raise ValueError(f"{where}: expected an array on cuda:{device_id}, got an array on "
                         f"cuda:{arr.device_id}")
    buf = arg.buffer
    if buf is None:
        return arr
    _check_ndim_dtype(where, buf, arr)  # type: ignore[arg-type]
    for k, dim in enumerate(buf.shape):
        _bind_dim(where, f"shape[{k}]", dim, arr.shape[k], env, f"{arg.name}.shape[{k}]")
    _check_strides(where, arg.name, buf, arr, env)  # type: ignore[arg-type]
    if not arr.flags.c_contiguous and arr.size > 1:
        raise ValueError(f"{where}: expected a compact (C-contiguous) array on CUDA, got strides "
                         f"{tuple(arr.strides)} (bytes) for shape {tuple(arr.shape)}")
    return arr


def check_cuda_args(spec: FuncSpec, args: Sequence[Any], device_id: int = 0
                    ) -> tuple[list[Any], _Env]:
    """Check ``args`` against ``spec``: arrays become NumPy arrays or :class:`DeviceArray`\\ s,
    scalars Python numbers; returns them and the values bound to the signature's shape vars.

    Raises:
        ValueError: naming the function, the argument, the expected and the given value
            (count, kind, ndim, dtype, shape, strides, device, a read-only output array).
    """
    if len(args) != len(spec.args):
        names = ", ".join(a.name for a in spec.args)
        raise ValueError(f"{spec.name}: expected {len(spec.args)} argument(s) ({names}), got "
                         f"{len(args)}")
    env: _Env = {}
    out: list[Any] = [None] * len(args)
    for i, (value, arg) in enumerate(zip(args, spec.args)):
        if not arg.dtype.is_handle():
            out[i] = _convert_scalar(spec.name, arg, value)
            if arg.var is not None:
                env[arg.var] = (out[i], arg.name)
    for i, (value, arg) in enumerate(zip(args, spec.args)):
        if arg.dtype.is_handle():
            out[i] = _check_array(spec.name, arg, value, env, device_id)
            if spec.written is not None and i in spec.written and \
                    isinstance(out[i], np.ndarray) and not out[i].flags.writeable:
                raise ValueError(f"{spec.name}: argument {arg.name}: expected a writeable array "
                                 f"(the function writes {arg.name}), got a read-only array; "
                                 "pass a writeable copy (numpy.array(...)) or one with "
                                 "flags.writeable set")
    return out, env
