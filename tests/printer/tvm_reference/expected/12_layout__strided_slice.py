# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def strided_slice(A: T.Buffer((16, 8), "float32"), B: T.Buffer((8, 8), "float32")):
    # with T.sblock("root"):
    for i, j in T.grid(8, 8):
        with T.sblock("slice"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi * 2 + 1, vj])
            T.writes(B[vi, vj])
            B[vi, vj] = A[vi * 2 + 1, vj]
