# Symbolic shapes: vars from T.int32() in match_buffer, int params used in T.Buffer shapes.
# (the __future__ import keeps Python from evaluating `T.Buffer((n, m))` before TVMScript does)
from __future__ import annotations

from tvm.script import tir as T


# n, m, k symbolic; defined by the first match_buffer that uses them
@T.prim_func
def matmul_dyn(a: T.handle, b: T.handle, c: T.handle):
    n = T.int32()
    m = T.int32()
    k = T.int32()
    A = T.match_buffer(a, (n, k), "float32")
    B = T.match_buffer(b, (k, m), "float32")
    C = T.match_buffer(c, (n, m), "float32")
    for i, j, r in T.grid(n, m, k):
        with T.block("C"):
            vi, vj, vr = T.axis.remap("SSR", [i, j, r])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vr] * B[vr, vj]


# shape vars passed as parameters and used directly in T.Buffer annotations
@T.prim_func
def add_params(n: T.int32, m: T.int32, A: T.Buffer((n, m), "float32"), B: T.Buffer((n, m), "float32")):
    for i, j in T.grid(n, m):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] + T.float32(1)


# derived shapes: output depends on an expression of a symbolic var
@T.prim_func
def upsample_dyn(a: T.handle, b: T.handle):
    n = T.int32()
    A = T.match_buffer(a, (n,), "float32")
    B = T.match_buffer(b, (n * 2,), "float32")
    for i in range(n * 2):
        with T.block("up"):
            vi = T.axis.spatial(n * 2, i)
            B[vi] = A[vi // 2]


# symbolic var used only inside the body as a loop bound
@T.prim_func
def prefix_len(a: T.handle, length: T.int32):
    A = T.match_buffer(a, (1024,), "int32")
    for i in range(length):
        A[i] = i
