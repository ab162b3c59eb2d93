# Indentation errors: an unexpected indent and a missing indented block.
from tvm.script import tir as T


# unexpected indent in the middle of a body
@T.prim_func
def bad_indent(A: T.Buffer((4,), "float32")):
    A[0] = T.float32(0)
        A[1] = T.float32(1)  # error: unexpected indent
#       ^^^^


# an if with an empty body
@T.prim_func
def empty_if(A: T.Buffer((4,), "float32")):
    if A[0] > T.float32(0):
    A[1] = T.float32(1)  # error: expected an indented block
#   ^^^^
