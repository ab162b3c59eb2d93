# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def total_min(A: T.Buffer((16, 16), "int32"), B: T.Buffer((1,), "int32")):
    # with T.sblock("root"):
    for i, j in T.grid(16, 16):
        with T.sblock("min"):
            vi, vj = T.axis.remap("RR", [i, j])
            T.reads(A[vi, vj])
            T.writes(B[0])
            with T.init():
                B[0] = 2147483647
            B[0] = T.min(B[0], A[vi, vj])
