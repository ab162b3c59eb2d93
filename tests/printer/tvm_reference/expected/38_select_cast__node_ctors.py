# from tvm.script import tirx as T

@T.prim_func
def node_ctors(A: T.Buffer((8,), "int32"), M: T.Buffer((8,), "bool")):
    for i in range(8):
        A[i] = i * 2 + i // 3 + T.min(i, 4) + (i - 1) + i % 5
        M[i] = i % 2 == 0 and not i < 2
