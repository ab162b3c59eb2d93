"""glibc libmvec's vector variants of exp/log/sin/cos (tirkit/compiler/codegen/veclib.py): the
call-site attribute, which variants a target's features allow, and the compiled kernels' numbers."""
import re
from types import SimpleNamespace

import numpy as np
import pytest
from llvmlite import ir

from tirkit.compiler import build
from tirkit.compiler.codegen.veclib import libmvec_available, variant_attribute
from tirkit.compiler.target import Target
from tirkit.lang import from_source

LINUX = "x86_64-unknown-linux-gnu"


def _attr(triple: str, features: str, elem: ir.Type = ir.FloatType(), name: str = "llvm.exp"):
    module = ir.Module()
    target = SimpleNamespace(triple=triple, is_host=False, features=features)
    return variant_attribute(target, name, elem, module), module


def test_variants_follow_the_target_features():
    text, module = _attr(LINUX, "+sse2,+avx2,+avx512f")
    assert text == (' "vector-function-abi-variant"="'
                    "_ZGV_LLVM_N4v_llvm.exp.f32(_ZGVbN4v_expf),"
                    "_ZGV_LLVM_N8v_llvm.exp.f32(_ZGVdN8v_expf),"
                    '_ZGV_LLVM_N16v_llvm.exp.f32(_ZGVeN16v_expf)"')
    assert str(module.globals["_ZGVeN16v_expf"].function_type) == "<16 x float> (<16 x float>)"
    assert _attr(LINUX, "+sse2,-avx2")[0].count("_ZGV_LLVM") == 1  # SSE2 only: 4 lanes
    double, _ = _attr(LINUX, "+avx2", ir.DoubleType(), "llvm.log")
    assert "_ZGV_LLVM_N4v_llvm.log.f64(_ZGVdN4v_log)" in double and "N8v" not in double


@pytest.mark.parametrize("triple", ["aarch64-unknown-linux-gnu", "x86_64-apple-macosx14.0",
                                    "x86_64-pc-windows-msvc", "x86_64-unknown-linux-musl"])
def test_no_variants_without_glibc_on_x86_64(triple):
    assert _attr(triple, "+avx2")[0] == ""


def test_functions_libmvec_lacks_get_no_attribute():
    assert _attr(LINUX, "+avx2", name="llvm.sqrt")[0] == ""  # sqrt is an instruction anyway
    assert _attr(LINUX, "+avx2", ir.HalfType())[0] == ""


KERNEL = """
@T.prim_func
def f(A: T.Buffer((4096,), "{dt}"), B: T.Buffer((4096,), "{dt}")):
    for i in range(4096):
        with T.block("B"):
            vi = T.axis.spatial(4096, i)
            B[vi] = T.{fn}(A[vi])
"""


def test_a_cross_target_gets_no_variant_attribute():
    src = KERNEL.format(dt="float32", fn="exp")
    from tirkit.compiler.driver import compile_module
    text = compile_module(from_source(src), "llvm -mtriple=aarch64-linux-gnu", opt_level=3).llvm_ir
    assert "exp" in text and "vector-function-abi-variant" not in text and "_ZGV" not in text


@pytest.mark.skipif(not (libmvec_available() and Target().triple.startswith("x86_64")
                         and Target().triple.endswith("linux-gnu")),
                    reason="needs glibc's libmvec on x86-64 Linux")
@pytest.mark.parametrize("dt, fn", [("float32", "exp"), ("float32", "log"), ("float64", "exp"),
                                    ("float32", "sin"), ("float64", "cos")])
def test_vectorized_loops_call_libmvec_and_keep_the_numbers(dt, fn):
    from tirkit.compiler.driver import compile_module
    src = KERNEL.format(dt=dt, fn=fn)
    ir_text = compile_module(from_source(src), opt_level=3).llvm_ir
    suffix = "f" if dt == "float32" else ""
    assert re.search(rf"call [^\n]*@\"?_ZGV[bcde]N\d+v_{fn}{suffix}\b", ir_text), ir_text[-3000:]
    a = np.random.default_rng(0).uniform(0.1, 8.0, 4096).astype(dt)
    b = np.zeros_like(a)
    build(from_source(src), opt_level=3)(a, b)
    np.testing.assert_allclose(b, getattr(np, fn)(a.astype("float64")),
                               rtol=5e-7 if dt == "float32" else 2e-15,  # glibc: <= 4 ulp
                               atol=1e-7 if fn in ("sin", "cos") else 0)


VECTORIZED = """
@T.prim_func
def f(A: T.Buffer((4096,), "float32"), B: T.Buffer((4096,), "float32")):
    for i0 in range(256):
        for i1 in T.vectorized({lanes}):
            with T.block("B"):
                vi = T.axis.spatial(4096, i0 * {lanes} + i1)
                B[vi] = T.exp(A[vi])
"""


@pytest.mark.skipif(not (libmvec_available() and Target().triple.startswith("x86_64")
                         and Target().triple.endswith("linux-gnu")
                         and "+avx2" in Target().features.split(",")),
                    reason="needs glibc's libmvec on x86-64 Linux with AVX2")
def test_an_explicitly_vectorized_exp_calls_the_variant_of_its_width():
    from tirkit.compiler.driver import compile_module
    src = VECTORIZED.replace("256", "512").format(lanes=8)
    assert "_ZGVdN8v_expf" in compile_module(from_source(src), opt_level=3).llvm_ir
    a = np.random.default_rng(1).uniform(-20, 20, 4096).astype("float32")
    b = np.zeros_like(a)
    build(from_source(src), opt_level=3)(a, b)
    np.testing.assert_allclose(b, np.exp(a.astype("float64")), rtol=5e-7)


def test_a_vector_width_libmvec_lacks_keeps_the_intrinsic():
    module = ir.Module()
    target = SimpleNamespace(triple=LINUX, is_host=False, features="+avx2")
    from tirkit.compiler.codegen.veclib import vector_variant
    assert vector_variant(target, "llvm.exp", ir.VectorType(ir.FloatType(), 16), module) is None
    assert vector_variant(target, "llvm.exp", ir.VectorType(ir.FloatType(), 8), module).name \
        == "_ZGVdN8v_expf"
