# from tvm.script import tirx as T

@T.prim_func
def let_legacy(A: T.Buffer((8,), "int32")):
    x: T.int32 = 3
    y = T.int32()
    A[x] = T.Let(y * 2, where={y: 4})
