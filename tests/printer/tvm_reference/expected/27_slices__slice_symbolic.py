# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def slice_symbolic(A: T.Buffer(("n", 4), "float32"), B: T.Buffer((4,), "float32")):
    n = T.int32()
    # with T.sblock("root"):
    for i in range(4):
        with T.sblock("col"):
            vi = T.axis.spatial(4, i)
            T.reads(A[0:n, vi])
            T.writes(B[vi])
            B[vi] = T.float32(0.0)
            for k in range(n):
                B[vi] = B[vi] + A[k, vi]
