# Tiled matmul: split loops bound with T.axis.spatial expressions, vectorized inner loop, cache buffers.
from tvm.script import tir as T


# schedule result of split/reorder (seed 002), iter vars bound to loop expressions
@T.prim_func
def matmul_tiled(a: T.handle, b: T.handle, c: T.handle) -> None:
    A = T.match_buffer(a, [1024, 1024])
    B = T.match_buffer(b, [1024, 1024])
    C = T.match_buffer(c, [1024, 1024])
    for i0_outer, i1_outer, i2_outer, i2_inner, i0_inner, i1_inner in T.grid(32, 32, 256, 4, 32, 32):
        with T.block("C"):
            vi = T.axis.spatial(1024, i0_outer * 32 + i0_inner)
            vj = T.axis.spatial(1024, i1_outer * 32 + i1_inner)
            vk = T.axis.reduce(1024, i2_outer * 4 + i2_inner)
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


# after decompose_reduction and vectorize (seed 002, second result)
@T.prim_func
def matmul_decomposed(a: T.handle, b: T.handle, c: T.handle) -> None:
    A = T.match_buffer(a, [1024, 1024])
    B = T.match_buffer(b, [1024, 1024])
    C = T.match_buffer(c, [1024, 1024])
    for i0_outer in range(32):
        for i1_outer_init, i0_inner_init in T.grid(32, 32):
            for i1_inner_init in T.vectorized(32):
                with T.block("C_init"):
                    vi = T.axis.spatial(1024, i0_outer * 32 + i0_inner_init)
                    vj = T.axis.spatial(1024, i1_outer_init * 32 + i1_inner_init)
                    C[vi, vj] = T.float32(0)
        for i1_outer, i2_outer, i2_inner, i0_inner in T.grid(32, 256, 4, 32):
            for i1_inner in T.vectorized(32):
                with T.block("C_update"):
                    vi = T.axis.spatial(1024, i0_outer * 32 + i0_inner)
                    vj = T.axis.spatial(1024, i1_outer * 32 + i1_inner)
                    vk = T.axis.reduce(1024, i2_outer * 4 + i2_inner)
                    C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


# tiled matmul with a local accumulator tile and write-back block
@T.prim_func
def matmul_cache_write(
    A: T.Buffer((256, 256), "float32"),
    B: T.Buffer((256, 256), "float32"),
    C: T.Buffer((256, 256), "float32"),
):
    C_local = T.alloc_buffer((256, 256), scope="local")
    for io, jo in T.grid(16, 16):
        for ii, ji, k in T.grid(16, 16, 256):
            with T.block("C_local"):
                vi = T.axis.spatial(256, io * 16 + ii)
                vj = T.axis.spatial(256, jo * 16 + ji)
                vk = T.axis.reduce(256, k)
                with T.init():
                    C_local[vi, vj] = T.float32(0)
                C_local[vi, vj] = C_local[vi, vj] + A[vi, vk] * B[vk, vj]
        for ii, ji in T.grid(16, 16):
            with T.block("C_write"):
                vi = T.axis.spatial(256, io * 16 + ii)
                vj = T.axis.spatial(256, jo * 16 + ji)
                C[vi, vj] = C_local[vi, vj]
