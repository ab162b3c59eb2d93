"""Register-tiled matmul on the GPU: C = A @ B for N x N float32 (N a multiple of 128).

Each 16 x 16-thread block computes a 128 x 128 tile of C, and each thread 8 x 8 of it in
registers: rows ``ty * 4 + {0..3}`` and ``64 + ty * 4 + {0..3}`` of the tile, columns likewise
with ``tx`` (a warp's shared-memory reads then fall in different banks or are broadcasts). K is
walked in steps of 8: the block stages the 128 x 8 tile of A (transposed, k-major) and the
8 x 128 tile of B in ``shared`` memory, 4 loads per thread each; then, for each k, a thread
reads 8 values of A and 8 of B into registers (four 4-float vector loads: ``ld.shared.v4``) and
does 64 multiply-adds (``fma.rn.f32``). Every loop inside a thread is unrolled (``T.unroll``),
so the accumulators are registers, not local memory. The ThreadSync pass inserts the barriers.

    tirc examples/gpu/matmul_register_tiled.py --target cuda -mcpu sm_90 --emit ptx
"""
from tvm.script import tir as T

N = 1024


@T.prim_func
def matmul_register_tiled(A: T.Buffer((N, N), "float32"), B: T.Buffer((N, N), "float32"),
                          C: T.Buffer((N, N), "float32")):
    T.func_attr({"global_symbol": "matmul_register_tiled", "tir.noalias": True})
    by = T.launch_thread("blockIdx.y", N // 128)
    bx = T.launch_thread("blockIdx.x", N // 128)
    ty = T.launch_thread("threadIdx.y", 16)
    tx = T.launch_thread("threadIdx.x", 16)
    acc = T.allocate([64], "float32", "local")
    acc_1 = T.Buffer((64,), data=acc, scope="local")
    a_reg = T.allocate([8], "float32", "local")
    a_reg_1 = T.Buffer((8,), data=a_reg, scope="local")
    b_reg = T.allocate([8], "float32", "local")
    b_reg_1 = T.Buffer((8,), data=b_reg, scope="local")
    A_sh = T.allocate([1024], "float32", "shared")
    A_sh_1 = T.Buffer((1024,), data=A_sh, scope="shared")
    B_sh = T.allocate([1024], "float32", "shared")
    B_sh_1 = T.Buffer((1024,), data=B_sh, scope="shared")
    for i in T.unroll(64):
        acc_1[i] = T.float32(0)
    for ko in range(N // 8):
        for l in T.unroll(4):  # A[row, k] -> A_sh[k * 128 + row]
            A_sh_1[tx % 8 * 128 + l * 32 + ty * 2 + tx // 8] = A[by * 128 + l * 32 + ty * 2 + tx // 8, ko * 8 + tx % 8]
        for l in T.unroll(4):  # B[k, col] -> B_sh[k * 128 + col]
            B_sh_1[(l * 2 + ty // 8) * 128 + ty % 8 * 16 + tx] = B[ko * 8 + l * 2 + ty // 8, bx * 128 + ty % 8 * 16 + tx]
        for ki in T.unroll(8):
            for i in T.unroll(2):
                for i4 in T.vectorized(4):
                    a_reg_1[i * 4 + i4] = A_sh_1[ki * 128 + i * 64 + ty * 4 + i4]
            for j in T.unroll(2):
                for j4 in T.vectorized(4):
                    b_reg_1[j * 4 + j4] = B_sh_1[ki * 128 + j * 64 + tx * 4 + j4]
            for i in T.unroll(8):
                for j in T.unroll(8):
                    acc_1[i * 8 + j] = acc_1[i * 8 + j] + a_reg_1[i] * b_reg_1[j]
    for i in T.unroll(8):
        for j in T.unroll(8):
            C[by * 128 + i // 4 * 64 + ty * 4 + i % 4, bx * 128 + j // 4 * 64 + tx * 4 + j % 4] = acc_1[i * 8 + j]
