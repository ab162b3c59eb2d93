# from tvm.script import tirx as T

@T.prim_func
def commented_blank_lines(A: T.Buffer((4,), "float32")):
    A[0] = T.float32(0.0)
    A[1] = T.float32(1.0)
