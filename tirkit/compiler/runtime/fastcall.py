"""The fast path of a packed call (no TVM counterpart; TVM's FFI does the same in C): for a
function whose arguments are all arrays of static shape and dtype, the checks that
:func:`~tirkit.compiler.runtime.packed.check_and_convert` makes reduce to comparing each array's
dtype, shape and flags with constants, and the ``DLTensor`` of each argument is a prepared
template with only the data pointer filled in. Any argument that does not pass goes the general
way, which gives the precise error.
"""
from __future__ import annotations

import ctypes
from typing import Any, Sequence

import numpy as np

from tirkit.ir.expr import IntImm

from . import abi
from .abi import DLTensor, TVMValue, TypeCode, dl_dtype

__all__ = ["FastPlan"]


class _Arg:
    __slots__ = ("dtype", "shape", "written", "template", "keep")

    def __init__(self, dtype: np.dtype, shape: tuple[int, ...], written: bool,
                 dl: tuple[int, int, int]) -> None:
        self.dtype, self.shape, self.written = dtype, shape, written
        c_shape = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        t = DLTensor()
        t.device = abi.DLDevice(int(abi.DeviceType.kDLCPU), 0)
        t.ndim = len(shape)
        t.dtype = abi.DLDataType(*dl)
        t.shape = ctypes.cast(c_shape, ctypes.POINTER(ctypes.c_int64))
        t.strides = None
        t.byte_offset = 0
        self.template = bytes(t)
        self.keep = c_shape  # the shape the template points to


class FastPlan:
    """Prepared checks and DLTensor templates, or ``None`` from :meth:`make` when a function's
    signature needs the general path (scalars, symbolic shapes, strides, offsets)."""

    def __init__(self, args: list[_Arg]) -> None:
        self.args = args
        self.codes = (ctypes.c_int32 * max(len(args), 1))(
            *[int(TypeCode.kTVMDLTensorHandle)] * len(args))

    @staticmethod
    def make(spec: Any) -> "FastPlan | None":
        """The plan for ``spec`` (a :class:`~.packed.FuncSpec`), or None."""

        out = []
        for i, arg in enumerate(spec.args):
            buf = arg.buffer
            if not arg.dtype.is_handle() or buf is None or buf.strides or \
                    not all(isinstance(d, IntImm) for d in buf.shape) or \
                    not (isinstance(buf.elem_offset, IntImm) and buf.elem_offset.value == 0) or \
                    buf.dtype.lanes != 1 or buf.dtype.is_bool():
                return None
            try:
                dtype = np.dtype(str(buf.dtype))
            except TypeError:
                return None
            written = spec.written is None or i in spec.written
            out.append(_Arg(dtype, tuple(d.value for d in buf.shape), written,
                            dl_dtype(dtype)))
        return FastPlan(out)

    def marshal(self, args: Sequence[Any]) -> tuple[Any, list[Any]] | None:
        """``(values, keep-alive)`` for ``args``, or None when one of them needs the general
        path (wrong kind, dtype, shape, layout, a read-only output...)."""
        if len(args) != len(self.args):
            return None
        values = (TVMValue * max(len(args), 1))()
        keep: list[Any] = []
        for i, (a, plan) in enumerate(zip(args, self.args)):
            if type(a) is not np.ndarray or a.dtype != plan.dtype or a.shape != plan.shape:
                return None
            flags = a.flags
            if not (flags.c_contiguous and flags.aligned) or \
                    (plan.written and not flags.writeable):
                return None
            t = DLTensor.from_buffer_copy(plan.template)
            t.data = a.ctypes.data
            keep.append(t)
            values[i].v_handle = ctypes.addressof(t)
        return values, keep
