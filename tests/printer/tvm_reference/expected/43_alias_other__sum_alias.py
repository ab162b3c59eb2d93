# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def sum_alias(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8,), "float32")):
    # with T.sblock("root"):
    for i, k in T.grid(8, 8):
        with T.sblock("sum"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(A[vi, vk])
            T.writes(B[vi])
            with T.init():
                B[vi] = T.float32(0.0)
            B[vi] = B[vi] + A[vi, vk]
