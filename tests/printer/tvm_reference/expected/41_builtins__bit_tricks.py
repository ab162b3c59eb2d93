# from tvm.script import tirx as T

@T.prim_func
def bit_tricks(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "int32"), n: T.int32):
    for i in range(16):
        if T.likely(i < n):
            B[i] = T.reinterpret("int32", A[i])
            A[i] = T.reinterpret("float32", B[i] & 2147483647)
