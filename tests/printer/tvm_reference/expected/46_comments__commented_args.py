# from tvm.script import tirx as T

@T.prim_func
def commented_args(A: T.Buffer((8,), "float32")):
    T.func_attr({"tir.noalias": True})
    for i in range(8):
        A[i] = T.if_then_else(i < 4, T.float32(1.0), T.float32(2.0))
