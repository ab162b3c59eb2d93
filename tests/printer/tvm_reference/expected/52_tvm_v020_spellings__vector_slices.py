# from tvm.script import tirx as T

@T.prim_func
def vector_slices(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    B[0:4] = A[T.Ramp(0, 1, 4)]
    B[4:8] = A[T.Ramp(4, 1, 4)] + A[T.Ramp(8, 1, 4)]
    B[8:12] = B[T.Ramp(8, 1, 4)] * T.Broadcast(T.float32(-1.0), 4)
