# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def axis_constant_binding(A: T.Buffer((1, 16), "float32")):
    # with T.sblock("root"):
    for j in range(16):
        with T.sblock("row0"):
            v0 = T.axis.spatial(1, 0)
            v1 = T.axis.spatial(16, j)
            T.reads()
            T.writes(A[v0, v1])
            A[v0, v1] = T.float32(2.0)
