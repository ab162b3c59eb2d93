# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def sum_sq(A: T.Buffer((8, 100), "float32"), B: T.Buffer((8,), "float64")):
    # with T.sblock("root"):
    for i, k in T.grid(8, 100):
        with T.sblock("sumsq"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(A[vi, vk])
            T.writes(B[vi])
            with T.init():
                B[vi] = T.float64(0.0)
            B[vi] = B[vi] + T.Cast("float64", A[vi, vk] * A[vi, vk])
