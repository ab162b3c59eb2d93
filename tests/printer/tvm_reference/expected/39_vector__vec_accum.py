# from tvm.script import tirx as T

@T.prim_func
def vec_accum(A: T.Buffer((4, 8), "float32"), B: T.Buffer((8,), "float32")):
    for j in T.vectorized(8):
        B[j] = T.float32(0.0)
    for i in T.unroll(4):
        for j in T.vectorized(8):
            B[j] = B[j] + A[i, j]
