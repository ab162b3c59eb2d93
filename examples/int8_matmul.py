"""Quantised matmul: C (int32) = A (int8) @ B (int8) over 512x512x512, each product widened to
int32 before it is accumulated; rows in parallel, the inner 16 columns vectorized, the init block
decomposed out of the reduction.
"""
try:
    from tvm.script import tir as T
except ImportError:  # no TVM: tirkit's front end parses the kernel (python examples/x.py)
    from tirkit.lang import tir as T


@T.prim_func
def int8_matmul(
    A: T.Buffer((512, 512), "int8"),
    B: T.Buffer((512, 512), "int8"),
    C: T.Buffer((512, 512), "int32")
):
    T.func_attr({"global_symbol": "int8_matmul", "tir.noalias": True})
    for i in T.parallel(512):
        for j0_init in range(32):
            for j1_init in T.vectorized(16):
                with T.block("C_init"):
                    vi = T.axis.spatial(512, i)
                    vj = T.axis.spatial(512, j0_init * 16 + j1_init)
                    T.reads()
                    T.writes(C[vi, vj])
                    C[vi, vj] = 0
        for k, j0 in T.grid(512, 32):
            for j1 in T.vectorized(16):
                with T.block("C_update"):
                    vi = T.axis.spatial(512, i)
                    vj = T.axis.spatial(512, j0 * 16 + j1)
                    vk = T.axis.reduce(512, k)
                    T.reads(C[vi, vj], A[vi, vk], B[vk, vj])
                    T.writes(C[vi, vj])
                    C[vi, vj] = C[vi, vj] + T.Cast("int32", A[vi, vk]) * T.Cast("int32", B[vk, vj])


if __name__ == "__main__":  # compile, run on random inputs, check against NumPy, time
    import run_example
    raise SystemExit(run_example.main(int8_matmul, __file__))
