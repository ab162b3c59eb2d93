# T.meta_var: parse-time values that never appear in the IR.
from tvm.script import tir as T

TILE = 16


# a meta_var used as a loop extent and in index arithmetic
@T.prim_func
def meta_extent(A: T.Buffer((64,), "float32")):
    n = T.meta_var(TILE * 4)
    for i in range(n):
        A[i] = T.float32(0)


# a meta_var holding a sub-expression that is inlined at each use
@T.prim_func
def meta_expr(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16, 16), "float32")):
    for i, j in T.grid(16, 16):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            center = T.meta_var(A[vi, vj] * T.float32(2))
            B[vi, vj] = center - A[vi, 15 - vj]


# a meta_var tuple unpacked into two parse-time names
@T.prim_func
def meta_tuple(A: T.Buffer((8, 4), "int32")):
    rows, cols = T.meta_var((8, 4))
    for i, j in T.grid(rows, cols):
        A[i, j] = i * cols + j
