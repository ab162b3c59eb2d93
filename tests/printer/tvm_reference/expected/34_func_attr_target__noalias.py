# from tvm.script import tirx as T

@T.prim_func
def noalias(A: T.Buffer((4,), "float32")):
    T.func_attr({"tir.noalias": True})
    A[0] = T.float32(0.0)
