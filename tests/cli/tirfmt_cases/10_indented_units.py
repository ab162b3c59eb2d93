from tvm.script import tir as T


class Kernels:
    @T.prim_func
    def zero(A: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = T.float32( 0 )


def build():
    @T.prim_func
    def one(A: T.Buffer((8,), "float32")):
        for i in range(0, 8):
            A[i] = T.float32(1)

    return one
# output
from tvm.script import tir as T


class Kernels:
    @T.prim_func
    def zero(A: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = T.float32(0)


def build():
    @T.prim_func
    def one(A: T.Buffer((8,), "float32")):
        for i in range(0, 8):
            A[i] = T.float32(1)

    return one
