# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def axis_ranges(A: T.Buffer((32, 32), "float32"), B: T.Buffer((16,), "float32")):
    # with T.sblock("root"):
    for i, k in T.grid(16, 16):
        with T.sblock("sub_sum"):
            vi = T.axis.spatial((8, 24), i + 8)
            vk = T.axis.reduce((16, 32), k + 16)
            T.reads(A[vi, vk])
            T.writes(B[vi - 8])
            with T.init():
                B[vi - 8] = T.float32(0.0)
            B[vi - 8] = B[vi - 8] + A[vi, vk]
