# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def tt_kernel(A: T.Buffer((8, 8), "int32")):
    # with T.sblock("root"):
    for i, j in T.grid(8, 8):
        with T.sblock("A"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads()
            T.writes(A[vi, vj])
            A[vi, vj] = T.max(vi, vj)
