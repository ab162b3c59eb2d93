# from tvm.script import tirx as T

@T.prim_func
def gather(A: T.Buffer((32,), "int32"), B: T.Buffer((8,), "int32")):
    B[0:8] = A[T.Ramp(1, 4, 8)] + T.Broadcast(1, 8)
