# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def nested_blocks(A: T.Buffer((8, 8), "float32")):
    # with T.sblock("root"):
    for i in range(8):
        with T.sblock("outer"):
            vi = T.axis.spatial(8, i)
            T.reads()
            T.writes(A[vi, 0:8])
            for j in range(8):
                with T.sblock("inner"):
                    vj = T.axis.spatial(8, j)
                    T.reads()
                    T.writes(A[vi, vj])
                    A[vi, vj] = T.float32(0.0)
            with T.sblock("tail"):
                T.reads()
                T.writes(A[vi, 7])
                A[vi, 7] = T.float32(1.0)
