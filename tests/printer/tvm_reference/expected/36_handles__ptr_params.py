# from tvm.script import tirx as T

@T.prim_func
def ptr_params(a: T.handle("float32", "global"), b: T.handle("float32", "global"), n: T.int32):
    A = T.decl_buffer((n,), data=a)
    B = T.decl_buffer((n,), data=b)
    for i in range(n):
        B[i] = A[i] + T.float32(1.0)
