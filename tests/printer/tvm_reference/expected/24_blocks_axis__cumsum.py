# from tvm.script import tirx as T

@T.prim_func(s_tir=True)
def cumsum(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    # with T.sblock("root"):
    with T.sblock("init"):
        T.reads(A[0])
        T.writes(B[0])
        B[0] = A[0]
    for i in range(63):
        with T.sblock("scan"):
            vi = T.axis.scan(64, i + 1)
            T.reads(B[vi - 1], A[vi])
            T.writes(B[vi])
            B[vi] = B[vi - 1] + A[vi]
