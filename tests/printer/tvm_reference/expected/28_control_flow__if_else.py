# from tvm.script import tirx as T

@T.prim_func
def if_else(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
    for i in range(32):
        if i < 16:
            B[i] = A[i]
        else:
            B[i] = A[i] * T.float32(-1.0)
