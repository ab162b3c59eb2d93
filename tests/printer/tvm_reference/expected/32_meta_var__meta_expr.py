# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def meta_expr(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16, 16), "float32")):
    # with T.sblock("root"):
    for i, j in T.grid(16, 16):
        with T.sblock("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, T.min(vj, 15 - vj):T.min(vj, 15 - vj) + (T.max(vj, 15 - vj) + 1 - T.min(vj, 15 - vj))])
            T.writes(B[vi, vj])
            B[vi, vj] = A[vi, vj] * T.float32(2.0) - A[vi, 15 - vj]
