# Several syntax errors in one unit; each must be reported, and the next unit still parses.
from tvm.script import tir as T


# missing colon, '=' in a condition, doubled '='
@T.prim_func
def broken(A: T.Buffer((16,), "float32")):
    for i in range(16)  # error: expected ':'
#                     ^
        A[i] = T.float32(0)
    if A[0] = T.float32(1):  # error: unexpected '='
#           ^
        A[1] = T.float32(2)
    A[2] = = T.float32(3)  # error: unexpected '='
#          ^


# a well-formed unit after the broken one: no diagnostics expected here
@T.prim_func
def fine(A: T.Buffer((16,), "float32")):
    for i in range(16):
        A[i] = T.float32(1)
