from tvm.script import tir as T


def make(n):
    @T.prim_func
    def fill(A: T.Buffer((n,), "float32")):
        for i in range(n):
            A[i]=T.float32(0)

    return fill


@T.prim_func
def fixed(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i]=T.float32(0)
# output
from tvm.script import tir as T


def make(n):
    @T.prim_func
    def fill(A: T.Buffer((n,), "float32")):
        for i in range(n):
            A[i]=T.float32(0)

    return fill


@T.prim_func
def fixed(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = T.float32(0)
