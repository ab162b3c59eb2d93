# from tvm.script import tirx as T

@T.prim_func
def match_buffer_kw(A: T.Buffer((4, 4), "int32")):
    for i, j in T.grid(4, 4):
        A[i, j] = i + j
