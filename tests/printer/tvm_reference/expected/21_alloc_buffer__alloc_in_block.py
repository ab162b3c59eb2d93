# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def alloc_in_block(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
    # with T.sblock("root"):
    for i in range(16):
        with T.sblock("outer"):
            vi = T.axis.spatial(16, i)
            T.reads(A[vi, 0:16])
            T.writes(B[vi])
            tmp = T.sblock_alloc_buffer((16,), scope="local")
            for j in range(16):
                with T.sblock("tmp"):
                    vj = T.axis.spatial(16, j)
                    T.reads(A[vi, vj])
                    T.writes(tmp[vj])
                    tmp[vj] = A[vi, vj] * A[vi, vj]
            for j in range(16):
                with T.sblock("acc"):
                    vj = T.axis.reduce(16, j)
                    T.reads(tmp[vj])
                    T.writes(B[vi])
                    with T.init():
                        B[vi] = T.float32(0.0)
                    B[vi] = B[vi] + tmp[vj]
