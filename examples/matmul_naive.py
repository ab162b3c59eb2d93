"""The naive matmul the scheduling walk-through starts from: C = A @ B over 1024x1024 float32
matrices, one loop per axis, no schedule. ``schedule_matmul.py`` turns it into
``matmul_scheduled.py`` (``tirc matmul_naive.py --schedule schedule_matmul.py``).
"""
try:
    from tvm.script import tir as T
except ImportError:  # no TVM: tirkit's front end parses the kernel (python examples/x.py)
    from tirkit.lang import tir as T


@T.prim_func
def matmul_naive(
    A: T.Buffer((1024, 1024), "float32"),
    B: T.Buffer((1024, 1024), "float32"),
    C: T.Buffer((1024, 1024), "float32")
):
    T.func_attr({"global_symbol": "matmul_naive", "tir.noalias": True})
    for i, j, k in T.grid(1024, 1024, 1024):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            T.reads(A[vi, vk], B[vk, vj])
            T.writes(C[vi, vj])
            with T.init():
                C[vi, vj] = T.float32(0.0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


if __name__ == "__main__":  # compile, run on random inputs, check against NumPy, time
    import run_example
    raise SystemExit(run_example.main(matmul_naive, __file__))
