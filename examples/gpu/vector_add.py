"""Vector add on the GPU: C = A + B, one element per thread, 256 threads per block.

    tirc examples/gpu/vector_add.py --target cuda --emit ptx
"""
from tvm.script import tir as T


@T.prim_func
def vector_add(a: T.handle, b: T.handle, c: T.handle, n: T.int32):
    T.func_attr({"global_symbol": "vector_add", "tir.noalias": True})
    A = T.match_buffer(a, (n,), "float32")
    B = T.match_buffer(b, (n,), "float32")
    C = T.match_buffer(c, (n,), "float32")
    for bx in T.thread_binding((n + 255) // 256, thread="blockIdx.x"):
        for tx in T.thread_binding(256, thread="threadIdx.x"):
            with T.block("C"):  # the last block may be partial: T.where guards it
                vi = T.axis.spatial(n, bx * 256 + tx)
                T.where(bx * 256 + tx < n)
                T.reads(A[vi], B[vi])
                T.writes(C[vi])
                C[vi] = A[vi] + B[vi]
