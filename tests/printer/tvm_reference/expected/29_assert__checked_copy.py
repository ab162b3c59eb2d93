# from tvm.script import tirx as T

@T.prim_func
def checked_copy(A: T.Buffer(("n",), "float32"), B: T.Buffer((n,), "float32"), n: T.int32):
    assert n > 0, ("RuntimeError", ["n must be positive"])
    assert n % 4 == 0, ("RuntimeError", ["n must be a multiple of 4"])
    for i in range(n):
        B[i] = A[i]
