# from tvm.script import tirx as T

@T.prim_func
def strided_vector(A: T.Buffer((4,), "float32"), B: T.Buffer((8,), "float32")):
    B[0:8:2] = A[T.Ramp(0, 1, 4)]
