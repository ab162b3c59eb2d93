# from typing import TypeVar
# from tvm.script import tirx as T

m = TypeVar("m")
n = TypeVar("n")
@T.prim_func
def dtype_vars(A: T.Buffer((n, m), "float16")):
    for i, j in T.grid(n, m):
        A[i, j] = T.float16(0.0)
