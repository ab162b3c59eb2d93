# from tvm.script import tirx as T

@T.prim_func
def shuffles(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    B[0:8] = T.Shuffle([A[T.Ramp(0, 1, 4)], A[T.Ramp(4, 1, 4)]], [7, 6, 5, 4, 3, 2, 1, 0])
