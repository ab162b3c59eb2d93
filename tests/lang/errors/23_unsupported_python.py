# Python statements that have no TVMScript meaning.
from tvm.script import tir as T


# an import inside a prim_func
@T.prim_func
def has_import(A: T.Buffer((4,), "float32")):
    import math  # error: not supported in TVMScript
#   ^^^^^^^^^^^
    A[0] = T.float32(0)


# a nested function definition
@T.prim_func
def has_nested_def(A: T.Buffer((4,), "float32")):
    def inner(x):  # error: not supported in TVMScript
#   ^^^
        return x
    A[0] = T.float32(0)


# a try statement
@T.prim_func
def has_try(A: T.Buffer((4,), "float32")):
    try:  # error: not supported in TVMScript
#   ^^^
        A[0] = T.float32(0)
    except Exception:
        pass
