# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def reshape(A: T.Buffer((32, 32), "float32"), B: T.Buffer((1024,), "float32")):
    # with T.sblock("root"):
    for i in range(1024):
        with T.sblock("reshape"):
            vi = T.axis.spatial(1024, i)
            T.reads(A[vi // 32, vi % 32])
            T.writes(B[vi])
            B[vi] = A[vi // 32, vi % 32]
