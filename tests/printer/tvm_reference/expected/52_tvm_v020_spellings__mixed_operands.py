# from typing import TypeVar
# from tvm.script import tirx as T

m = TypeVar("m")
@T.prim_func(s_tir=True)
def mixed_operands(A: T.Buffer(("m * T.int64(2)",), "float32"), B: T.Buffer((m, 2), "float32"), U: T.Buffer((8,), "uint8")):
    # with T.sblock("root"):
    for i, j in T.grid(m, 2):
        with T.sblock("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi * T.int64(2) + T.Cast("int64", vj)])
            T.writes(B[vi, vj])
            B[vi, vj] = A[vi * T.int64(2) + T.Cast("int64", vj)] + T.Cast("float32", T.Cast("float32", vj * 2) + T.float32(0.5))
    u4: T.uint8x4 = U[T.Ramp(0, 1, 4)]
    U[4:8] = u4
    A[0:8:2] = T.Broadcast(T.float32(0.0), 4)
    A[1] = T.float32(1.0)
    T.evaluate((A[T.Ramp(0, 1, 4)] > T.Broadcast(T.float32(0.0), 4)) & (A[T.Ramp(4, 1, 4)] > T.Broadcast(T.float32(0.0), 4)))
