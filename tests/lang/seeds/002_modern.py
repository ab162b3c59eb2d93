# Seed 002 (TensorIR RFC) translated to current classic TVMScript: workload, split result,
# decompose_reduction + vectorize result, concatenation, and the GPU hierarchy example.
from tvm.script import tir as T


# the gemm workload: block([...]) as [...] + reducer.step -> T.block + T.axis.remap + T.init
@T.prim_func
def matmul(a: T.handle, b: T.handle, c: T.handle) -> None:
    C = T.match_buffer(c, (1024, 1024), "float32")
    A = T.match_buffer(a, (1024, 1024), "float32")
    B = T.match_buffer(b, (1024, 1024), "float32")
    for i, j, k in T.grid(1024, 1024, 1024):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


# after split/reorder: tir.bind(...) -> T.axis.spatial/reduce with binding expressions
@T.prim_func
def func_split(a: T.handle, b: T.handle, c: T.handle) -> None:
    B = T.match_buffer(b, [1024, 1024])
    A = T.match_buffer(a, [1024, 1024])
    C = T.match_buffer(c, [1024, 1024])
    for i0_outer, i1_outer, i2_outer, i2_inner, i0_inner, i1_inner in T.grid(32, 32, 256, 4, 32, 32):
        with T.block("C"):
            vi = T.axis.spatial(1024, i0_outer * 32 + i0_inner)
            vj = T.axis.spatial(1024, i1_outer * 32 + i1_inner)
            vk = T.axis.reduce(1024, i2_outer * 4 + i2_inner)
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


# after vectorize + decompose_reduction (the seed's `for i0_outer in, ...` typo fixed)
@T.prim_func
def func_decomposed(a: T.handle, b: T.handle, c: T.handle) -> None:
    B = T.match_buffer(b, [1024, 1024])
    A = T.match_buffer(a, [1024, 1024])
    C = T.match_buffer(c, [1024, 1024])
    for i0_outer in range(32):
        for i1_outer_init, i0_inner_init in T.grid(32, 32):
            for i1_inner_init in T.vectorized(32):
                with T.block("C_init"):
                    vi_init = T.axis.spatial(1024, i0_outer * 32 + i0_inner_init)
                    vj_init = T.axis.spatial(1024, i1_outer_init * 32 + i1_inner_init)
                    C[vi_init, vj_init] = T.float32(0)
        for i1_outer, i2_outer, i2_inner, i0_inner in T.grid(32, 256, 4, 32):
            for i1_inner in T.vectorized(32):
                with T.block("C_update"):
                    vi = T.axis.spatial(1024, i0_outer * 32 + i0_inner)
                    vj = T.axis.spatial(1024, i1_outer * 32 + i1_inner)
                    vk = T.axis.reduce(1024, i2_outer * 4 + i2_inner)
                    C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


# the concatenation example
@T.prim_func
def concat(A0: T.Buffer((10,), "float32"), A1: T.Buffer((10,), "float32"), A2: T.Buffer((10,), "float32"), B: T.Buffer((30,), "float32")):
    for i in range(10):
        with T.block("B0"):
            vi = T.axis.spatial(10, i)
            B[vi] = A0[vi]
    for i in range(10):
        with T.block("B1"):
            vi = T.axis.spatial(10, i)
            B[vi + 10] = A1[vi]
    for i in range(10):
        with T.block("B2"):
            vi = T.axis.spatial(10, i)
            B[vi + 20] = A2[vi]


# the GPU hierarchy example: loop_type annotations -> T.thread_binding
@T.prim_func
def gpu_hierarchy(A: T.Buffer((32768,), "float32"), B: T.Buffer((32768,), "float32")):
    for bx in T.thread_binding(0, 32, thread="blockIdx.x"):
        for ty in T.thread_binding(0, 32, thread="threadIdx.y"):
            for tx in T.thread_binding(0, 32, thread="threadIdx.x"):
                with T.block("A"):
                    vi = T.axis.spatial(32768, bx * 1024 + ty * 32 + tx)
                    A[vi] = B[vi] + T.float32(1)
