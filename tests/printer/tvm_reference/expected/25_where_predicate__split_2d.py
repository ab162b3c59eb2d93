# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def split_2d(A: T.Buffer((100, 50), "float32"), B: T.Buffer((100, 50), "float32")):
    # with T.sblock("root"):
    for io, jo, ii, ji in T.grid(4, 2, 32, 32):
        with T.sblock("B"):
            vi = T.axis.spatial(100, io * 32 + ii)
            vj = T.axis.spatial(50, jo * 32 + ji)
            T.where(io * 32 + ii < 100 and jo * 32 + ji < 50)
            T.reads(A[vi, vj])
            T.writes(B[vi, vj])
            B[vi, vj] = A[vi, vj] + T.float32(1.0)
