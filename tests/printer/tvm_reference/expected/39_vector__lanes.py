# from tvm.script import tirx as T

@T.prim_func
def lanes(A: T.Buffer((16,), "float32x4"), B: T.Buffer((16,), "float32x4")):
    for i in range(16):
        B[i] = T.Select(A[i] > T.Broadcast(T.float32(0.0), 4), A[i], T.Broadcast(T.float32(0.0), 4))
        B[i] = T.max(B[i], T.Broadcast(T.float32(-1.0), 4))
