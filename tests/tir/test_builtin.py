"""The built-in op registry (tirkit.tir.builtin) and the op functions built on it (op_math,
op_intrin), checked against TVM v0.20's registry and behaviour."""
import math

import pytest

import tirkit.tir as T
from tirkit.ir import CallEffectKind, FloatImm, IntImm, Op, list_ops
from tirkit.tir import builtin
from tirkit.tir.expr import And, BufferLoad, Call, Cast, Reduce, StringImm, Var

P, EA, RS, US, SCA, EMB, CJ = 1, 0, 2, 3, 4, 5, 6

# (name, num_inputs, TCallEffectKind value) as TVM's registry reports them
TVM_REFERENCE = [
    ("tir.exp", 1, P), ("tir.log", 1, P), ("tir.sqrt", 1, P), ("tir.atan2", 2, P),
    ("tir.pow", 2, P), ("tir.fabs", 1, P), ("tir.popcount", 1, P), ("tir.clz", 1, P),
    ("tir.likely", 1, EA), ("tir.ret", 1, CJ), ("tir.reinterpret", 1, P),
    ("tir.if_then_else", 3, P), ("tir.bitwise_and", 2, P), ("tir.bitwise_not", 1, P),
    ("tir.shift_right", 2, P), ("tir.large_uint_imm", 2, P), ("tir.address_of", 1, P),
    ("tir.isnullptr", 1, P), ("tir.isnan", 1, P), ("tir.fma", 3, P),
    ("tir.call_extern", -1, US), ("tir.call_pure_extern", -1, P),
    ("tir.call_llvm_intrin", -1, US), ("tir.call_llvm_pure_intrin", -1, P),
    ("tir.call_spirv_pure_glsl450", -1, P), ("tir.prefetch", -1, US),
    ("tir.tvm_access_ptr", 5, SCA), ("tir.tvm_static_handle", 0, SCA),
    ("tir.tvm_context_id", 0, RS), ("tir.tvm_tuple", -1, EMB), ("tir.tvm_struct_get", 3, RS),
    ("tir.tvm_struct_set", 4, US), ("tir.tvm_throw_last_error", 0, US),
    ("tir.tvm_stack_alloca", 2, US), ("tir.tvm_stack_make_shape", -1, US),
    ("tir.tvm_stack_make_array", 6, US), ("tir.tvm_call_packed", -1, US),
    ("tir.tvm_call_cpacked_lowered", -1, US), ("tir.tvm_thread_allreduce", -1, US),
    ("tir.tvm_load_matrix_sync", -1, RS), ("tir.tvm_warp_shuffle_down", -1, US),
    ("tir.ptx_mma", -1, US), ("tir.ptx_ldg32", 4, P), ("tir.vectorcombine", -1, P),
    ("tir.dp4a", -1, P), ("tir.assume", 1, EMB), ("tir.undef", 0, RS),
    ("tir.type_annotation", -1, P), ("tir.start_profile_intrinsic", -1, P),
    ("tir.anylist_getitem", -1, RS), ("tir.anylist_setitem_call_packed", -1, US),
    ("tir.get_active_lane_mask", 2, P), ("tir.TVMBackendAllocWorkspace", 5, US),
]

# The op functions of TVM v0.20's ``T.`` namespace (python/tvm/script/ir_builder/tir/ir.py).
T_NAMESPACE_OPS = """
abs acos acosh address_of asin asinh atan atan2 atanh bitwise_and bitwise_not bitwise_or
bitwise_xor ceil clz copysign cos cosh erf exp exp2 exp10 floor floordiv floormod fmod hypot
if_then_else infinity isfinite isinf isnan isnullptr ldexp likely log log1p log2 log10 lookup_param
max_value min_value nearbyint nextafter popcount pow q_multiply_shift q_multiply_shift_per_axis ret
round rsqrt shift_left shift_right sigmoid sin sinh sqrt tan tanh trunc truncdiv truncmod
tvm_access_ptr tvm_throw_last_error tvm_stack_alloca tvm_stack_make_shape tvm_stack_make_array
tvm_check_return call_packed call_cpacked call_packed_lowered call_cpacked_lowered tvm_tuple
tvm_struct_set tvm_struct_get tvm_thread_invariant tvm_thread_allreduce tvm_load_matrix_sync
tvm_mma_sync tvm_bmma_sync tvm_fill_fragment tvm_store_matrix_sync tvm_storage_sync
tvm_warp_shuffle tvm_warp_shuffle_up tvm_warp_shuffle_down tvm_warp_activemask ptx_wait_group
ptx_commit_group ptx_cp_async_barrier ptx_init_barrier_thread_count ptx_arrive_barrier
ptx_arrive_barrier_expect_tx ptx_wait_barrier make_filled_simdgroup_matrix simdgroup_load
simdgroup_store simdgroup_multiply_accumulate create_barriers assume undef TVMBackendAllocWorkspace
TVMBackendFreeWorkspace start_profile_intrinsic end_profile_intrinsic anylist_getitem
anylist_resetitem anylist_setitem_call_packed anylist_setitem_call_cpacked vscale
ignore_loop_partition reinterpret call_extern call_intrin call_llvm_intrin call_llvm_pure_intrin
call_pure_extern ptx_mma ptx_mma_sp ptx_ldmatrix ptx_cp_async ptx_cp_async_bulk mma_store mma_fill
vectorlow vectorhigh vectorcombine get_active_lane_mask dp4a comm_reducer type_annotation
""".split()


@pytest.fixture
def f32():
    return Var("f", "float32")


@pytest.fixture
def i32():
    return Var("i", "int32")


# ------------------------------------------------------------------------------- registry
@pytest.mark.parametrize("name,num_inputs,effect", TVM_REFERENCE)
def test_registry_matches_tvm(name, num_inputs, effect):
    op = Op.get(name)
    assert op.num_inputs == num_inputs
    assert int(op.effect) == effect


def test_effect_kind_values_are_tvms():
    assert CallEffectKind.OPAQUE is CallEffectKind.UPDATE_STATE
    assert int(CallEffectKind.SPECIAL_CALL_ARG) == 4 and int(CallEffectKind.CONTROL_JUMP) == 6


def test_every_table_row_registered_once():
    names = builtin.builtin_op_names()
    assert len(names) == len(set(names))
    assert set(names) <= set(list_ops())
    assert len(names) >= 140


def test_documented_arity_deviations():
    assert Op.get("tir.fmod").num_inputs == 2
    assert Op.get("tir.q_multiply_shift").num_inputs == 4
    assert Op.get("tir.lookup_param").num_inputs == 1


def test_every_t_namespace_op_function_exists():
    missing = [n for n in T_NAMESPACE_OPS if not callable(getattr(T, n, None))]
    assert not missing


@pytest.mark.parametrize("name,printed", [
    ("tir.exp", "exp"), ("tir.if_then_else", "if_then_else"), ("tir.call_extern", "call_extern"),
    ("tir.tvm_call_packed", "call_packed"), ("tir.tvm_call_cpacked_lowered",
                                             "call_cpacked_lowered"),
    ("tir.tvm_struct_get", "tvm_struct_get"), ("tir.cuda.__shfl_sync", "cuda.__shfl_sync"),
])
def test_script_printer_names(name, printed):
    assert Op.get(name).attrs["TScriptPrinterName"] == printed
    assert builtin.script_name(name) == printed


def test_vectorizable_and_lowering_attrs():
    assert Op.get("tir.exp").attrs["TVectorizable"] is True
    assert "TVectorizable" not in Op.get("tir.erf").attrs
    assert Op.get("tir.exp").attrs["llvm_intrin"] == "llvm.exp"
    assert Op.get("tir.popcount").attrs["llvm_intrin"] == "llvm.ctpop"
    assert builtin.libm_symbol("tir.exp", "float32") == "expf"
    assert builtin.libm_symbol("tir.atan2", "float64") == "atan2"
    assert builtin.libm_symbol("tir.sigmoid", "float32") is None
    assert builtin.libm_symbol("tir.exp", "int32") is None
    assert Op.get("tir.call_extern").attrs["TScriptDtypePrintLocation"] == "first"
    assert Op.get("tir.tvm_struct_get").attrs["TScriptDtypePrintLocation"] == "last"


def test_purity():
    assert Op.get("tir.exp").is_pure
    assert Op.get("tir.likely").is_pure
    assert not Op.get("tir.call_extern").is_pure
    assert Op.get("tir.call_pure_extern").is_pure
    assert not Op.get("tir.tvm_call_packed").is_pure


def test_call_arity_error_names_op(f32):
    with pytest.raises(TypeError, match="tir.exp"):
        Call("float32", "tir.exp", (f32, f32))
    with pytest.raises(TypeError, match="tir.if_then_else"):
        T.call_intrin("float32", "tir.if_then_else", f32)


def test_unknown_op_name_is_clear(f32):
    with pytest.raises(KeyError, match="'tir.expp' is not registered.*did you mean 'tir.exp"):
        T.call_intrin("float32", "tir.expp", f32)
    with pytest.raises(KeyError, match="tir.nope"):
        Op.get("tir.nope")


def test_op_repr():
    assert repr(Op.get("tir.exp")) == "Op(tir.exp)"


# -------------------------------------------------------------------------- math functions
@pytest.mark.parametrize("name", ["exp", "exp2", "exp10", "log", "log2", "log10", "log1p", "sqrt",
                                  "rsqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin",
                                  "acos", "atan", "asinh", "acosh", "atanh", "erf", "sigmoid",
                                  "popcount"])
def test_unary_math_builds_call(name, f32):
    e = getattr(T, name)(f32)
    assert isinstance(e, Call) and e.op is Op.get(f"tir.{name}")
    assert e.dtype == "float32" and e.args == (f32,)


def test_unary_math_dtypes(i32):
    v = Var("v", "float32x4")
    assert T.exp(v).dtype == "float32x4"
    assert T.exp(i32).dtype == "int32"  # TVM neither casts nor rejects
    assert T.exp(1.0).args[0].dtype == "float32"
    assert not isinstance(T.exp(FloatImm("float32", 2.5)), FloatImm)  # no folding
    assert T.clz(Var("a", "int64")).dtype == "int32"


@pytest.mark.parametrize("name,value,expected", [
    ("floor", 2.5, 2.0), ("ceil", 2.5, 3.0), ("trunc", -2.5, -2.0), ("round", 2.5, 2.0),
    ("round", 3.5, 4.0), ("nearbyint", 2.5, 2.0), ("floor", -2.5, -3.0),
])
def test_rounding_folds_float_constants(name, value, expected):
    e = getattr(T, name)(FloatImm("float32", value))
    assert isinstance(e, FloatImm) and e.value == expected and e.dtype == "float32"


def test_rounding_on_ints_and_vars(i32, f32):
    assert T.floor(i32) is i32
    assert T.ceil(IntImm("int32", 3)).value == 3
    e = T.round(f32)
    assert isinstance(e, Call) and e.op.name == "tir.round"


def test_isnan_isinf_isfinite(i32, f32):
    assert T.isnan(i32).value == 0 and T.isinf(i32).dtype == "bool"
    assert T.isnan(FloatImm("float32", math.nan)).value == 1
    assert T.isinf(FloatImm("float32", math.inf)).value == 1
    assert T.isfinite(FloatImm("float32", 1.0)).value == 1
    assert T.isfinite(i32).value == 1
    e = T.isnan(f32)
    assert isinstance(e, Call) and e.dtype == "bool"
    h = T.isnan(Var("h", "float16"))
    assert isinstance(h.args[0], Cast) and h.args[0].dtype == "float32"
    assert isinstance(T.isinf(f32), And)
    with pytest.raises(TypeError):
        T.isnan(Var("p", "handle"))


def test_pow(f32, i32):
    e = T.pow(2, f32)
    assert e.op.name == "tir.pow" and e.args[0].dtype == "float32" and e.dtype == "float32"
    h = T.power(Var("h", "float16"), f32)
    assert isinstance(h.args[0], Cast) and h.dtype == "float32"
    with pytest.raises(TypeError, match="power only applies to float"):
        T.pow(i32, 2)


@pytest.mark.parametrize("name", ["fmod", "atan2", "nextafter", "hypot", "copysign", "ldexp"])
def test_binary_math_takes_first_dtype(name, f32):
    h = Var("h", "float16")
    e = getattr(T, name)(f32, h)
    assert e.op.name == f"tir.{name}" and e.dtype == "float32" and e.args == (f32, h)


def test_q_multiply_shift(i32):
    e = T.q_multiply_shift(i32, i32, 31, 3)
    assert e.dtype == "int32" and len(e.args) == 4
    assert len(T.q_multiply_shift_per_axis(i32, i32, 1, 2, 31, True, False).args) == 7


# ---------------------------------------------------------------------------- conditionals
def test_if_then_else_type_matching(i32, f32):
    e = T.if_then_else(i32 > 0, i32, 1.5)
    assert e.op.name == "tir.if_then_else" and e.dtype == "float32"
    assert isinstance(e.args[1], Cast)
    e = T.if_then_else(i32 > 0, Var("v", "float32x4"), 1.0)
    assert e.dtype == "float32x4"


def test_if_then_else_folds_and_checks(i32):
    assert T.if_then_else(True, i32, 2) is i32
    assert T.if_then_else(IntImm("bool", 0), i32, 2).value == 2
    with pytest.raises(TypeError, match="boolean"):
        T.if_then_else(i32, i32, 2)
    with pytest.raises(TypeError, match="boolean"):
        T.if_then_else(1, i32, 2)


def test_likely(i32):
    c = i32 > 0
    e = T.likely(c)
    assert e.op.name == "tir.likely" and e.dtype == "bool" and e.args == (c,)
    k = IntImm("bool", 1)
    assert T.likely(k) is k


def test_reinterpret(f32):
    e = T.reinterpret("int32", f32)
    assert e.op.name == "tir.reinterpret" and e.dtype == "int32"
    assert T.reinterpret("float32", f32) is f32
    with pytest.raises(TypeError, match="size match"):
        T.reinterpret("int64", f32)


# ---------------------------------------------------------------------------- dtype limits
@pytest.mark.parametrize("dtype,hi,lo", [
    ("int8", 127, -128), ("uint8", 255, 0), ("int32", 2**31 - 1, -(2**31)),
    ("int64", 2**63 - 1, -(2**63)), ("int16", 32767, -32768), ("uint32", 2**32 - 1, 0),
    ("float16", 65504.0, -65504.0), ("float32", 3.4028234663852886e38, -3.4028234663852886e38),
    ("float64", 1.7976931348623157e308, -1.7976931348623157e308),
    ("bfloat16", 3.4028234663852886e38, -3.4028234663852886e38),
    ("float8_e4m3fn", 448.0, -448.0), ("float8_e5m2", 57344.0, -57344.0),
])
def test_max_min_value(dtype, hi, lo):
    mx, mn = T.max_value(dtype), T.min_value(dtype)
    assert mx.dtype == dtype and mn.dtype == dtype
    assert mx.value == hi and mn.value == lo


def test_uint64_max_is_large_uint_imm():
    e = T.max_value("uint64")
    assert e.op.name == "tir.large_uint_imm" and e.dtype == "uint64"
    assert [a.value for a in e.args] == [2**32 - 1, 2**32 - 1]


def test_infinity_and_errors():
    assert T.infinity("float16").value == math.inf
    assert T.infinity("float64").dtype == "float64"
    for bad in ("int32", "bfloat16"):
        with pytest.raises(TypeError, match="infinity"):
            T.infinity(bad)
    with pytest.raises(TypeError):
        T.max_value("handle")
    with pytest.raises(TypeError):
        T.max_value("float32x4")


# ---------------------------------------------------------------------------- call intrinsics
def test_call_extern_and_pure_extern(f32):
    e = T.call_extern("float32", "foo", f32, 1)
    assert e.op.name == "tir.call_extern" and e.dtype == "float32"
    assert isinstance(e.args[0], StringImm) and e.args[0].value == "foo"
    assert e.args[2].dtype == "int32"
    assert T.call_pure_extern("float32", "foo", f32).op.is_pure


def test_call_intrin(f32):
    e = T.call_intrin("float32", "tir.exp", f32)
    assert e.op is Op.get("tir.exp")
    assert T.call_pure_intrin("float32", Op.get("tir.sqrt"), f32).op.name == "tir.sqrt"


def test_call_llvm_intrin(f32):
    e = T.call_llvm_pure_intrin("float32", "llvm.fabs", f32)
    assert e.op.name == "tir.call_llvm_pure_intrin" and e.args[0].value == "llvm.fabs"
    e = T.call_llvm_intrin("float32", 95, f32)
    assert e.args[0].dtype == "uint32" and e.args[0].value == 95
    with pytest.raises(ValueError, match="Unknown llvm intrinsic"):
        T.call_llvm_intrin("float32", "fabs", f32)


def test_call_packed_packs_buffers(i32):
    a = T.decl_buffer((4, 8), "float32", name="A")
    e = T.call_packed("f", a, i32)
    assert e.op.name == "tir.tvm_call_packed" and e.dtype == "int32"
    arr = e.args[1]
    assert arr.op.name == "tir.tvm_stack_make_array" and arr.args[0] is a.data
    assert arr.args[1].op.name == "tir.tvm_stack_make_shape" and arr.args[3].value == 2
    assert T.call_cpacked("f", i32).op.name == "tir.tvm_call_cpacked"
    assert T.call_packed_lowered("f", i32).op.name == "tir.tvm_call_packed_lowered"


def test_struct_get_set_and_stack():
    h = Var("a", "handle")
    g = T.tvm_struct_get(h, 0, 1, "int64")
    assert g.dtype == "int64" and g.op.effect == CallEffectKind.READ_STATE
    s = T.tvm_struct_set(h, 0, 1, IntImm("int64", 3))
    assert s.dtype == "int32" and len(s.args) == 4
    al = T.tvm_stack_alloca("shape", 4)
    assert al.dtype == "handle" and al.args[0].value == "shape"
    with pytest.raises(TypeError, match="tvm_stack_alloca"):
        T.tvm_stack_alloca("shape")
    assert T.tvm_throw_last_error().dtype == "handle"


def test_misc_intrinsics(i32):
    assert T.type_annotation("float16").dtype == "float16"
    assert T.ret(i32).op.effect == CallEffectKind.CONTROL_JUMP
    assert T.isnullptr(Var("p", "handle")).dtype == "bool"
    assert T.assume(i32 > 0).dtype == "bool"
    assert T.undef().dtype == "int32"
    assert T.lookup_param("p").args[0].value == "p"
    v = Var("v", "int8x16")
    assert T.vectorlow("int8x8", v).dtype == "int8x8"
    assert T.vectorcombine("int8x32", v, v).dtype == "int8x32"
    assert T.dp4a(Var("a", "int8x4"), Var("b", "int8x4")).args[2].value == 0
    assert T.tvm_warp_shuffle(0, Var("x", "float32"), 1, 32, 32).dtype == "float32"
    assert T.tvm_access_ptr("float32", Var("a", "handle"), 0, 4, 3).args[0].dtype == "float32"


def test_address_of():
    b = T.decl_buffer((4, 8), "float32", name="B")
    e = T.address_of(b[1, 2])
    assert e.dtype == "handle" and isinstance(e.args[0], BufferLoad)
    assert [i.value for i in T.address_of(b).args[0].indices] == [0, 0]
    x = Var("x", "int32")  # a scalar var: TVM 0.27 (tvm.tirx.address_of) takes it
    assert T.address_of(x).args == (x,) and T.address_of(x).dtype == "handle"
    with pytest.raises(TypeError, match="address_of expects a scalar"):
        T.address_of(Var("p", "handle"))
    with pytest.raises(ValueError, match="address_of"):
        T.address_of(T.const(3, "int32"))


# ------------------------------------------------------------------------- Buffer.access_ptr
def _values(call):
    return [getattr(a, "value", a) for a in call.args[2:]]


def test_buffer_access_ptr_defaults():
    b = T.decl_buffer((4, 8), "float32", name="B")
    e = b.access_ptr("r")
    assert e.op.name == "tir.tvm_access_ptr" and e.dtype == "handle"
    assert e.args[0].op.name == "tir.type_annotation" and e.args[0].dtype == "float32"
    assert e.args[1] is b.data
    assert _values(e) == [0, 32, 1]


def test_buffer_access_ptr_options():
    b = T.decl_buffer((4, 8), "float32", name="B")
    assert _values(b.access_ptr("rw", offset=3, extent=5)) == [3, 5, 3]
    assert _values(b.access_ptr("w", offset=2)) == [2, 30, 2]
    e = b.access_ptr(2, content_lanes=4)
    assert e.args[0].dtype == "float32x4" and _values(e) == [0, 8, 2]
    strided = T.decl_buffer((4, 8), "float32", name="S", strides=(16, 1))
    assert _values(strided.access_ptr("r")) == [0, 64, 1]
    with pytest.raises(ValueError, match="access_mask"):
        b.access_ptr("x")


def test_buffer_access_ptr_symbolic_offset():
    b = T.decl_buffer((4, 8), "float32", name="C", offset_factor=1)
    assert b.access_ptr("r").args[2] is b.elem_offset


# -------------------------------------------------------------------------------- reducers
def test_comm_reducer_builds_reduce(i32):
    k = T.IterVar((0, 10), "k", T.IterVarType.CommReduce)
    r = T.sum(i32, k)
    assert isinstance(r, Reduce) and r.dtype == "int32"
    comb = r.combiner
    assert [v.name for v in comb.lhs] == ["x"] and [v.name for v in comb.rhs] == ["y"]
    assert comb.identity_element[0].value == 0
    assert r.condition.value == 1 and r.axis == (k,)


def test_comm_reducer_direct_and_multi(i32):
    mymax = T.comm_reducer(lambda a, b: T.max(a, b), lambda t: T.min_value(t), name="mymax")
    assert mymax.__name__ == "mymax"
    assert mymax(i32, 3).__class__.__name__ == "Max"
    k = T.IterVar((0, 4), "k", T.IterVarType.CommReduce)
    argmax = T.comm_reducer(lambda x, y: (T.max(x[0], y[0]), T.max(x[1], y[1])),
                            lambda t0, t1: (T.min_value(t0), T.min_value(t1)))
    a, b = argmax((i32, Var("f", "float32")), k)
    assert a.value_index == 0 and b.value_index == 1 and b.dtype == "float32"
    assert [v.name for v in a.combiner.lhs] == ["x_0", "x_1"]
