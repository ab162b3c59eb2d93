# from tvm.script import tirx as T

@T.prim_func
def float_ops(A: T.Buffer((8,), "float32"), M: T.Buffer((8,), "bool")):
    for i in range(8):
        A[i] = A[i] / T.float32(3.0) - T.max(T.max(A[i], T.float32(1.0)), T.float32(-1.0))
        M[i] = A[i] >= T.float32(0.0) and A[i] <= T.float32(1.0) or A[i] == T.float32(2.0)
