"""Constant folding in the op functions follows TVM's ``arith::TryConstFold`` and the folds in
``tvm::left_shift``/``right_shift``/``bitwise_and/or/xor`` (src/arith/const_fold.h,
src/tir/op/op.cc): exactly those folds, no more, since the parser builds IR through them."""
import pytest

from tirkit import tir
from tirkit.tir import Call, FloatImm, IntImm, Var
from tirkit.tir import expr as E


def _i(value, dtype="int32"):
    return IntImm(dtype, value)


def test_shift_of_two_index_constants_folds():
    out = tir.shift_left(_i(1, "int64"), _i(40, "int64"))
    assert isinstance(out, IntImm) and out.dtype == "int64" and out.value == 1 << 40
    assert tir.shift_right(_i(-16), _i(2)).value == -4  # arithmetic, as in C on int64


def test_shift_by_zero_is_the_operand_and_other_shifts_stay_calls():
    x = Var("x", "int32")
    assert tir.shift_left(x, _i(0)) is x
    assert isinstance(tir.shift_left(x, _i(3)), Call)
    assert isinstance(tir.shift_left(_i(1), x), Call)


def test_shifts_and_bitwise_ops_on_non_index_types_do_not_fold():
    for dtype in ("int8", "uint32", "int16"):
        assert isinstance(tir.shift_left(_i(1, dtype), _i(2, dtype)), Call)
        assert isinstance(tir.bitwise_and(_i(6, dtype), _i(3, dtype)), Call)


def test_bitwise_ops_fold_on_index_constants_only_when_both_are_constants():
    assert tir.bitwise_and(_i(6), _i(3)).value == 2
    assert tir.bitwise_or(_i(6, "int64"), _i(3, "int64")).value == 7
    assert tir.bitwise_xor(_i(6), _i(3)).value == 5
    x = Var("x", "int32")
    assert isinstance(tir.bitwise_and(x, _i(0)), Call)  # TVM has no identities here
    assert isinstance(tir.bitwise_not(_i(1)), Call)  # bitwise_neg never folds


def test_constant_shift_amount_out_of_range_is_an_error():
    with pytest.raises(ValueError, match="less than 32"):
        tir.shift_left(Var("x", "int32"), _i(32))
    with pytest.raises(ValueError, match="non-negative"):
        tir.shift_right(_i(8), _i(-1))


def test_mod_folds_on_index_types_only():
    assert tir.floormod(_i(-7), _i(3)).value == 2
    assert tir.truncmod(_i(-7), _i(3)).value == -1
    assert isinstance(tir.floormod(_i(7, "int8"), _i(3, "int8")), E.FloorMod)
    assert isinstance(tir.truncmod(_i(7, "uint32"), _i(3, "uint32")), E.Mod)
    # floordiv folds on every type (TVM_ARITH_CONST_PROPAGATION)
    assert tir.floordiv(_i(7, "int8"), _i(2, "int8")).value == 3


def test_float_constants_fold_at_32_and_64_bits_only():
    f16 = tir.add(FloatImm("float16", 1.5), FloatImm("float16", 2.0))
    assert isinstance(f16, E.Add)
    assert tir.add(FloatImm("float64", 1.5), FloatImm("float64", 2.0)).value == 3.5
    # float32 folds in single precision: 0.1f + 0.2f is 0.30000001192..., not 0.3 in double
    f32 = tir.add(FloatImm("float32", 0.1), FloatImm("float32", 0.2))
    assert f32.value == pytest.approx(0.30000001192092896, abs=0) and f32.value != 0.1 + 0.2
    # identities still apply to float16
    y = Var("y", "float16")
    assert tir.add(y, FloatImm("float16", 0.0)) is y
    assert tir.multiply(FloatImm("float16", 1.0), y) is y


def test_float32_overflow_folds_to_infinity():
    out = tir.multiply(FloatImm("float32", 3e38), FloatImm("float32", 10.0))
    assert out.value == float("inf")


def test_multiplying_by_float_zero_gives_the_zero():
    y = Var("y", "float32")
    zero = FloatImm("float32", 0.0)
    assert tir.multiply(y, zero) is zero
    assert tir.div(zero, y) is zero


def test_no_folds_beyond_tvms():
    x = Var("x", "int32")
    assert isinstance(tir.subtract(_i(0), x), E.Sub)  # no 0 - x -> -x
    b = Var("b", "bool")
    assert isinstance(tir.logical_not(tir.logical_not(b)), E.Not)  # no !!b -> b at build time


def test_float_division_by_constant_zero_raises():
    with pytest.raises(ZeroDivisionError):
        tir.div(Var("y", "float32"), FloatImm("float32", 0.0))
