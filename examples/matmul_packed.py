"""C = A @ B over 1024x1024 float32 matrices, scheduled like a BLAS GEMM by
``schedule_matmul_packed.py`` (which says how): A and B packed into panels, 4 x 64 micro-tiles of
C accumulated in registers over passes of 128 steps of k, 256-row blocks in parallel.
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
    C_global = T.alloc_buffer((256, 16, 4, 64))
    B_global = T.alloc_buffer((16, 1024, 64))
    A_global = T.alloc_buffer((256, 1024, 4))
    for ax0 in T.parallel(1024):
        for ax1_0 in range(16):
            for ax1_1 in T.vectorized(64):
                with T.block("B_global"):
                    v0 = T.axis.spatial(1024, ax0)
                    v1 = T.axis.spatial(1024, ax1_0 * 64 + ax1_1)
                    T.reads(B[v0, v1])
                    T.writes(B_global[v1 // 64, v0, v1 % 64])
                    B_global[v1 // 64, v0, v1 % 64] = B[v0, v1]
    for i_0 in T.parallel(4):
        for ax0_0, ax1 in T.grid(64, 1024):
            for ax0_1 in T.unroll(4):
                with T.block("A_global"):
                    v0 = T.axis.spatial(1024, i_0 * 256 + ax0_0 * 4 + ax0_1)
                    v1 = T.axis.spatial(1024, ax1)
                    T.reads(A[v0, v1])
                    T.writes(A_global[v0 // 4, v1, v0 % 4])
                    A_global[v0 // 4, v1, v0 % 4] = A[v0, v1]
        for j_0 in range(16):
            for i_1_init in range(64):
                for i_2_init in T.unroll(4):
                    for j_1_init in T.vectorized(64):
                        with T.block("C_init"):
                            vi = T.axis.spatial(1024, i_0 * 256 + i_1_init * 4 + i_2_init)
                            vj = T.axis.spatial(1024, j_0 * 64 + j_1_init)
                            T.reads()
                            T.writes(C_global[vi // 4, vj // 64, vi % 4, vj % 64])
                            C_global[vi // 4, vj // 64, vi % 4, vj % 64] = T.float32(0.0)
            for k_0, i_1, k_1 in T.grid(8, 64, 128):
                for i_2 in T.unroll(4):
                    for j_1 in T.vectorized(64):
                        with T.block("C_update"):
                            vi = T.axis.spatial(1024, i_0 * 256 + i_1 * 4 + i_2)
                            vj = T.axis.spatial(1024, j_0 * 64 + j_1)
                            vk = T.axis.reduce(1024, k_0 * 128 + k_1)
                            T.reads(
                                C_global[vi // 4, vj // 64, vi % 4, vj % 64],
                                A_global[vi // 4, vk, vi % 4],
                                B_global[vj // 64, vk, vj % 64]
                            )
                            T.writes(C_global[vi // 4, vj // 64, vi % 4, vj % 64])
                            C_global[vi // 4, vj // 64, vi % 4, vj % 64] = C_global[
                                vi // 4,
                                vj // 64,
                                vi % 4,
                                vj % 64
                            ] + A_global[vi // 4, vk, vi % 4] * B_global[vj // 64, vk, vj % 64]
        for ax0, ax1_0 in T.grid(256, 16):
            for ax1_1 in T.vectorized(64):
                with T.block("C_global"):
                    v0 = T.axis.spatial(1024, i_0 * 256 + ax0)
                    v1 = T.axis.spatial(1024, ax1_0 * 64 + ax1_1)
                    T.reads(C_global[v0 // 4, v1 // 64, v0 % 4, v1 % 64])
                    T.writes(C[v0, v1])
                    C[v0, v1] = C_global[v0 // 4, v1 // 64, v0 % 4, v1 % 64]


if __name__ == "__main__":  # compile, run on random inputs, check against NumPy, time
    import run_example
    raise SystemExit(run_example.main(matmul_packed, __file__))
