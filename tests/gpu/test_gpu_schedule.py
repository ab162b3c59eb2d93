"""A CPU-style TensorIR kernel scheduled for the GPU with the Schedule's ``split``, ``bind``,
``cache_read`` and ``compute_at`` (TVM's usual recipe) compiles to PTX that ptxas accepts."""

import numpy as np
import pytest

from gpu_helpers import run_or_check, validate
from tirkit.compiler import build
from tirkit.compiler.codegen.types import CodegenError
from tirkit.compiler.driver import compile_module
from tirkit.lang import from_source
from tirkit.schedule import Schedule

MATMUL = '''
from tvm.script import tir as T

@T.prim_func
def mm(A: T.Buffer((256, 256), "float32"), B: T.Buffer((256, 256), "float32"), C: T.Buffer((256, 256), "float32")):
    T.func_attr({"global_symbol": "mm", "tir.noalias": True})
    for i, j, k in T.grid(256, 256, 256):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
'''


def test_split_and_bind_for_the_gpu():
    sch = Schedule(from_source(MATMUL))
    block = sch.get_block("C")
    i, j, _ = sch.get_loops(block)
    bi, ti = sch.split(i, factors=[None, 16])
    bj, tj = sch.split(j, factors=[None, 16])
    sch.reorder(bi, bj, ti, tj)
    sch.bind(bi, "blockIdx.y")
    sch.bind(bj, "blockIdx.x")
    sch.bind(ti, "threadIdx.y")
    sch.bind(tj, "threadIdx.x")
    compiled = compile_module(sch.mod, "cuda -arch=sm_80")
    assert ".maxntid 256" in compiled.ptx
    validate(compiled.ptx, "sm_80")


def tiled_matmul_schedule(shared_inputs=()):
    """MATMUL in 16 x 16 tiles of threads over 16-step k tiles, the inputs numbered in
    ``shared_inputs`` staged per k tile in shared memory (``cache_read`` + ``compute_at``)."""
    sch = Schedule(from_source(MATMUL))
    block = sch.get_block("C")
    i, j, k = sch.get_loops(block)
    bi, ti = sch.split(i, factors=[None, 16])
    bj, tj = sch.split(j, factors=[None, 16])
    ko, ki = sch.split(k, factors=[None, 16])
    sch.reorder(bi, bj, ti, tj, ko, ki)
    for index in shared_inputs:
        sch.compute_at(sch.cache_read(block, index, "shared"), ko)
    sch.bind(bi, "blockIdx.y")
    sch.bind(bj, "blockIdx.x")
    sch.bind(ti, "threadIdx.y")
    sch.bind(tj, "threadIdx.x")
    return sch


def test_shared_memory_tiles_by_cache_read_and_compute_at():
    compiled = compile_module(tiled_matmul_schedule((1,)).mod, "cuda -arch=sm_80")
    assert ".shared" in compiled.ptx and "bar.sync" in compiled.ptx
    validate(compiled.ptx, "sm_80")


ROWSUM = '''
from tvm.script import tir as T

@T.prim_func
def rowsum(A: T.Buffer((256, 1024), "float32"), B: T.Buffer((256,), "float32")):
    for i, k in T.grid(256, 1024):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]
'''


def _bound_rowsum(n_k: int = 1024, reducer: str = "+"):
    src = ROWSUM.replace("1024", str(n_k))
    if reducer == "max":
        src = src.replace("B[vi] = T.float32(0)", "B[vi] = T.min_value(\"float32\")").replace(
            "B[vi] = B[vi] + A[vi, vk]", "B[vi] = T.max(B[vi], A[vi, vk])")
    sch = Schedule(from_source(src))
    block = sch.get_block("B")
    i, k = sch.get_loops(block)
    _, ki = sch.split(k, factors=[None, 128])
    sch.bind(i, "blockIdx.x")
    sch.bind(ki, "threadIdx.x")
    return sch.mod


@pytest.mark.parametrize("reducer, n_k", [("+", 1024), ("max", 1024), ("+", 1000)])
def test_a_reduction_bound_to_threads_lowers_to_a_thread_allreduce(reducer, n_k):
    # TVM's GPU reduction recipe (bind the inner reduction loop to threadIdx.x): tirkit compiled
    # it to a kernel where 128 threads added into B[vi] at once (a race); LowerCrossThreadReduction
    # makes an in-thread partial, a tvm_thread_allreduce and a write-back by thread 0. 1000 =
    # 8 x 128 - 24: the split's T.where stays on the in-thread block
    compiled = compile_module(_bound_rowsum(n_k, reducer), "cuda -arch=sm_80")
    lowered = [s for s in compiled.stages if s.name == "LowerCrossThreadReduction"][0].mod
    text = lowered.script()
    for name in ("B_in_thread_init", "B_in_thread", "B_cross_thread", "B_write_back"):
        assert f'T.block("{name}")' in text
    assert "T.tvm_thread_allreduce(T.uint32(1), in_thread_B[0], T.bool(True), " \
        "cross_thread_B[0], k_1)" in text and "T.where(k_1 == 0)" in text
    assert ("T.where(k_0 * 128 + k_1 < 1000)" in text) == (n_k == 1000)
    validate(compiled.ptx, "sm_80")
    a = np.random.default_rng(5).uniform(-1, 1, (256, n_k)).astype("float32")
    b = np.full(256, np.nan, "float32")
    if not run_or_check(build(_bound_rowsum(n_k, reducer), target="cuda"), a, b):
        return
    expected = a.astype(np.float64).sum(axis=1) if reducer == "+" else a.max(axis=1)
    np.testing.assert_allclose(b, expected, rtol=1e-5, atol=1e-4)


UNLOWERED = '''
from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((8, 4, 32), "float32"), B: T.Buffer((8, 4), "float32")):
    for i in T.thread_binding(8, thread="blockIdx.x"):
        for k in T.thread_binding(32, thread="threadIdx.x"):
            for j in range(4):
                with T.block("B"):
                    vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                    with T.init():
                        B[vi, vj] = T.float32(0)
                    B[vi, vj] = B[vi, vj] + A[vi, vj, vk]
'''


def test_a_thread_bound_reduction_it_cannot_lower_is_a_clear_error():
    # a spatial loop between the thread-bound reduction loop and the block: a shape the pass
    # leaves; the race it would be is refused, naming the block, axis, loop and thread
    with pytest.raises(CodegenError, match=r"block 'B': its reduction axis 'vk' is bound to "
                                           r"threadIdx.x \(loop 'k'\).*into B at once.*"
                                           r"LowerCrossThreadReduction lowers only"):
        compile_module(from_source(UNLOWERED), "cuda -arch=sm_80")
    sch = Schedule(from_source(ROWSUM))  # the reduction loop serial in each thread: fine
    i, _ = sch.get_loops(sch.get_block("B"))
    bi, ti = sch.split(i, factors=[None, 64])
    sch.bind(bi, "blockIdx.x")
    sch.bind(ti, "threadIdx.x")
    validate(compile_module(sch.mod, "cuda -arch=sm_80").ptx, "sm_80")
