# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def quantize(A: T.Buffer((64,), "float32"), H: T.Buffer((64,), "float16"), Q: T.Buffer((64,), "int8")):
    # with T.sblock("root"):
    for i in range(64):
        with T.sblock("q"):
            vi = T.axis.spatial(64, i)
            T.reads(A[vi])
            T.writes(H[vi], Q[vi])
            H[vi] = T.Cast("float16", A[vi])
            Q[vi] = T.Cast("int8", T.max(T.min(T.round(A[vi] * T.float32(16.0)), T.float32(127.0)), T.float32(-128.0)))
