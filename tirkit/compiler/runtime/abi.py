"""TVM's C ABI for packed functions, shared by MakePackedAPI, the LLVM code generator and the
runtime (mirrors ``dlpack.h``, ``tvm/runtime/c_runtime_api.h`` and ``tvm/tir/builtin.h``).

A packed function compiled by tirkit has TVM's signature::

    int32_t f(TVMValue* args, int32_t* type_codes, int32_t num_args,
              TVMValue* out_ret_value, int32_t* out_ret_tcode, void* resource_handle);

returning 0 on success and -1 after calling ``TVMAPISetLastError(const char* msg)``. Array
arguments are passed as ``DLTensor*`` in ``TVMValue.v_handle`` with type code
``kTVMDLTensorHandle`` (or ``kTVMNDArrayHandle``). ``tir.tvm_struct_get(arr, index, field)``
reads field ``field`` (a :class:`StructField`) of ``arr[index]``.
"""
from __future__ import annotations

import ctypes
from enum import IntEnum
from typing import Any

import numpy as np

from tirkit.ir.dtype import TypeCode as DTypeCode


class TypeCode(IntEnum):
    """Type codes of packed arguments (``DLDataTypeCode`` + ``TVMArgTypeCode``)."""

    kDLInt = 0
    kDLUInt = 1
    kDLFloat = 2
    kTVMOpaqueHandle = 3
    kTVMNullptr = 4
    kTVMDataType = 5
    kDLDevice = 6
    kTVMDLTensorHandle = 7
    kTVMObjectHandle = 8
    kTVMModuleHandle = 9
    kTVMPackedFuncHandle = 10
    kTVMStr = 11
    kTVMBytes = 12
    kTVMNDArrayHandle = 13
    kDLBfloat = 4  # DLDataType code of bfloat16 (same number as kTVMNullptr, other enum)


class StructField(IntEnum):
    """Fields of ``tir.tvm_struct_get/set`` (``tvm::tir::builtin::TVMStructFieldKind``)."""

    kArrAddr = 0
    kArrData = 1
    kArrShape = 2
    kArrStrides = 3
    kArrNDim = 4
    kArrTypeCode = 5
    kArrTypeBits = 6
    kArrTypeLanes = 7
    kArrByteOffset = 8
    kArrDeviceId = 9
    kArrDeviceType = 10
    kArrKindBound_ = 11
    kTVMValueContent = 12
    kTVMFFIAnyTypeIndex = 13  # newer TVM; unused here


class DeviceType(IntEnum):
    """``DLDeviceType`` values tirkit meets (CPU only runs)."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3


class CallingConv(IntEnum):
    """``tvm::CallingConv`` (the ``calling_conv`` function attribute)."""

    kDefault = 0
    kCPackedFunc = 1
    kDeviceKernelLaunch = 2


class DLDevice(ctypes.Structure):
    """``DLDevice {int32 device_type; int32 device_id}``."""

    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    """``DLDataType {uint8 code; uint8 bits; uint16 lanes}``."""

    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    """``DLTensor`` (dlpack.h): data, device, ndim, dtype, shape, strides (elements, may be NULL
    for compact row-major), byte_offset."""

    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class TVMValue(ctypes.Union):
    """``TVMValue``: the 8-byte union of a packed argument."""

    _fields_ = [("v_int64", ctypes.c_int64), ("v_float64", ctypes.c_double),
                ("v_handle", ctypes.c_void_p), ("v_str", ctypes.c_char_p)]


#: ``int32 (TVMValue*, int32*, int32, TVMValue*, int32*, void*)``
PACKED_FUNC_TYPE = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.POINTER(TVMValue),
                                    ctypes.POINTER(ctypes.c_int32), ctypes.c_int32,
                                    ctypes.POINTER(TVMValue), ctypes.POINTER(ctypes.c_int32),
                                    ctypes.c_void_p)

#: byte offsets of DLTensor fields, for code generators that GEP by hand
DLTENSOR_OFFSETS = {field[0]: getattr(DLTensor, field[0]).offset for field in DLTensor._fields_}
DLTENSOR_SIZE = ctypes.sizeof(DLTensor)


def dl_dtype(dt: Any) -> tuple[int, int, int]:
    """``(code, bits, lanes)`` of the DLDataType TVM uses for NumPy dtype ``dt``: bool is
    ``(kDLUInt, 1, 1)`` (TVM's ``bool``), ``float16`` ``(kDLFloat, 16, 1)``...

    Raises:
        ValueError: for a NumPy dtype with no DLPack counterpart (objects, strings, complex).
    """
    dt = np.dtype(dt)
    if dt == np.bool_:
        return (int(DTypeCode.UINT), 1, 1)
    kinds = {"i": DTypeCode.INT, "u": DTypeCode.UINT, "f": DTypeCode.FLOAT}
    if dt.kind in kinds:
        return (int(kinds[dt.kind]), dt.itemsize * 8, 1)
    if dt.name == "bfloat16":
        return (int(DTypeCode.BFLOAT), 16, 1)
    raise ValueError(f"expected an array of bool, int, uint or float elements, got dtype "
                     f"{dt.name}")
