# from tvm.script import tirx as T

@T.prim_func
def prefix_len(A: T.Buffer((1024,), "int32"), length: T.int32):
    for i in range(length):
        A[i] = i
