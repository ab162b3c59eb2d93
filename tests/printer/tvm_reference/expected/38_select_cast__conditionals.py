# from tvm.script import tirx as T

@T.prim_func
def conditionals(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
    for i in range(32):
        B[i] = T.if_then_else(i < 16, A[i], T.float32(0.0)) + T.Select(A[i] > T.float32(0.0), A[i], A[i] * T.float32(-1.0))
