# from tvm.script import tirx as T

@T.prim_func
def let_tuple(A: T.Buffer((4,), "int32"), n: T.int32):
    lo: T.int32 = n - 1
    hi: T.int32 = n + 1
    A[0] = lo * hi
