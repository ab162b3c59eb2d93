"""C = A @ B over 1024x1024 float32 matrices, scheduled like a BLAS GEMM by
``schedule_matmul_packed.py`` (which says how): A and B packed into panels, 8 x 32 micro-tiles of
C accumulated in registers over passes of 256 steps of k, 128-row blocks in parallel.
"""
try:
    from tvm.script import tir as T
except ImportError:  # no TVM: tirkit's front end parses the kernel (python examples/x.py)
    from tirkit.lang import tir as T


@T.prim_func
def matmul_packed(
    A: T.Buffer((1024, 1024), "float32"),
    B: T.Buffer((1024, 1024), "float32"),
    C: T.Buffer((1024, 1024), "float32")
):
    T.func_attr({"global_symbol": "matmul_packed", "tir.noalias": True})
    C_global = T.alloc_buffer((128, 32, 8, 32))
    B_global = T.alloc_buffer((32, 1024, 32))
    A_global = T.alloc_buffer((128, 1024, 8))
    for ax0 in T.parallel(1024):
        for ax1_0 in range(32):
            for ax1_1 in T.vectorized(32):
                with T.block("B_global"):
                    v0 = T.axis.spatial(1024, ax0)
                    v1 = T.axis.spatial(1024, ax1_0 * 32 + ax1_1)
                    T.reads(B[v0, v1])
                    T.writes(B_global[v1 // 32, v0, v1 % 32])
                    B_global[v1 // 32, v0, v1 % 32] = B[v0, v1]
    for i_0 in T.parallel(8):
        for ax0_0, ax1 in T.grid(16, 1024):
            for ax0_1 in T.unroll(8):
                with T.block("A_global"):
                    v0 = T.axis.spatial(1024, i_0 * 128 + ax0_0 * 8 + ax0_1)
                    v1 = T.axis.spatial(1024, ax1)
                    T.reads(A[v0, v1])
                    T.writes(A_global[v0 // 8, v1, v0 % 8])
                    A_global[v0 // 8, v1, v0 % 8] = A[v0, v1]
        for j_0 in range(32):
            for i_1_init in range(16):
                for i_2_init in T.unroll(8):
                    for j_1_init in T.vectorized(32):
                        with T.block("C_init"):
                            vi = T.axis.spatial(1024, i_0 * 128 + i_1_init * 8 + i_2_init)
                            vj = T.axis.spatial(1024, j_0 * 32 + j_1_init)
                            T.reads()
                            T.writes(C_global[vi // 8, vj // 32, vi % 8, vj % 32])
                            C_global[vi // 8, vj // 32, vi % 8, vj % 32] = T.float32(0.0)
            for k_0, i_1, k_1 in T.grid(4, 16, 256):
                for i_2 in T.unroll(8):
                    for j_1 in T.vectorized(32):
                        with T.block("C_update"):
                            vi = T.axis.spatial(1024, i_0 * 128 + i_1 * 8 + i_2)
                            vj = T.axis.spatial(1024, j_0 * 32 + j_1)
                            vk = T.axis.reduce(1024, k_0 * 256 + k_1)
                            T.reads(
                                C_global[vi // 8, vj // 32, vi % 8, vj % 32],
                                A_global[vi // 8, vk, vi % 8],
                                B_global[vj // 32, vk, vj % 32]
                            )
                            T.writes(C_global[vi // 8, vj // 32, vi % 8, vj % 32])
                            C_global[vi // 8, vj // 32, vi % 8, vj % 32] = C_global[
                                vi // 8,
                                vj // 32,
                                vi % 8,
                                vj % 32
                            ] + A_global[vi // 8, vk, vi % 8] * B_global[vj // 32, vk, vj % 32]
        for ax0, ax1_0 in T.grid(128, 32):
            for ax1_1 in T.vectorized(32):
                with T.block("C_global"):
                    v0 = T.axis.spatial(1024, i_0 * 128 + ax0)
                    v1 = T.axis.spatial(1024, ax1_0 * 32 + ax1_1)
                    T.reads(C_global[v0 // 8, v1 // 32, v0 % 8, v1 % 32])
                    T.writes(C[v0, v1])
                    C[v0, v1] = C_global[v0 // 8, v1 // 32, v0 % 8, v1 % 32]


if __name__ == "__main__":  # compile, run on random inputs, check against NumPy, time
    import run_example
    raise SystemExit(run_example.main(matmul_packed, __file__))
