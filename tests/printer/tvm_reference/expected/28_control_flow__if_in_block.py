# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def if_in_block(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32")):
    # with T.sblock("root"):
    for i in range(32):
        with T.sblock("B"):
            vi = T.axis.spatial(32, i)
            T.reads(A[vi])
            T.writes(B[vi])
            if vi % 2 == 0:
                B[vi] = A[vi]
            else:
                B[vi] = T.if_then_else(A[vi] > T.float32(0.0), A[vi], T.float32(0.0))
