# from tvm.script import tirx as T

@T.prim_func
def fq_func(A: T.Buffer((8,), "float32")):
    for i in range(8):
        A[i] = T.float32(0.0)
