# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def split_sblock(A: T.Buffer((10,), "float32")):
    # with T.sblock("root"):
    for io, ii in T.grid(3, 4):
        with T.sblock("A"):
            vi = T.axis.spatial(10, io * 4 + ii)
            T.where(io * 4 + ii < 10)
            T.reads()
            T.writes(A[vi])
            A[vi] = T.if_then_else(vi % 2 == 0, T.float32(2.0), T.float32(3.0))
