# from tvm.script import tirx as T

@T.prim_func
def vector_dtypes(A: T.Buffer((4,), "float32x4"), B: T.Buffer((2,), "int8x16"), C: T.Buffer((1,), "float16x8")):
    v: T.float32x4 = T.Broadcast(T.float32(1.0), 4)
    A[0] = v + A[1]
    B[0] = T.Broadcast(T.int8(3), 16)
    C = T.Broadcast(T.float16(0.5), 8)
    i4: T.int32x4 = T.Ramp(0, 1, 4)
    A[2] = T.Cast("float32x4", i4)
