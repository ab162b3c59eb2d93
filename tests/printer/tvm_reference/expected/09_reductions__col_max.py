# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def col_max(A: T.Buffer((64, 32), "float32"), B: T.Buffer((32,), "float32")):
    # with T.sblock("root"):
    for j, k in T.grid(32, 64):
        with T.sblock("max"):
            vj, vk = T.axis.remap("SR", [j, k])
            T.reads(A[vk, vj])
            T.writes(B[vj])
            with T.init():
                B[vj] = T.float32(-340282346638528859811704183484516925440.0)
            B[vj] = T.max(B[vj], A[vk, vj])
