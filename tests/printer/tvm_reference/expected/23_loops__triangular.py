# from tvm.script import tirx as T

@T.prim_func
def triangular(A: T.Buffer((32, 32), "float32")):
    for i in range(32):
        for j in range(i + 1):
            A[i, j] = T.float32(1.0)
        for j in range(i + 1, i + 1 + (31 - i)):
            A[i, j] = T.float32(0.0)
