# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def gelu(A: T.Buffer((4096,), "float32"), B: T.Buffer((4096,), "float32")):
    # with T.sblock("root"):
    for i in range(4096):
        with T.sblock("gelu"):
            vi = T.axis.spatial(4096, i)
            T.reads(A[vi])
            T.writes(B[vi])
            B[vi] = T.float32(0.5) * A[vi] * (T.float32(1.0) + T.tanh(T.float32(0.79788456080000003) * (A[vi] + T.float32(0.044714999999999998) * A[vi] * A[vi] * A[vi])))
