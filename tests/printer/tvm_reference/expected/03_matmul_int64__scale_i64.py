# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def scale_i64(A: T.Buffer(("n",), "float32"), B: T.Buffer((n,), "float32"), n: T.int64):
    # with T.sblock("root"):
    for i in range(n):
        with T.sblock("scale"):
            vi = T.axis.spatial(n, i)
            T.reads(A[vi])
            T.writes(B[vi])
            B[vi] = A[vi] * T.float32(0.5)
