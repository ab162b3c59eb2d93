"""TIR dtypes as LLVM types and constants (mirrors ``CodeGenLLVM::DTypeToLLVMType`` and the
``MakeValue`` helpers of TVM's ``src/target/llvm/codegen_llvm.cc``).

Value types (registers): ``bool`` is ``i1``; ``intN``/``uintN`` are ``iN`` (LLVM integers carry no
sign: signedness picks the instruction); ``float16/32/64`` are ``half``/``float``/``double``;
``bfloat16`` is held as its ``i16`` bit pattern and computed in ``float`` (llvmlite has no
``bfloat`` type); ``handle`` is the opaque ``ptr``; ``void`` is ``void``. Vectors are
``<lanes x elem>``. Storage types (memory) differ only for ``bool``, stored as one byte (``i8``),
as TVM's buffers hold it.
"""
from __future__ import annotations

import struct
from functools import lru_cache
from typing import Any

from llvmlite import ir

from ...ir.dtype import DataType, TypeCode, dtype as _dtype
from .ir_values import MDString

__all__ = ["llvm_type", "storage_type", "const", "ir_const", "PTR", "I1", "I8", "I16", "I32", "I64",
           "VOID", "DLTENSOR", "TVMVALUE", "DLTENSOR_FIELDS", "elem_bytes", "CodegenError"]

PTR = ir.PointerType()
I1, I8, I16, I32, I64 = (ir.IntType(b) for b in (1, 8, 16, 32, 64))
VOID = ir.VoidType()
F32 = ir.FloatType()

#: ``DLTensor`` (dlpack.h): data, device{type, id}, ndim, dtype{code, bits, lanes}, shape,
#: strides, byte_offset — laid out as the C struct (abi.DLTensor).
DLTENSOR = ir.LiteralStructType([PTR, ir.LiteralStructType([I32, I32]), I32,
                                 ir.LiteralStructType([I8, I8, I16]), PTR, PTR, I64])
#: ``TVMValue`` is an 8-byte union; addressed as ``i64`` slots.
TVMVALUE = I64

#: ``StructField`` kind -> (GEP path inside DLTensor, LLVM field type, field is signed).
DLTENSOR_FIELDS: dict[int, tuple[tuple[int, ...], ir.Type, bool]] = {
    1: ((0,), PTR, False),          # kArrData
    2: ((4,), PTR, False),          # kArrShape
    3: ((5,), PTR, False),          # kArrStrides
    4: ((2,), I32, True),           # kArrNDim
    5: ((3, 0), I8, False),         # kArrTypeCode
    6: ((3, 1), I8, False),         # kArrTypeBits
    7: ((3, 2), I16, False),        # kArrTypeLanes
    8: ((6,), I64, False),          # kArrByteOffset
    9: ((1, 1), I32, True),         # kArrDeviceId
    10: ((1, 0), I32, True),        # kArrDeviceType
}


class CodegenError(ValueError):
    """A TIR construct the LLVM code generator cannot translate; the message names it."""


def scalable_vector_error(what: str) -> CodegenError:
    """The error for a scalable vector (``float32xvscalex4``, ``T.vscale()``): TVM lowers
    those for AArch64 SVE only; tirkit's code generator makes fixed-length vectors."""
    return CodegenError(f"{what}: scalable vectors (T.vscale(), dtypes like float32xvscalex4) "
                        "need an AArch64 SVE target, which tirkit's LLVM code generator does "
                        "not support; use fixed-length vectors (T.vectorized(n) with a "
                        "constant n)")


@lru_cache(maxsize=256)
def _scalar_type(code: TypeCode, bits: int) -> ir.Type:
    if code in (TypeCode.INT, TypeCode.UINT):
        return ir.IntType(bits)
    if code == TypeCode.FLOAT:
        if bits in (16, 32, 64):
            return {16: ir.HalfType(), 32: ir.FloatType(), 64: ir.DoubleType()}[bits]
    if code == TypeCode.BFLOAT:
        return I16
    if code == TypeCode.HANDLE:
        return VOID if bits == 0 else PTR
    raise CodegenError(f"the LLVM code generator does not support dtype code {code.name} "
                       f"with {bits} bits")


def llvm_type(t: "DataType | str") -> ir.Type:
    """The LLVM value type of dtype ``t`` (``DTypeToLLVMType``).

    Raises:
        CodegenError: for dtypes without an LLVM form here (float8...).
    """
    t = _dtype(t)
    key = (t.code, t.bits, t.lanes)
    out = _TYPES.get(key)
    if out is None:
        if t.lanes < -1:
            raise scalable_vector_error(f"dtype {t}")
        elem = _scalar_type(t.code, t.bits)
        out = _TYPES[key] = ir.VectorType(elem, t.lanes) if t.lanes > 1 else elem
    return out


#: (code, bits, lanes) -> its LLVM value type (llvmlite types are immutable values)
_TYPES: dict[tuple[Any, int, int], ir.Type] = {}


def storage_type(t: "DataType | str") -> ir.Type:
    """The LLVM type of ``t`` in memory: ``bool`` is stored as ``i8``."""
    t = _dtype(t)
    if t.is_bool():
        return ir.VectorType(I8, t.lanes) if t.lanes > 1 else I8
    return llvm_type(t)


def elem_bytes(t: DataType) -> int:
    """Bytes of one scalar element of ``t`` in memory."""
    return 1 if t.is_bool() else max(1, t.bits // 8)


def _bf16_bits(value: float) -> int:
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def const(t: "DataType | str", value: Any) -> ir.Constant:
    """An LLVM constant of dtype ``t`` (vectors splat ``value``).

    Integers wrap to ``t``'s width, as TVM's ``IntImm`` of that width holds them.
    """
    t = _dtype(t)
    if type(value) is int and (t.code == TypeCode.INT or t.code == TypeCode.UINT):
        # integer constants are made over and over (indices, struct fields, -1, 0, 1): one
        # immutable llvmlite Constant per (dtype, value), shared by every use
        key = (t.code, t.bits, t.lanes, value)
        hit = _INT_CONSTS.get(key)
        if hit is None:
            if len(_INT_CONSTS) > 4096:
                _INT_CONSTS.clear()
            hit = _INT_CONSTS[key] = _make_const(t, value)
        return hit
    return _make_const(t, value)


#: (code, bits, lanes, value) -> the llvmlite constant of an integer dtype (see :func:`const`)
_INT_CONSTS: dict[tuple[Any, int, int, int], ir.Constant] = {}


def ir_const(ty: ir.Type, value: Any) -> ir.Constant:
    """``ir.Constant(ty, value)`` for an int (or None) value, made once per type object and
    value (llvmlite constants are immutable; indices, field numbers and -1 recur)."""
    key = (id(ty), value)
    hit = _IR_CONSTS.get(key)
    if hit is None:
        if len(_IR_CONSTS) > 4096:
            _IR_CONSTS.clear()
        hit = _IR_CONSTS[key] = ir.Constant(ty, value)  # holds ty: its id stays unique
    return hit


_IR_CONSTS: dict[tuple[int, Any], ir.Constant] = {}


def _make_const(t: DataType, value: Any) -> ir.Constant:
    elem = llvm_type(t.element_of())
    if t.is_bfloat16():
        scalar = ir.Constant(I16, _bf16_bits(float(value)))
    elif t.is_floating():
        scalar = ir.Constant(elem, float(value))
    elif t.is_handle():
        scalar = ir.Constant(PTR, None)
    elif t.bits == 1:
        scalar = ir.Constant(elem, 1 if value else 0)
    else:
        v = int(value) & ((1 << t.bits) - 1)
        scalar = ir.Constant(elem, v - (1 << t.bits) if v >> (t.bits - 1) else v)
    if t.lanes == 1:
        return scalar
    return ir.Constant(ir.VectorType(elem, t.lanes), [scalar] * t.lanes)


class Module(ir.Module):
    """An llvmlite module whose branch-weight metadata (``!{!"branch_weights", i32 1, i32 99}``,
    attached by ``if_then(..., likely=False)`` to every assertion's branch) is looked up by its
    numbers: llvmlite's own lookup hashes the printed text of fresh constants on every call. The
    IR printed is the same."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._weights: dict[tuple[str, tuple[tuple[int, int], ...]], Any] = {}
        self._branch_weights: dict[tuple[int, ...], Any] = {}
        #: CodeGenLLVM.declare's lookups: (name, type ids, var_arg) -> (function, types)
        self.declared: dict[tuple[Any, ...], tuple[Any, Any, Any]] = {}

    def branch_weights(self, weights: tuple[int, ...]) -> Any:
        """The ``!{!"branch_weights", i32 w...}`` node of ``weights`` (made once; what
        llvmlite's ``set_weights`` attaches, without a fresh metadata string per branch).

        Raises:
            ValueError: for a negative weight (as llvmlite).
        """
        md = self._branch_weights.get(weights)
        if md is None:
            if any(w < 0 for w in weights):
                raise ValueError("branch weight must be a positive integer")
            md = self._branch_weights[weights] = self.add_metadata(
                [MDString(self, "branch_weights"),
                 *(ir.Constant(I32, w) for w in weights)])
        return md

    def add_metadata(self, operands: Any) -> Any:
        key = _weights_key(operands)
        if key is None:
            return super().add_metadata(operands)
        md = self._weights.get(key)
        if md is None:
            md = self._weights[key] = super().add_metadata(operands)
        return md


def _weights_key(operands: Any) -> tuple[str, tuple[tuple[int, int], ...]] | None:
    """``(name, ((bits, value)...))`` for ``[MetaDataString, int constants...]``, else None."""
    if not isinstance(operands, list) or not operands or \
            not isinstance(operands[0], ir.MetaDataString):
        return None
    nums = []
    for op in operands[1:]:
        if type(op) is not ir.Constant or type(op.type) is not ir.IntType or \
                type(op.constant) is not int:
            return None
        nums.append((op.type.width, op.constant))
    return operands[0].string, tuple(nums)
