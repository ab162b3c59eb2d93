# from tvm.script import tirx as T

@T.prim_func
def intrin(A: T.Buffer((8,), "float32")):
    for i in range(8):
        A[i] = T.exp(A[i])
