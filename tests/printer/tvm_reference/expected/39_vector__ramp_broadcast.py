# from tvm.script import tirx as T

@T.prim_func
def ramp_broadcast(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    for i in range(16):
        B[i * 4:i * 4 + 4] = A[T.Ramp(i * 4, 1, 4)] * T.Broadcast(T.float32(2.0), 4) + T.Broadcast(T.float32(1.0), 4)
