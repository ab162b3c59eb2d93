# from tvm.script import tirx as T

@T.prim_func
def constants(A: T.Buffer((8, 4), "float32")):
    for i, j in T.grid(8, 4):
        A[i, j] = T.float32(8.0)
