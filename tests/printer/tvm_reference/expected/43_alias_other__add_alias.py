# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def add_alias(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    # with T.sblock("root"):
    for i in range(16):
        with T.sblock("B"):
            vi = T.axis.spatial(16, i)
            T.reads(A[vi])
            T.writes(B[vi])
            B[vi] = A[vi] + T.float32(1.0)
