# Wrong arguments to T functions: unknown keyword, missing argument, too many arguments.
from tvm.script import tir as T


# a misspelled keyword argument
@T.prim_func
def bad_keyword(a: T.handle):
    A = T.match_buffer(a, (4,), dtyp="float32")  # error: did you mean 'dtype'
#                               ^^^^
    A[0] = T.float32(0)


# T.evaluate with no argument
@T.prim_func
def missing_arg(A: T.Buffer((4,), "float32")):
    T.evaluate()  # error: missing 1 required argument
#   ^^^^^^^^^^^^
    A[0] = T.float32(0)


# range with four arguments
@T.prim_func
def too_many_args(A: T.Buffer((4,), "float32")):
    for i in range(0, 4, 1, 1):  # error: range expected at most 3 arguments, got 4
#            ^^^^^^^^^^^^^^^^^
        A[i] = T.float32(0)


# T.axis.spatial without its binding
@T.prim_func
def axis_no_binding(A: T.Buffer((4,), "float32")):
    for i in range(4):
        with T.block("A"):
            vi = T.axis.spatial(4)  # error: missing 1 required argument: 'binding'
#                ^^^^^^^^^^^^^^^^^
            A[vi] = T.float32(0)
