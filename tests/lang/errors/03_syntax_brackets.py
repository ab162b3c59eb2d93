# Bracket errors: a mismatched closing bracket and a stray closing parenthesis.
from tvm.script import tir as T


# '{' closed by ')'
@T.prim_func
def mismatched(A: T.Buffer((4,), "float32")):
    T.func_attr({"global_symbol": "mismatched")  # error: does not match
#                                             ^
    A[0] = T.float32(0)


# one ')' too many
@T.prim_func
def stray_paren(A: T.Buffer((4,), "float32")):
    A[0] = T.max(A[1], T.float32(0)))  # error: unmatched ')'
#                                   ^
