"""The naive matmul the scheduling walk-through starts from: C = A @ B over 1024x1024 float32
matrices, one loop per axis, no schedule. ``schedule_matmul.py`` turns it into
``matmul_scheduled.py`` (``tirc matmul_naive.py --schedule schedule_matmul.py``).
"""
from tvm.script import tir as T


@T.prim_func
def matmul_naive(A: T.Buffer((1024, 1024), "float32"), B: T.Buffer((1024, 1024), "float32"),
                 C: T.Buffer((1024, 1024), "float32")):
    T.func_attr({"global_symbol": "matmul_naive", "tir.noalias": True})
    for i, j, k in T.grid(1024, 1024, 1024):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            T.reads(A[vi, vk], B[vk, vj])
            T.writes(C[vi, vj])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
