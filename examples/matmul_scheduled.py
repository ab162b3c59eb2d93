"""C = A @ B over 1024x1024 float32 matrices, scheduled as seed 002 prints a schedule's result:
i split [None, 8, 4], j split [None, 64], k split [None, 256], loops ordered i0 j0 k0 i1 k1 i2 j1,
i0 parallel, j1 vectorized, i2 unrolled, and the init block decomposed to before k0
(``decompose_reduction``).
"""
try:
    from tvm.script import tir as T
except ImportError:  # no TVM: tirkit's front end parses the kernel (python examples/x.py)
    from tirkit.lang import tir as T


@T.prim_func
def matmul_scheduled(
    A: T.Buffer((1024, 1024), "float32"),
    B: T.Buffer((1024, 1024), "float32"),
    C: T.Buffer((1024, 1024), "float32")
):
    T.func_attr({"global_symbol": "matmul_scheduled", "tir.noalias": True})
    for i0 in T.parallel(32):
        for j0 in range(16):
            for i1_init, i2_init in T.grid(8, 4):
                for j1_init in T.vectorized(64):
                    with T.block("C_init"):
                        vi = T.axis.spatial(1024, i0 * 32 + i1_init * 4 + i2_init)
                        vj = T.axis.spatial(1024, j0 * 64 + j1_init)
                        T.reads()
                        T.writes(C[vi, vj])
                        C[vi, vj] = T.float32(0.0)
            for k0, i1, k1 in T.grid(4, 8, 256):
                for i2 in T.unroll(4):
                    for j1 in T.vectorized(64):
                        with T.block("C_update"):
                            vi = T.axis.spatial(1024, i0 * 32 + i1 * 4 + i2)
                            vj = T.axis.spatial(1024, j0 * 64 + j1)
                            vk = T.axis.reduce(1024, k0 * 256 + k1)
                            T.reads(C[vi, vj], A[vi, vk], B[vk, vj])
                            T.writes(C[vi, vj])
                            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


if __name__ == "__main__":  # compile, run on random inputs, check against NumPy, time
    import run_example
    raise SystemExit(run_example.main(matmul_scheduled, __file__))
