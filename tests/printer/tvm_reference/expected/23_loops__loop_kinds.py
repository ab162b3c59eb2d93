# from tvm.script import tirx as T

@T.prim_func
def loop_kinds(A: T.Buffer((8, 8, 8, 8), "float32")):
    for i in range(8):
        for j in T.parallel(8):
            for k in T.unroll(8):
                for l in T.vectorized(8):
                    A[i, j, k, l] = T.float32(1.0)
