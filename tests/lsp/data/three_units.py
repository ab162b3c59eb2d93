from tvm.script import tir as T


@T.prim_func
def ok(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in T.serial(16):
        B[i] = T.exp(A[i])


@T.prim_func
def bad_name(A: T.Buffer((16,), "float32")):
    for i in T.vectorize(16):
        A[i] = T.float32(0)


@T.prim_func
def bad_var(A: T.Buffer((16,), "int32")):
    for i in range(16):
        T.evaluate(T.call_extern("int32", "f𝛼", jj))
