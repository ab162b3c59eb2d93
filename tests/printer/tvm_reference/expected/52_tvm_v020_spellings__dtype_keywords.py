# from tvm.script import tirx as T

@T.prim_func
def dtype_keywords(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "int32"), n: T.int32):
    for i in range(8):
        A[i] = T.if_then_else(T.likely(i < n), T.exp(A[i]), T.sqrt(A[i]))
        B[i] = (B[i] << 2) + (B[i] >> 1)
        A[i] = T.floor(A[i]) + T.round(A[i])
