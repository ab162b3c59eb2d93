"""Casts, vectors, math intrinsics, bit operations and control flow in the LLVM code generator,
JIT-run and compared with NumPy (tirkit.compiler.codegen; TVM's test_target_codegen_llvm.py)."""
import ctypes

import numpy as np
import pytest

from test_codegen import HOST, compile_c, run  # noqa: E402  (tests/compiler is on sys.path)
from tirkit import tir
from tirkit.compiler.codegen import emit_llvm, optimize
from tirkit.compiler.runtime.jit import JITModule
from tirkit.lang import from_source

# ---------------------------------------------------------------------------------- casts
CAST = '''
@T.prim_func
def f(a: T.handle("{src}"), b: T.handle("{dst}"), n: T.int32):
    A = T.Buffer((n,), "{src}", data=a)
    B = T.Buffer((n,), "{dst}", data=b)
    for i in range(n):
        B[i] = T.Cast("{dst}", A[i])
'''


@pytest.mark.parametrize("src,dst", [
    ("float32", "int32"), ("float64", "int8"), ("float32", "uint8"), ("int32", "float32"),
    ("uint32", "float64"), ("int8", "int64"), ("uint8", "int32"), ("int64", "int16"),
    ("float32", "float64"), ("float64", "float32"), ("float32", "float16"),
    ("float16", "float32"), ("int32", "bool"), ("float32", "bool"), ("bool", "float32"),
    ("bool", "int32")])
def test_casts_follow_c_rules(src, dst):
    if src.startswith("float"):
        a = np.array([2.7, -2.7, 0.0, 100.4, -0.5, 3.5, 65504.0, 1e-3], src)
        if dst in ("uint8",):
            a = np.abs(a).clip(0, 255).astype(src)
        if dst == "int8":
            a = a.clip(-128, 127).astype(src)
    elif src == "bool":
        a = np.array([True, False, True], bool)
    else:
        info = np.iinfo(src)
        a = np.array([0, 1, -1, 127, -128, 300, info.max, info.min], "int64")
        a = a.clip(info.min, info.max).astype(src)
    b = np.zeros(len(a), dst)
    run(CAST.format(src=src, dst=dst), "f", a, b, len(a))
    if src.startswith("float") and not dst.startswith("float") and dst != "bool":
        expect = np.trunc(a).astype(dst)  # fptosi truncates toward zero
    else:
        expect = a.astype(dst)
    np.testing.assert_array_equal(b, expect)


def test_reinterpret_and_bit_operations():
    src = '''
@T.prim_func
def f(a: T.handle("float32"), b: T.handle("int32"), c: T.handle("int32"), d: T.handle("uint32")):
    A = T.Buffer((4,), "float32", data=a)
    B = T.Buffer((4,), "int32", data=b)
    C = T.Buffer((8,), "int32", data=c)
    D = T.Buffer((2,), "uint32", data=d)
    for i in range(4):
        B[i] = T.reinterpret("int32", A[i])
    C[0] = T.bitwise_and(B[0], 255)
    C[1] = T.bitwise_or(B[1], 1)
    C[2] = T.bitwise_xor(B[2], B[3])
    C[3] = T.bitwise_not(B[0])
    C[4] = T.shift_left(B[0], 3)
    C[5] = T.shift_right(T.int32(-64), 2)
    C[6] = T.popcount(B[1])
    C[7] = T.clz(T.int32(1))
    D[0] = T.shift_right(T.uint32(4294967232), T.uint32(2))
    D[1] = T.uint32(7)
'''
    a = np.array([1.0, -2.5, 3.25, 1e-3], "float32")
    b, c, d = np.zeros(4, "int32"), np.zeros(8, "int32"), np.zeros(2, "uint32")
    run(src, "f", a, b, c, d)
    bits = a.view("int32")
    np.testing.assert_array_equal(b, bits)
    assert c[0] == bits[0] & 255 and c[1] == bits[1] | 1 and c[2] == bits[2] ^ bits[3]
    assert c[3] == ~bits[0] and c[4] == np.int32(bits[0] << 3) and c[5] == -16
    assert c[6] == bin(int(bits[1]) & 0xFFFFFFFF).count("1") and c[7] == 31
    assert d[0] == 4294967232 >> 2


# -------------------------------------------------------------------------------- vectors
VEC = '''
@T.prim_func
def f(a: T.handle("float32"), b: T.handle("float32"), c: T.handle("float32"), n: T.int32):
    A = T.Buffer((n,), "float32", data=a)
    B = T.Buffer((n,), "float32", data=b)
    C = T.Buffer((n,), "float32", data=c)
    for i in range(n // {w}):
        C[T.Ramp(i * {w}, 1, {w})] = A[T.Ramp(i * {w}, 1, {w})] * B[T.Ramp(i * {w}, 1, {w})] \\
            + T.Broadcast(T.float32(1), {w})
    for j in range(n // {w} * {w}, n):
        C[j] = A[j] * B[j] + T.float32(1)
'''


@pytest.mark.parametrize("width", [4, 8])
@pytest.mark.parametrize("opt_level", [0, 3])
def test_vector_loads_stores_with_scalar_tail(width, opt_level):
    n = 4 * width + 3
    rng = np.random.default_rng(3)
    a, b = rng.random(n, dtype="float32"), rng.random(n, dtype="float32")
    c = np.zeros(n, "float32")
    src = VEC.format(w=width)
    run(src, "f", a, b, c, n, opt_level=opt_level)
    np.testing.assert_allclose(c, a * b + 1, rtol=1e-6)
    text = emit_llvm(from_source(src), HOST)
    assert f"load <{width} x float>" in text and f"store <{width} x float>" in text


def test_vector_alignment_from_storage_alignment_attr():
    src = '''
@T.prim_func
def f(a: T.handle("float32")):
    A = T.Buffer((64,), "float32", data=a)
    T.attr(a, "storage_alignment", 64)
    for i in range(16):
        A[T.Ramp(i * 4, 1, 4)] = A[T.Ramp(i * 4, 1, 4)] + T.Broadcast(T.float32(1), 4)
'''
    text = emit_llvm(from_source(src), HOST)
    assert "load <4 x float>, ptr" in text and "align 16" in text
    assert "llvm.assume" in text


def test_gather_scatter_shuffle_and_strided_ramp():
    src = '''
@T.prim_func
def f(a: T.handle("int32"), b: T.handle("int32"), c: T.handle("int32")):
    A = T.Buffer((16,), "int32", data=a)
    B = T.Buffer((16,), "int32", data=b)
    C = T.Buffer((8,), "int32", data=c)
    B[T.Ramp(0, 2, 4)] = A[T.Ramp(1, 3, 4)]
    v = A[T.Ramp(0, 1, 4)]
    C[T.Ramp(0, 1, 4)] = T.Shuffle([v], [3, 2, 1, 0])
    C[T.Ramp(4, 1, 4)] = T.Shuffle([A[T.Ramp(8, 1, 2)], A[T.Ramp(12, 1, 2)]], [0, 2, 1, 3])
'''
    a = np.arange(100, 116, dtype="int32")
    b, c = np.zeros(16, "int32"), np.zeros(8, "int32")
    run(src, "f", a, b, c)
    np.testing.assert_array_equal(b[0:8:2], a[1:13:3])
    np.testing.assert_array_equal(c[:4], a[3::-1][:4])
    np.testing.assert_array_equal(c[4:], [a[8], a[12], a[9], a[13]])


def _predicated_func(gather):
    """``B[idx] = A[idx] + 1`` on the lanes where ``lane < n``, built with the IR API."""
    a, b, n = tir.Var("a", "handle"), tir.Var("b", "handle"), tir.Var("n", "int32")
    A = tir.decl_buffer((16,), "float32", "A", data=a)
    B = tir.decl_buffer((16,), "float32", "B", data=b)
    lanes = tir.Ramp(tir.IntImm("int32", 0), tir.IntImm("int32", 1), 8)
    idx = tir.Ramp(tir.IntImm("int32", 0), tir.IntImm("int32", 2 if gather else 1), 8)
    mask = tir.LT(lanes, tir.Broadcast(n, 8))
    value = tir.Add(tir.BufferLoad(A, [idx], predicate=mask),
                    tir.Broadcast(tir.FloatImm("float32", 1.0), 8))
    body = tir.BufferStore(B, value, [idx], predicate=mask)
    return tir.PrimFunc([a, b, n], body, attrs={"global_symbol": "f"})


@pytest.mark.parametrize("gather", [False, True])
def test_predicated_vector_load_and_store(gather):
    text = emit_llvm(_predicated_func(gather), HOST)
    kind = ("gather", "scatter") if gather else ("load", "store")
    assert f"llvm.masked.{kind[0]}" in text and f"llvm.masked.{kind[1]}" in text
    jit = JITModule(optimize(text, HOST), HOST)
    fn = jit.get_cfunc("f", None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32)
    a = np.arange(16, dtype="float32")
    b = np.full(16, -1, "float32")
    fn(a.ctypes.data, b.ctypes.data, 5)
    step = 2 if gather else 1
    expect = np.full(16, -1, "float32")
    expect[0:5 * step:step] = a[0:5 * step:step] + 1
    np.testing.assert_array_equal(b, expect)


# ----------------------------------------------------------------------------- intrinsics
MATH = '''
@T.prim_func
def f(a: T.handle("{t}"), b: T.handle("{t}"), n: T.int32):
    A = T.Buffer((n,), "{t}", data=a)
    B = T.Buffer((n,), "{t}", data=b)
    for i in range(n):
        B[i] = {call}
'''


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("call,ref", [
    ('T.call_llvm_pure_intrin("{t}", "llvm.exp", A[i])', np.exp),
    ('T.call_llvm_pure_intrin("{t}", "llvm.log", T.fabs(A[i]) + {t}(1))',
     lambda x: np.log(np.abs(x) + 1)),
    ('T.call_llvm_pure_intrin("{t}", "llvm.sqrt", T.fabs(A[i]))', lambda x: np.sqrt(np.abs(x))),
    ('T.call_llvm_pure_intrin("{t}", "llvm.fabs", A[i])', np.abs),
    ('T.call_llvm_pure_intrin("{t}", "llvm.floor", A[i])', np.floor),
    ('T.call_llvm_pure_intrin("{t}", "llvm.ceil", A[i])', np.ceil),
    ('T.call_llvm_pure_intrin("{t}", "llvm.pow", T.fabs(A[i]), {t}(1.5))',
     lambda x: np.power(np.abs(x), 1.5)),
    ('T.call_llvm_pure_intrin("{t}", "llvm.fmuladd", A[i], A[i], {t}(2))', lambda x: x * x + 2),
    ('T.call_pure_extern("{t}", "{tanh}", A[i])', np.tanh),
    ('T.call_pure_extern("{t}", "{atan2}", A[i], {t}(2))', lambda x: np.arctan2(x, 2)),
    ('T.exp(A[i])', np.exp),
    ('T.sqrt(T.fabs(A[i]))', lambda x: np.sqrt(np.abs(x))),
])
def test_math_intrinsics_and_libm(dtype, call, ref):
    suffix = "f" if dtype == "float32" else ""
    body = call.format(t=dtype, tanh="tanh" + suffix, atan2="atan2" + suffix).replace(
        f"{dtype}(", f"T.{dtype}(")
    a = np.linspace(-3, 3, 13).astype(dtype)
    b = np.zeros_like(a)
    run(MATH.format(t=dtype, call=body), "f", a, b, len(a))
    np.testing.assert_allclose(b, ref(a), rtol=1e-5 if dtype == "float32" else 1e-12)


def test_vector_intrinsic_is_overloaded_on_vector_type():
    src = '''
@T.prim_func
def f(a: T.handle("float32")):
    A = T.Buffer((8,), "float32", data=a)
    A[T.Ramp(0, 1, 8)] = T.call_llvm_pure_intrin("float32x8", "llvm.sqrt", A[T.Ramp(0, 1, 8)])
'''
    a = np.arange(8, dtype="float32")
    expect = np.sqrt(a)
    run(src, "f", a)
    np.testing.assert_allclose(a, expect, rtol=1e-6)
    assert "llvm.sqrt.v8f32" in emit_llvm(from_source(src), HOST)


# --------------------------------------------------------------------------- control flow
def test_select_if_then_else_short_circuits_and_min_max():
    src = '''
@T.prim_func
def f(a: T.handle("int32"), b: T.handle("int32"), n: T.int32):
    A = T.Buffer((n,), "int32", data=a)
    B = T.Buffer((n * 3,), "int32", data=b)
    for i in range(n):
        B[i] = T.if_then_else(i < n - 1, A[i + 1], -1)
        B[n + i] = T.Select(A[i] > 0, A[i], 0)
        B[2 * n + i] = T.max(T.min(A[i], 5), -5)
'''
    a = np.array([3, -4, 9, -12, 0], "int32")
    b = np.zeros(15, "int32")
    run(src, "f", a, b, 5)
    np.testing.assert_array_equal(b[:5], [-4, 9, -12, 0, -1])
    np.testing.assert_array_equal(b[5:10], np.maximum(a, 0))
    np.testing.assert_array_equal(b[10:], np.clip(a, -5, 5))


def test_if_while_let_likely():
    src = '''
@T.prim_func
def f(a: T.handle("int32"), n: T.int32) -> T.int32:
    A = T.Buffer((n,), "int32", data=a)
    k = T.decl_buffer((1,), "int32", scope="local")
    k[0] = 0
    while k[0] < n:
        x: T.int32 = A[k[0]]
        if T.likely(x % 2 == 0):
            A[k[0]] = x // 2
        else:
            A[k[0]] = 3 * x + 1
        k[0] = k[0] + 1
    return k[0]
'''
    a = np.array([4, 7, 10, -3], "int32")
    expect = np.where(a % 2 == 0, a // 2, 3 * a + 1)
    assert run(src, "f", a, 4, restype=ctypes.c_int32) == 4
    np.testing.assert_array_equal(a, expect)


def test_float_comparisons_and_logic():
    src = '''
@T.prim_func
def f(a: T.handle("float32"), b: T.handle("int8")):
    A = T.Buffer((4,), "float32", data=a)
    B = T.Buffer((24,), "int8", data=b)
    for i in range(4):
        B[i] = T.Cast("int8", A[i] == T.float32(1))
        B[4 + i] = T.Cast("int8", A[i] != T.float32(1))
        B[8 + i] = T.Cast("int8", A[i] < T.float32(1))
        B[12 + i] = T.Cast("int8", A[i] >= T.float32(1))
        B[16 + i] = T.Cast("int8", T.isnan(A[i]))
        B[20 + i] = T.Cast("int8", A[i] > T.float32(0) or A[i] < T.float32(-1))
'''
    a = np.array([1.0, 2.0, -3.0, np.nan], "float32")
    b = np.zeros(24, "int8")
    run(src, "f", a, b)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(b[0:4], a == 1)
        np.testing.assert_array_equal(b[4:8], [0, 1, 1, 0])  # fcmp one: NaN is unordered
        np.testing.assert_array_equal(b[8:12], a < 1)
        np.testing.assert_array_equal(b[12:16], a >= 1)
        np.testing.assert_array_equal(b[16:20], np.isnan(a))
        np.testing.assert_array_equal(b[20:24], (a > 0) | (a < -1))


def test_matmul_loop_nest_matches_numpy():
    src = '''
@T.prim_func
def mm(a: T.handle("float32"), b: T.handle("float32"), c: T.handle("float32"), m: T.int32,
       n: T.int32, k: T.int32):
    A = T.Buffer((m * k,), "float32", data=a)
    B = T.Buffer((k * n,), "float32", data=b)
    C = T.Buffer((m * n,), "float32", data=c)
    for i in range(m):
        for j in range(n):
            C[i * n + j] = T.float32(0)
            for r in range(k):
                C[i * n + j] = C[i * n + j] + A[i * k + r] * B[r * n + j]
'''
    rng = np.random.default_rng(4)
    m, n, k = 13, 17, 29
    a, b = rng.random((m, k), dtype="float32"), rng.random((k, n), dtype="float32")
    c = np.zeros((m, n), "float32")
    run(src, "mm", a, b, c, m, n, k, opt_level=3)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)


def test_int64_loop_and_index():
    src = '''
@T.prim_func
def f(a: T.handle("int64"), n: T.int64):
    A = T.Buffer((n,), "int64", data=a)
    for i in range(n):
        A[i] = i * i
'''
    a = np.zeros(9, "int64")
    run(src, "f", a, (9, "int64"))
    np.testing.assert_array_equal(a, np.arange(9) ** 2)


def test_compile_c_reports_defined_functions():
    jit, text = compile_c(MATH.format(t="float32", call="A[i]"))
    assert jit.function_names() == ["f"]
    assert "define void @f(" in text or 'define void @"f"(' in text


def test_vector_casts_compare_and_select():
    src = '''
@T.prim_func
def f(a: T.handle("float16"), b: T.handle("float32"), c: T.handle("int32"), d: T.handle("int8")):
    A = T.Buffer((8,), "float16", data=a)
    B = T.Buffer((8,), "float32", data=b)
    C = T.Buffer((8,), "int32", data=c)
    D = T.Buffer((8,), "int8", data=d)
    B[T.Ramp(0, 1, 8)] = T.Cast("float32x8", A[T.Ramp(0, 1, 8)])
    C[T.Ramp(0, 1, 8)] = T.Select(B[T.Ramp(0, 1, 8)] > T.Broadcast(T.float32(0), 8),
                                  T.Cast("int32x8", B[T.Ramp(0, 1, 8)]), T.Broadcast(-1, 8))
    D[T.Ramp(0, 1, 8)] = T.Cast("int8x8", C[T.Ramp(0, 1, 8)] // T.Broadcast(2, 8))
'''
    a = np.array([1.5, -2.5, 3.75, 0.0, 100.9, -0.1, 7.0, 8.5], "float16")
    b, c, d = np.zeros(8, "float32"), np.zeros(8, "int32"), np.zeros(8, "int8")
    run(src, "f", a, b, c, d)
    np.testing.assert_array_equal(b, a.astype("float32"))
    expect_c = np.where(b > 0, np.trunc(b), -1).astype("int32")
    np.testing.assert_array_equal(c, expect_c)
    np.testing.assert_array_equal(d, (expect_c // 2).astype("int8"))
