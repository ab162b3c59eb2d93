"""Tiled matmul on the GPU with shared memory: C = A @ B for N x N float32 (N a multiple of 64).

Each 16 x 16-thread block computes a 64 x 64 tile of C; each thread a 4 x 4 sub-tile held in
registers (``local``). The K dimension is walked in steps of 16: the block stages a 64 x 16
tile of A and a 16 x 64 tile of B in ``shared`` memory (4 loads per thread each), then every
thread accumulates from them. CompactBufferAllocation shrinks the buffers to the tiles; the
ThreadSync pass inserts the two barriers (after the loads, before the next loads).

    tirc examples/gpu/matmul_shared.py --target cuda -mcpu sm_80 --emit ptx
"""
from tvm.script import tir as T

N = 1024


@T.prim_func
def matmul_shared(A: T.Buffer((N, N), "float32"), B: T.Buffer((N, N), "float32"),
                  C: T.Buffer((N, N), "float32")):
    T.func_attr({"global_symbol": "matmul_shared", "tir.noalias": True})
    A_sh = T.alloc_buffer((N, N), scope="shared")
    B_sh = T.alloc_buffer((N, N), scope="shared")
    C_loc = T.alloc_buffer((N, N), scope="local")
    for by in T.thread_binding(N // 64, thread="blockIdx.y"):
        for bx in T.thread_binding(N // 64, thread="blockIdx.x"):
            for ty in T.thread_binding(16, thread="threadIdx.y"):
                for tx in T.thread_binding(16, thread="threadIdx.x"):
                    for ii, jj in T.grid(4, 4):
                        with T.block("C_init"):
                            vi = T.axis.spatial(N, by * 64 + ty * 4 + ii)
                            vj = T.axis.spatial(N, bx * 64 + tx * 4 + jj)
                            C_loc[vi, vj] = T.float32(0)
                    for ko in range(N // 16):
                        for l in range(4):
                            with T.block("A_sh"):
                                v0 = T.axis.spatial(N, by * 64 + l * 16 + ty)
                                v1 = T.axis.spatial(N, ko * 16 + tx)
                                A_sh[v0, v1] = A[v0, v1]
                        for l in range(4):
                            with T.block("B_sh"):
                                v0 = T.axis.spatial(N, ko * 16 + l * 4 + ty // 4)
                                v1 = T.axis.spatial(N, bx * 64 + ty % 4 * 16 + tx)
                                B_sh[v0, v1] = B[v0, v1]
                        for ki, ii, jj in T.grid(16, 4, 4):
                            with T.block("C"):
                                vi = T.axis.spatial(N, by * 64 + ty * 4 + ii)
                                vj = T.axis.spatial(N, bx * 64 + tx * 4 + jj)
                                vk = T.axis.reduce(N, ko * 16 + ki)
                                C_loc[vi, vj] = C_loc[vi, vj] + A_sh[vi, vk] * B_sh[vk, vj]
                    for ii, jj in T.grid(4, 4):
                        with T.block("C_store"):
                            vi = T.axis.spatial(N, by * 64 + ty * 4 + ii)
                            vj = T.axis.spatial(N, bx * 64 + tx * 4 + jj)
                            C[vi, vj] = C_loc[vi, vj]
