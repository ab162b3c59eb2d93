# from tvm.script import tirx as T

@T.prim_func
def unaliased(A: T.Buffer((16,), "float32")):
    for i in T.vectorized(16):
        A[i] = T.float32(0.0)
