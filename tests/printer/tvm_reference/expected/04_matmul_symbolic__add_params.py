# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def add_params(n: T.int32, m: T.int32, A_1: T.Buffer((n, m), "float32"), B_1: T.Buffer((n, m), "float32")):
    # with T.sblock("root"):
    for i, j in T.grid(n, m):
        with T.sblock("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A_1[vi, vj])
            T.writes(B_1[vi, vj])
            B_1[vi, vj] = A_1[vi, vj] + T.float32(1.0)
