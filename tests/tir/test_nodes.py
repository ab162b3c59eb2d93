"""Construction rules of TIR nodes: constructor checks, immutability, operator type rules,
buffer indexing, decl_buffer defaults, PrimFunc and IRModule basics (TVM's behaviour)."""
import dataclasses

import pytest

from tirkit.ir import IRModule, Span
from tirkit.tir import (Add, Broadcast, BufferLoad, BufferRegion, BufferStore, Cast, Evaluate,
                        FloatImm, IfThenElse, IntImm, Let, PrimFunc, Ramp, Range, Var,
                        decl_buffer)


@pytest.fixture(name="v")
def _vars():
    names = {"i8": "int8", "i32": "int32", "j32": "int32", "i64": "int64", "f16": "float16",
             "f32": "float32", "u32": "uint32", "f32x4": "float32x4", "f32x8": "float32x8"}
    return {k: Var(k, t) for k, t in names.items()}


# ------------------------------------------------------------------------- constructor checks
def test_buffer_store_wrong_index_count():
    A = decl_buffer((4, 8), "float32", "A")
    with pytest.raises(ValueError, match=r"buffer 'A' has 2 dimension\(s\) but 1 index"):
        BufferStore(A, 1.0, [0])


def test_buffer_load_wrong_index_count():
    A = decl_buffer((4, 8), "float32", "A")
    with pytest.raises(ValueError, match=r"buffer 'A' has 2 dimension\(s\) but 3 index"):
        BufferLoad(A, [0, 1, 2])


def test_buffer_store_value_dtype_mismatch():
    A = decl_buffer((4,), "float32", "A")
    with pytest.raises(TypeError, match="value dtype int32 differs from buffer dtype float32"):
        BufferStore(A, Var("x", "int32"), [0])


def test_if_then_else_condition_must_be_bool_or_integer(v):
    with pytest.raises(TypeError, match="condition must be bool or an integer, got float32"):
        IfThenElse(Var("f", "float32"), Evaluate(0))
    assert IfThenElse(v["i32"], Evaluate(0)).condition is v["i32"]  # TVM: `if i:` parses
    assert IfThenElse(v["i32"] < 3, Evaluate(0)).else_case is None


def test_cast_lane_mismatch(v):
    with pytest.raises(TypeError, match="cannot cast int32 to float32x4: lane counts differ"):
        Cast("float32x4", v["i32"])
    assert Cast("float32", v["i32"]).dtype == "float32"


def test_ramp_needs_two_lanes(v):
    with pytest.raises(ValueError, match="lanes must be >= 2, got 1"):
        Ramp(v["i32"], 1, 1)
    assert Ramp(v["i32"], 1, 4).dtype == "int32x4"


def test_let_dtype_mismatch(v):
    with pytest.raises(TypeError, match="value dtype float32 differs from var 'i32' dtype int32"):
        Let(v["i32"], FloatImm("float32", 1.0), v["i32"])


def test_int_imm_range_and_dtype_checks():
    with pytest.raises(ValueError, match="300 does not fit in int8"):
        IntImm("int8", 300)
    with pytest.raises(TypeError, match="scalar integer dtype"):
        IntImm("float32", 1)


def test_binary_constructor_is_strict(v):
    with pytest.raises(TypeError, match="operand dtypes differ: int32 vs int64"):
        Add(v["i32"], v["i64"])


# ------------------------------------------------------------------------------- immutability
def test_frozen_nodes_raise_on_assignment(v):
    e = v["i32"] + 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.a = v["j32"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Evaluate(0).value = IntImm("int32", 1)


def test_with_changes_recomputes_derived_dtype_and_keeps_span(v):
    span = Span("f.py", 1, 1, 1, 5)
    e = Add(v["i32"], v["j32"], span=span)
    e2 = e.with_changes(a=v["i64"], b=v["i64"])
    assert e2.dtype == "int64" and e2.span is span and e.dtype == "int32"
    A = decl_buffer((4,), "float32", "A")
    load = A[v["i32"]]
    assert load.with_changes(indices=(Ramp(v["i32"], 1, 4),)).dtype == "float32x4"


def test_nodes_hash_by_identity(v):
    a, b = v["i32"] + 1, v["i32"] + 1
    assert len({a, b}) == 2
    assert bool(a == a) and not bool(a == b)  # EQ.__bool__ compares identity


# ------------------------------------------------------------------------ operator type rules
@pytest.mark.parametrize("lhs,rhs,expected", [
    ("i8", "i32", "int32"), ("i32", "i64", "int64"), ("f16", "f32", "float32"),
    ("i32", "f32", "float32"), ("u32", "i32", "uint32"), ("f32", "f32x4", "float32x4"),
])
def test_binary_op_promotion(v, lhs, rhs, expected):
    e = v[lhs] + v[rhs]
    assert isinstance(e, Add) and e.dtype == expected


def test_int32_plus_int64_casts_the_narrow_side(v):
    e = v["i32"] + v["i64"]
    assert isinstance(e.a, Cast) and e.a.value is v["i32"] and e.a.dtype == "int64"
    assert e.b is v["i64"]


def test_scalar_plus_vector_broadcasts(v):
    e = v["f32"] + v["f32x4"]
    assert isinstance(e.a, Broadcast) and e.a.lanes == 4 and e.a.value is v["f32"]


def test_vector_lane_mismatch_raises(v):
    with pytest.raises(TypeError, match="float32x4 vs float32x8"):
        v["f32x4"] + v["f32x8"]  # pylint: disable=pointless-statement


def test_int_true_division_raises(v):
    with pytest.raises(TypeError, match="integer division"):
        v["i32"] / v["j32"]  # pylint: disable=pointless-statement
    assert (v["f32"] / 2).dtype == "float32"


def test_constant_folding(v):
    seven = IntImm("int32", 3) + 4
    assert isinstance(seven, IntImm) and seven.value == 7 and seven.dtype == "int32"
    assert (v["i32"] + 0) is v["i32"]
    assert (v["i32"] * 1) is v["i32"]
    assert (v["i64"] + 1).b.dtype == "int64"  # Python ints take the other side's dtype


# ------------------------------------------------------------------------------------ buffers
def test_buffer_indexing(v):
    A = decl_buffer((4, 8), "float32", "A")
    load = A[v["i32"], v["j32"]]
    assert isinstance(load, BufferLoad) and load.buffer is A and load.dtype == "float32"
    assert load.indices[0] is v["i32"] and load.indices[1] is v["j32"]
    region = A[0:4, v["j32"]]
    assert isinstance(region, BufferRegion) and region.buffer is A
    assert region.region[0].min.value == 0 and region.region[0].extent.value == 4
    assert region.region[1].min is v["j32"] and region.region[1].extent.value == 1


def test_decl_buffer_defaults():
    A = decl_buffer((4, 8), "float16", "A")
    assert isinstance(A.elem_offset, IntImm) and A.elem_offset.value == 0
    assert A.data_alignment == 64 and A.offset_factor == 1 and A.scope() == "global"
    assert A.strides == () and A.dtype == "float16" and A.name == "A"
    assert A.data.dtype.is_handle() and A.data.name_hint == "A"
    assert decl_buffer((4,), scope="shared").scope() == "shared"


def test_range_constructor_forms():
    r = Range(2, 10)
    assert r.min.value == 2 and r.extent.value == 8
    r2 = Range.from_min_extent(2, 10)
    assert r2.extent.value == 10


# ------------------------------------------------------------------------- functions, modules
def test_prim_func_with_buffer_params_populates_buffer_map():
    A = decl_buffer((4,), "float32", "A")
    n = Var("n", "int32")
    f = PrimFunc([A, n], Evaluate(0))
    assert len(f.params) == 2 and f.params[1] is n
    handle = f.params[0]
    assert handle.dtype.is_handle() and handle.name_hint == "A"
    assert f.buffer_map[handle] is A and f.buffer_of("A") is A
    with pytest.raises(ValueError, match="buffer_map key 'B' is not a parameter"):
        PrimFunc([n], Evaluate(0), buffer_map={Var("B", "handle"): A})


def test_ir_module_lookup_by_name():
    f = PrimFunc([], Evaluate(0))
    g = PrimFunc([], Evaluate(1))
    mod = IRModule({"main": f, "helper": g})
    assert mod["main"] is f and mod["helper"] is g and "main" in mod
    with pytest.raises(KeyError, match="no function 'nope' \\(functions: helper, main\\)"):
        mod["nope"]  # pylint: disable=pointless-statement


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_cast_of_a_non_finite_float_constant_to_int_is_not_folded(value):
    """``cast`` folds a float constant into an integer constant by truncation, but NaN and the
    infinities have no integer value (``int(nan)`` raised ValueError: a tirc internal error
    the mutation fuzzer found); the Cast stays for the target's conversion."""
    from tirkit.ir import FloatImm  # pylint: disable=import-outside-toplevel
    from tirkit.tir import cast  # pylint: disable=import-outside-toplevel

    got = cast("int64", FloatImm("float64", value))
    assert isinstance(got, Cast) and got.dtype == "int64"
    assert cast("int64", FloatImm("float64", -2.75)).value == -2  # finite: still folded
