# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def two_stage(A: T.Buffer((128,), "float32"), C: T.Buffer((128,), "float32")):
    # with T.sblock("root"):
    B = T.sblock_alloc_buffer((128,))
    for i in range(128):
        with T.sblock("B"):
            vi = T.axis.spatial(128, i)
            T.reads(A[vi])
            T.writes(B[vi])
            B[vi] = A[vi] * T.float32(2.0)
    for i in range(128):
        with T.sblock("C"):
            vi = T.axis.spatial(128, i)
            T.reads(B[vi])
            T.writes(C[vi])
            C[vi] = B[vi] + T.float32(1.0)
