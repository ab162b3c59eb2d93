# flags: dialect=tirx
from tvm.script import tirx as T


@T.prim_func
def steps(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32"), n: T.int32):
    for i in range(1, 128, 5):
        B[i] = A[i] + T.float32(1.0)
    for j in T.serial(0, 127, step=-3):
        B[j] = T.float32(1.0)
    for m in T.parallel(3, 100, step=n):
        B[m] = T.float32(3.0)
    for a, b in T.grid(4, 4):
        for c in range(0, 8, 2):
            B[a * 32 + b * 8 + c] = T.float32(4.0)
    for x in T.unroll(0, 16, step=4, annotations={"k": 1}):
        B[x] = T.float32(5.0)
    for y in T.vectorized(4, step=2):
        B[y] = T.float32(6.0)
# output
# from tvm.script import tirx as T

@T.prim_func
def steps(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32"), n: T.int32):
    for i in range(1, 128, 5):
        B[i] = A[i] + T.float32(1.0)
    for j in range(0, 127, -3):
        B[j] = T.float32(1.0)
    for m in T.parallel(3, 100, step=n):
        B[m] = T.float32(3.0)
    for a, b in T.grid(4, 4):
        for c in range(0, 8, 2):
            B[a * 32 + b * 8 + c] = T.float32(4.0)
    for x in T.unroll(0, 16, annotations={"k": 1}, step=4):
        B[x] = T.float32(5.0)
    for y in T.vectorized(0, 4, step=2):
        B[y] = T.float32(6.0)
