from tvm.script import tir as T


@T.prim_func
def smooth(a: T.handle, b: T.handle):
    A = T.match_buffer(a, (16,), "float32")  # the input, read twice per point
    B = T.match_buffer(b, (16,), "float32")
    with T.block("root"):
        acc = T.alloc_buffer((16,))  # partial sums, never written back
        for i in range(15):
            with T.block("acc"):
                vi = T.axis.spatial(15, i)
                acc[vi] = A[vi]+A[vi + 1]
        for i in range(15):
            with T.block("B"):
                vi = T.axis.spatial(15, i)
                B[vi] = acc[vi]*T.float32(0.5)
# output
from tvm.script import tir as T


@T.prim_func
def smooth(a: T.handle, b: T.handle):
    A = T.match_buffer(a, (16,), "float32")  # the input, read twice per point
    B = T.match_buffer(b, (16,), "float32")
    with T.block("root"):
        acc = T.alloc_buffer((16,))  # partial sums, never written back
        for i in range(15):
            with T.block("acc"):
                vi = T.axis.spatial(15, i)
                acc[vi] = A[vi] + A[vi + 1]
        for i in range(15):
            with T.block("B"):
                vi = T.axis.spatial(15, i)
                B[vi] = acc[vi] * T.float32(0.5)
