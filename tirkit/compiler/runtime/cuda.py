"""A minimal CUDA driver-API runtime over ctypes (the counterpart of TVM's
``src/runtime/cuda/cuda_device_api.cc`` and ``cuda_module.cc``): no CUDA toolkit and no Python
package needed, only the NVIDIA driver's ``libcuda.so.1``.

:func:`get_driver` initialises the driver once (``cuInit``) and returns a :class:`CudaDriver`
that makes the device's primary context current (the one CuPy and PyTorch use, so their
arrays are valid here), loads PTX (``cuModuleLoadData``, the driver compiles it for the GPU it
runs on), allocates and copies device memory and launches kernels (``cuLaunchKernel``).

Raises :class:`CudaUnavailable` (a RuntimeError) with the reason when there is no driver or no
GPU, and :class:`CudaError` naming the driver call and ``CUDA_ERROR_*`` code when a call fails.
"""
from __future__ import annotations

import ctypes
import threading
from functools import lru_cache
from typing import Any, Sequence

__all__ = ["CudaDriver", "CudaError", "CudaUnavailable", "get_driver", "cuda_available"]

_LIB_NAMES = ("libcuda.so.1", "libcuda.so", "nvcuda.dll")
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8


class CudaUnavailable(RuntimeError):
    """No NVIDIA driver or GPU on this machine (the message says which)."""


class CudaError(RuntimeError):
    """A CUDA driver call failed; ``code`` is the ``CUresult``."""

    def __init__(self, call: str, code: int, name: str, text: str) -> None:
        super().__init__(f"{call} failed: {name} ({code}): {text}")
        self.code = code


class CudaDriver:
    """The driver API of one process (use :func:`get_driver`)."""

    def __init__(self, lib: Any) -> None:
        self.lib = lib
        self._lock = threading.Lock()
        self._contexts: dict[int, ctypes.c_void_p] = {}
        self.check("cuInit", lib.cuInit(0))
        count = ctypes.c_int(0)
        self.check("cuDeviceGetCount", lib.cuDeviceGetCount(ctypes.byref(count)))
        if count.value == 0:
            raise CudaUnavailable("the NVIDIA driver is installed but reports no CUDA device")
        self.device_count = count.value

    def check(self, call: str, code: int) -> None:
        """Raise :class:`CudaError` for a nonzero ``CUresult``."""
        if code == 0:
            return
        name, text = ctypes.c_char_p(), ctypes.c_char_p()
        self.lib.cuGetErrorName(code, ctypes.byref(name))
        self.lib.cuGetErrorString(code, ctypes.byref(text))
        raise CudaError(call, code, (name.value or b"CUDA_ERROR").decode(),
                        (text.value or b"").decode())

    # ------------------------------------------------------------------------------ devices
    def set_device(self, device_id: int = 0) -> None:
        """Make the primary context of ``device_id`` current on this thread."""
        if not 0 <= device_id < self.device_count:
            raise ValueError(f"expected a CUDA device id in [0, {self.device_count}), got "
                             f"{device_id}")
        with self._lock:
            ctx = self._contexts.get(device_id)
            if ctx is None:
                dev, ctx = ctypes.c_int(0), ctypes.c_void_p()
                self.check("cuDeviceGet", self.lib.cuDeviceGet(ctypes.byref(dev), device_id))
                self.check("cuDevicePrimaryCtxRetain",
                           self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev))
                self._contexts[device_id] = ctx
        self.check("cuCtxSetCurrent", self.lib.cuCtxSetCurrent(ctx))

    def compute_capability(self, device_id: int = 0) -> tuple[int, int]:
        """``(major, minor)`` of the device (``(9, 0)`` on an H100)."""
        dev = ctypes.c_int(0)
        self.check("cuDeviceGet", self.lib.cuDeviceGet(ctypes.byref(dev), device_id))
        out = []
        for attr in (CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                     CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR):
            v = ctypes.c_int(0)
            self.check("cuDeviceGetAttribute",
                       self.lib.cuDeviceGetAttribute(ctypes.byref(v), attr, dev))
            out.append(v.value)
        return out[0], out[1]

    def device_name(self, device_id: int = 0) -> str:
        """The marketing name of the device."""
        dev, buf = ctypes.c_int(0), ctypes.create_string_buffer(256)
        self.check("cuDeviceGet", self.lib.cuDeviceGet(ctypes.byref(dev), device_id))
        self.check("cuDeviceGetName", self.lib.cuDeviceGetName(buf, 256, dev))
        return buf.value.decode()

    # ------------------------------------------------------------------------------ modules
    def load_module(self, ptx: str) -> ctypes.c_void_p:
        """``cuModuleLoadData`` of PTX text (the driver JIT-compiles it for the device)."""
        mod = ctypes.c_void_p()
        data = ctypes.create_string_buffer(ptx.encode("utf-8"))
        self.check("cuModuleLoadData", self.lib.cuModuleLoadData(ctypes.byref(mod), data))
        return mod

    def get_function(self, module: ctypes.c_void_p, name: str) -> ctypes.c_void_p:
        """``cuModuleGetFunction``."""
        fn = ctypes.c_void_p()
        self.check(f"cuModuleGetFunction({name!r})",
                   self.lib.cuModuleGetFunction(ctypes.byref(fn), module, name.encode()))
        return fn

    def set_max_dynamic_shared(self, fn: ctypes.c_void_p, nbytes: int) -> None:
        """Allow ``nbytes`` of dynamic shared memory (needed above 48 KiB)."""
        self.check("cuFuncSetAttribute", self.lib.cuFuncSetAttribute(
            fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, ctypes.c_int(nbytes)))

    # ------------------------------------------------------------------------------- memory
    def mem_alloc(self, nbytes: int) -> int:
        """``cuMemAlloc``: a device pointer to ``nbytes`` (at least 1)."""
        ptr = ctypes.c_uint64(0)
        self.check("cuMemAlloc", self.lib.cuMemAlloc_v2(ctypes.byref(ptr),
                                                        ctypes.c_size_t(max(nbytes, 1))))
        return int(ptr.value)

    def mem_free(self, ptr: int) -> None:
        """``cuMemFree``."""
        self.check("cuMemFree", self.lib.cuMemFree_v2(ctypes.c_uint64(ptr)))

    def copy_to_device(self, dst: int, src: int, nbytes: int) -> None:
        """``cuMemcpyHtoD`` from host address ``src``."""
        if nbytes:
            self.check("cuMemcpyHtoD", self.lib.cuMemcpyHtoD_v2(
                ctypes.c_uint64(dst), ctypes.c_void_p(src), ctypes.c_size_t(nbytes)))

    def copy_to_host(self, dst: int, src: int, nbytes: int) -> None:
        """``cuMemcpyDtoH`` into host address ``dst``."""
        if nbytes:
            self.check("cuMemcpyDtoH", self.lib.cuMemcpyDtoH_v2(
                ctypes.c_void_p(dst), ctypes.c_uint64(src), ctypes.c_size_t(nbytes)))

    # ------------------------------------------------------------------------------ launches
    def launch(self, fn: ctypes.c_void_p, grid: Sequence[int], block: Sequence[int],
               shared_bytes: int, args: Sequence[Any], stream: int = 0) -> None:
        """``cuLaunchKernel`` with ctypes scalar ``args`` (``c_uint64`` for pointers)."""
        params = (ctypes.c_void_p * max(len(args), 1))(
            *[ctypes.cast(ctypes.pointer(a), ctypes.c_void_p) for a in args])
        self.check("cuLaunchKernel", self.lib.cuLaunchKernel(
            fn, *(ctypes.c_uint(int(g)) for g in grid), *(ctypes.c_uint(int(b)) for b in block),
            ctypes.c_uint(int(shared_bytes)), ctypes.c_void_p(stream), params, None))

    def synchronize(self) -> None:
        """``cuCtxSynchronize``: wait for every launch; errors of kernels surface here."""
        self.check("cuCtxSynchronize", self.lib.cuCtxSynchronize())


@lru_cache(maxsize=1)
def _load() -> "CudaDriver | str":
    for name in _LIB_NAMES:
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        try:
            return CudaDriver(lib)
        except (CudaError, CudaUnavailable) as exc:
            return f"the NVIDIA driver cannot be used: {exc}"
    return "no NVIDIA driver on this machine (libcuda.so.1 not found)"


def get_driver() -> CudaDriver:
    """The process's :class:`CudaDriver`.

    Raises:
        CudaUnavailable: naming why CUDA cannot be used here (no driver, no device).
    """
    got = _load()
    if isinstance(got, str):
        raise CudaUnavailable(got)
    return got


def cuda_available() -> tuple[bool, str]:
    """``(True, device description)`` when a CUDA GPU can run kernels, else ``(False, reason)``."""
    try:
        drv = get_driver()
        major, minor = drv.compute_capability(0)
        return True, f"{drv.device_name(0)} (sm_{major}{minor})"
    except (CudaUnavailable, CudaError) as exc:
        return False, str(exc)
