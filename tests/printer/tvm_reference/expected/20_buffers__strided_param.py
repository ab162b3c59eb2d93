# from tvm.script import tirx as T

@T.prim_func
def strided_param(A_1: T.Buffer((8, 8), "float32", strides=(16, 1)), B: T.Buffer((8,), "float32")):
    for i in range(8):
        B[i] = A_1[i, i]
