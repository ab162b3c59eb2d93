# from tvm.script import tirx as T

@T.prim_func
def casts(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "int32"), C: T.Buffer((8,), "float16")):
    for i in range(8):
        B[i] = T.Cast("int32", A[i])
        C[i] = T.Cast("float16", A[i])
        A[i] = T.Cast("float32", B[i]) + T.Cast("float32", C[i])
