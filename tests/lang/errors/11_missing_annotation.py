# Parameters without a type annotation.
from tvm.script import tir as T


# one annotated and one bare parameter
@T.prim_func
def bare_param(A: T.Buffer((4,), "float32"), n):  # error: parameter 'n' has no type annotation
#                                            ^
    A[0] = T.float32(0)


# all parameters bare (seed 000 style without ty.handle)
@T.prim_func
def all_bare(a, b):  # error: parameter 'a' has no type annotation  # error: parameter 'b' has no type annotation
#            ^
#               ^
    T.evaluate(0)
