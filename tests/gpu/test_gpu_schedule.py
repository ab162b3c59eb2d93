"""A CPU-style TensorIR kernel scheduled for the GPU with the Schedule's ``split``, ``bind``,
``cache_read`` and ``compute_at`` (TVM's usual recipe) compiles to PTX that ptxas accepts."""

import pytest

from gpu_helpers import validate
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


def test_a_reduction_bound_to_threads_is_a_clear_error():
    # TVM's GPU reduction recipe (bind the inner reduction loop to threadIdx.x) needs
    # LowerCrossThreadReduction; tirkit compiled it to a kernel where 128 threads add into
    # B[vi] at once (a race) and now says so, naming the block, the axis, the loop and thread
    sch = Schedule(from_source(ROWSUM))
    block = sch.get_block("B")
    i, k = sch.get_loops(block)
    _, ki = sch.split(k, factors=[None, 128])
    sch.bind(i, "blockIdx.x")
    sch.bind(ki, "threadIdx.x")
    with pytest.raises(CodegenError, match=r"block 'B': its reduction axis 'vk' is bound to "
                                           r"threadIdx.x \(loop 'k_1'\).*into B at once.*"
                                           r"LowerCrossThreadReduction"):
        compile_module(sch.mod, "cuda -arch=sm_80")
    sch2 = Schedule(from_source(ROWSUM))  # the reduction loop serial in each thread: fine
    i2, _ = sch2.get_loops(sch2.get_block("B"))
    bi, ti = sch2.split(i2, factors=[None, 64])
    sch2.bind(bi, "blockIdx.x")
    sch2.bind(ti, "threadIdx.x")
    validate(compile_module(sch2.mod, "cuda -arch=sm_80").ptx, "sm_80")
