# from tvm.script import tirx as T

@T.prim_func
def let_expr(A: T.Buffer((8,), "int32"), k: T.int32):
    y = T.int32()
    A[0] = T.Let(y * y + 1, where={y: k + 2})
