"""LLVM's loop unroller is kept off loops the schedule already unrolled (codegen/loops.py): a
loop whose body's vector stores hold two of the target's widest vector registers or more carries
``!llvm.loop !{..., !"llvm.loop.unroll.disable"}``. LLVM fully unrolled matmul_packed's 32-step
packing copies and its micro-kernel, making its optimisation and machine code 25-30% slower for
no faster kernel; narrower bodies (int8_matmul's one 16-lane int32 store) stay LLVM's to unroll."""
import re

import numpy as np
import pytest

from tirkit.compiler import build, compile_module
from tirkit.compiler.target import Target
from tirkit.lang import from_source

_COPY = '''
from tvm.script import tir as T
@T.prim_func
def copy(A: T.Buffer((32, LANES), "float32"), B: T.Buffer((32, LANES), "float32")):
    T.func_attr({"tir.noalias": True})
    for i in range(32):
        for j in T.vectorized(LANES):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)
'''
AVX512 = "llvm -mtriple=x86_64-linux-gnu -mcpu=x86-64 -mattr=+avx,+avx2,+avx512f"
AVX2 = "llvm -mtriple=x86_64-linux-gnu -mcpu=x86-64 -mattr=+avx,+avx2"


def _ir(lanes: int, target: str, opt_level: int = 0) -> str:
    func = from_source(_COPY.replace("LANES", str(lanes)))
    return compile_module(func, target, opt_level=opt_level).llvm_ir


def _unroll_disabled_loops(ir_text: str) -> int:
    (prop,) = re.findall(r'^(![0-9]+) = !\{ ?!"llvm.loop.unroll.disable" ?\}', ir_text, re.M) or [None]
    if prop is None:
        return 0
    ids = re.findall(rf"^(![0-9]+) = distinct !\{{\1, {prop}\}}", ir_text, re.M)
    return sum(ir_text.count(f"!llvm.loop {i}\n") for i in ids)


@pytest.mark.parametrize("lanes, target, marked", [
    (32, AVX512, 1),   # 1024 bits a step: two zmm registers
    (16, AVX512, 0),   # one zmm register: LLVM may unroll
    (16, AVX2, 1),     # 512 bits: two ymm registers
    (8, AVX2, 0),
    (8, "llvm -mtriple=aarch64-linux-gnu", 1),  # 256 bits: two NEON registers
])
def test_loops_of_bodies_wider_than_two_registers_are_marked(lanes, target, marked):
    assert Target.parse(target).vector_bits in (128, 256, 512)
    assert _unroll_disabled_loops(_ir(lanes, target)) == marked


def _kernel(ir_text: str) -> str:
    """The compute function's text (after the packed-API wrapper's)."""
    return ir_text[ir_text.index("define internal"):]


def test_target_vector_bits():
    assert Target.parse(AVX512).vector_bits == 512
    assert Target.parse(AVX2).vector_bits == 256
    assert Target.parse("llvm -mtriple=x86_64-linux-gnu -mcpu=x86-64").vector_bits == 128


def test_llvm_keeps_the_marked_loop_a_loop_and_the_numbers_right():
    # at O3 LLVM fully unrolls the 32-step loop of a one-register body (no phi left) but keeps
    # the marked one a loop
    wide = compile_module(from_source(_COPY.replace("LANES", "32")), AVX512, opt_level=3).llvm_ir
    narrow = compile_module(from_source(_COPY.replace("LANES", "16")), AVX512,
                            opt_level=3).llvm_ir
    assert " phi " in _kernel(wide)
    assert " phi " not in _kernel(narrow)
    a = np.random.default_rng(0).standard_normal((32, 32)).astype("float32")
    b = np.zeros_like(a)
    build(from_source(_COPY.replace("LANES", "32")), opt_level=3)(a, b)
    np.testing.assert_array_equal(b, a * 2)
