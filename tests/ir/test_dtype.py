"""DataType parses and prints TVM's dtype strings."""
import pytest

from tirkit.ir.dtype import DataType, TypeCode


@pytest.mark.parametrize("text", [
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool",
    "float16", "float32", "float64", "bfloat16", "float8_e4m3fn", "float8_e5m2", "handle", "void",
    "float32x4", "int8x16", "boolx8", "float16x8", "float4_e2m1fn", "float4_e2m1fnx2",
])
def test_round_trip(text):
    assert str(DataType.parse(text)) == text


@pytest.mark.parametrize("text,code,bits,lanes", [
    ("int32", TypeCode.INT, 32, 1), ("uint1", TypeCode.UINT, 1, 1), ("bool", TypeCode.UINT, 1, 1),
    ("float32x4", TypeCode.FLOAT, 32, 4), ("bfloat16", TypeCode.BFLOAT, 16, 1),
    ("handle", TypeCode.HANDLE, 64, 1), ("void", TypeCode.HANDLE, 0, 1),
    ("float8_e4m3fn", TypeCode.FLOAT8_E4M3FN, 8, 1),
    ("float4_e2m1fnx2", TypeCode.FLOAT4_E2M1FN, 4, 2),
])
def test_fields(text, code, bits, lanes):
    t = DataType.parse(text)
    assert (t.code, t.bits, t.lanes) == (code, bits, lanes)


def test_uint1_prints_as_bool_and_compares_with_strings():
    assert str(DataType.parse("uint1")) == "bool"
    assert DataType.parse("float32") == "float32"
    assert DataType.parse("float32") != "float16"
    assert hash(DataType.parse("int8")) == hash(DataType.parse("int8"))


@pytest.mark.parametrize("text", ["int7", "floaty", "float8", "int32x0", "float128", "x4"])
def test_bad_strings_raise_value_error(text):
    with pytest.raises(ValueError, match="unknown dtype"):
        DataType.parse(text)


def test_empty_string_is_void():
    """TVM's String2DLDataType reads "" as void (TVM's tests write ``T.call_extern(..., dtype="")``
    for a call without a result; TVM 0.27 prints it ``T.call_extern("void", ...)``)."""
    assert DataType.parse("") == DataType.parse("void") and str(DataType.parse("")) == "void"


def test_predicates():
    t = DataType.parse("float16x8")
    assert t.is_float() and t.is_vector() and t.element_of() == "float16"
    assert t.with_lanes(1) == "float16" and t.itemsize == 16
    assert DataType.parse("bool").is_bool() and not DataType.parse("bool").is_integer()


def test_float4_reinterprets_from_a_byte_per_lane():
    """TVM's reinterpret: a float4_e2m1fn side may match in bytes per lane (one 4-bit float
    stored in a uint8; TVM v0.20's test_target_codegen_cuda_fp4.py), else the bits must match."""
    from tirkit.tir import Var
    from tirkit.tir.op_math import reinterpret

    u8, u16 = Var("u8", "uint8"), Var("u16", "uint16")
    assert str(reinterpret("float4_e2m1fn", u8).dtype) == "float4_e2m1fn"
    assert str(reinterpret("float4_e2m1fnx2", u8).dtype) == "float4_e2m1fnx2"
    assert str(reinterpret("float4_e2m1fnx2", u16).dtype) == "float4_e2m1fnx2"  # 2 bytes
    with pytest.raises(TypeError, match="size match"):
        reinterpret("float4_e2m1fnx4", u8)
    with pytest.raises(TypeError, match="size match"):
        reinterpret("int4", u8)
