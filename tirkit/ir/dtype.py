"""Data types of TIR values, parsed from and printed to TVM's strings (mirrors ``tvm.DataType``)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache


class TypeCode(IntEnum):
    """DLPack/TVM type codes (mirrors ``tvm.runtime.DataTypeCode``)."""

    INT = 0
    UINT = 1
    FLOAT = 2
    HANDLE = 3
    BFLOAT = 4
    FLOAT8_E4M3FN = 10
    FLOAT8_E5M2 = 11
    FLOAT4_E2M1FN = 17  # DLPack 1.1's kDLFloat4_e2m1fn
    VOID = 255


# the predicates' codes as module globals: a ``TypeCode.X`` member lookup costs about as much as
# the predicate itself, and the IR asks for them tens of thousands of times a compile
_INT, _UINT, _FLOAT, _HANDLE, _BFLOAT = (TypeCode.INT, TypeCode.UINT, TypeCode.FLOAT,
                                         TypeCode.HANDLE, TypeCode.BFLOAT)
_FLOAT8 = (TypeCode.FLOAT8_E4M3FN, TypeCode.FLOAT8_E5M2)
_FLOAT4 = TypeCode.FLOAT4_E2M1FN
_INTEGER = (TypeCode.INT, TypeCode.UINT)

_CODE_NAME = {
    TypeCode.INT: "int",
    TypeCode.UINT: "uint",
    TypeCode.FLOAT: "float",
    TypeCode.HANDLE: "handle",
    TypeCode.BFLOAT: "bfloat",
}
_SPECIAL = {
    "float8_e4m3fn": (TypeCode.FLOAT8_E4M3FN, 8),
    "float8_e5m2": (TypeCode.FLOAT8_E5M2, 8),
    "e4m3_float8": (TypeCode.FLOAT8_E4M3FN, 8),
    "e5m2_float8": (TypeCode.FLOAT8_E5M2, 8),
    "float4_e2m1fn": (TypeCode.FLOAT4_E2M1FN, 4),
}
_SPECIAL_NAME = {TypeCode.FLOAT8_E4M3FN: "float8_e4m3fn", TypeCode.FLOAT8_E5M2: "float8_e5m2",
                 TypeCode.FLOAT4_E2M1FN: "float4_e2m1fn"}
_VALID_BITS = {
    TypeCode.INT: (1, 4, 8, 16, 32, 64),
    TypeCode.UINT: (1, 4, 8, 16, 32, 64),
    TypeCode.FLOAT: (16, 32, 64),
    TypeCode.BFLOAT: (16,),
    TypeCode.HANDLE: (0, 64),
}
_PATTERN = re.compile(r"^([a-z_0-9]+?)(\d*)(?:x(\d+))?$")


@dataclass(frozen=True, slots=True, eq=False, init=False)
class DataType:
    """A TIR data type: type ``code``, ``bits`` per lane and number of ``lanes``.

    Mirrors ``tvm.DataType`` / ``runtime::DataType``. Construct from TVM's strings with
    ``DataType("int8")`` as TVM spells it, ``DataType.parse("float32x4")``, or from the fields
    ``DataType(TypeCode.INT, 8, 1)``; ``str()`` prints
    the canonical TVM spelling (``"bool"`` for ``uint1``, ``"handle"``, ``"void"``).

    Raises:
        ValueError: on a string that names no TVM data type (``parse``).

    Compares equal to its string spelling (``DataType.parse("bool") == "bool"``), as TVM's
    ``str``-derived dtype does.
    """

    code: TypeCode
    bits: int
    lanes: int = 1

    def __init__(self, code: "TypeCode | int | str | DataType", bits: int | None = None,
                 lanes: int = 1) -> None:
        if bits is None:  # TVM's constructor: DataType("int8")
            parsed = code if isinstance(code, DataType) else _parse(str(code))
            code, bits, lanes = parsed.code, parsed.bits, parsed.lanes
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "bits", bits)
        object.__setattr__(self, "lanes", lanes)

    @staticmethod
    def parse(text: str) -> "DataType":
        """Parse a TVM dtype string (``"int32"``, ``"float16x8"``, ``"bool"``, ``"handle"``...).

        Raises:
            ValueError: if ``text`` is not a dtype TVM accepts, naming the string.
        """
        return _parse(text)

    def __str__(self) -> str:
        # the IR's keys, hashes and printers ask for a dtype's text millions of times a
        # compile; there are only a few dozen distinct dtypes
        key = (self.code, self.bits, self.lanes)
        text = _STR.get(key)
        if text is None:
            text = _STR[key] = _to_str(self)
        return text

    def __repr__(self) -> str:
        return f"DataType({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        # Like TVM, where a dtype is a ``str``: ``x.dtype == "float32"`` holds.
        if other is self:  # parsed dtypes are shared: most comparisons are of one object
            return True
        if isinstance(other, DataType):
            return (self.code, self.bits, self.lanes) == (other.code, other.bits, other.lanes)
        if isinstance(other, str):
            try:
                return self == _parse(other)
            except ValueError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash((int(self.code), self.bits, self.lanes))

    # --- predicates (TVM's DataType::is_xxx) ---------------------------------------------------
    def is_int(self) -> bool:
        """Signed integer (``int8``...)."""
        return self.code == _INT

    def is_uint(self) -> bool:
        """Unsigned integer, including ``bool``."""
        return self.code == _UINT

    def is_bool(self) -> bool:
        """``bool`` (``uint1``)."""
        return self.code == _UINT and self.bits == 1

    def is_float(self) -> bool:
        """IEEE float (``float16/32/64``); see :meth:`is_floating` for every float kind."""
        return self.code == _FLOAT

    def is_bfloat16(self) -> bool:
        """``bfloat16``."""
        return self.code == _BFLOAT and self.bits == 16

    def is_float8(self) -> bool:
        """``float8_e4m3fn`` or ``float8_e5m2``."""
        return self.code in _FLOAT8

    def is_float4(self) -> bool:
        """``float4_e2m1fn`` (TVM's ``is_float4``; a storage type of NVIDIA's FP4 kernels)."""
        return self.code == _FLOAT4

    def is_floating(self) -> bool:
        """Any floating-point kind (float, bfloat16, float8, float4)."""
        code = self.code
        return code == _FLOAT or (code == _BFLOAT and self.bits == 16) or code in _FLOAT8 \
            or code == _FLOAT4

    def is_integer(self) -> bool:
        """Signed or unsigned integer, bool excluded."""
        return self.code in _INTEGER and self.bits > 1

    def is_handle(self) -> bool:
        """Opaque pointer (``handle``)."""
        return self.code == _HANDLE and self.bits != 0

    def is_void(self) -> bool:
        """``void`` (handle code, 0 bits)."""
        return self.code == _HANDLE and self.bits == 0

    def is_scalar(self) -> bool:
        """One lane."""
        return self.lanes == 1

    def is_vector(self) -> bool:
        """More than one lane."""
        return self.lanes > 1

    def is_scalable_vector(self) -> bool:
        """A scalable vector (``float32xvscalex4``: ``4 * vscale`` lanes, AArch64 SVE); its
        ``lanes`` field holds ``-vscale_factor``, as TVM's ``DataType`` does."""
        return self.lanes < -1

    def is_scalable_or_fixed_length_vector(self) -> bool:
        """A vector of either kind (TVM's ``is_scalable_or_fixed_length_vector``)."""
        return self.lanes > 1 or self.lanes < -1

    @property
    def vscale_factor(self) -> int:
        """The multiplier of ``vscale`` in a scalable vector's lane count (TVM's
        ``vscale_factor()``).

        Raises:
            ValueError: for a type that is not a scalable vector.
        """
        if self.lanes >= -1:
            raise ValueError(f"{self} is not a scalable vector: it has no vscale factor")
        return -self.lanes

    def with_scalable_vscale_factor(self, factor: int) -> "DataType":
        """The scalable vector of ``factor * vscale`` lanes of this element type (TVM's
        ``with_scalable_vscale_factor``)."""
        return DataType(self.code, self.bits, -factor)

    def with_lanes(self, lanes: int) -> "DataType":
        """Same element type with ``lanes`` lanes (``DataType::with_lanes``)."""
        return DataType(self.code, self.bits, lanes)

    def with_bits(self, bits: int) -> "DataType":
        """Same code and lanes with ``bits`` bits (``DataType::with_bits``)."""
        return DataType(self.code, bits, self.lanes)

    def element_of(self) -> "DataType":
        """The scalar element type (``DataType::element_of``)."""
        return DataType(self.code, self.bits, 1)

    @property
    def itemsize(self) -> int:
        """Bytes of one element of all lanes, rounded up (``DataType::bytes``)."""
        return (self.bits * self.lanes + 7) // 8


@lru_cache(maxsize=1024)
def _parse(text: str) -> DataType:
    if not isinstance(text, str):
        raise ValueError(f"dtype must be a string, got {type(text).__name__} {text!r}")
    s = text.strip()
    if s == "bool":
        return DataType(TypeCode.UINT, 1)
    if s in ("void", ""):  # TVM's String2DLDataType: the empty string is void too
        return DataType(TypeCode.HANDLE, 0)
    base, lanes = s, 1
    if s.startswith(tuple(_SPECIAL)) or s.startswith(("bool", "handle")):
        head, sep, tail = s.rpartition("x")
        if sep and tail.isdigit() and head in (*_SPECIAL, "bool", "handle"):
            base, lanes = head, int(tail)
        if base in _SPECIAL:
            code, bits = _SPECIAL[base]
            return _checked(DataType(code, bits, lanes), text)
        if base == "bool":
            return _checked(DataType(TypeCode.UINT, 1, lanes), text)
        if base == "handle":
            return _checked(DataType(TypeCode.HANDLE, 64, lanes), text)
    if "xvscalex" in s:  # a scalable vector: TVM keeps -factor in the lanes field
        head, _, factor = s.partition("xvscalex")
        if not factor.isdigit() or int(factor) < 2:
            raise ValueError(f"unknown dtype {text!r}: the vscale factor must be an integer "
                             ">= 2")
        elem = _parse(head)
        if elem.lanes != 1 or elem.code == TypeCode.HANDLE:
            raise ValueError(f"unknown dtype {text!r}: scalable vectors have scalar elements")
        return DataType(elem.code, elem.bits, -int(factor))
    m = _PATTERN.match(s)
    names = {v: k for k, v in _CODE_NAME.items()}
    if not m or m.group(1) not in names:
        raise ValueError(f"unknown dtype {text!r}: expected e.g. 'int32', 'uint8', 'float16', "
                         f"'bfloat16', 'float8_e4m3fn', 'bool', 'handle', 'float32x4'")
    code = names[m.group(1)]
    default_bits = {TypeCode.BFLOAT: 16, TypeCode.HANDLE: 64}.get(code, 32)
    bits = int(m.group(2)) if m.group(2) else default_bits
    lanes = int(m.group(3)) if m.group(3) else 1
    return _checked(DataType(code, bits, lanes), text)


def _checked(t: DataType, text: str) -> DataType:
    if t.bits not in _VALID_BITS.get(t.code, (t.bits,)):
        raise ValueError(f"unknown dtype {text!r}: {t.bits} bits is not valid for "
                         f"{_CODE_NAME.get(t.code, t.code.name.lower())}")
    if t.lanes < 1:
        raise ValueError(f"unknown dtype {text!r}: lanes must be >= 1")
    return t


_STR: dict[tuple[TypeCode, int, int], str] = {}


def _to_str(t: DataType) -> str:
    if t.code == TypeCode.HANDLE and t.bits == 0:
        return "void"
    if t.code == TypeCode.UINT and t.bits == 1:
        base = "bool"
    elif t.code in _SPECIAL_NAME:
        base = _SPECIAL_NAME[t.code]
    elif t.code == TypeCode.HANDLE:
        base = "handle"
    else:
        base = f"{_CODE_NAME[t.code]}{t.bits}"
    if t.lanes < -1:
        return f"{base}xvscalex{-t.lanes}"
    return base if t.lanes == 1 else f"{base}x{t.lanes}"


def dtype(value: "str | DataType") -> DataType:
    """Coerce a TVM dtype string, a :class:`DataType` or a type (``PrimType`` -> its dtype,
    ``PointerType`` -> ``handle``; TVM 0.27 passes ``T.handle().ty`` as a dtype) to a
    :class:`DataType`.

    Raises:
        ValueError: on an unknown dtype string.
    """
    if isinstance(value, DataType):
        return value
    if not isinstance(value, str):
        inner = getattr(value, "dtype", None)
        if isinstance(inner, DataType):  # PrimType
            return inner
        if hasattr(value, "element_type"):  # PointerType
            return handle
    return _parse(value)


# Frequently used constants.
int8, int16, int32, int64 = (dtype(f"int{b}") for b in (8, 16, 32, 64))
uint8, uint16, uint32, uint64 = (dtype(f"uint{b}") for b in (8, 16, 32, 64))
float16, float32, float64 = (dtype(f"float{b}") for b in (16, 32, 64))
bfloat16 = dtype("bfloat16")
bool_ = dtype("bool")
handle = dtype("handle")
void = dtype("void")
