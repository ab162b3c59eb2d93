from tvm.script import tir as T


@T.prim_func
def f(n: T.int32):
    a = b = T.decl_buffer([n], "int64")
    a[0] = T.int64(1)
