# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def transpose(A: T.Buffer((128, 64), "float32"), B: T.Buffer((64, 128), "float32")):
    # with T.sblock("root"):
    for i, j in T.grid(64, 128):
        with T.sblock("T"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vj, vi])
            T.writes(B[vi, vj])
            B[vi, vj] = A[vj, vi]
