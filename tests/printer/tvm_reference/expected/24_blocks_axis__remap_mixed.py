# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def remap_mixed(A: T.Buffer((4, 8, 16), "float32"), B: T.Buffer((4, 16), "float32")):
    # with T.sblock("root"):
    for i, k, j in T.grid(4, 8, 16):
        with T.sblock(""):
            vi, vk, vj = T.axis.remap("SRS", [i, k, j])
            T.reads(A[vi, vk, vj])
            T.writes(B[vi, vj])
            with T.init():
                B[vi, vj] = T.float32(0.0)
            B[vi, vj] = B[vi, vj] + A[vi, vk, vj]
