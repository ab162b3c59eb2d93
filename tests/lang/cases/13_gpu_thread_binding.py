# GPU kernels with T.thread_binding loops and shared/local memory caching.
from tvm.script import tir as T


# elementwise add bound to blockIdx.x / threadIdx.x
@T.prim_func
def gpu_add(A: T.Buffer((4096,), "float32"), B: T.Buffer((4096,), "float32"), C: T.Buffer((4096,), "float32")):
    T.func_attr({"global_symbol": "gpu_add", "tir.noalias": True})
    for bx in T.thread_binding(32, thread="blockIdx.x"):
        for tx in T.thread_binding(0, 128, thread="threadIdx.x"):
            with T.block("C"):
                vi = T.axis.spatial(4096, bx * 128 + tx)
                C[vi] = A[vi] + B[vi]


# matmul with shared-memory tiles for A and B and a local accumulator
@T.prim_func
def gpu_matmul_shared(
    A: T.Buffer((1024, 1024), "float32"),
    B: T.Buffer((1024, 1024), "float32"),
    C: T.Buffer((1024, 1024), "float32"),
):
    A_shared = T.alloc_buffer((1024, 1024), scope="shared")
    B_shared = T.alloc_buffer((1024, 1024), scope="shared")
    C_local = T.alloc_buffer((1024, 1024), scope="local")
    for by in T.thread_binding(32, thread="blockIdx.y"):
        for bx in T.thread_binding(32, thread="blockIdx.x"):
            for ty in T.thread_binding(32, thread="threadIdx.y"):
                for tx in T.thread_binding(32, thread="threadIdx.x"):
                    for ko in range(32):
                        # stage one 32x32 tile of A and of B into shared memory
                        with T.block("A_shared"):
                            v0 = T.axis.spatial(1024, by * 32 + ty)
                            v1 = T.axis.spatial(1024, ko * 32 + tx)
                            A_shared[v0, v1] = A[v0, v1]
                        with T.block("B_shared"):
                            v0 = T.axis.spatial(1024, ko * 32 + ty)
                            v1 = T.axis.spatial(1024, bx * 32 + tx)
                            B_shared[v0, v1] = B[v0, v1]
                        for ki in range(32):
                            with T.block("C_local"):
                                vi = T.axis.spatial(1024, by * 32 + ty)
                                vj = T.axis.spatial(1024, bx * 32 + tx)
                                vk = T.axis.reduce(1024, ko * 32 + ki)
                                with T.init():
                                    C_local[vi, vj] = T.float32(0)
                                C_local[vi, vj] = C_local[vi, vj] + A_shared[vi, vk] * B_shared[vk, vj]
                    with T.block("C_write"):
                        vi = T.axis.spatial(1024, by * 32 + ty)
                        vj = T.axis.spatial(1024, bx * 32 + tx)
                        C[vi, vj] = C_local[vi, vj]


# thread_binding with the extent-only spelling and a vthread axis
@T.prim_func
def gpu_vthread(A: T.Buffer((256,), "float32"), B: T.Buffer((256,), "float32")):
    for bx in T.thread_binding(4, "blockIdx.x"):
        for vx in T.thread_binding(2, thread="vthread.x"):
            for tx in T.thread_binding(32, thread="threadIdx.x"):
                with T.block("B"):
                    vi = T.axis.spatial(256, bx * 64 + vx * 32 + tx)
                    B[vi] = A[vi] * T.float32(2)


# loops bound to threads outside of any block, with an alloc_buffer in a local scope
@T.prim_func
def gpu_opaque(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64,), "float32")):
    for bx in T.thread_binding(64, thread="blockIdx.x"):
        for tx in T.thread_binding(1, thread="threadIdx.x"):
            with T.block("row"):
                vb = T.axis.spatial(64, bx)
                acc = T.alloc_buffer((1,), scope="local")
                acc[0] = T.float32(0)
                for k in range(64):
                    acc[0] = acc[0] + A[vb, k]
                B[vb] = acc[0]
