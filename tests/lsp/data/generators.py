from tvm.script import tir as T


@T.macro
def add_one(X, i):
    X[i] = X[i] + T.float32(1)


@T.prim_func
def gen(A: T.Buffer((16,), "float32"), C: T.Buffer((4, 4), "float32")):
    for i in range(16):
        add_one(A, i)
    B = T.compute((4, 4), lambda i, j: C[i, j] * T.float32(2), name="B")
    for k in range(0, 16, 4):
        A[k] = T.float32(0)
