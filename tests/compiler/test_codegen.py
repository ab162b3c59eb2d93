"""LLVM code generation of lowered TIR, checked by JIT-running plain C-ABI functions on NumPy data
(tirkit.compiler.codegen + runtime.jit; the counterpart of TVM's tests/python/codegen/test_target_codegen_llvm.py).

Every kernel is lowered TVMScript text (flat ``T.Buffer((n,), data=p)`` views over
``T.handle("dtype")`` params), so the tests need neither the lowering passes nor TVM.
"""
import ctypes

import numpy as np
import pytest

from tirkit.compiler.codegen import CodegenError, emit_llvm, optimize
from tirkit.compiler.runtime.jit import JITModule, get_last_error
from tirkit.compiler.target import Target
from tirkit.lang import from_source

HOST = Target()

_CTYPES = {"int8": ctypes.c_int8, "int16": ctypes.c_int16, "int32": ctypes.c_int32,
           "int64": ctypes.c_int64, "uint8": ctypes.c_uint8, "uint16": ctypes.c_uint16,
           "uint32": ctypes.c_uint32, "uint64": ctypes.c_uint64, "float32": ctypes.c_float,
           "float64": ctypes.c_double, "bool": ctypes.c_bool}


def compile_c(src, name=None, opt_level=2):
    """Parse TVMScript, generate + optimise LLVM IR, JIT it; returns (JITModule, llvm_ir)."""
    func = from_source(src)
    ir_text = emit_llvm(func, HOST)
    if opt_level:
        ir_text = optimize(ir_text, HOST, opt_level=opt_level)
    return JITModule(ir_text, HOST), ir_text


def run(src, name, *args, restype=None, opt_level=2):
    """JIT ``name`` from ``src`` and call it: arrays by pointer, Python ints as int32, floats as
    double, ``(value, "dtype")`` pairs with that C type."""
    jit, _ = compile_c(src, name, opt_level)
    argtypes, values = [], []
    for a in args:
        if isinstance(a, np.ndarray):
            argtypes.append(ctypes.c_void_p)
            values.append(a.ctypes.data)
        elif isinstance(a, tuple):
            argtypes.append(_CTYPES[a[1]])
            values.append(a[0])
        elif isinstance(a, float):
            argtypes.append(ctypes.c_double)
            values.append(a)
        else:
            argtypes.append(ctypes.c_int32)
            values.append(a)
    fn = jit.get_cfunc(name, restype, *argtypes)
    return fn(*values)


def _data(dtype, n, rng, low=-100, high=100):
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    if dtype.startswith("float"):
        return (rng.standard_normal(n) * 10).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, low), min(info.max, high), n).astype(dtype)


# ------------------------------------------------------------------------ elementwise, dtypes
ADD = '''
@T.prim_func
def add(a: T.handle("{t}"), b: T.handle("{t}"), c: T.handle("{t}"), n: T.int32):
    A = T.Buffer((n,), "{t}", data=a)
    B = T.Buffer((n,), "{t}", data=b)
    C = T.Buffer((n,), "{t}", data=c)
    for i in range(n):
        C[i] = A[i] {op} B[i]
'''


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64", "float16", "float32", "float64"])
def test_elementwise_add_every_dtype(dtype):
    rng = np.random.default_rng(0)
    n = 37
    a, b = _data(dtype, n, rng), _data(dtype, n, rng)
    c = np.zeros(n, dtype)
    run(ADD.format(t=dtype, op="+"), "add", a, b, c, n)
    np.testing.assert_array_equal(c, a + b)


@pytest.mark.parametrize("op,ref", [("-", np.subtract), ("*", np.multiply)])
@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "float64"])
def test_elementwise_sub_mul(dtype, op, ref):
    rng = np.random.default_rng(1)
    a, b = _data(dtype, 19, rng), _data(dtype, 19, rng)
    c = np.zeros(19, dtype)
    run(ADD.format(t=dtype, op=op), "add", a, b, c, 19)
    np.testing.assert_array_equal(c, ref(a, b))


def test_bool_buffers_are_bytes():
    src = ADD.replace("C[i] = A[i] {op} B[i]", "C[i] = A[i] and not B[i]")
    rng = np.random.default_rng(2)
    a, b, c = _data("bool", 40, rng), _data("bool", 40, rng), np.zeros(40, bool)
    run(src.format(t="bool"), "add", a, b, c, 40)
    np.testing.assert_array_equal(c, a & ~b)


def test_bfloat16_storage_and_arithmetic():
    src = '''
@T.prim_func
def f(a: T.handle("bfloat16"), b: T.handle("float32"), c: T.handle("bfloat16")):
    A = T.Buffer((4,), "bfloat16", data=a)
    B = T.Buffer((4,), "float32", data=b)
    C = T.Buffer((4,), "bfloat16", data=c)
    for i in range(4):
        B[i] = T.Cast("float32", A[i])
        C[i] = A[i] + A[i]
'''
    vals = np.array([1.5, -2.25, 3.0, 1e10], "float32")
    a = (vals.view(np.uint32) >> 16).astype(np.uint16)
    b, c = np.zeros(4, "float32"), np.zeros(4, np.uint16)
    run(src, "f", a, b, c)
    np.testing.assert_array_equal(b, (a.astype(np.uint32) << 16).view(np.float32))
    doubled = (c.astype(np.uint32) << 16).view(np.float32)
    np.testing.assert_allclose(doubled, 2 * b, rtol=1e-2)


# ------------------------------------------------------------------------ integer division
DIVMOD = '''
@T.prim_func
def f(a: T.handle("{t}"), b: T.handle("{t}"), q: T.handle("{t}"), r: T.handle("{t}"),
      fq: T.handle("{t}"), fr: T.handle("{t}"), n: T.int32):
    A = T.Buffer((n,), "{t}", data=a)
    B = T.Buffer((n,), "{t}", data=b)
    Q = T.Buffer((n,), "{t}", data=q)
    R = T.Buffer((n,), "{t}", data=r)
    FQ = T.Buffer((n,), "{t}", data=fq)
    FR = T.Buffer((n,), "{t}", data=fr)
    for i in range(n):
        Q[i] = T.truncdiv(A[i], B[i])
        R[i] = T.truncmod(A[i], B[i])
        FQ[i] = T.floordiv(A[i], B[i])
        FR[i] = T.floormod(A[i], B[i])
'''


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64"])
def test_signed_div_mod_semantics_on_negative_values(dtype):
    a = np.array([7, -7, 7, -7, 0, 6, -6, 1, -1, 13, -13], dtype)
    b = np.array([2, 2, -2, -2, 3, 3, -3, 5, 5, -4, -4], dtype)
    n = len(a)
    q, r, fq, fr = (np.zeros(n, dtype) for _ in range(4))
    run(DIVMOD.format(t=dtype), "f", a, b, q, r, fq, fr, n)
    np.testing.assert_array_equal(q, (np.trunc(a / b)).astype(dtype))
    np.testing.assert_array_equal(r, np.fmod(a, b))
    np.testing.assert_array_equal(fq, a // b)
    np.testing.assert_array_equal(fr, a % b)


def test_unsigned_div_mod():
    a = np.array([7, 200, 255, 0], "uint8")
    b = np.array([2, 7, 16, 3], "uint8")
    q, r, fq, fr = (np.zeros(4, "uint8") for _ in range(4))
    run(DIVMOD.format(t="uint8"), "f", a, b, q, r, fq, fr, 4)
    np.testing.assert_array_equal(q, a // b)
    np.testing.assert_array_equal(fr, a % b)
    np.testing.assert_array_equal(r, a % b)


def test_float_floordiv_floormod():
    src = DIVMOD.replace("T.truncdiv(A[i], B[i])", "A[i] / B[i]").replace(
        "T.truncmod(A[i], B[i])", "A[i] - B[i]")
    a = np.array([7.5, -7.5, 7.5, -7.5], "float32")
    b = np.array([2.0, 2.0, -2.0, -2.0], "float32")
    q, r, fq, fr = (np.zeros(4, "float32") for _ in range(4))
    run(src.format(t="float32"), "f", a, b, q, r, fq, fr, 4)
    np.testing.assert_allclose(q, a / b)
    np.testing.assert_array_equal(fq, np.floor(a / b))
    np.testing.assert_allclose(fr, np.mod(a, b))


def test_divmod_by_constant_folds_sign_fix():
    src = '''
@T.prim_func
def f(a: T.handle("int32"), q: T.handle("int32"), r: T.handle("int32"), n: T.int32):
    A = T.Buffer((n,), "int32", data=a)
    Q = T.Buffer((n,), "int32", data=q)
    R = T.Buffer((n,), "int32", data=r)
    for i in range(n):
        Q[i] = A[i] // 4
        R[i] = A[i] % 4
'''
    a = np.arange(-9, 10, dtype="int32")
    q, r = np.zeros_like(a), np.zeros_like(a)
    run(src, "f", a, q, r, len(a))
    np.testing.assert_array_equal(q, a // 4)
    np.testing.assert_array_equal(r, a % 4)
