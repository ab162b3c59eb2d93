# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def opaque_axis(A: T.Buffer((16,), "int32"), B: T.Buffer((16,), "int32")):
    # with T.sblock("root"):
    for i in range(16):
        with T.sblock("gather"):
            vi = T.axis.opaque(16, i)
            T.reads(A[0:16])
            T.writes(B[vi])
            B[vi] = A[A[vi] % 16]
