# from tvm.script import tirx as T

@T.prim_func
def bool_ops(A: T.Buffer((16, 16), "float32")):
    for i, j in T.grid(16, 16):
        if (i < 4 or i >= 12) and not j == 0:
            A[i, j] = T.float32(1.0)
        if i == j and i != 0:
            A[i, j] = T.float32(2.0)
