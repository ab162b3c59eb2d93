# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def upsample_dyn(A: T.Buffer(("n",), "float32"), B: T.Buffer((n * 2,), "float32")):
    n = T.int32()
    # with T.sblock("root"):
    for i in range(n * 2):
        with T.sblock("up"):
            vi = T.axis.spatial(n * 2, i)
            T.reads(A[vi // 2])
            T.writes(B[vi])
            B[vi] = A[vi // 2]
