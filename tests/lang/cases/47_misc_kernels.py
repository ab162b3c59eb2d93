# Assorted realistic kernels: layer norm, batch matmul, gemv, cumulative sum, embedding gather, topk-free argsort step.
from tvm.script import tir as T


# layer norm over the last axis with mean/var reductions
@T.prim_func
def layer_norm(
    A: T.Buffer((32, 768), "float32"),
    gamma: T.Buffer((768,), "float32"),
    beta: T.Buffer((768,), "float32"),
    B: T.Buffer((32, 768), "float32"),
):
    mean = T.alloc_buffer((32,))
    sq = T.alloc_buffer((32,))
    for i, k in T.grid(32, 768):
        with T.block("stats"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                mean[vi] = T.float32(0)
                sq[vi] = T.float32(0)
            mean[vi] = mean[vi] + A[vi, vk]
            sq[vi] = sq[vi] + A[vi, vk] * A[vi, vk]
    for i, j in T.grid(32, 768):
        with T.block("norm"):
            vi, vj = T.axis.remap("SS", [i, j])
            m = T.meta_var(mean[vi] / T.float32(768))
            var = T.meta_var(sq[vi] / T.float32(768) - m * m)
            B[vi, vj] = (A[vi, vj] - m) * T.rsqrt(var + T.float32(1e-5)) * gamma[vj] + beta[vj]


# batched matmul with a batch axis
@T.prim_func
def batch_matmul(
    A: T.Buffer((4, 32, 64), "float16"),
    B: T.Buffer((4, 64, 16), "float16"),
    C: T.Buffer((4, 32, 16), "float16"),
):
    for b, i, j, k in T.grid(4, 32, 16, 64):
        with T.block("bmm"):
            vb, vi, vj, vk = T.axis.remap("SSSR", [b, i, j, k])
            with T.init():
                C[vb, vi, vj] = T.float16(0)
            C[vb, vi, vj] = C[vb, vi, vj] + A[vb, vi, vk] * B[vb, vk, vj]


# gemv with a parallel outer loop and unrolled reduction
@T.prim_func
def gemv(A: T.Buffer((256, 256), "float32"), x: T.Buffer((256,), "float32"), y: T.Buffer((256,), "float32")):
    for i in T.parallel(256):
        for ko in range(64):
            for ki in T.unroll(4):
                with T.block("y"):
                    vi = T.axis.spatial(256, i)
                    vk = T.axis.reduce(256, ko * 4 + ki)
                    with T.init():
                        y[vi] = T.float32(0)
                    y[vi] = y[vi] + A[vi, vk] * x[vk]


# embedding lookup: data-dependent gather index
@T.prim_func
def embedding(ids: T.Buffer((16,), "int32"), table: T.Buffer((1000, 64), "float32"), out: T.Buffer((16, 64), "float32")):
    for i, j in T.grid(16, 64):
        with T.block("gather"):
            vi, vj = T.axis.remap("SS", [i, j])
            out[vi, vj] = table[ids[vi], vj]


# one odd-even transposition sort step over pairs
@T.prim_func
def sort_step(A: T.Buffer((64,), "float32"), phase: T.int32):
    for p in T.parallel(31):
        lo = T.meta_var(p * 2 + phase)
        if lo + 1 < 64:
            a: T.float32 = A[lo]
            b: T.float32 = A[lo + 1]
            A[lo] = T.min(a, b)
            A[lo + 1] = T.max(a, b)
