# `with` on something that is not a scope handler.
from tvm.script import tir as T


# a dtype constructor used as a context manager
@T.prim_func
def with_value(A: T.Buffer((4,), "float32")):
    with T.float32(1):  # error: is not a scope handler
#        ^^^^^^^^^^^^
        A[0] = T.float32(0)


# an intrinsic used as a context manager
@T.prim_func
def with_intrin(A: T.Buffer((4,), "float32")):
    with T.exp(A[0]) as e:  # error: is not a scope handler
#        ^^^^^^^^^^^
        A[1] = e
