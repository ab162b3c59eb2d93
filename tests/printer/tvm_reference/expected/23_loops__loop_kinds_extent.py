# from tvm.script import tirx as T

@T.prim_func
def loop_kinds_extent(A: T.Buffer((4, 4, 4), "float32")):
    for i in range(4):
        for j in T.parallel(4):
            for k in T.vectorized(4):
                A[i, j, k] = T.float32(0.0)
    for i in T.unroll(4):
        A[i, 0, 0] = T.float32(1.0)
