# from tvm.script import tirx as T

@T.prim_func
def t_assert(A: T.Buffer((16,), "int32"), k: T.int32):
    assert k < 16, ("RuntimeError", ["k out of range"])
    assert k >= 0, ("RuntimeError", ["k must be non-negative"])
    A[k] = 1
    A[0] = k
