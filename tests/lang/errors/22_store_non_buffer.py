# Subscript stores and loads on things that are not buffers.
from tvm.script import tir as T


# indexing a scalar parameter
@T.prim_func
def store_scalar(A: T.Buffer((4,), "int32"), n: T.int32):
    n[0] = 1  # error: 'n' is not a buffer
#   ^
    A[0] = n


# loading from a loop variable
@T.prim_func
def load_loop_var(A: T.Buffer((4,), "int32")):
    for i in range(4):
        A[i] = i[0]  # error: 'i' is not a buffer
#              ^
