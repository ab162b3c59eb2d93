# from tvm.script import tirx as T

@T.prim_func
def sign(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        B[i] = T.if_then_else(A[i] > T.float32(0.0), T.float32(1.0), T.if_then_else(A[i] < T.float32(0.0), T.float32(-1.0), T.float32(0.0)))
