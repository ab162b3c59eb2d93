# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def split_reduce(A: T.Buffer((10, 30), "float32"), B: T.Buffer((10,), "float32")):
    # with T.sblock("root"):
    for i, ko, ki in T.grid(10, 4, 8):
        with T.sblock("B"):
            vi = T.axis.spatial(10, i)
            vk = T.axis.reduce(30, ko * 8 + ki)
            T.where(T.likely(ko * 8 + ki < 30))
            T.reads(A[vi, vk])
            T.writes(B[vi])
            with T.init():
                B[vi] = T.float32(0.0)
            B[vi] = B[vi] + A[vi, vk]
