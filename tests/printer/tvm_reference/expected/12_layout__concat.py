# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def concat(A0: T.Buffer((10,), "float32"), A1: T.Buffer((10,), "float32"), A2: T.Buffer((10,), "float32"), B: T.Buffer((30,), "float32")):
    # with T.sblock("root"):
    for i in range(10):
        with T.sblock("B0"):
            vi = T.axis.spatial(10, i)
            T.reads(A0[vi])
            T.writes(B[vi])
            B[vi] = A0[vi]
    for i in range(10):
        with T.sblock("B1"):
            vi = T.axis.spatial(10, i)
            T.reads(A1[vi])
            T.writes(B[vi + 10])
            B[vi + 10] = A1[vi]
    for i in range(10):
        with T.sblock("B2"):
            vi = T.axis.spatial(10, i)
            T.reads(A2[vi])
            T.writes(B[vi + 20])
            B[vi + 20] = A2[vi]
