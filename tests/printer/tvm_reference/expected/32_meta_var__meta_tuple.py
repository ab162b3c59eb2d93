# from tvm.script import tirx as T

@T.prim_func
def meta_tuple(A: T.Buffer((8, 4), "int32")):
    for i, j in T.grid(8, 4):
        A[i, j] = i * 4 + j
