"""The compute scope of a packed function (codegen/compute_scope.py, TVM's
``CodeGenCPU::CreateComputeScope``): the body MakePackedAPI marks ``compute_scope`` becomes an
internal ``noinline`` function ``<name>_compute_`` whose pointer parameters are ``noalias``; the
packed wrapper keeps the argument checks (``optnone``) and returns the body's failure."""
import re

import numpy as np
import pytest

from tirkit.compiler import build, compile_module
from tirkit.lang import from_source

_SRC = '''
from tvm.script import tir as T
@T.prim_func
def scaled_add(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32"),
               C: T.Buffer((64,), "float32"), n: T.int32):
    for i in range(64):
        C[i] = A[i] * T.Cast("float32", n) + B[i]
    assert n < 100, "n is too large"
    for i in T.parallel(64):
        C[i] = C[i] + T.float32(1)
'''


def _define(ir_text: str, name: str) -> str:
    return next(line for line in ir_text.splitlines()
                if line.startswith("define") and f"@{name}(" in line)


def test_the_body_is_a_noinline_function_with_noalias_pointers():
    ir_text = compile_module(from_source(_SRC), opt_level=0).llvm_ir
    compute = _define(ir_text, "scaled_add_compute_")
    assert "internal" in compute
    params = re.findall(r"\((.*)\)", compute)[0].split(", ")
    pointers = [p for p in params if p.startswith("ptr")]
    assert len(pointers) == 3 and all("noalias" in p for p in pointers)  # A, B, C data
    assert any(p.startswith("i32") for p in params)  # n
    attrs = dict(re.findall(r"^attributes (#\d+) = \{(.*)\}", ir_text, re.M))
    assert "noinline" in attrs[re.findall(r"(#\d+)", compute)[-1]]
    wrapper = _define(ir_text, "scaled_add")
    assert "optnone" in attrs[re.findall(r"(#\d+)", wrapper)[-1]]
    assert re.search(r"call i32 @scaled_add_compute_\(", ir_text)


@pytest.mark.parametrize("opt_level", [0, 3])
def test_results_and_a_failing_assertion_come_back_through_the_wrapper(opt_level):
    fn = build(from_source(_SRC), opt_level=opt_level)
    a, b = np.arange(64, dtype="float32"), np.ones(64, "float32")
    c = np.zeros(64, "float32")
    fn(a, b, c, 3)
    np.testing.assert_array_equal(c, a * 3 + 2)
    with pytest.raises(Exception, match="n is too large"):
        fn(a, b, c, 100)
