# More syntax errors: a keyword used as a name, an unterminated string, a lone operator.
from tvm.script import tir as T


# 'lambda' is a keyword and cannot be assigned
@T.prim_func
def keyword_target(A: T.Buffer((4,), "float32")):
    lambda = T.float32(1)  # error: unexpected '='
#          ^
    A[0] = T.float32(0)


# an unterminated string literal in a func_attr
@T.prim_func
def open_string(A: T.Buffer((4,), "float32")):
    T.func_attr({"global_symbol": "open_string})  # error: unterminated string
#                                 ^^^^^^^^^^^^^^
    A[0] = T.float32(0)


# a binary operator with no right operand
@T.prim_func
def dangling_op(A: T.Buffer((4,), "float32")):
    A[0] = A[1] *  # error: unexpected end of line
#                ^
