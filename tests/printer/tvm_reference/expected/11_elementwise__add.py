# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def add(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32"), C: T.Buffer((1024,), "float32")):
    # with T.sblock("root"):
    for i in range(1024):
        with T.sblock("C"):
            vi = T.axis.spatial(1024, i)
            T.reads(A[vi], B[vi])
            T.writes(C[vi])
            C[vi] = A[vi] + B[vi]
