# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def region_slices(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
    # with T.sblock("root"):
    for i in range(16):
        with T.sblock("row_sum"):
            vi = T.axis.spatial(16, i)
            T.reads(A[vi, 0:16])
            T.writes(B[vi])
            B[vi] = T.float32(0.0)
            for k in range(16):
                B[vi] = B[vi] + A[vi, k]
