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


# a chained assignment, refused as TVM's parser refuses it (found by mutation fuzzing: with a
# scoped statement's frame as the value, the frame was entered twice, its exit closed itself
# without end and tirc crashed with a segmentation fault)
@T.prim_func
def chained_assignment(n: T.int32):
    a = b = T.decl_buffer([n], "int64")  # error: Consequential assignments like 'a = b = c' are not supported.
#   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    T.evaluate(0)
