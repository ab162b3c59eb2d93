from tvm.script import tir as T


# a CRLF file
@T.prim_func
def crlf(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = A[i]*T.float32(2)  # doubled


value = 1
# output
from tvm.script import tir as T


# a CRLF file
@T.prim_func
def crlf(A: T.Buffer((4,), "float32")):
    for i in range(4):
        A[i] = A[i] * T.float32(2)  # doubled


value = 1
