# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def silu(A: T.Buffer((256,), "float32"), S: T.Buffer((256,), "float32"), B: T.Buffer((256,), "float32")):
    # with T.sblock("root"):
    for i in range(256):
        with T.sblock("silu"):
            vi = T.axis.spatial(256, i)
            T.reads(A[vi], S[vi])
            T.writes(S[vi], B[vi])
            S[vi] = T.sigmoid(A[vi])
            B[vi] = A[vi] * S[vi]
