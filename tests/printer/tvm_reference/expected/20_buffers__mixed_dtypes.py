# from tvm.script import tirx as T

@T.prim_func
def mixed_dtypes(A: T.Buffer((4,), "int8"), B: T.Buffer((4,), "uint16"), C: T.Buffer((4,), "float64"), D: T.Buffer((4,), "bool"), E: T.Buffer((4,), "float32")):
    for i in range(4):
        C[i] = T.Cast("float64", A[i]) + T.Cast("float64", B[i])
        D[i] = A[i] > T.int8(0)
        E[i] = T.Cast("float32", C[i])
