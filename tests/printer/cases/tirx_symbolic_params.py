# flags: dialect=tirx
@T.prim_func
def scale(a: T.handle, b: T.handle, n: T.int32):
    m = T.int32()
    A = T.match_buffer(a, (n, m))
    B = T.match_buffer(b, (n, m * 2))
    for i, j in T.grid(n, m):
        B[i, j * 2] = A[i, j]
# output
# from tvm.script import tirx as T

@T.prim_func
def scale(A: T.Buffer(("n", "m"), "float32"), B: T.Buffer((n, m * 2), "float32"), n: T.int32):
    m = T.int32()
    for i, j in T.grid(n, m):
        B[i, j * 2] = A[i, j]
