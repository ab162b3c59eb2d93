# T.reads / T.writes misuse: a non-region argument, a duplicated declaration.
from tvm.script import tir as T


# T.reads of a scalar expression
@T.prim_func
def reads_scalar(A: T.Buffer((4,), "float32"), n: T.int32):
    for i in range(4):
        with T.block("A"):
            vi = T.axis.spatial(4, i)
            T.reads(n + 1)  # error: expected a buffer region
#                   ^^^^^
            T.writes(A[vi])
            A[vi] = T.float32(0)


# T.writes declared twice in one block
@T.prim_func
def writes_twice(A: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.block("A"):
            vi = T.axis.spatial(4, i)
            T.writes(A[vi])
            T.writes(A[0:4])  # error: duplicate T.writes
#           ^^^^^^^^^^^^^^^^
            A[vi] = T.float32(0)
