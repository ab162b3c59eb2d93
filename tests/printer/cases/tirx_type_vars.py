# flags: dialect=tirx
@T.prim_func
def pairs(a: T.handle, b: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n * T.int64(2),))
    B = T.match_buffer(b, (n, 2))
    for i, j in T.grid(n, 2):
        B[i, j] = A[i * T.int64(2) + T.Cast("int64", j)]
# output
# from typing import TypeVar
# from tvm.script import tirx as T

n = TypeVar("n")
@T.prim_func
def pairs(A: T.Buffer(("n * T.int64(2)",), "float32"), B: T.Buffer((n, 2), "float32")):
    for i, j in T.grid(n, 2):
        B[i, j] = A[i * T.int64(2) + T.Cast("int64", j)]
